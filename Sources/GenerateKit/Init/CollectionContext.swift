/// The schema with the chosen titles, and the questions the inference asks
/// of it.
struct CollectionContext {
  let schema: Schema
  let titles: [String: ColumnProfile]

  func isCollection(_ table: String) -> Bool { titles[table] != nil }

  /// A small table of titles that a larger, non-join table refers to.
  func isCodeTable(_ name: String) -> Bool {
    guard let table = schema.table(name), titles[name] != nil,
      table.profile.rows <= CollectionInference.codeTableRows
    else { return false }
    return schema.children(of: name).contains { child in
      !child.table.isJoin && child.table.name != name && table.profile.rows * 10 <= child.table.profile.rows
    }
  }

  func codeFacet(_ table: Schema.TableShape, title: ColumnProfile) -> SitePlan.Facet {
    let singular = Naming.singularName(table.name)
    let id = Naming.id(singular, fallback: "facet")
    let values = table.profile.rows <= CollectionInference.scopeValues ? allValues(table, title.name) : []
    return SitePlan.Facet(
      id: id, label: Naming.label(singular), icon: FacetIcons.icon(forName: singular),
      reason: "\(table.name) has \(table.profile.rows) records, each named by '\(title.name)'", values: values
    )
  }

  func allValues(_ table: Schema.TableShape, _ column: String) -> [String] {
    guard let index = table.found.table.column(named: column) else { return [] }
    var seen = Set<String>()
    return table.found.table.columns[index].filter { !$0.isEmpty && seen.insert($0).inserted }
  }

  /// Text (or a year) of few values that repeat: a facet.
  func isFacetColumn(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard column.name != shape.key, shape.ref(column.name) == nil, column.filled * 2 >= column.rows,
      column.name != titles[shape.name]?.name, column.distinct >= 2,
      column.distinct <= CollectionInference.facetValues, column.distinct * 3 <= column.filled
    else { return false }
    switch column.kind {
    // Single letters are codes a visitor would not recognise as a token
    // until they have labels: the config offers a `labels:` map for them.
    case .text: return column.averageLength <= 40
    case .bool: return true
    case .integer: return Naming.words(column.name).last == "year"
    default: return false
    }
  }

  /// Text values of one or two characters that repeat (`L`, `E`, `A`):
  /// codes that mean something only with a label.
  func isCodeColumn(_ column: ColumnProfile) -> Bool {
    column.kind == .text && column.averageLength < 2 && column.distinct <= CollectionInference.facetValues
  }

  /// Each collection followed by those that refer to it (artists, albums,
  /// tracks), starting from those that refer to no other collection, in
  /// the order the files were given; code tables last.
  func ordered() -> [Schema.TableShape] {
    var result: [Schema.TableShape] = []
    var placed = Set<String>()
    func place(_ shape: Schema.TableShape) {
      guard placed.insert(shape.name).inserted else { return }
      result.append(shape)
      for (child, _) in schema.children(of: shape.name) where !isCodeTable(child.name) { place(child) }
    }
    let main = schema.tables.filter { !isCodeTable($0.name) }
    for shape in main
    where !shape.refs.contains(where: {
      isCollection($0.table) && !isCodeTable($0.table) && $0.table != shape.name
    }) {
      place(shape)
    }
    for shape in main { place(shape) }
    for shape in schema.tables { place(shape) }
    return result
  }

  /// Tables reached from a collection by the records that refer to it:
  /// its children, their children, and the far side of a join table.
  func relatedTables(of shape: Schema.TableShape) -> [(path: String, table: String)] {
    var result: [(String, String)] = []
    func visit(_ table: Schema.TableShape, path: String, depth: Int) {
      for (child, column) in schema.children(of: table.name) where child.name != table.name {
        let childPath = (path.isEmpty ? "" : path + ".") + Naming.expression(child.name)
        if child.isJoin {
          guard let other = child.refs.first(where: { $0.column != column }) else { continue }
          result.append((childPath + "." + Naming.expression(other.column), other.table))
        } else {
          result.append((childPath, child.name))
          if depth < 2 { visit(child, path: childPath, depth: depth + 1) }
        }
      }
    }
    visit(shape, path: "", depth: 1)
    return result
  }

