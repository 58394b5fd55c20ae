/// The `Content-Type` a careful static host sends for a file name, and
/// whether the bytes are worth compressing.
struct MediaType: Hashable, Sendable {
  var name: String
  /// Text formats shrink a lot under gzip; images and fonts are already
  /// compressed and only lose time.
  var isCompressible: Bool

  static let octetStream = MediaType(name: "application/octet-stream", isCompressible: false)

  private static let byExtension: [String: MediaType] = [
    "html": MediaType(name: "text/html; charset=utf-8", isCompressible: true),
    "htm": MediaType(name: "text/html; charset=utf-8", isCompressible: true),
    "css": MediaType(name: "text/css; charset=utf-8", isCompressible: true),
    // `text/javascript` is the one registered type for JavaScript, classic
    // scripts and ES modules alike (RFC 9239); module scripts are refused
    // by browsers under any non-JavaScript type once `nosniff` is on.
    "js": MediaType(name: "text/javascript; charset=utf-8", isCompressible: true),
    "mjs": MediaType(name: "text/javascript; charset=utf-8", isCompressible: true),
    "json": MediaType(name: "application/json", isCompressible: true),
    "map": MediaType(name: "application/json", isCompressible: true),
    "webmanifest": MediaType(name: "application/manifest+json", isCompressible: true),
    "xml": MediaType(name: "application/xml", isCompressible: true),
    "txt": MediaType(name: "text/plain; charset=utf-8", isCompressible: true),
    "csv": MediaType(name: "text/csv; charset=utf-8", isCompressible: true),
    "svg": MediaType(name: "image/svg+xml", isCompressible: true),
    "png": MediaType(name: "image/png", isCompressible: false),
    "jpg": MediaType(name: "image/jpeg", isCompressible: false),
    "jpeg": MediaType(name: "image/jpeg", isCompressible: false),
    "gif": MediaType(name: "image/gif", isCompressible: false),
    "webp": MediaType(name: "image/webp", isCompressible: false),
    "avif": MediaType(name: "image/avif", isCompressible: false),
    "ico": MediaType(name: "image/x-icon", isCompressible: false),
    "woff2": MediaType(name: "font/woff2", isCompressible: false),
    "woff": MediaType(name: "font/woff", isCompressible: false),
    "wasm": MediaType(name: "application/wasm", isCompressible: false),
    "pdf": MediaType(name: "application/pdf", isCompressible: false),
  ]

  static func forFile(named name: String) -> MediaType {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .octetStream }
    let fileExtension = name[name.index(after: dot)...].lowercased()
    return byExtension[fileExtension] ?? .octetStream
  }
}
