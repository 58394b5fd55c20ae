/// The one table interface: every source (CSV, JSON, JSON Lines, SQLite)
/// hands its column names and rows to a builder, which applies the rules
/// they all share — names present and distinct, the key column found, no
/// control characters in the text, no value over `limits.valueBytes`, ids
/// present and unique — and reports each problem at the source's own place
/// (file:line:column, or database:table:row:column). Sources only parse.
/// It also keeps the table within `limits:` (columns, rows, cells, bytes of
/// text), counted as the rows arrive, so a source that never ends — a
/// SQLite view over an unbounded recursive query — is stopped at the limit
/// rather than read until memory runs out.
struct TableBuilder {
  /// How many errors one source may report before the rest are dropped.
  static let errorsPerSource = 20

  /// One field a JSON record has, and where its value was read.
  struct Cell {
    var column: Int
    var value: String
    var line: Int
    var position: Int
    /// The value is a JSON array's items, already joined as a list cell.
    var isList = false
    /// The value was a JSON `true`/`false`, or a JSON number.
    var isBoolean = false
    var isNumber = false
  }

  let spec: SiteConfig.Table
  let table: Table
  let valueBytes: Int
  let limits: SiteConfig.Limits
  /// Where a refusal of the whole table points: the config's line that
  /// names its source (the file, or a database's table or query).
  var limitPlace: SourceLocation
  /// Cells and bytes of text kept so far, for `cellsPerTable` and `tableBytes`.
  private var cells = 0
  private var bytes = 0
  /// Set once the table went over a limit: the source stops reading (or
  /// reads on without keeping anything, bounded by `fileBytes`).
  private(set) var isFull = false
  private(set) var diagnostics: [Diagnostic] = []
  /// C1 controls dropped from a column's text: where the first was, in
  /// which record, which one, and how many in all (one warning a column).
  private var droppedControls:
    [Int: (place: SourceLocation, record: String, first: Unicode.Scalar, count: Int)] =
      [:]
  /// The columns the config itself uses (the key, every `refs` column),
  /// which every record must have.
  private var used: [(column: Int, use: String)] = []
  /// Rows whose record lacked a used column, per column: only the first few.
  private var absentRows: [Int: [Int]] = [:]
  /// Column → the text between its items, for columns declared in `lists:`.
  private var separators: [Int: String] = [:]
  /// The values that mean "no value" in this table (`missing:`).
  private var missing: Set<String> = []
  /// A first column with no name, read as `rowNumbers`.
  private var headerWarnings: [Diagnostic] = []
  static let rowNumbers = "index"
  /// Per column, what its JSON values were (`ScalarKinds`): a column whose
  /// values are all JSON booleans, or all JSON numbers, is one templates
  /// read as booleans or numbers (`Table.booleanColumns`).
  private var scalarKinds: [ScalarKinds] = []
  private struct ScalarKinds: OptionSet {
    let rawValue: UInt8
    static let boolean = ScalarKinds(rawValue: 1)
    static let number = ScalarKinds(rawValue: 2)
    static let other = ScalarKinds(rawValue: 4)
  }

