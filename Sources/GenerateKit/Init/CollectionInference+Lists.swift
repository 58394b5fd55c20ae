/// What `init` makes of list columns (`"tags": ["fantasy", "comedy"]`,
/// a CSV column of `rock;pop`): every list of text is searched, one whose
/// few values recur across records (tags, genres) is also a facet, and the
/// first list of names gives a subtitle when nothing else did. Apart from
/// the rules for single values, which see a list's kind (`.list`) and pass
/// it by.
extension CollectionContext {
  /// At most this many values for a list to become a facet: tokens are
  /// found by what is typed, so more than a single value's 30 stay usable.
  static let listFacetValues = 200

  /// A list of text whose items recur: each value is used by two records
  /// or more on average. Whole numbers only as years: a list of numbers
  /// is most often of ids (`genre_ids: [28, 12]`), meaningless as tokens.
  func isListFacet(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard column.kind == .list, shape.ref(column.name) == nil, !isBesideAName(column, of: shape),
      let itemKind = column.itemKind,
      itemKind == .text || itemKind == .bool
        || (itemKind == .integer && Naming.words(column.name).last.map { $0.hasPrefix("year") } == true),
      column.filled * 3 >= column.rows,
      column.distinct >= 2, column.distinct <= Self.listFacetValues, column.distinct * 2 <= column.items,
      column.averageLength <= 40, !Self.isGeometry(column.name)
    else { return false }
    // Codes per record (countryinfo's `borders`: FRA, ESP; `languages`: ca,
    // fr; `timezones`: UTC+01:00) are a relation or a lookup, not what a
    // person filters by: tokens a visitor would have to decode.
    return !isCodeList(column, of: shape)
  }

  /// Whether nine in ten of a list's distinct items are codes: one word
  /// of three letters or fewer in one case (`FRA`, `ca`), or a word with
  /// digits and three letters at most (`UTC+01:00`, `B2`). Tags (`rock`,
  /// `hip hop`, `pop`) are words.
  func isCodeList(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard let index = shape.found.table.column(named: column.name) else { return false }
    var seen = Set<String>()
    var codes = 0
    for cell in shape.found.table.columns[index] where !cell.isEmpty {
      for item in Table.items(of: cell) where seen.insert(item).inserted && Self.isCode(item) { codes += 1 }
      if seen.count >= 2_000 { break }
    }
    return !seen.isEmpty && codes * 10 >= seen.count * 9
  }

  static func isCode(_ item: String) -> Bool {
    guard !item.isEmpty, !item.contains(" ") else { return false }
    let letters = item.filter(\.isLetter)
    if item.contains(where: \.isNumber) { return letters.count <= 3 }
    return letters.count == item.count && letters.count <= 3
      && (letters == letters.uppercased() || letters == letters.lowercased())
  }

  /// A part of a geometry (GeoJSON's `geometry.type`, `geometry.coordinates`,
  /// a `wkt` or `bbox` column): shapes for a map, never a facet nor a
  /// subtitle.
  static func isGeometry(_ name: String) -> Bool {
    let geometric: Set<String> = ["geometry", "geom", "geojson", "wkt", "wkb", "bbox", "coordinates"]
    return name.split(separator: ".").contains { geometric.contains($0.lowercased()) }
      || Naming.words(name).contains { geometric.contains($0) }
  }

  /// A list of text: searched, each item's words.
  func isSearchedList(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    column.kind == .list && shape.ref(column.name) == nil && column.itemKind == .text && column.filled > 0
      && column.averageWords <= 40 && !isBesideAName(column, of: shape)
  }

  /// A field of a list of references other than their name (an author's
  /// `id` beside `name`: `DataFileReader.namedColumn`): the name is what
  /// a person searches and filters by.
  func isBesideAName(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    let table = shape.found.table
    guard let index = table.column(named: column.name), table.listsOfObjects.contains(index),
      let array = table.listArrays[index]
    else { return false }
    let siblings = table.header.indices.filter { table.listArrays[$0] == array }
    guard let name = DataFileReader.namedColumn(of: array, in: table, columns: siblings) else { return false }
    return name != index
  }

