/// One relational table, stored by column so a million rows cost a few
/// arrays rather than a million objects. Every source (CSV, JSON, JSON
/// Lines, SQLite) fills it through `TableBuilder`, so the stages after
/// loading never know where the rows came from.
public final class Table: @unchecked Sendable {
  /// Where a table's fields were read: lines and columns of a text file,
  /// or the row and column numbers of a query's result.
  enum Kind {
    case text
    case grid
  }

  public let name: String
  /// The source as the user should see it in an error message: a data file,
  /// or `database.sqlite:Table` for a SQLite table.
  public let file: String
  public let header: [String]
  /// `columns[c][row]`.
  public internal(set) var columns: [Column]
  /// The key column, or nil when records are keyed by row number.
  public let keyColumn: Int?
  /// Key → row.
  public internal(set) var rowForKey: [String: Int] = [:]
  /// Column → referenced table, for columns declared in `refs`.
  public internal(set) var references: [Int: Table] = [:]
  /// The columns holding lists (`Table+Lists.swift`); the second those
  /// made from the fields of a JSON array of objects (`editions.format`).
  public internal(set) var lists: Set<Int> = []
  public internal(set) var listsOfObjects: Set<Int> = []
  /// The array each of `listsOfObjects` was read from (`editions` for
  /// `editions.format`): what `itemsOf:` names to make it a table.
  public internal(set) var listArrays: [Int: String] = [:]
  /// The columns whose values were all JSON booleans (`true`, `false`, or
  /// null), and those whose values were all JSON numbers or SQLite INTEGER
  /// and REAL values (nulls aside): stored as text
  /// like any other, read by templates as a boolean and a number
  /// (`RecordContext.typed`), so `{{#active}}` skips a `false`.
  public internal(set) var booleanColumns: Set<Int> = []
  public internal(set) var numberColumns: Set<Int> = []
  /// The columns of text whose numbers are written with a grouping or a
  /// decimal comma (`31.889.923`, `43,8`), and how (`Table+Numerals.swift`).
  public internal(set) var numerals: [Int: NumeralFormat] = [:]
  /// What reading it found that still gives a working table (C1
  /// controls dropped from text), shown with the build's result.
  public internal(set) var warnings: [Diagnostic] = []
  let kind: Kind
  public private(set) var count = 0
  /// The 1-based line each row starts on (text only).
  private var recordLines: [Int32] = []
  /// The 1-based column each row starts at, where it is not 1 (a JSON
  /// record): the place of a field the record lacks.
  private var recordColumns: [Int32]?

  init(name: String, file: String, header: [String], keyColumn: Int?, kind: Kind) {
    self.name = name
    self.file = file
    self.header = header
    self.objects = Self.objects(in: header)
    self.keyColumn = keyColumn
    self.kind = kind
    self.columns = Array(repeating: Column(), count: header.count)
  }

  public func column(named name: String) -> Int? { header.firstIndex(of: name) }

  /// The objects dotted column names make — a JSON object's members
  /// (`publisher.name`, `publisher.address.city`), or a CSV header's
  /// dotted names — each with its members' names in the order first read:
  /// `publisher` → `[name, address]`, `publisher.address` → `[city]`.
  /// What a template opens as an object (`ObjectValue`).
  /// Made with the table, as rendering reads it from many threads.
  public let objects: [String: [String]]

  static func objects(in header: [String]) -> [String: [String]] {
    var objects: [String: [String]] = [:]
    // Sparse JSON may hold thousands of members in one object.
    var seen = Set<String>()
    for name in header where name.contains(".") {
      let parts = name.split(separator: ".", omittingEmptySubsequences: false)
      // `a..b`, `.a` and `a.` are no path a template can write.
      guard !parts.contains(where: \.isEmpty) else { continue }
      var object = String(parts[0])
      for part in parts.dropFirst() {
        let path = object + "." + part
        if seen.insert(path).inserted { objects[object, default: []].append(String(part)) }
        object = path
      }
    }
    return objects
  }

