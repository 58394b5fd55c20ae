import Foundation

/// Finds the arrays of objects in a JSON document — the candidates for its
/// records — with the build's own `JSONReader`, so a malformed document is
/// reported at its line and column exactly as a build would.
enum JSONRecordsFinder {
  struct Found: Equatable {
    /// Dotted keys from the root; nil for the root itself.
    var path: String?
    /// Elements that are objects.
    var objects: Int
  }

  /// How deep under the root arrays are looked for.
  static let maximumDepth = 8

  /// Reads the document with the build's checks (`DataFile`, through
  /// `ChunkedFile`): a regular file within the size limit, opened so that
  /// it cannot block.
  static func arrays(inFile path: String, _ named: DataFile.Named? = nil) throws -> [Found] {
    let named = named ?? DataFileReader.named(path)
    let bytes = try ChunkedFile(path: path, named, limit: SiteConfig.Limits().fileBytes).readAll()
    let shownPath = named.shownPath
    return try bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(bytes: buffer, file: shownPath)
      reader.skipWhitespace()
      if reader.atEnd { throw reader.failure("the JSON document is empty; it needs an array of records") }
      var found: [Found] = []
      try walk(&reader, path: [], into: &found)
      reader.skipWhitespace()
      if !reader.atEnd {
        throw reader.failure("malformed JSON: unexpected \(reader.describeNext()) after the document")
      }
      return found
    }
  }

  /// The records: the root array if it holds objects, else the largest
  /// array of objects (the first of equals, in document order).
  static func best(_ arrays: [Found]) -> Found? {
    if let root = arrays.first(where: { $0.path == nil }), root.objects > 0 { return root }
    var best: Found?
    for array in arrays where array.objects > (best?.objects ?? 0) { best = array }
    return best
  }

  private static func walk(_ reader: inout JSONReader, path: [String], into found: inout [Found]) throws {
    reader.skipWhitespace()
    switch reader.peek() {
    case UInt8(ascii: "["):
      var objects = 0
      if reader.open(closedBy: UInt8(ascii: "]")) {
        repeat {
          reader.skipWhitespace()
          if reader.peek() == UInt8(ascii: "{") { objects += 1 }
          try reader.skipValue()
        } while try reader.another(closedBy: UInt8(ascii: "]"))
      }
      found.append(Found(path: path.isEmpty ? nil : path.joined(separator: "."), objects: objects))
    case UInt8(ascii: "{") where path.count < maximumDepth:
      guard reader.open(closedBy: UInt8(ascii: "}")) else { return }
      repeat {
        let name = try reader.memberName()
        // A key holding a dot cannot be written in a dotted path.
        if name.isEmpty || name.contains(".") {
          try reader.skipValue()
        } else {
          try walk(&reader, path: path + [name], into: &found)
        }
      } while try reader.another(closedBy: UInt8(ascii: "}"))
    default:
      try reader.skipValue()
    }
  }
}