  /// The numeric column named like a score that ranks most records: one
  /// filled in half the rows or more before one mostly empty, and a count
  /// of people (`IMDB_Votes`) before a grade (`IMDB_Rating`).
  func scoreColumn(_ shape: Schema.TableShape) -> ColumnProfile? {
    let candidates = shape.profile.columns.enumerated().filter { _, column in
      (column.kind == .integer || column.kind == .number) && Self.isNamedLikeAScore(column.name)
    }
    return candidates.min { a, b in
      func rank(_ item: (offset: Int, element: ColumnProfile)) -> (Int, Int, Int) {
        let column = item.element
        let grade = Naming.words(column.name).contains { CollectionInference.gradeWords.contains($0) }
        return (column.filled * 2 >= column.rows ? 0 : 1, grade ? 1 : 0, item.offset)
      }
      return rank(a) < rank(b)
    }?.element
  }

  /// A score word ends the name, or comes before a count or a year only
  /// (`rating`, `rating_count`, `population_2020`): `Weight_in_lbs` and
  /// `score_difference` measure something else.
  static func isNamedLikeAScore(_ name: String) -> Bool {
    var words = Naming.words(name)
    while let last = words.last, words.count > 1,
      CollectionInference.scoreTailWords.contains(last) || last.allSatisfy(\.isNumber)
    {
      words.removeLast()
    }
    return words.last.map(CollectionInference.scoreWords.contains) ?? false
  }

  /// A key of short codes without spaces (`LAX`, `00M`, `de`): what a
  /// person types, so searched. Numbers and long tokens (uuids) are not.
  static func isCodeKey(_ column: ColumnProfile) -> Bool {
    column.kind == .text && column.maxLength <= 12 && column.averageWords <= 1
      && column.samples.contains { $0.contains { $0.isLetter } }
  }

  /// A numeric column named like a score; else how many records refer to
  /// it, followed down through the tables that refer to those.
  func popularity(of shape: Schema.TableShape) -> (String?, String?) {
    if let column = scoreColumn(shape) {
      return (Naming.expression(column.name), "the number '\(column.name)' is named like a score")
    }
    func terms(_ table: Schema.TableShape, depth: Int, seen: Set<String>) -> [String] {
      var result: [String] = []
      for (child, _) in schema.children(of: table.name) where !seen.contains(child.name) {
        let name = Naming.expression(child.name)
        // A child ranked by its own score counts once; else by what refers to it.
        let deeper =
          child.isJoin || depth >= 3 || scoreColumn(child) != nil
          ? [] : terms(child, depth: depth + 1, seen: seen.union([child.name]))
        result += deeper.isEmpty ? [name] : deeper.map { name + "." + $0 }
      }
      return result
    }
    let found = terms(shape, depth: 1, seen: [shape.name])
    guard !found.isEmpty else { return (nil, nil) }
    let expression = found.map { "count(\($0))" }.joined(separator: " + ")
    return (expression, "how many records refer to it (\(found.joined(separator: ", ")))")
  }

