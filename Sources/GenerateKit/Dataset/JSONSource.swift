import Foundation

/// Loads a table from JSON: a document holding an array of objects (at its
/// root, or at a dotted `path` of keys) — or an object whose members are
/// the records, their names kept in the column `members:` names — or JSON
/// Lines with one object per line. Objects may differ in their fields: the columns are every name
/// seen, in the order first seen, and a record without a field reads it as
/// empty, as null does — unless the config itself uses that column (the key,
/// a `refs` column), which is then an error at the record.
///
/// Two passes: the first gathers the column names, the second the values,
/// so no tree of a million objects is ever built. A document is read into
/// memory once; JSON Lines are streamed a chunk at a time, both passes.
enum JSONSource {
  /// What an array or a JSON Lines file holds at one place.
  enum Element {
    case record(JSONReader.Record)
    /// Not an object: where, and what it is ("a string").
    case other(SourceLocation, String)
    /// A record read for the list `split` names: what that list held.
    case parent([Element])
  }

  /// `skipping`: the lists child tables take (`itemsOf:`), left out.
  static func loadDocument(
    _ spec: SiteConfig.Table, path: String, _ named: DataFile.Named, at keyPath: SiteConfig.Located<String>?,
    skipping: Set<String> = [], limits: SiteConfig.Limits
  ) throws -> Table {
    let members = spec.members?.value
    let shownPath = named.shownPath
    let bytes = try ChunkedFile(path: path, named, limit: limits.fileBytes).readAll()
    return try bytes.withUnsafeBufferPointer { bytes in
      let each: ((Element) throws -> Void, Bool) throws -> Void = { body, values in
        try forEachElement(
          of: bytes, file: shownPath, keyPath: keyPath, members: members, values: values, skipping: skipping,
          body)
      }
      return try load(spec, shownPath: shownPath, limits: limits, each: each)
    }
  }

  static func loadLines(
    _ spec: SiteConfig.Table, path: String, _ named: DataFile.Named, skipping: Set<String> = [],
    limits: SiteConfig.Limits
  )
    throws -> Table
  {
    let shownPath = named.shownPath
    let each: ((Element) throws -> Void, Bool) throws -> Void = { body, values in
      let input = try ChunkedFile(path: path, named, limit: limits.fileBytes)
      try forEachLine(of: input, file: shownPath, values: values, skipping: skipping, body)
    }
    return try load(spec, shownPath: shownPath, limits: limits, each: each)
  }

  /// The child table `itemsOf:` names: the objects in the list `list` of
  /// each record of `parent`'s file, each with `reference` holding its
  /// parent's key (the row number where the parent has none). The file is
  /// read again, keeping only those objects.
  static func loadItems(
    _ spec: SiteConfig.Table, parent: Table, list: String, reference: String, source: SiteConfig.Table.Source,
    members: String?, path: String, _ named: DataFile.Named, limits: SiteConfig.Limits
  ) throws -> Table {
    let shownPath = named.shownPath
    var ordinal = 0
    func children(of element: Element, _ body: (Element) throws -> Void) throws {
      ordinal += 1
      // A parent that is not an object is the parent table's error.
      guard case .parent(let items) = element else { return }
      let key = ordinal <= parent.count ? parent.key(ofRow: ordinal - 1) : ""
      for item in items {
        switch item {
        case .record(var record):
          let field = JSONReader.Field(
            name: reference, value: key, line: record.line, column: record.column, nameLine: record.line,
            nameColumn: record.column)
          record.fields.insert(field, at: 0)
          try body(.record(record))
        case .other(let location, let kind):
          try body(.other(location, "\(kind) in '\(list)' of \(parent.name) record \(key)"))
        case .parent: break
        }
      }
    }
    switch source {
    case .jsonLines:
      return try load(spec, shownPath: shownPath, limits: limits) { body, values in
        let input = try ChunkedFile(path: path, named, limit: limits.fileBytes)
        ordinal = 0
        try forEachLine(of: input, file: shownPath, values: values, split: list) {
          try children(of: $0, body)
        }
      }
    case .json(_, let keyPath):
      let bytes = try ChunkedFile(path: path, named, limit: limits.fileBytes).readAll()
      return try bytes.withUnsafeBufferPointer { bytes in
        try load(spec, shownPath: shownPath, limits: limits) { body, values in
          ordinal = 0
          try forEachElement(
            of: bytes, file: shownPath, keyPath: keyPath, members: members, values: values, split: list
          ) {
            try children(of: $0, body)
          }
        }
      }
    default:
      throw DiagnosticsError(
        .error(
          at: spec.location,
          "table '\(spec.name)' takes the items of '\(parent.name)', which is not read from a JSON or JSON Lines file"
        ))
    }
  }