  /// The record's id: its key, or its 1-based row number.
  public func key(ofRow row: Int) -> String {
    guard let keyColumn else { return String(row + 1) }
    return columns[keyColumn][row]
  }

  /// Forgets where each value was read, but for the key column's: once the
  /// site is prepared, a problem names a record by its key
  /// (`ExpressionProblems`), and nothing asks for another field's place,
  /// which is then its record's. The places were 4 bytes a value, about a
  /// tenth of a large build's peak with the values themselves.
  func releasePlaces() {
    for column in columns.indices where column != keyColumn { columns[column].releasePlaces() }
  }

  /// Where a field was read; a field the record lacks, or one whose place
  /// was released (`releasePlaces`), is at the record.
  func location(row: Int, column: Int) -> SourceLocation {
    switch kind {
    case .grid: return SourceLocation(file: file, line: row + 1, column: column + 1)
    case .text:
      let values = columns[column]
      guard let slot = values.slot(ofRow: row), slot < values.positions.count else {
        return SourceLocation(
          file: file, line: Int(recordLines[row]), column: recordColumns.map { Int($0[row]) } ?? 1)
      }
      let line = values.lines.map { Int($0[slot]) } ?? Int(recordLines[row])
      return SourceLocation(file: file, line: line, column: Int(values.positions[slot]))
    }
  }

  /// How a message names where a row is: "line 12" in a text file, "row 12"
  /// in a database.
  func describePlace(ofRow row: Int) -> String {
    switch kind {
    case .text: return "line \(recordLines[row])"
    case .grid: return "row \(row + 1)"
    }
  }

  // MARK: Filling

  /// Starts a new row, read at `line` and `column` of a text source.
  func appendRow(line: Int = 0, column: Int = 1) {
    if kind == .text {
      recordLines.append(Int32(clamping: line))
      if column != 1 && recordColumns == nil {
        recordColumns = Array(repeating: 1, count: recordLines.count - 1)
      }
      recordColumns?.append(Int32(clamping: column))
    }
    count += 1
  }

  /// Sets a field of the last row, read at `line` and `position` (text).
  func store(_ value: String, column: Int, line: Int = 0, position: Int = 0) {
    let row = count - 1
    if kind == .grid {
      columns[column].append(value, row: row)
      return
    }
    let rowLine = Int(recordLines[row])
    if line != rowLine && columns[column].lines == nil {
      // The first field of this column off its row's line: from now on
      // keep a line per value.
      let recordLines = recordLines
      columns[column].lines = columns[column].storedRows.map { recordLines[$0] }
    }
    columns[column].append(value, row: row, position: position, line: line)
  }

  /// Copies row `row` of `source` (same columns) as this table's next row;
  /// `replacing` gives one column another value (an item of a list).
  func appendCopy(of row: Int, from source: Table, replacing: (column: Int, value: String)? = nil) {
    func value(_ c: Int, _ slot: Int) -> String {
      if let replacing, replacing.column == c { return replacing.value }
      return source.columns[c].values[slot]
    }
    switch kind {
    case .grid:
      appendRow()
      for c in 0..<columns.count {
        if let slot = source.columns[c].slot(ofRow: row) { store(value(c, slot), column: c) }
      }
    case .text:
      appendRow(line: Int(source.recordLines[row]), column: source.recordColumns.map { Int($0[row]) } ?? 1)
      for c in 0..<columns.count {
        let values = source.columns[c]
        guard let slot = values.slot(ofRow: row) else { continue }
        let line = values.lines.map { Int($0[slot]) } ?? Int(source.recordLines[row])
        store(value(c, slot), column: c, line: line, position: Int(values.positions[slot]))
      }
    }
  }

  /// Ends filling: every column learns the row count, and a column missing
  /// few values is stored densely again, for the fastest reads.
  func seal() {
    let recordLines = recordLines
    let recordColumns = recordColumns
    for c in 0..<columns.count {
      columns[c].seal(count: count) { row in
        (recordLines.isEmpty ? 0 : recordLines[row], recordColumns?[row] ?? 1)
      }
    }
  }
}

