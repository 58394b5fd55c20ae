/// A list column (a JSON array, a column under `lists:`) as a template
/// sees it: `{{tags}}` prints its items joined with ", " ("fantasy,
/// comedy"), as a subtitle does, and `{{#tags}}<li>{{.}}</li>{{/tags}}`
/// writes one item at a time; `count(tags)`, `first(tags)` and the other
/// functions read the items.
struct ListText: Sequence, CustomStringConvertible {
  let items: [String]

  func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }

  var description: String { items.joined(separator: ", ") }
}
