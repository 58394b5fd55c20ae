/// One relational table, stored by column so a million rows cost a few
/// arrays rather than a million objects. Every source (CSV, JSON, JSON
/// Lines, SQLite) fills it through `TableBuilder`, so the stages after
/// loading never know where the rows came from.
public final class Table: @unchecked Sendable {
  public let name: String
  /// The source as the user should see it in an error message: a data file,
  /// or `database.sqlite:Table` for a SQLite table.
  public let file: String
  public let header: [String]
  /// `columns[c][row]`.
  public internal(set) var columns: [[String]]
  /// The key column, or nil when records are keyed by row number.
  public let keyColumn: Int?
  /// Key → row.
  public internal(set) var rowForKey: [String: Int] = [:]
  /// Column → referenced table, for columns declared in `refs`.
  public internal(set) var references: [Int: Table] = [:]
  /// Where each field came from, for error messages.
  var places: FieldPlaces

  init(name: String, file: String, header: [String], keyColumn: Int?, places: FieldPlaces.Kind) {
    self.name = name
    self.file = file
    self.header = header
    self.keyColumn = keyColumn
    self.columns = Array(repeating: [], count: header.count)
    self.places = FieldPlaces(kind: places, width: header.count)
  }

  public var count: Int { columns.first?.count ?? places.rowCount }

  public func column(named name: String) -> Int? { header.firstIndex(of: name) }

  /// The record's id: its key, or its 1-based row number.
  public func key(ofRow row: Int) -> String {
    guard let keyColumn else { return String(row + 1) }
    return columns[keyColumn][row]
  }

  func location(row: Int, column: Int) -> SourceLocation {
    let (line, column) = places.place(row: row, column: column)
    return SourceLocation(file: file, line: line, column: column)
  }

  /// How a message names where a row is: "line 12" in a text file, "row 12"
  /// in a database.
  func describePlace(ofRow row: Int) -> String {
    switch places.kind {
    case .text: return "line \(places.place(row: row, column: 0).line)"
    case .grid: return "row \(row + 1)"
    }
  }
}

/// Where each field of a table was read, kept compactly: text sources (CSV,
/// JSON) store a line per row and a column per field, and a line per field
/// only once some field starts on another line than its row (a quoted
/// newline in CSV, a pretty-printed JSON document). A database needs
/// nothing: its places are the row and column numbers themselves.
struct FieldPlaces {
  enum Kind {
    /// Line and column in a text file.
    case text
    /// Row and column numbers of a query's result.
    case grid
  }

  let kind: Kind
  /// The 1-based line each row starts on (text only).
  var lines: [Int32] = []
  /// `fieldColumns[c][row]`: the 1-based column each field starts at (text only).
  var fieldColumns: [[Int32]]
  /// `fieldLines[c][row]`, once some field is not on its row's line.
  var fieldLines: [[Int32]]?
  /// Rows of a grid.
  var gridRows = 0

  init(kind: Kind, width: Int) {
    self.kind = kind
    self.fieldColumns = kind == .text ? Array(repeating: [], count: width) : []
  }

  var rowCount: Int { kind == .text ? lines.count : gridRows }

  func place(row: Int, column: Int) -> (line: Int, column: Int) {
    switch kind {
    case .grid: return (row + 1, column + 1)
    case .text:
      let line = fieldLines.map { Int($0[column][row]) } ?? Int(lines[row])
      return (line, Int(fieldColumns[column][row]))
    }
  }

  /// Records one text row: its line, and each field's line and column.
  mutating func appendText(line: Int, fieldLines rowFieldLines: [Int]?, columns: [Int]) {
    lines.append(Int32(clamping: line))
    for (c, column) in columns.enumerated() { fieldColumns[c].append(Int32(clamping: column)) }
    guard let rowFieldLines else {
      if fieldLines != nil {
        for c in 0..<columns.count { fieldLines?[c].append(Int32(clamping: line)) }
      }
      return
    }
    if fieldLines == nil {
      if rowFieldLines.allSatisfy({ $0 == line }) { return }
      // First field off its row's line: from now on keep a line per field.
      let previous = lines.dropLast()
      fieldLines = Array(repeating: Array(previous), count: columns.count)
    }
    for (c, fieldLine) in rowFieldLines.enumerated() { fieldLines?[c].append(Int32(clamping: fieldLine)) }
  }

  /// Copies row `row` of `source` as this table's next row (grouped tables).
  mutating func appendCopy(of row: Int, from source: FieldPlaces) {
    switch kind {
    case .grid: gridRows += 1
    case .text:
      let width = source.fieldColumns.count
      appendText(
        line: Int(source.lines[row]),
        fieldLines: source.fieldLines.map { lines in (0..<width).map { Int(lines[$0][row]) } },
        columns: (0..<width).map { Int(source.fieldColumns[$0][row]) })
    }
  }
}
