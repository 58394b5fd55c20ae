/// One relational table, stored by column so a million rows cost a few
/// arrays rather than a million objects.
public final class Table: @unchecked Sendable {
  public let name: String
  /// The data file as the user should see it in an error message.
  public let file: String
  public let header: [String]
  /// `columns[c][row]`.
  public internal(set) var columns: [[String]]
  /// The 1-based line each row starts on.
  public internal(set) var lines: [Int32]
  /// `fieldColumns[c][row]`: the 1-based column each field starts at.
  var fieldColumns: [[Int32]]
  /// The key column, or nil when records are keyed by row number.
  public let keyColumn: Int?
  /// Key → row.
  public internal(set) var rowForKey: [String: Int] = [:]
  /// Column index → referenced table, for columns declared in `refs`.
  public internal(set) var references: [Int: Table] = [:]

  init(name: String, file: String, header: [String], keyColumn: Int?) {
    self.name = name
    self.file = file
    self.header = header
    self.keyColumn = keyColumn
    self.columns = Array(repeating: [], count: header.count)
    self.fieldColumns = Array(repeating: [], count: header.count)
    self.lines = []
  }

  public var count: Int { lines.count }

  public func column(named name: String) -> Int? { header.firstIndex(of: name) }

  /// The record's id: its key, or its 1-based row number.
  public func key(ofRow row: Int) -> String {
    guard let keyColumn else { return String(row + 1) }
    return columns[keyColumn][row]
  }

  func location(row: Int, column: Int) -> SourceLocation {
    SourceLocation(file: file, line: Int(lines[row]), column: Int(fieldColumns[column][row]))
  }
}
