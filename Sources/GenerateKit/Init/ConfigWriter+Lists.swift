/// What `tables:` says about lists: a CSV column's `lists:` entry with
/// its separator, and a comment naming the fields read as lists and why,
/// so a person reading the config sees what became of each array.
extension ConfigWriter {
  /// Comments for a table's list columns.
  static func listComments(_ shape: Schema.TableShape) -> [String] {
    let table = shape.found.table
    if !shape.found.lists.isEmpty { return shape.found.lists.map(\.reason) }
    let lists = table.header.indices.filter(table.isList)
    guard !lists.isEmpty else { return [] }
    var comments = [
      "lists: \(lists.map { YAMLWriter.named(table.header[$0]) }.joined(separator: ", ")) (arrays: each item is searched and filtered by on its own)"
    ]
    let ofObjects = lists.filter(table.listsOfObjects.contains)
    if !ofObjects.isEmpty {
      comments.append(
        "\(ofObjects.map { YAMLWriter.named(table.header[$0]) }.joined(separator: ", ")): fields of a list of objects, each read as a list of its own (not a table)"
      )
    }
    return comments
  }

  /// `lists: { genres: ";" }` for the columns of a CSV file found to hold
  /// items with a separator; nil when there are none.
  static func listsPart(_ shape: Schema.TableShape) -> String? {
    guard !shape.found.lists.isEmpty else { return nil }
    let pairs = shape.found.lists.map { YAMLWriter.flowEntry($0.column, YAMLWriter.quoted($0.separator)) }
    return "lists: { \(pairs.joined(separator: ", ")) }"
  }

  /// Comments tying a child table (`itemsOf:`) to its parent, on both.
  static func childComments(_ shape: Schema.TableShape, _ schema: Schema) -> [String] {
    if case .items(_, let parent, let list, let reference) = shape.found.source {
      return [
        "itemsOf: each object in the list \(YAMLWriter.named(list)) of a \(parent) record is a record here, \(YAMLWriter.named(reference)) naming that record"
      ]
    }
    return schema.tables.compactMap { child in
      guard case .items(_, let parent, let list, _) = child.found.source, parent == shape.name else {
        return nil
      }
      return
        "\(YAMLWriter.named(list)): a list of objects, read as the table \(child.name) (one record per object)"
    }
  }
}
