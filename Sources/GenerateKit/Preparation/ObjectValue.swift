import Foundation

/// A field that holds an object (`"publisher": {"name": …, "url": …}`,
/// read as the dotted columns `publisher.name` and `publisher.url`) as a
/// template sees it: `{{publisher.name}}`, and
/// `{{#publisher}}<a href="{{url}}">{{name}}</a>{{/publisher}}`.
///
/// A member the table has but this record's object lacks is nothing
/// (`NSNull`: no climbing to an enclosing record's `url`); a name that is no
/// member at all climbs as any Mustache name does. `{{publisher}}` writes
/// the object as JSON text, as a CSV or SQLite column holding JSON prints.
final class ObjectValue: CustomStringConvertible, @unchecked Sendable {
  let table: Table
  let row: Int
  /// The object's dotted name (`publisher`, `publisher.address`).
  let path: String

  private init(table: Table, row: Int, path: String) {
    self.table = table
    self.row = row
    self.path = path
  }

  /// The value of the dotted name `path` in a row: text (typed as its
  /// column is), an object, or `NSNull` when the row holds neither; nil
  /// when the table has no such column or object.
  static func value(_ table: Table, row: Int, path: String) -> Any? {
    let column = table.column(named: path)
    if let column, let value = RecordContext.cell(table, row: row, column: column) { return value }
    guard table.objects[path] != nil else { return column == nil ? nil : NSNull() }
    return holdsValue(table, row: row, path: path)
      ? ObjectValue(table: table, row: row, path: path) : NSNull()
  }

  /// Whether any member of the object, however deep, has a value in the row.
  private static func holdsValue(_ table: Table, row: Int, path: String) -> Bool {
    for member in table.objects[path] ?? [] {
      let name = path + "." + member
      if let column = table.column(named: name), !table.text(row: row, column: column).isEmpty { return true }
      if table.objects[name] != nil, holdsValue(table, row: row, path: name) { return true }
    }
    return false
  }

  func child(named name: String) -> Any? {
    guard table.objects[path]?.contains(name) == true else { return nil }
    return Self.value(table, row: row, path: path + "." + name)
  }

  /// The object as compact JSON, members in the order first read: text
  /// quoted, numbers and booleans as they were, lists as arrays of text.
  var description: String {
    var members: [String] = []
    for member in table.objects[path] ?? [] {
      let name = path + "." + member
      var json: String?
      if let column = table.column(named: name) {
        let text = table.text(row: row, column: column)
        if table.lists.contains(column) {
          let items = table.items(row: row, column: column)
          if !items.isEmpty { json = "[" + items.map(ScriptStrings.quoted).joined(separator: ",") + "]" }
        } else if !text.isEmpty {
          let raw = table.booleanColumns.contains(column) || table.numberColumns.contains(column)
          json = raw ? text : ScriptStrings.quoted(text)
        }
      }
      if json == nil, let object = Self.value(table, row: row, path: name) as? ObjectValue {
        json = object.description
      }
      if let json { members.append(ScriptStrings.quoted(member) + ":" + json) }
    }
    return "{" + members.joined(separator: ",") + "}"
  }
}
