/// Lists of references in `init`: an API dump's `"genre_ids": [28, 12]`
/// beside a file of genres. A list column named for a table (`genre_ids`,
/// `tags`) whose every item is one of its keys refers to it, a record per
/// item; unnamed lists are left alone, as short numbers fit any table
/// numbered from 1.
extension SchemaInference {
  static func listRefs(
    of shape: Schema.TableShape, among shapes: [Schema.TableShape], keys: [String: Set<String>]
  ) -> [Schema.Reference] {
    var refs: [Schema.Reference] = []
    let table = shape.found.table
    for (index, profile) in shape.profile.columns.enumerated()
    where profile.kind == .list && profile.items > 0 && shape.ref(profile.name) == nil {
      // `genre_ids` → genre, `tags` → tags.
      let name = profile.name
      let stems = Set([
        Naming.squashed(name), stem(name), name.hasSuffix("s") ? stem(String(name.dropLast())) : "",
      ])
      let items = table.columns[index].flatMap(Table.items(of:))
      let targets = shapes.filter { target in
        let names = [Naming.squashed(target.name), Naming.squashed(Naming.singularName(target.name))]
        guard names.contains(where: stems.contains), let targetKeys = keys[target.name] else { return false }
        return missing(items, keys: targetKeys) == 0
      }
      guard targets.count == 1 else { continue }
      refs.append(
        .init(
          column: name, table: targets[0].name,
          reason: "'\(name)' is a list, every item a key of \(targets[0].name): a record per item"))
    }
    return refs
  }
}