  /// Adds the table's lists of text to what is searched, and, when the
  /// plan has no subtitle, the first list filled in most records that is
  /// not a facet (a book's authors) as one, joined with commas.
  func addLists(to plan: inout SitePlan.Collection, shape: Schema.TableShape) {
    for column in shape.profile.columns where isSearchedList(column, of: shape) {
      let expression = Naming.expression(column.name)
      guard !plan.search.contains(expression) else { continue }
      guard plan.search.count < CollectionInference.maxSearched else {
        plan.searchLeftOut += 1
        continue
      }
      plan.search.append(expression)
      if plan.otherNames == nil, Self.isOtherNames(column.name) { plan.otherNames = expression }
    }
    guard plan.subtitle == nil,
      let column = shape.profile.columns.first(where: { column in
        isSearchedList(column, of: shape) && column.filled * 2 >= column.rows
          && !isListFacet(column, of: shape)
      }) ?? shape.profile.columns.first(where: { isSearchedList($0, of: shape) && $0.filled * 2 >= $0.rows })
    else { return }
    var name = Naming.camel([column.name])
    if name.isEmpty { name = "list" }
    while plan.fields.contains(where: { $0.name == name }) { name += "2" }
    // `join` makes one text of the items, which a subtitle shows as
    // "Terry Pratchett, Neil Gaiman"; the list itself would be iterated.
    plan.fields.append((name, "join(\(Naming.expression(column.name)))"))
    plan.subtitle = "\(plan.singular) · {{\(name)}}"
  }

  /// Words that name a list of the record's other names: `alternatenames`
  /// (geonames), `aliases`, `synonyms`, `alt_names`, `other_names`.
  static func isOtherNames(_ name: String) -> Bool {
    let words = Naming.words(name)
    let alone: Set<String> = [
      "alternatenames", "altnames", "othernames", "aliases", "alias", "synonyms", "aka", "nicknames",
    ]
    let before: Set<String> = ["alternate", "alternative", "alt", "other", "also"]
    return words.contains { alone.contains($0) }
      || (words.count >= 2 && before.contains(words[words.count - 2])
        && words.last?.hasPrefix("name") == true)
  }

  /// The facet a list column gives.
  func listFacet(_ column: ColumnProfile, of shape: Schema.TableShape, number: Int) -> SitePlan.Facet {
    SitePlan.Facet(
      id: Naming.id(column.name, fallback: "facet\(number)"), label: Naming.facetLabel(column.name),
      icon: FacetIcons.icon(forName: Naming.singularName(column.name)),
      reason:
        "'\(column.name)' in \(shape.name) is a list of \(column.distinct) values, \(column.items) in all: a record is found by any of its values",
      values: [])
  }
}

extension CollectionContext {
  /// One-hot columns: three or more columns of 0 and 1 (or true and
  /// false) named by words, as R's and pandas' data marks categories
  /// (ggplot2's movies: `Action`, `Comedy`, `Drama`… a column each). One
  /// facet of the names of those set (`flags(…)`), not one facet of 0 and
  /// 1 per column.
  func flagColumns(of shape: Schema.TableShape) -> [ColumnProfile] {
    let flags = shape.profile.columns.filter { column in
      let zeroOne =
        (column.kind == .integer && column.distinct == 2 && (column.maximum ?? 2) == 1)
        || (column.kind == .bool && column.distinct == 2)
      return zeroOne && column.name != shape.key && shape.ref(column.name) == nil
        && column.name.filter(\.isLetter).count >= 2
    }
    return flags.count >= 3 ? flags : []
  }

  /// The facet of a table's flag columns (`flagColumns`): "Tags", a record
  /// under the name of each flag it has set.
  func flagFacet(_ flags: [ColumnProfile], of shape: Schema.TableShape) -> SitePlan.Facet {
    let names = flags.map(\.name)
    let taken = shape.profile.columns.contains { Naming.id($0.name, fallback: "") == "tags" }
    return SitePlan.Facet(
      id: taken ? "flags" : "tags", label: "Tags", icon: "tag",
      reason:
        "\(names.count) columns of \(shape.name) (\(names.prefix(3).joined(separator: ", "))…) hold 0 or 1: one facet of the names of those set",
      values: [])
  }
}