  /// Runs the two passes over the records `each` yields. Both cost time
  /// and memory in proportion to the fields present: a record is never
  /// widened to every column seen, so sparse records stay cheap.
  static func load(
    _ spec: SiteConfig.Table, shownPath: String, limits: SiteConfig.Limits,
    each: ((Element) throws -> Void, Bool) throws -> Void
  ) throws -> Table {
    var names: [String] = []
    var places: [SourceLocation?] = []
    var columnOf: [String: Int] = [:]
    // A column any record holds an array in is a list; a scalar elsewhere
    // in it is a list of one.
    var lists = Set<String>()
    var listsOfObjects = Set<String>()
    var arrays: [String: String] = [:]
    try each(
      { element in
        guard case .record(let record) = element else { return }
        // Records mostly repeat one order of fields: compare with that
        // before hashing.
        for (position, field) in record.fields.enumerated() {
          if field.isList {
            lists.insert(field.name)
            if field.ofObjects { listsOfObjects.insert(field.name) }
            if let array = field.array { arrays[field.name] = array }
          }
          if position < names.count && names[position] == field.name { continue }
          if columnOf[field.name] != nil { continue }
          columnOf[field.name] = names.count
          names.append(field.name)
          places.append(SourceLocation(file: shownPath, line: field.nameLine, column: field.nameColumn))
        }
      }, false)

    var builder = try TableBuilder(
      spec: spec, file: shownPath, header: names, places: places, fallback: SourceLocation(file: shownPath),
      kind: .text, limits: limits)
    // A key holding an array is an error at each such record, below.
    let keyColumn = builder.table.keyColumn
    try builder.markLists(
      Set(lists.compactMap { columnOf[$0] }).filter { $0 != keyColumn },
      ofObjects: Set(listsOfObjects.compactMap { columnOf[$0] }))
    for (name, array) in arrays {
      if let column = columnOf[name] { builder.table.listArrays[column] = array }
    }
    let width = names.count
    // Per column, the last record that had it and the line it was on there:
    // a duplicate field is found without clearing anything per record.
    var lastRecord = [Int](repeating: 0, count: width)
    var lastLine = [Int](repeating: 0, count: width)
    var cells: [TableBuilder.Cell] = []
    var ordinal = 0
    try each(
      { element in
        ordinal += 1
        guard case .record(let record) = element else {
          if case .other(let location, let kind) = element {
            builder.report(
              .error(
                at: location, "record \(ordinal) is \(kind), not an object; every record must be an object"))
          }
          return
        }
        cells.removeAll(keepingCapacity: true)
        var problems: [(JSONReader.Field, String)] = []
        var key: String?
        for (position, field) in record.fields.enumerated() {
          let c: Int
          if position < width && names[position] == field.name {
            c = position
          } else if let found = columnOf[field.name] {
            c = found
          } else {
            continue
          }
          if lastRecord[c] == ordinal {
            builder.report(
              .error(
                at: SourceLocation(file: shownPath, line: field.nameLine, column: field.nameColumn),
                "duplicate field '\(field.name)' in record \(ordinal) (first on line \(lastLine[c])); field names must be distinct"
              ))
            continue
          }
          lastRecord[c] = ordinal
          lastLine[c] = field.line
          cells.append(
            .init(
              column: c, value: field.value, line: field.line, position: field.column, isList: field.isList,
              isBoolean: field.isBoolean, isNumber: field.isNumber))
          if c == builder.table.keyColumn && !field.isList { key = field.value }
          if let problem = field.problem { problems.append((field, problem)) }
          if field.isList && c == keyColumn {
            problems.append((field, "is a list; the key holds one value per record"))
          }
        }
        let name = key.map { $0.isEmpty ? "record \(ordinal)" : "record \($0)" } ?? "record \(ordinal)"
        for (field, problem) in problems {
          builder.report(
            .error(
              at: SourceLocation(file: shownPath, line: field.line, column: field.column),
              "\(name): field '\(field.name)' \(problem)"))
        }
        builder.append(record: cells, line: record.line, column: record.column)
      }, true)
    return try builder.finish()
  }

  /// Walks a document to the array of records (at `keyPath`, or the root)
  /// and yields its elements — or, with `members`, to the object whose
  /// members are the records, each yielded with its name in that column —
  /// reading the rest of the document to check it is well formed.
  static func forEachElement(
    of bytes: UnsafeBufferPointer<UInt8>, file: String, keyPath: SiteConfig.Located<String>?,
    members: String? = nil, values: Bool, split: String? = nil, skipping: Set<String> = [],
    _ body: (Element) throws -> Void
  ) throws {
    var reader = JSONReader(bytes: bytes, file: file)
    reader.skipWhitespace()
    if reader.atEnd { throw reader.failure("the JSON document is empty; it needs an array of records") }
    let segments = keyPath.map { $0.value.split(separator: ".").map(String.init) } ?? []
    reader.split = split
    reader.skipping = skipping
    try walk(&reader, segments: segments[...], keyPath: keyPath, members: members, values: values, body)
    reader.skipWhitespace()
    if !reader.atEnd {
      throw reader.failure("malformed JSON: unexpected \(reader.describeNext()) after the document")
    }
  }

