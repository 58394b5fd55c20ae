import Hummingbird

extension MediaType {
  /// The `Content-Type` a careful static host sends for a file name:
  /// Hummingbird's table, `charset=utf-8` on text (the generator writes
  /// nothing else, and browsers otherwise guess), and the two types a site
  /// can hold that the table lacks.
  static func forFile(named name: String) -> MediaType {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .applicationBinary }
    let fileExtension = name[name.index(after: dot)...].lowercased()
    let type =
      getMediaType(forExtension: fileExtension) ?? missingFromHummingbird[fileExtension] ?? .applicationBinary
    return type.type == .text ? type.withParameter(name: "charset", value: "utf-8") : type
  }

  private static let missingFromHummingbird: [String: MediaType] = [
    "map": .applicationJson,
    "avif": MediaType(type: .image, subType: "avif"),
  ]

  /// Text formats shrink a lot under gzip; images, fonts and WebAssembly
  /// are already compact or compressed and only lose time.
  var isCompressible: Bool {
    type == .text || ["json", "ld+json", "manifest+json", "xml", "xhtml+xml", "svg+xml"].contains(subType)
  }
}
