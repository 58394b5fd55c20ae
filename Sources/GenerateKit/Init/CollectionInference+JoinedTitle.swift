/// A title that two other columns make together: MASS's Cars93 has
/// `Manufacturer` (Acura), `Model` (Integra) and `Make` ("Acura Integra"),
/// and a person titles the car by the whole name, which no title word
/// names and which its parts, shorter, would otherwise beat.
extension CollectionInference {
  /// At most this many columns are searched for a joined one (each
  /// candidate is compared with every other column on its first row).
  static let joinedTitleColumns = 200
  /// Rows compared to decide that a column joins two others.
  static let joinedTitleSample = 200

  /// A text column whose values are, in nine rows in ten or more, the
  /// values of two other columns joined by a space (`Make` = `Manufacturer`
  /// + " " + `Model`), when `title` is one of the two or the joined column
  /// is as distinct as `title`: the column and its parts.
  static func joinedTitle(for title: ColumnProfile, in shape: Schema.TableShape) -> (
    column: ColumnProfile, parts: (String, String)
  )? {
    let table = shape.found.table
    let profiles = shape.profile.columns
    guard profiles.count <= joinedTitleColumns, table.count > 0 else { return nil }
    let sample = Array(0..<min(table.count, joinedTitleSample))
    func index(_ name: String) -> Int? { table.column(named: name) }
    for candidate in profiles
    where candidate.kind == .text && candidate.name != title.name && shape.ref(candidate.name) == nil
      && candidate.averageWords >= 2 && candidate.filled * 2 >= candidate.rows
      && candidate.uniqueness >= title.uniqueness - 0.05
    {
      guard let joined = index(candidate.name) else { continue }
      // The parts that make the first filled row's value.
      guard let first = sample.first(where: { !table.columns[joined][$0].isEmpty }) else { continue }
      let whole = table.columns[joined][first]
      let heads = profiles.indices.filter { other in
        let value = table.columns[other][first]
        return other != joined && !value.isEmpty && !table.isList(other) && whole.hasPrefix(value + " ")
      }
      for head in heads {
        let rest = String(whole.dropFirst(table.columns[head][first].count + 1))
        for tail in profiles.indices
        where tail != joined && tail != head && !table.isList(tail) && table.columns[tail][first] == rest {
          var matches = 0
          var filled = 0
          for row in sample where !table.columns[joined][row].isEmpty {
            filled += 1
            if table.columns[joined][row] == table.columns[head][row] + " " + table.columns[tail][row] {
              matches += 1
            }
          }
          let parts = (profiles[head].name, profiles[tail].name)
          guard matches * 10 >= filled * 9 else { continue }
          let named = Naming.words(title.name).map(Naming.singular).contains(where: titleWords.contains)
          if title.name == parts.0 || title.name == parts.1
            || (!named && candidate.uniqueness >= title.uniqueness)
          {
            return (candidate, parts)
          }
        }
      }
    }
    return nil
  }
}
