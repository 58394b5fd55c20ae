import Foundation

/// Fields that hold several values: a JSON array (`"tags": ["fantasy",
/// "comedy"]`), or a text column declared under `lists:` with its separator
/// (`rock;pop;indie`). A list is one cell, its items joined by U+001F: the
/// loader refuses control characters in text, so no item can hold one, and
/// the column stays one array of strings with one place per record —
/// sparse, dense and sealed as any other. Everything that reads a cell for
/// a person (a page, a subtitle) or for the expression language goes
/// through `items` or `text`, never the stored string.
extension Table {
  /// Between the items of a list cell.
  static let itemSeparator: Character = "\u{1F}"
  static let itemSeparatorByte: UInt8 = 0x1F

  /// Whether column `column` holds lists.
  public func isList(_ column: Int) -> Bool { lists.contains(column) }

  /// A cell's items; a cell of a plain column is one item, or none when
  /// empty.
  public func items(row: Int, column: Int) -> [String] {
    Self.items(of: columns[column][row])
  }

  /// A cell as a person reads it: a list's items joined by ", ".
  public func text(row: Int, column: Int) -> String {
    let value = columns[column][row]
    guard lists.contains(column) else { return value }
    return Self.display(value)
  }

  static func items(of cell: String) -> [String] {
    cell.split(separator: itemSeparator).map(String.init)
  }

  /// A stored list as text: "Terry Pratchett, Neil Gaiman".
  static func display(_ cell: String) -> String {
    guard cell.utf8.contains(itemSeparatorByte) else { return cell }
    return items(of: cell).joined(separator: ", ")
  }

  /// Items as one cell: empty items (`""`, a null in the array) dropped.
  static func cell(ofItems items: [String]) -> String {
    items.filter { !$0.isEmpty }.joined(separator: String(itemSeparator))
  }

  /// A text value cut at a declared separator, each item trimmed of
  /// spaces: `rock; pop;;indie` → rock, pop, indie.
  static func cell(splitting text: String, by separator: String) -> String {
    guard !separator.isEmpty, text.contains(separator) else {
      return text.trimmingCharacters(in: .whitespaces)
    }
    return cell(
      ofItems: text.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) })
  }
}
