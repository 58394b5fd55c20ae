/// A list column (a JSON array, a column under `lists:`) as a template
/// sees it: `{{tags}}` prints its items joined with ", " ("fantasy,
/// comedy"), as a subtitle does, and `{{#tags}}<li>{{.}}</li>{{/tags}}`
/// writes one item at a time; `count(tags)`, `first(tags)` and the other
/// functions read the items, and `reversed(tags)` and `sorted(tags)` are
/// lists that print the same way.
struct ListText: Sequence, CustomStringConvertible, TemplateTransformable {
  let items: [String]

  func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }

  var description: String { items.joined(separator: ", ") }

  func templateTransform(_ name: String) -> Any? {
    switch name {
    case "reversed": return ListText(items: items.reversed())
    case "sorted": return ListText(items: items.sorted())
    default: return items.templateTransform(name)
    }
  }
}

/// A list a field computes (`tracks`, `distinct(tracks.genre)`,
/// `popular(playlist_tracks.track_id)`): records, text, or lists. It
/// prints as a person reads it, its items joined with ", " — a record by
/// its title — as a list column does, never as Swift describes an array
/// (`["Rock", "Jazz"]`); a section gives the items one at a time.
/// `reversed(…)` and `sorted(…)` (by the text each item prints) are lists
/// that print the same way.
struct ValueList: Sequence, CustomStringConvertible, TemplateTransformable {
  let items: [Any]

  func makeIterator() -> IndexingIterator<[Any]> { items.makeIterator() }

  var description: String { items.map { String(describing: $0) }.joined(separator: ", ") }

  func templateTransform(_ name: String) -> Any? {
    switch name {
    case "reversed": return ValueList(items: items.reversed())
    case "sorted":
      return ValueList(
        items: items.map { (String(describing: $0), $0) }.sorted { $0.0 < $1.0 }.map(\.1))
    default: return items.templateTransform(name)
    }
  }
}
