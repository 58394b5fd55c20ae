/// A request target taken apart once, before anything touches the disk.
///
/// The path is split on `/` first and each segment is then percent-decoded
/// exactly once, so `%2F` can never act as a separator and `%252e%252e`
/// stays the literal name `%2e%2e`. Anything that could walk out of the site
/// folder or confuse a file system (`.` and `..`, backslashes, control bytes,
/// malformed escapes, invalid UTF-8) is refused here rather than cleaned up.
struct RequestTarget: Hashable, Sendable {
  /// Why a target was refused. `tooLong` earns a 414, the rest a 400.
  enum Problem: Error, Hashable, Sendable {
    case tooLong
    case notOriginForm
    case malformedEscape
    case notUTF8
    case controlCharacter
    case backslash
    case encodedSlash
    case dotSegment
  }

  /// Decoded, non-empty path segments; `//` collapses.
  var segments: [String]
  /// Whether the path ended with `/` (a folder was asked for).
  var hasTrailingSlash: Bool
  /// The raw query, without `?`, if there was one.
  var query: String?

  init(segments: [String], hasTrailingSlash: Bool, query: String? = nil) {
    self.segments = segments
    self.hasTrailingSlash = hasTrailingSlash
    self.query = query
  }

  init(parsing target: String, maximumLength: Int = 4096) throws(Problem) {
    let bytes = Array(target.utf8)
    guard bytes.count <= maximumLength else { throw .tooLong }
    // Only origin-form (`/path?query`) is served; absolute-form and `*`
    // belong to proxies and OPTIONS.
    guard bytes.first == UInt8(ascii: "/") else { throw .notOriginForm }

    var pathEnd = bytes.endIndex
    if let mark = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
      pathEnd = mark
      if bytes[mark] == UInt8(ascii: "?") {
        let queryEnd = bytes[(mark + 1)...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        query = String(decoding: bytes[(mark + 1)..<queryEnd], as: UTF8.self)
      }
    }

    let rawSegments = bytes[..<pathEnd].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    hasTrailingSlash = rawSegments.last?.isEmpty ?? false
    segments = []
    for raw in rawSegments where !raw.isEmpty {
      segments.append(try Self.decode(raw))
    }
  }

  /// Percent-decodes one segment, once, and checks what it decodes to.
  private static func decode(_ raw: ArraySlice<UInt8>) throws(Problem) -> String {
    var decoded: [UInt8] = []
    decoded.reserveCapacity(raw.count)
    var index = raw.startIndex
    while index < raw.endIndex {
      let byte = raw[index]
      guard byte == UInt8(ascii: "%") else {
        decoded.append(byte)
        index += 1
        continue
      }
      guard index + 2 < raw.endIndex,
        let high = raw[index + 1].hexDigitValue, let low = raw[index + 2].hexDigitValue
      else { throw .malformedEscape }
      decoded.append(high << 4 | low)
      index += 3
    }
    for byte in decoded {
      if byte < 0x20 || byte == 0x7F { throw .controlCharacter }
      if byte == UInt8(ascii: "\\") { throw .backslash }
      if byte == UInt8(ascii: "/") { throw .encodedSlash }
    }
    guard let segment = String(validating: decoded, as: UTF8.self) else { throw .notUTF8 }
    if segment == "." || segment == ".." { throw .dotSegment }
    return segment
  }

  /// The path as a URL path again, each segment percent-encoded, for a
  /// `Location` header. Built from decoded segments so that a redirect can
  /// never become `//host` (an open redirect).
  static func encodedPath(_ segments: [String], trailingSlash: Bool) -> String {
    var path = "/" + segments.map(encode).joined(separator: "/")
    if trailingSlash && !segments.isEmpty { path += "/" }
    return path
  }

  private static func encode(_ segment: String) -> String {
    PercentEncoding.encode(segment) { PercentEncoding.isUnreserved($0) || subDelimiters.contains($0) }
  }

  /// What a path segment may hold unencoded besides the unreserved
  /// characters (RFC 3986 `pchar`).
  private static let subDelimiters = Set("!$&'()*+,;=:@".utf8)
}