  /// Checks the column names and finds the key column. `places` are the
  /// names' own places (a CSV header cell, a JSON key); `fallback` is used
  /// where a source has none (a query's result columns).
  init(
    spec: SiteConfig.Table, file: String, header named: [String], places: [SourceLocation?],
    fallback: SourceLocation, kind: Table.Kind, limits: SiteConfig.Limits
  ) throws {
    // pandas' `to_csv()` and R's `write.csv()` write their row numbers as a
    // first column with no name: read as `index`, pandas' own name for it,
    // and said once (every pydataset file has one).
    var header = named
    var renamed: [Diagnostic] = []
    if header.count > 1, header[0].isEmpty, !header.contains(Self.rowNumbers) {
      header[0] = Self.rowNumbers
      renamed.append(
        .warning(
          at: places.first.flatMap { $0 } ?? fallback,
          "column 1 of table '\(spec.name)' has no name (row numbers, as pandas and R write them?); read as '\(Self.rowNumbers)'"
        ))
    }
    self.spec = spec
    self.valueBytes = limits.valueBytes
    self.limits = limits
    self.limitPlace = spec.source?.file?.location ?? fallback
    headerWarnings = renamed
    if header.count > limits.columnsPerTable {
      throw DiagnosticsError(
        .error(
          at: limitPlace,
          "table '\(spec.name)' has \(header.count) columns, " + limits.over("columnsPerTable")))
    }
    var diagnostics: [Diagnostic] = []
    var seen: [String: Int] = [:]
    for (index, name) in header.enumerated() {
      let place = places.indices.contains(index) ? places[index] ?? fallback : fallback
      if name.utf8.count > valueBytes {
        diagnostics.append(
          .error(at: place, "column \(index + 1): " + Self.tooLong("name", name, limits)))
        continue
      }
      if name.isEmpty {
        diagnostics.append(
          .error(
            at: place,
            "column \(index + 1) of table '\(spec.name)' has an empty name; every column needs one"))
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
            "table '\(spec.name)' has no key column '\(key.value)' (its columns: \(Self.list(header)))"))
      }
    }
    missing = Set(spec.missing.map(\.value))
    for list in spec.lists {
      guard let column = seen[list.value.column] else {
        diagnostics.append(
          .error(
            at: list.location,
            "table '\(spec.name)' has no column '\(list.value.column)' to read as a list (its columns: \(Self.list(header)))"
              + ClosestName.hint(list.value.column, in: header)))
        continue
      }
      separators[column] = list.value.separator
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    table = Table(name: spec.name, file: file, header: header, keyColumn: keyColumn, kind: kind)
    if let keyColumn { used.append((keyColumn, "the key")) }
    for ref in spec.refs {
      if let column = seen[ref.value.column] { used.append((column, "in refs at \(ref.location)")) }
    }
    try markLists(Set(separators.keys), declared: true)
  }

  /// Makes columns lists: those declared under `lists:`, and those a JSON
  /// source found arrays in. A list cannot be the key, which names one
  /// record: an error at the config's line. (A list in `refs` names a
  /// record per item.)
  mutating func markLists(_ columns: Set<Int>, declared: Bool = false, ofObjects: Set<Int> = []) throws {
    var diagnostics: [Diagnostic] = []
    let why = declared ? "is declared under lists" : "holds lists (JSON arrays)"
    if let keyColumn = table.keyColumn, columns.contains(keyColumn), let key = spec.key {
      diagnostics.append(
        .error(
          at: key.location,
          "the key '\(key.value)' of table '\(spec.name)' \(why); a key is one value per record"))
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    table.lists.formUnion(columns)
    table.listsOfObjects.formUnion(ofObjects)
  }

  /// The column names for a message, the first few of a very wide table.
  static func list(_ header: [String]) -> String {
    let shown = header.prefix(30).joined(separator: ", ")
    return header.count > 30 ? shown + ", … (\(header.count) in all)" : shown
  }

  mutating func report(_ diagnostic: Diagnostic) {
    if diagnostics.count < Self.errorsPerSource { diagnostics.append(diagnostic) }
  }

  /// Why a database's value cannot be a cell's text (SQLite's, PostgreSQL's).
  struct CellProblem: Error {
    var reason: String
  }

  /// A database's value as a cell's text; one that cannot be is reported
  /// at its row and column (1-based) and read as empty.
  mutating func cellText(_ value: Result<String, CellProblem>, row: Int, column: Int, name: String) -> String
  {
    switch value {
    case .success(let text): return text
    case .failure(let problem):
      report(
        .error(
          at: SourceLocation(file: table.file, line: row + 1, column: column + 1),
          "row \(row + 1): column '\(name)' \(problem.reason)"))
      return ""
    }
  }

  /// Adds a row of a text source that has every field (CSV): each field's
  /// line and column.
  mutating func append(_ fields: [String], line: Int, columns: [Int], fieldLines: [Int]) {
    guard admit(fields) else { return }
    table.appendRow(line: line)
    let key = table.keyColumn.map { fields[$0] }
    for (column, value) in fields.enumerated() {
      let place = SourceLocation(file: table.file, line: fieldLines[column], column: columns[column])
      // Checked first, then listed, in two statements: `listed(checked(…))`
      // read `self` for `listed` while `checked` changed it, so Swift
      // copied the whole builder (its spec, dictionaries and diagnostics,
      // retained and released) for every field, a fifth of loading's CPU.
      let clean = checked(value, column: column, at: place, key: key)
      let kept = listed(clean, column: column)
      table.store(kept, column: column, line: fieldLines[column], position: columns[column])
    }
    finishRow(key: key)
  }

  /// Adds a record of a JSON source: the fields it has, in any order; a
  /// field it lacks reads as empty, and its place is the record's own.
  mutating func append(record cells: [Cell], line: Int, column: Int) {
    guard admit(cells.lazy.map(\.value)) else { return }
    table.appendRow(line: line, column: column)
    let keyColumn = table.keyColumn
    let key = keyColumn.flatMap { keyColumn in cells.first { $0.column == keyColumn && !$0.isList }?.value }
    var empty: Set<Int> = []
    for cell in cells {
      let place = SourceLocation(file: table.file, line: cell.line, column: cell.position)
      var kept = checked(cell.value, column: cell.column, at: place, key: key, isList: cell.isList)
      if !cell.isList { kept = listed(kept, column: cell.column) }
      table.store(kept, column: cell.column, line: cell.line, position: cell.position)
      // A null (or a `missing:` value) says nothing about the column's kind.
      if !kept.isEmpty {
        note(cell.isList ? .other : cell.isBoolean ? .boolean : cell.isNumber ? .number : .other, cell.column)
      } else if !cell.isList {
        empty.insert(cell.column)
      }
    }
    let row = table.count - 1
    for (column, _) in used where table.columns[column].lastRow != row && !insideNull(column, empty) {
      if absentRows[column, default: []].count < Self.errorsPerSource {
        absentRows[column, default: []].append(row)
      }
    }
    finishRow(key: key)
  }

  /// Whether a dotted column (`publisher.id`) lies inside an object that
  /// is null in this record (`"publisher": null`, among `empty`): the
  /// record has no publisher, so none of its fields, rather than lacking one.
  private func insideNull(_ column: Int, _ empty: Set<Int>) -> Bool {
    guard !empty.isEmpty else { return false }
    var name = Substring(table.header[column])
    while let dot = name.lastIndex(of: ".") {
      name = name[..<dot]
      if let holder = table.column(named: String(name)), empty.contains(holder) { return true }
    }
    return false
  }

  private mutating func note(_ kind: ScalarKinds, _ column: Int) {
    if scalarKinds.isEmpty { scalarKinds = Array(repeating: [], count: table.header.count) }
    scalarKinds[column].insert(kind)
  }

  /// Notes that a database gave column `column` of the row about to be
  /// appended as a number (`isNumber`) or as text; a NULL is not noted.
  mutating func noteDatabaseValue(column: Int, isNumber: Bool) {
    note(isNumber ? .number : .other, column)
  }

  /// Adds a row of a database result.
  mutating func append(_ fields: [String]) {
    guard admit(fields) else { return }
    table.appendRow()
    let key = table.keyColumn.map { fields[$0] }
    let row = table.count - 1
    for (column, value) in fields.enumerated() {
      let place = SourceLocation(file: table.file, line: row + 1, column: column + 1)
      let clean = checked(value, column: column, at: place, key: key)  // not inside `listed(…)`: above
      table.store(listed(clean, column: column), column: column)
    }
    finishRow(key: key)
  }

  /// A value of a column declared under `lists:` as a list cell; any
  /// other value as it is.
  /// A value named under `missing:` (`NA`) reads as empty, except in an
  /// id or a reference, where it names a record (`NA`, Namibia).
  private func listed(_ value: String, column: Int) -> String {
    if !missing.isEmpty, missing.contains(value), !used.contains(where: { $0.column == column }) { return "" }
    guard let separator = separators[column] else { return value }
    return Table.cell(splitting: value, by: separator)
  }

  /// Whether a row of these values still fits the table's limits; the
  /// first that does not is reported once, at the config's line for the
  /// table, and the table keeps nothing more.
  private mutating func admit(_ values: some Sequence<String>) -> Bool {
    guard !isFull else { return false }
    var size = 0
    var count = 0
    for value in values {
      size += value.utf8.count
      count += 1
    }
    let refusal: String?
    if table.count >= limits.rowsPerTable {
      refusal =
        "has more than \(limits.rowsPerTable) rows; reading stopped there, " + limits.over("rowsPerTable")
    } else if cells + count > limits.cellsPerTable {
      refusal =
        "has more than \(limits.cellsPerTable) cells (rows × columns); reading stopped at row \(table.count + 1), "
        + limits.over("cellsPerTable")
    } else if bytes + size > limits.tableBytes {
      refusal =
        "has more than \(limits.tableBytes) bytes of text; reading stopped at row \(table.count + 1), "
        + limits.over("tableBytes")
    } else {
      refusal = nil
    }
    if let refusal {
      isFull = true
      diagnostics.append(.error(at: limitPlace, "table '\(spec.name)' \(refusal)"))
      return false
    }
    cells += count
    bytes += size
    return true
  }

  /// The value to keep: `value`, or empty when it is too long (reported).
  /// A list cell's items are checked one by one: the character between
  /// them is the one control character it may hold.
  private mutating func checked(
    _ value: String, column: Int, at place: SourceLocation, key: String?, isList: Bool = false
  )
    -> String
  {
    if value.utf8.count > valueBytes {
      report(
        .error(
          at: place,
          "\(recordName(key: key)): " + Self.tooLong("field '\(table.header[column])'", value, limits)))
      return ""
    }
    if let control = isList
      ? Table.items(of: value).lazy.compactMap(Self.firstControlCharacter).first
      : Self.firstControlCharacter(in: value)
    {
      if Self.isC1(control), !used.contains(where: { $0.column == column }), !Self.isLink(value) {
        return dropC1(from: value, column: column, at: place, key: key, isList: isList)
      }
      report(
        .error(
          at: place,
          "\(recordName(key: key)): field '\(table.header[column])' contains the control character \(Self.describe(control)); only tab and line breaks may appear in text"
        ))
    }
    return value
  }

  static func isC1(_ scalar: Unicode.Scalar) -> Bool { (0x80...0x9F).contains(scalar.value) }

  /// A value whose characters are an address: a URL (`scheme:` then
  /// `//`) or a path. A control character there changes where it leads,
  /// so it stays an error however the column is used.
  static func isLink(_ value: String) -> Bool {
    value.hasPrefix("/") || value.hasPrefix("./") || value.hasPrefix("../") || value.contains("://")
  }

  /// `value` without its C1 controls (U+0080–U+009F), which text decoded
  /// with the wrong encoding leaves in names (a real U+009F in geonames'
  /// alternate names): they show as nothing or a box, and HTML calls them
  /// parse errors. Text, not an id or a link, so dropping them changes no
  /// record's meaning; one warning a column says where the first was. A
  /// C0 control (NUL, BEL) is still an error: no text decoding leaves one.
  private mutating func dropC1(
    from value: String, column: Int, at place: SourceLocation, key: String?, isList: Bool
  ) -> String {
    var kept = String.UnicodeScalarView()
    var first: Unicode.Scalar?
    var count = 0
    for scalar in value.unicodeScalars {
      if Self.isC1(scalar) {
        first = first ?? scalar
        count += 1
      } else {
        kept.append(scalar)
      }
    }
    let cleaned = String(kept)
    // Another control left (a C0 one beside the C1): reported as before.
    if let other = isList
      ? Table.items(of: cleaned).lazy.compactMap(Self.firstControlCharacter).first
      : Self.firstControlCharacter(in: cleaned)
    {
      report(
        .error(
          at: place,
          "\(recordName(key: key)): field '\(table.header[column])' contains the control character \(Self.describe(other)); only tab and line breaks may appear in text"
        ))
      return value
    }
    if let first {
      if let seen = droppedControls[column] {
        droppedControls[column]?.count = seen.count + count
      } else {
        droppedControls[column] = (place, recordName(key: key), first, count)
      }
    }
    return cleaned
  }

  /// One warning for each column whose text lost C1 controls.
  var controlWarnings: [Diagnostic] {
    droppedControls.sorted { $0.key < $1.key }.map { column, dropped in
      let more = dropped.count > 1 ? " (\(dropped.count) in this column, all dropped)" : ""
      return .warning(
        at: dropped.place,
        "\(dropped.record): field '\(table.header[column])' contains the control character \(Self.describe(dropped.first)), dropped from the text\(more); re-encode the file as UTF-8 to keep what it stood for"
      )
    }
  }

  static func tooLong(_ what: String, _ value: String, _ limits: SiteConfig.Limits) -> String {
    "\(what) is \(value.utf8.count) bytes long, over the limit of \(limits.valueBytes) bytes (limits.valueBytes); "
      + limits.raise("valueBytes")
  }

  /// Checks the row's id: present (when the record has the key field),
  /// not empty, not seen before.
  private mutating func finishRow(key: String?) {
    guard let keyColumn = table.keyColumn, let key else { return }  // an absent key is reported at the end
    let row = table.count - 1
    if key.utf8.count > valueBytes { return }  // reported as too long
    if key.isEmpty {
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

  /// "record 12" when the row has a key, else "row 12".
  func recordName(key: String?) -> String {
    if let key, !key.isEmpty, key.utf8.count <= valueBytes { return "record \(key)" }
    return "row \(table.count)"
  }

  /// Checks the columns the config itself uses (the key, every `refs`
  /// column) are in every record, then hands the table on.
  mutating func finish() throws -> Table {
    for (column, use) in used {
      for row in absentRows[column] ?? [] {
        report(
          .error(
            at: table.location(row: row, column: column),
            "record has no field '\(table.header[column])', which the config uses (\(use))"))
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics + headerWarnings + controlWarnings) }
    table.warnings = headerWarnings + controlWarnings
    for (column, kinds) in scalarKinds.enumerated() {
      if kinds == .boolean { table.booleanColumns.insert(column) }
      if kinds == .number { table.numberColumns.insert(column) }
    }
    table.seal()
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