  private static func walk(
    _ reader: inout JSONReader, segments: ArraySlice<String>, keyPath: SiteConfig.Located<String>?,
    members: String?, values: Bool,
    _ body: (Element) throws -> Void
  ) throws {
    reader.skipWhitespace()
    guard let segment = segments.first else {
      let at = keyPath.map { " at path '\($0.value)'" } ?? ""
      if let members {
        guard reader.peek() == UInt8(ascii: "{") else {
          throw reader.failure(
            "expected an object whose members are the records\(at) ('members: \(members)'), found \(reader.kindOfNext())"
          )
        }
        try forEachMember(&reader, column: members, values: values, body)
        return
      }
      guard reader.peek() == UInt8(ascii: "[") else {
        let found = reader.kindOfNext()
        let hint =
          found == "an object"
          ? keyPath == nil
            ? "; name the array inside it with 'path:' in the config, or read its members as the records with 'members: COLUMN'"
            : "; read its members as the records with 'members: COLUMN'" : ""
        throw reader.failure("expected an array of records\(at), found \(found)\(hint)")
      }
      try forEachArrayElement(&reader, values: values, body)
      return
    }
    let shownPath = keyPath?.value ?? segment
    guard reader.peek() == UInt8(ascii: "{") else {
      throw reader.failure(
        "path '\(shownPath)': expected an object holding '\(segment)', found \(reader.kindOfNext())")
    }
    let open = reader.location(at: reader.index)
    var found = false
    var keys: [String] = []
    if reader.open(closedBy: UInt8(ascii: "}")) {
      repeat {
        let name = try reader.memberName()
        if name == segment && !found {
          found = true
          try walk(
            &reader, segments: segments.dropFirst(), keyPath: keyPath, members: members, values: values, body)
        } else {
          if keys.count < 20 { keys.append(name) }
          try reader.skipValue()
        }
      } while try reader.another(closedBy: UInt8(ascii: "}"))
    }
    if !found {
      let known = keys.isEmpty ? "it is empty" : "its keys: \(keys.joined(separator: ", "))"
      throw DiagnosticsError(
        .error(at: open, "path '\(shownPath)': this object has no key '\(segment)' (\(known))"))
    }
  }

  private static func forEachArrayElement(
    _ reader: inout JSONReader, values: Bool, _ body: (Element) throws -> Void
  ) throws {
    guard reader.open(closedBy: UInt8(ascii: "]")) else { return }
    reader.skipWhitespace()
    var first = reader
    if let header = headerRow(&first) {
      reader = first
      var ordinal = 0
      while try reader.another(closedBy: UInt8(ascii: "]")) {
        reader.skipWhitespace()
        ordinal += 1
        try row(&reader, header: header, ordinal: ordinal, values: values, body)
      }
      return
    }
    var ordinal = 0
    repeat {
      reader.skipWhitespace()
      ordinal += 1
      try element(&reader, ordinal: ordinal, values: values, body)
    } while try reader.another(closedBy: UInt8(ascii: "]"))
  }

