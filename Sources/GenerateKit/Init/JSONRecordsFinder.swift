import Foundation

/// Finds the arrays of objects in a JSON document — the candidates for its
/// records, and arrays of arrays under a header row of names (a sheet's
/// values) — with the build's own `JSONReader`, so a malformed document is
/// reported at its line and column exactly as a build would. An object
/// whose members are all objects of one shape (`{"3040051": {"name": …},
/// …}`, as exports keyed by id are written) is a candidate too: its
/// members are the records.
enum JSONRecordsFinder {
  struct Found: Equatable {
    /// Dotted keys from the root; nil for the root itself.
    var path: String?
    /// Elements that are objects.
    var objects: Int
    /// The records are an object's members, not an array's elements: the
    /// field names they hold, for a column to take the members' names.
    var memberFields: Set<String>? = nil

    /// A column for the members' names that no record holds already.
    var membersColumn: String? {
      guard let fields = memberFields else { return nil }
      let column = ["key", "id", "name", "code", "slug"].first { !fields.contains($0) }
      return column ?? (0...).lazy.map { "key\($0 + 2)" }.first { !fields.contains($0) }
    }
  }

  /// Records keyed by name share their fields: the most common one is in
  /// at least this share of them (a document's `{"meta": {…}, "data":
  /// {…}}` is not a table of two).
  static let sharedFieldShare = 0.8

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
  /// array of objects or object of records (the first of equals, in
  /// document order; an array before an object).
  static func best(_ arrays: [Found]) -> Found? {
    if let root = arrays.first(where: { $0.path == nil && $0.memberFields == nil }), root.objects > 0 {
      return root
    }
    var best: Found?
    for array in arrays where array.objects > (best?.objects ?? 0) {
      if array.memberFields != nil, let best, array.objects == best.objects { continue }
      best = array
    }
    return best
  }

  /// Walks one value; for an object, returns the names of its members.
  @discardableResult
  private static func walk(_ reader: inout JSONReader, path: [String], into found: inout [Found]) throws
    -> [String]?
  {
    reader.skipWhitespace()
    switch reader.peek() {
    case UInt8(ascii: "["):
      var objects = 0
      // A sheet's values: a header row of names, then rows (`JSONSource.headerRow`).
      var rows = 0
      var header = false
      if reader.open(closedBy: UInt8(ascii: "]")) {
        reader.skipWhitespace()
        var first = reader
        header = JSONSource.headerRow(&first) != nil
        repeat {
          reader.skipWhitespace()
          if reader.peek() == UInt8(ascii: "{") { objects += 1 }
          if reader.peek() == UInt8(ascii: "[") { rows += 1 }
          try reader.skipValue()
        } while try reader.another(closedBy: UInt8(ascii: "]"))
      }
      let records = header ? rows - 1 : objects
      found.append(Found(path: path.isEmpty ? nil : path.joined(separator: "."), objects: records))
    case UInt8(ascii: "{") where path.count < maximumDepth:
      guard reader.open(closedBy: UInt8(ascii: "}")) else { return [] }
      var names: [String] = []
      // Of the members that are objects, their own members' names.
      var shapes: [[String]] = []
      var others = 0
      repeat {
        let name = try reader.memberName()
        names.append(name)
        reader.skipWhitespace()
        let isObject = reader.peek() == UInt8(ascii: "{")
        // A key holding a dot cannot be written in a dotted path.
        if name.isEmpty || name.contains(".") {
          try reader.skipValue()
          others += 1
        } else if let fields = try walk(&reader, path: path + [name], into: &found), isObject {
          shapes.append(fields)
        } else {
          others += 1
        }
      } while try reader.another(closedBy: UInt8(ascii: "}"))
      if others == 0, let fields = recordFields(shapes) {
        found.append(
          Found(
            path: path.isEmpty ? nil : path.joined(separator: "."), objects: shapes.count,
            memberFields: fields))
      }
      return names
    default:
      try reader.skipValue()
    }
    return nil
  }

  /// The fields of objects that read as records of one table: two or more,
  /// the most common field in most of them. Nil otherwise.
  static func recordFields(_ shapes: [[String]]) -> Set<String>? {
    guard shapes.count >= 2 else { return nil }
    var counts: [String: Int] = [:]
    for shape in shapes {
      for field in Set(shape) { counts[field, default: 0] += 1 }
    }
    guard let most = counts.values.max(), Double(most) >= sharedFieldShare * Double(shapes.count) else {
      return nil
    }
    return Set(counts.keys)
  }
}