  /// Fields for the page, the subtitle and search: the records it refers
  /// to (two steps deep), a duration, a count of the records that refer to
  /// it; its other short text is searched.
  /// `alsoTitled`: other columns the title is made of (a person's first
  /// and last names), neither subtitled nor searched again.
  func addFields(
    to plan: inout SitePlan.Collection, shape: Schema.TableShape, title: ColumnProfile,
    alsoTitled: Set<String> = []
  ) {
    let titled = alsoTitled.union([title.name])
    var names = Set<String>()
    func add(_ parts: [String], _ expression: String) -> String {
      var name = Naming.camel(parts)
      if names.contains(name) { name += "\(names.count + 1)" }
      names.insert(name)
      plan.fields.append((name, expression))
      return name
    }
    // The records it refers to, as record fields: links on its page, their
    // titles in the subtitle (`{{artist.title}}`) and searched.
    var parts: [String] = []
    var searched: [String] = []
    for ref in shape.refs {
      guard let target = schema.table(ref.table), let targetTitle = titles[ref.table] else { continue }
      let path = Naming.expression(ref.column)
      // A list of references (`genre_ids`) is named for its table (`genres`).
      let isList = shape.profile.column(named: ref.column)?.kind == .list
      let first = add([isList ? ref.table : Naming.stem(ref.column)], path)
      if isCodeTable(ref.table) { continue }
      // A list of references: links on its page and searched, but no
      // part of a subtitle, which names one record's title.
      if isList {
        searched.append(path + "." + Naming.expression(targetTitle.name))
        continue
      }
      var chain = [first]
      searched.append(path + "." + Naming.expression(targetTitle.name))
      for next in target.refs where next.table != shape.name && !isCodeTable(next.table) {
        guard let nextTitle = titles[next.table] else { continue }
        let nextPath = path + "." + Naming.expression(next.column)
        chain.insert(add([Naming.stem(next.column)], nextPath), at: 0)
        searched.insert(nextPath + "." + Naming.expression(nextTitle.name), at: searched.count - 1)
        break
      }
      parts += chain.map { $0 + ".title" }
    }
    parts = Array(parts.prefix(2))
    if parts.isEmpty, let count = childCount(shape) {
      parts.append(add([count.noun, "count"], count.expression))
    }
    for column in shape.profile.columns where column.kind == .integer {
      let words = Naming.words(column.name)
      if words.contains(where: { $0.hasPrefix("millisecond") }) || words.last == "ms" {
        parts.append(add(["duration"], "duration(\(Naming.expression(column.name)))"))
        break
      }
    }
    if parts.isEmpty {
      for column in shape.profile.columns
      where isFacetColumn(column, of: shape) && parts.count < 2 && !isNearlyConstant(column, of: shape) {
        // A code reads as its label (the facet's map, filled in by hand).
        let id = Naming.id(column.name, fallback: "")
        let expression =
          isCodeColumn(column) && !id.isEmpty
          ? "label(\(Naming.expression(column.name)), '\(id)')" : Naming.expression(column.name)
        parts.append(add([column.name], expression))
      }
    }
    // Else a short text that repeats a little (an airport's city, a
    // region's type), rather than no subtitle or one value for nearly all.
    if parts.isEmpty,
      let column = shape.profile.columns.first(where: { column in
        column.kind == .text && !titled.contains(column.name) && column.name != shape.key
          && shape.ref(column.name) == nil && column.filled * 10 >= column.rows * 9 && column.distinct >= 2
          && column.uniqueness <= 0.9 && column.averageWords <= 4 && column.averageLength <= 30
          && !isNearlyConstant(column, of: shape)
      })
    {
      parts.append(add([column.name], Naming.expression(column.name)))
    }
    // Titles that repeat (a car per model year) are told apart by a date's year.
    if title.uniqueness < 1, plan.distinct == nil, parts.count < 3,
      let date = shape.profile.columns.first(where: { $0.kind == .date && $0.filled * 10 >= $0.rows * 9 })
    {
      parts.append(add(["year"], "year(\(Naming.expression(date.name)))"))
    }
    if !parts.isEmpty {
      plan.subtitle = ([plan.singular] + parts.map { "{{\($0)}}" }).joined(separator: " · ")
    }
    plan.search = searched
    for column in shape.profile.columns
    where column.kind == .text && !titled.contains(column.name) && shape.ref(column.name) == nil
      && (column.name != shape.key || Self.isCodeKey(column)) && !isFacetColumn(column, of: shape)
      && column.averageWords <= 40
      && column.filled * 10 >= column.rows && column.uniqueness > 0.05
    {
      guard plan.search.count < CollectionInference.maxSearched else {
        plan.searchLeftOut += 1
        continue
      }
      plan.search.append(Naming.expression(column.name))
      if column.name == shape.key { plan.codeKey = Naming.expression(column.name) }
    }
  }

  /// One value in nine of ten rows or more (`USA` for 3,372 of 3,376
  /// airports): a subtitle showing it says nothing.
  func isNearlyConstant(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard let index = shape.found.table.column(named: column.name), column.filled > 0 else { return false }
    var counts: [String: Int] = [:]
    for value in shape.found.table.columns[index] where !value.isEmpty { counts[value, default: 0] += 1 }
    return (counts.values.max() ?? 0) * 10 >= column.filled * 9
  }

  /// The records that refer to it, counted for a subtitle: the largest
  /// table among its children (through a join table, the far side).
  func childCount(_ shape: Schema.TableShape) -> (noun: String, expression: String)? {
    var best: (noun: String, expression: String, rows: Int)?
    for (child, column) in schema.children(of: shape.name) where child.name != shape.name {
      var noun = child.name
      if child.isJoin, let other = child.refs.first(where: { $0.column != column }) { noun = other.table }
      if !child.isJoin && !isCollection(child.name) { continue }
      if child.profile.rows > best?.rows ?? -1 {
        let singular = Naming.words(Naming.singularName(noun)).joined(separator: " ")
        let plural = Naming.words(noun).joined(separator: " ")
        best = (
          Naming.singularName(noun),
          "plural(count(\(Naming.expression(child.name))), '\(singular)', '\(plural)')", child.profile.rows
        )
      }
    }
    return best.map { ($0.noun, $0.expression) }
  }
}