  /// The column names of a sheet's values written as arrays (Google
  /// Sheets' API, pandas' `orient="values"`, `[["code", "name"], ["aav",
  /// "Austro-Asiatic languages"], …]`): the first array, when it holds
  /// distinct, non-empty strings only. Nil, and `reader` wherever it got
  /// to, otherwise.
  static func headerRow(_ reader: inout JSONReader) -> [String]? {
    guard reader.peek() == UInt8(ascii: "["), reader.open(closedBy: UInt8(ascii: "]")) else { return nil }
    var names: [String] = []
    do {
      repeat {
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "\"") else { return nil }
        let name = try reader.readScalar().text
        guard !name.isEmpty, !names.contains(name) else { return nil }
        names.append(name)
      } while try reader.another(closedBy: UInt8(ascii: "]"))
    } catch {
      return nil
    }
    reader.skipWhitespace()
    // A header alone is a sheet without rows; a list of lists of words is not one.
    guard reader.peek() == UInt8(ascii: ","), !names.isEmpty else { return nil }
    return names
  }

  /// One array of a sheet's values as a record of the header's columns: a
  /// value is text, a number, true, false or null, a row shorter than the
  /// header leaves the rest empty (as a CSV row does), and a longer one or
  /// a nested value is an error naming the record and field.
  private static func row(
    _ reader: inout JSONReader, header: [String], ordinal: Int, values: Bool, _ body: (Element) throws -> Void
  ) throws {
    guard reader.peek() == UInt8(ascii: "[") else {
      let location = reader.location(at: reader.index)
      let kind = reader.kindOfNext()
      try reader.skipValue()
      return try body(.other(location, kind))
    }
    var record = JSONReader.Record(line: reader.line, column: reader.column(at: reader.index))
    if reader.open(closedBy: UInt8(ascii: "]")) {
      repeat {
        reader.skipWhitespace()
        let (line, column) = (reader.line, reader.column(at: reader.index))
        guard record.fields.count < header.count else {
          throw reader.failure(
            "record \(ordinal) has more values than the \(header.count) columns its header row names")
        }
        let name = header[record.fields.count]
        let first = reader.peek()
        guard first != UInt8(ascii: "{") && first != UInt8(ascii: "[") else {
          throw reader.failure(
            "record \(ordinal), field '\(name)': expected text, a number, true, false or null, found \(reader.kindOfNext())"
          )
        }
        var field = JSONReader.Field(
          name: name, value: "", line: line, column: column, nameLine: line, nameColumn: column)
        let scalar = try reader.readScalar()
        if values { field.take(scalar, first: first) }
        record.fields.append(field)
      } while try reader.another(closedBy: UInt8(ascii: "]"))
    }
    try body(.record(record))
  }

  /// Each member of an object as a record, its name first, in `column`.
  private static func forEachMember(
    _ reader: inout JSONReader, column: String, values: Bool, _ body: (Element) throws -> Void
  ) throws {
    guard reader.open(closedBy: UInt8(ascii: "}")) else { return }
    var ordinal = 0
    repeat {
      reader.skipWhitespace()
      ordinal += 1
      let place = reader.location(at: reader.index)
      let name = try reader.memberName()
      reader.skipWhitespace()
      try element(&reader, ordinal: ordinal, values: values) { element in
        guard case .record(var record) = element else { return try body(element) }
        record.fields.insert(
          JSONReader.Field(
            name: column, value: name, line: place.line, column: place.column, nameLine: place.line,
            nameColumn: place.column), at: 0)
        try body(.record(record))
      }
    } while try reader.another(closedBy: UInt8(ascii: "}"))
  }

  /// Reads record `ordinal` (its number in the file) and yields it; a
  /// failure to read it names the record and field (`JSONReader.naming`).
  private static func element(
    _ reader: inout JSONReader, ordinal: Int, values: Bool, _ body: (Element) throws -> Void
  ) throws {
    let start = reader.index
    do {
      if reader.peek() == UInt8(ascii: "{") && reader.split != nil {
        // Only the list's objects are kept: the record's own fields are the parent table's.
        reader.items.removeAll()
        _ = try reader.readRecord(values: false)
        try body(.parent(reader.items))
      } else if reader.peek() == UInt8(ascii: "{") {
        try body(.record(try reader.readRecord(values: values)))
      } else {
        let location = reader.location(at: reader.index)
        let kind = reader.kindOfNext()
        try reader.skipValue()
        try body(.other(location, kind))
      }
    } catch let error as DiagnosticsError where reader.failed {
      // The reader's own failure, not one of `body`'s.
      throw reader.naming(error, record: ordinal, from: start)
    }
  }

  /// Yields each line's object, a chunk of the file at a time.
  static func forEachLine(
    of input: ChunkedFile, file: String, values: Bool, split: String? = nil, skipping: Set<String> = [],
    _ body: (Element) throws -> Void
  ) throws {
    var buffer: [UInt8] = []
    var start = 0
    var searched = 0
    var line = 1
    var ordinal = 0
    _ = try input.read(into: &buffer)
    while true {
      var end = searched
      while end < buffer.count && buffer[end] != UInt8(ascii: "\n") { end += 1 }
      if end == buffer.count && !input.atEnd {
        buffer.removeSubrange(0..<start)
        searched = end - start
        start = 0
        _ = try input.read(into: &buffer, minimum: max(ChunkedFile.chunkSize, buffer.count))
        continue
      }
      if start == buffer.count && input.atEnd { return }
      try buffer.withUnsafeBufferPointer { all in
        var reader = JSONReader(
          bytes: UnsafeBufferPointer(rebasing: all[start..<end]), file: file, line: line)
        reader.split = split
        reader.skipping = skipping
        reader.skipWhitespace()
        guard !reader.atEnd else { return }  // a blank line
        ordinal += 1
        try element(&reader, ordinal: ordinal, values: values, body)
        reader.skipWhitespace()
        if !reader.atEnd {
          throw reader.failure(
            "record \(ordinal): malformed JSON: unexpected \(reader.describeNext()) after the record; JSON Lines holds one object per line"
          )
        }
      }
      if end == buffer.count { return }
      start = end + 1
      searched = start
      line += 1
    }
  }
}