/// One column's values, `column[row]`. A value a record does not have costs
/// nothing: once some row lacks one, the column keeps the row of each value
/// it has, so a sparse export — thousands of field names, each record
/// naming a few — costs memory in proportion to the values present, not to
/// rows × columns. Where a text source read each value is kept alongside.
public struct Column: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral, Sendable {
  /// The values present, in row order.
  private(set) var values = PackedStrings()
  /// The row of each value, ascending; nil while value i is row i.
  private(set) var rows: [Int32]?
  /// The 1-based column each value starts at (text only).
  private(set) var positions: [Int32] = []
  /// The 1-based line each value starts on, once one is not on its row's
  /// line (a quoted newline in CSV, a pretty-printed JSON document).
  var lines: [Int32]?
  /// The table's row count, once sealed.
  private var rowCount = 0

  init() {}

  public init(arrayLiteral elements: String...) {
    values = PackedStrings(elements)
    rowCount = elements.count
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { rowCount }

  public subscript(row: Int) -> String {
    guard let slot = slot(ofRow: row) else { return "" }
    return values[slot]
  }

  public static func == (lhs: Column, rhs: Column) -> Bool { lhs.elementsEqual(rhs) }

  /// Where row `row`'s value is stored, or nil when the row has none.
  func slot(ofRow row: Int) -> Int? {
    guard let rows else { return row < values.count ? row : nil }
    var low = 0
    var high = rows.count
    while low < high {
      let middle = (low + high) / 2
      if Int(rows[middle]) < row { low = middle + 1 } else { high = middle }
    }
    return low < rows.count && Int(rows[low]) == row ? low : nil
  }

  /// The row of each stored value, in order.
  var storedRows: [Int] { rows.map { $0.map(Int.init) } ?? Array(0..<values.count) }

  /// The row of the last value stored, or nil.
  var lastRow: Int? {
    guard !values.isEmpty else { return nil }
    return rows.map { Int($0[$0.count - 1]) } ?? values.count - 1
  }

  mutating func append(_ value: String, row: Int, position: Int? = nil, line: Int? = nil) {
    if rows == nil && row != values.count { rows = (0..<values.count).map { Int32($0) } }
    values.append(value)
    rows?.append(Int32(clamping: row))
    if let position { positions.append(Int32(clamping: position)) }
    if let line { lines?.append(Int32(clamping: line)) }
  }

  mutating func releasePlaces() {
    positions = []
    lines = nil
  }

  /// Learns the table's row count; stores the column densely when at least
  /// four rows in five have a value (an absent value then costs its end, 4
  /// bytes, where a present one no longer needs its row, 4 bytes), and
  /// gives back what growing reserved. An absent value's place is then its
  /// record's, `recordPlace(row)`, as it was before.
  mutating func seal(count: Int, recordPlace: (Int) -> (line: Int32, column: Int32)) {
    rowCount = count
    defer {
      values.trimCapacity()
      if let rows, rows.capacity > rows.count { self.rows = rows.withUnsafeBufferPointer { Array($0) } }
      if positions.capacity > positions.count { positions = positions.withUnsafeBufferPointer { Array($0) } }
    }
    guard let rows, values.count * 5 >= count * 4 else { return }
    var dense = PackedStrings()
    var next = 0
    for row in 0..<count {
      if next < rows.count && Int(rows[next]) == row {
        dense.append(values[next])
        next += 1
      } else {
        dense.append("")
      }
    }
    values = dense
    self.rows = nil
    guard !positions.isEmpty else { return }
    var densePositions = [Int32](repeating: 1, count: count)
    var denseLines = lines.map { _ in [Int32](repeating: 1, count: count) }
    var slot = 0
    for row in 0..<count {
      if slot < rows.count && Int(rows[slot]) == row {
        densePositions[row] = positions[slot]
        if let lines { denseLines?[row] = lines[slot] }
        slot += 1
      } else {
        let place = recordPlace(row)
        densePositions[row] = place.column
        denseLines?[row] = place.line
      }
    }
    positions = densePositions
    lines = denseLines
  }
}
