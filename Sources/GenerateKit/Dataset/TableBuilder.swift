/// The one table interface: every source (CSV, JSON, JSON Lines, SQLite)
/// hands its column names and rows to a builder, which applies the rules
/// they all share — names present and distinct, the key column found, no
/// control characters in the text, ids present and unique — and reports
/// each problem at the source's own place (file:line:column, or
/// database:table:row:column). Sources only parse.
struct TableBuilder {
  /// How many errors one source may report before the rest are dropped.
  static let errorsPerSource = 20

  let spec: SiteConfig.Table
  let table: Table
  private(set) var diagnostics: [Diagnostic] = []
  /// Rows whose record lacked a field (JSON), per column: only the first few.
  private var absentRows: [Int: [Int]] = [:]

  /// Checks the column names and finds the key column. `places` are the
  /// names' own places (a CSV header cell, a JSON key); `fallback` is used
  /// where a source has none (a query's result columns).
  init(
    spec: SiteConfig.Table, file: String, header: [String], places: [SourceLocation?],
    fallback: SourceLocation, kind: FieldPlaces.Kind
  ) throws {
    self.spec = spec
    var diagnostics: [Diagnostic] = []
    var seen: [String: Int] = [:]
    for (index, name) in header.enumerated() {
      let place = places.indices.contains(index) ? places[index] ?? fallback : fallback
      if name.isEmpty {
        diagnostics.append(
          .error(
            at: place, "column \(index + 1) of table '\(spec.name)' has an empty name; every column needs one"
          ))
      } else if let first = seen[name] {
        diagnostics.append(
          .error(
            at: place,
            "duplicate column name '\(name)' in table '\(spec.name)' (columns \(first + 1) and \(index + 1)); column names must be distinct"
          ))
      } else {
        seen[name] = index
      }
      if let control = Self.firstControlCharacter(in: name) {
        diagnostics.append(
          .error(at: place, "column name contains the control character \(Self.describe(control))"))
      }
    }
    var keyColumn: Int?
    if let key = spec.key {
      keyColumn = seen[key.value]
      if keyColumn == nil {
        diagnostics.append(
          .error(
            at: key.location,
            "table '\(spec.name)' has no key column '\(key.value)' (its columns: \(header.joined(separator: ", ")))"
          ))
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    table = Table(name: spec.name, file: file, header: header, keyColumn: keyColumn, places: kind)
  }

  var isFull: Bool { diagnostics.count >= Self.errorsPerSource }

  mutating func report(_ diagnostic: Diagnostic) {
    if diagnostics.count < Self.errorsPerSource { diagnostics.append(diagnostic) }
  }

  /// Adds a row of a text source. `fieldLines` is nil when every field
  /// starts on the row's line; `absent` lists fields the record did not
  /// have (their place is the record's own).
  mutating func append(
    _ fields: [String], line: Int, columns: [Int], fieldLines: [Int]? = nil, absent: [Int] = []
  ) {
    table.places.appendText(line: line, fieldLines: fieldLines, columns: columns)
    store(fields, absent: absent)
  }

  /// Adds a row of a database result.
  mutating func append(_ fields: [String]) {
    table.places.gridRows += 1
    store(fields, absent: [])
  }

  private mutating func store(_ fields: [String], absent: [Int]) {
    let row = table.places.rowCount - 1
    for (column, value) in fields.enumerated() {
      table.columns[column].append(value)
      if let control = Self.firstControlCharacter(in: value) {
        report(
          .error(
            at: table.location(row: row, column: column),
            "\(recordName(row: row, fields: fields)): field '\(table.header[column])' contains the control character \(Self.describe(control)); only tab and line breaks may appear in text"
          ))
      }
    }
    for column in absent where (absentRows[column]?.count ?? 0) < Self.errorsPerSource {
      absentRows[column, default: []].append(row)
    }
    guard let keyColumn = table.keyColumn else { return }
    let key = fields[keyColumn]
    if key.isEmpty {
      if absent.contains(keyColumn) { return }  // reported as a missing field
      report(
        .error(
          at: table.location(row: row, column: keyColumn),
          "record has an empty id ('\(table.header[keyColumn])')"))
    } else if let first = table.rowForKey[key] {
      report(
        .error(
          at: table.location(row: row, column: keyColumn),
          "duplicate id '\(key)' in table '\(spec.name)' (first on \(table.describePlace(ofRow: first)))"))
    } else {
      table.rowForKey[key] = row
    }
  }

  /// "record 12" when the table has a key, else "row 12".
  func recordName(row: Int, fields: [String]) -> String {
    if let keyColumn = table.keyColumn, !fields[keyColumn].isEmpty { return "record \(fields[keyColumn])" }
    return "row \(row + 1)"
  }

  /// Checks the columns the config itself uses (the key, every `refs`
  /// column) are in every record, then hands the table on.
  mutating func finish() throws -> Table {
    var used: [(column: Int, use: String)] = []
    if let keyColumn = table.keyColumn { used.append((keyColumn, "the key")) }
    for ref in spec.refs {
      if let column = table.column(named: ref.value.column) {
        used.append((column, "in refs at \(ref.location)"))
      }
    }
    for (column, use) in used {
      for row in absentRows[column] ?? [] {
        report(
          .error(
            at: table.location(row: row, column: column),
            "record has no field '\(table.header[column])', which the config uses (\(use))"))
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    if table.keyColumn == nil {
      table.rowForKey.reserveCapacity(table.count)
      for row in 0..<table.count { table.rowForKey[String(row + 1)] = row }
    }
    return table
  }

  /// The first character that must not appear in text: C0 controls other
  /// than tab, line feed and carriage return, DEL, and the C1 controls.
  /// HTML calls them parse errors and XML forbids most, so one in a field
  /// would otherwise surface as a broken generated page far from its cause.
  static func firstControlCharacter(in text: String) -> Unicode.Scalar? {
    var text = text
    let found: Bool? = text.withUTF8 { bytes in
      var index = 0
      let count = bytes.count
      while index < count {
        let byte = bytes[index]
        if byte < 0x20 {
          if byte != 0x09 && byte != 0x0A && byte != 0x0D { return true }
        } else if byte == 0x7F {
          return true
        } else if byte == 0xC2, index + 1 < count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F {
          return true
        }
        index += 1
      }
      return false
    }
    guard found == true else { return nil }
    return text.unicodeScalars.first { scalar in
      (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
        || (0x7F...0x9F).contains(scalar.value)
    }
  }

  static func describe(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    switch scalar.value {
    case 0: return "\(code) (NUL)"
    case 0x80...0x9F: return "\(code) (a C1 control, often text decoded with the wrong encoding)"
    default: return code
    }
  }
}
