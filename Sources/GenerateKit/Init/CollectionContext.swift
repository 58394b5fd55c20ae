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
      column.name != titles[shape.name]?.name
    else { return false }
    // A date is a facet by its year, so its years decide, not its dates.
    if column.kind == .date { return isYearFacet(column, of: shape) }
    // What the title begins with (Cars93's `Manufacturer`, "Acura" of
    // "Acura Integra"), when it repeats, is the group a record belongs to,
    // a maker or a brand: a facet of twice as many values, each of two
    // rows or more on average.
    let head =
      column.distinct <= Self.facetValues(rows: column.rows) * 2 && column.distinct * 2 <= column.filled
      && isTitleHead(column, of: shape)
    guard column.distinct >= 2,
      // ISO country codes whatever their count: a list every visitor
      // knows (the 7,900 airports with an IATA code are in 231 countries).
      column.distinct <= Self.facetValues(rows: column.rows)
        || (column.distinct <= CountryCodes.names.count && countryNames(column, of: shape) != nil) || head,
      column.distinct * 3 <= column.filled || head,
      // One value in nine rows of ten and the rest strays of one or two
      // rows each (`USA` for 3,363 of 3,376 US airports, vega_datasets)
      // filters nothing out; 5 territories among 51 states, or 62
      // macrolanguages among 7,844 languages, do.
      !isStrayed(column, of: shape), !Self.isGeometry(column.name)
    else { return false }
    // A version of few values (the emoji package's `E`: 0.6 … 15.1, 18 of
    // them) is what a record belongs to, not a measure.
    if column.kind == .integer || column.kind == .number,
      Self.versionWords.contains(Naming.words(column.name).last ?? "")
    {
      return column.distinct <= CollectionInference.facetValues
    }
    switch column.kind {
    // Single letters are codes a visitor would not recognise as a token
    // until they have labels: the config offers a `labels:` map for them.
    // Nor are codes of digits without a list naming them (geonames'
    // `admin1code`: 07, 11, ENG), unless few enough to label by hand.
    // Nor are colours (mendeleev's `cpk_color`: `#ff0d0d`): a value for a
    // swatch, which no visitor filters by.
    case .text:
      return column.averageLength <= 40 && !column.samples.allSatisfy(Self.isColour)
        && (isCodeColumn(column) || countryNames(column, of: shape) != nil || !isDigitCode(column, of: shape))
    case .bool: return true
    // A year, or a few small whole numbers that neither score nor name a
    // record (vega_datasets' cars: 3 to 8 `Cylinders`).
    case .integer:
      let last = Naming.words(column.name).last ?? ""
      return last == "year"
        || (column.distinct <= 12 && Self.scoreKind(column) == nil
          && !SchemaInference.idSuffixes.contains(last)
          && !CollectionInference.countTailWords.contains(last))
    default: return false
    }
  }

  /// A column of yes or no: `true`/`false`, `Yes`/`No`, or 0 and 1.
  static func isYesNo(_ column: ColumnProfile) -> Bool {
    column.kind == .bool || (column.kind == .integer && column.distinct <= 2 && (column.maximum ?? 2) <= 1)
  }

  /// Text whose value begins the record's title, followed by a space, in
  /// nine sampled rows in ten (`Manufacturer` "Acura" of `Make` "Acura
  /// Integra").
  func isTitleHead(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    let table = shape.found.table
    guard column.kind == .text, let title = titles[shape.name], title.name != column.name,
      let titleIndex = table.column(named: title.name), let index = table.column(named: column.name)
    else { return false }
    var filled = 0
    var heads = 0
    for row in 0..<min(table.count, CollectionInference.joinedTitleSample) {
      let value = table.columns[index][row]
      guard !value.isEmpty else { continue }
      filled += 1
      let whole = table.columns[titleIndex][row]
      if whole.count > value.count, whole.hasPrefix(value + " ") { heads += 1 }
    }
    return filled > 0 && heads * 10 >= filled * 9
  }

  /// A date column as its facet reads it, by the year: a facet when its
  /// years are few and repeat (the cars' model `Year`, written 1970-01-01:
  /// 12 years over 406 cars), however many dates it holds — 10,000
  /// timestamps over twenty years are twenty years to filter by, while
  /// the deaths of a few days of one year are one, which filters nothing.
  func isYearFacet(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard let index = shape.found.table.column(named: column.name) else { return false }
    var years: [Substring: Int] = [:]
    for value in shape.found.table.columns[index] where !value.isEmpty {
      years[value.prefix(4), default: 0] += 1
    }
    let counts = years.values.sorted(by: >)
    guard counts.count >= 2, counts.count <= Self.facetValues(rows: column.rows),
      counts.count * 3 <= column.filled
    else { return false }
    // One year in nine rows of ten, the others strays (`isStrayed`).
    return !(counts[0] * 10 >= column.filled * 9 && counts[1] <= 2)
  }

  /// Short codes, a quarter of them or more with digits (`07`, `11`,
  /// `ENG`, `A8`): region codes of a gazetteer, which mean nothing as a
  /// token without their names. Codes of letters alone (`TX`, `CA`) a
  /// reader often knows.
  func isDigitCode(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard column.kind == .text, column.averageLength <= 4 else { return false }
    let values = allValues(shape, column.name)
    let digits = values.filter { $0.contains(where: \.isNumber) }.count
    return !values.isEmpty && digits * 4 >= values.count
  }

  /// Names of numbers that say which release a record came in.
  static let versionWords: Set<String> = ["version", "release"]

  /// A version or release that each record has its own (Debian's
  /// `version`: 12 is Bookworm, 11 Bullseye): a number a person types to
  /// name the record, so searched though numbers otherwise are not. A
  /// version many records share (the emoji package's 0.6 … 15.1) is a
  /// facet instead.
  static func namesItsRecord(_ column: ColumnProfile) -> Bool {
    (column.kind == .integer || column.kind == .number)
      && versionWords.contains(Naming.words(column.name).last ?? "")
      && column.filled * 2 >= column.rows && column.distinct == column.filled && column.distinct >= 2
  }

  /// A facet column as the facet reads it: a date by its year.
  func facetExpression(_ column: ColumnProfile) -> String {
    column.kind == .date ? "year(\(Naming.expression(column.name)))" : Naming.expression(column.name)
  }

  /// How many values a facet may take: 30, or more in a large table,
  /// twice the square root of its rows — the 234 countries of 28,000
  /// airports (airportsdata) and the 57 states of 3,376 (vega_datasets)
  /// are what a person filters them by, where 30 would allow neither.
  static func facetValues(rows: Int) -> Int {
    max(CollectionInference.facetValues, Int((Double(rows).squareRoot() * 2).rounded(.down)))
  }

  /// Text values of one or two characters that repeat (`L`, `E`, `A`):
  /// codes that mean something only with a label.
  func isCodeColumn(_ column: ColumnProfile) -> Bool {
    column.kind == .text && column.averageLength < 2 && column.distinct <= CollectionInference.facetValues
  }

  /// A column of ISO 3166-1 country codes (`GB`, `GBR`): each code's
  /// English name (`CountryCodes`), for its `labels:` map.
  func countryNames(_ column: ColumnProfile, of shape: Schema.TableShape) -> [String: String]? {
    guard column.kind == .text, column.maxLength <= 3 else { return nil }
    return CountryCodes.names(of: allValues(shape, column.name), column: column.name)
  }

  /// Codes a `labels:` map turns into words: short codes to fill in by
  /// hand, or country codes `init` names.
  func isLabelled(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    isCodeColumn(column) || countryNames(column, of: shape) != nil
  }

  /// Each collection followed by those that refer to it (artists, albums,
  /// tracks), starting from those that refer to no other collection, in
  /// the order the files were given, the one most tables refer to first;
  /// code tables last. A table more tables refer to than any of those
  /// comes before them all: mendeleev's elements, which its isotopes,
  /// radii and oxidation states refer to, before the 18 groups that it
  /// refers to (and that only it refers to); countries joined to their
  /// languages and to their currencies, before the regions they are in.
  func ordered() -> [Schema.TableShape] {
    var result: [Schema.TableShape] = []
    var placed = Set<String>()
    func place(_ shape: Schema.TableShape) {
      guard placed.insert(shape.name).inserted else { return }
      result.append(shape)
      for (child, _) in schema.children(of: shape.name) where !isCodeTable(child.name) { place(child) }
    }
    // The tables that refer to it; the collections join tables tie it to
    // too, when they are two or more (countries that speak languages and
    // use currencies are what a database of them is about, though only its
    // five regions have a table of their own that refers to nothing;
    // Chinook's tracks are joined to playlists alone, as invoices are no
    // collection).
    func referrers(_ shape: Schema.TableShape) -> Int {
      let children = schema.children(of: shape.name).map(\.table).filter { $0.name != shape.name }
      let joined = Set(
        children.filter(\.isJoin).compactMap { join in join.refs.first { $0.table != shape.name }?.table }
          .filter(isCollection))
      return Set(children.filter { !$0.isJoin }.map(\.name)).count + (joined.count >= 2 ? joined.count : 0)
    }
    let main = schema.tables.filter { !isCodeTable($0.name) }
    let roots = main.filter { shape in
      !shape.refs.contains(where: {
        isCollection($0.table) && !isCodeTable($0.table) && $0.table != shape.name
      })
    }
    let counts = Dictionary(main.map { ($0.name, referrers($0)) }, uniquingKeysWith: { a, _ in a })
    let rootMost = roots.map { counts[$0.name] ?? 0 }.max() ?? 0
    if let hub = main.filter({ isCollection($0.name) }).max(by: {
      (counts[$0.name] ?? 0) < (counts[$1.name] ?? 0)
    }),
      (counts[hub.name] ?? 0) > rootMost
    {
      place(hub)
    }
    for shape in roots.enumerated().sorted(by: { a, b in
      let (x, y) = (counts[a.element.name] ?? 0, counts[b.element.name] ?? 0)
      return x != y ? x > y : a.offset < b.offset
    }).map(\.element) {
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
  /// of people (`IMDB_Votes`, a books file's `ratings_count`) before a
  /// grade (`IMDB_Rating`, its `rating`).
  func scoreColumn(_ shape: Schema.TableShape) -> ColumnProfile? {
    let candidates = shape.profile.columns.enumerated().compactMap { offset, column in
      Self.isMeasure(column, in: shape)
        ? nil : Self.scoreKind(column).map { (offset: offset, column: column, grade: $0 == .grade) }
    }
    return candidates.min { a, b in
      func rank(_ item: (offset: Int, column: ColumnProfile, grade: Bool)) -> (Int, Int, Int) {
        (item.column.filled * 2 >= item.column.rows ? 0 : 1, item.grade ? 1 : 0, item.offset)
      }
      return rank(a) < rank(b)
    }?.column
  }

  enum ScoreKind { case count, grade }

  /// Words that name a physical measure of a record.
  static let measureWords: Set<String> = [
    "length", "width", "height", "depth", "wheelbase", "size", "volume", "mass", "horsepower", "price", "mpg",
    "diameter", "radius", "area", "capacity", "speed", "displacement", "temperature", "density",
  ]

  /// A `weight` beside two or more columns named for measures (MASS's
  /// Cars93: `Weight` in pounds among `Length`, `Width`, `Horsepower`,
  /// `Price`) measures the record as they do: not how much it matters.
  static func isMeasure(_ column: ColumnProfile, in shape: Schema.TableShape) -> Bool {
    guard Naming.words(column.name).last.map({ Naming.singular($0.lowercased()) }) == "weight" else {
      return false
    }
    let measures = shape.profile.columns.filter { other in
      other.name != column.name
        && Naming.words(other.name).contains { measureWords.contains(Naming.singular($0.lowercased())) }
    }
    return measures.count >= 2
  }

  /// Whether a numeric column counts who chose a record or grades it, by
  /// its name: a score word ends the name, or comes before or after a
  /// count, an average or a year only (`rating`, `ratings_count`,
  /// `num_votes`, `population_2020`), so `Weight_in_lbs` and
  /// `score_difference` measure something else. A grade word with a count
  /// word is a count (`ratings_count`); a whole number over 100 named like
  /// a grade counts too (GitHub's `stars`, Hacker News' `score`).
  static func scoreKind(_ column: ColumnProfile) -> ScoreKind? {
    guard column.kind == .integer || column.kind == .number else { return nil }
    var words = Naming.words(column.name)
    var counted = false
    var averaged = false
    func isTail(_ word: String) -> Bool {
      CollectionInference.scoreTailWords.contains(word) || word.allSatisfy(\.isNumber)
    }
    func note(_ word: String) {
      if CollectionInference.countTailWords.contains(word) { counted = true }
      if CollectionInference.averageTailWords.contains(word) { averaged = true }
    }
    while let last = words.last, words.count > 1, isTail(last) {
      note(last)
      words.removeLast()
    }
    while let first = words.first, words.count > 1, isTail(first) {
      note(first)
      words.removeFirst()
    }
    // What depends on a record counts who chose it (Debian's "Reverse
    // dependencies", `rdepends`), as `dependents` does.
    if words.count == 2, words[0] == "reverse", ["dependencies", "depends", "deps"].contains(words[1]) {
      return .count
    }
    guard let word = words.last, CollectionInference.scoreWords.contains(word) else { return nil }
    // A weight with a word before it is a measure: an element's
    // `atomic_weight`, a parcel's `net_weight` (a weight alone ranks).
    if word == "weight" && words.count > 1 { return nil }
    if averaged { return .grade }
    let gradeWord = CollectionInference.gradeWords.contains(word)
    if gradeWord && !counted && !(column.kind == .integer && (column.maximum ?? 0) > 100) { return .grade }
    // A dozen at most over twenty records or more is how many a record
    // holds, not how many chose it: a car's `Passengers` (MASS's Cars93:
    // 2 to 8 in 93 cars), a band's `members`.
    if !gradeWord && !counted && column.kind == .integer && column.rows >= 20, let most = column.maximum,
      most <= 12
    {
      return nil
    }
    return .count
  }

  /// With nothing that counts who chose a record, how complete it is: the
  /// fields some records have and others lack, each weighing more the
  /// fewer records have it. In 28,000 airports (airportsdata) London
  /// Heathrow has an IATA code that a third of them have, and the private
  /// strip in Texas called "Heathrow Airport" has none; the ranking reads
  /// popularity after every rule of matching, so this only breaks ties.
  /// Nil when every column is always filled or never (nothing to weigh).
  func completeness(of shape: Schema.TableShape) -> (String?, String?) {
    let title = titles[shape.name]?.name
    var grouped: [String] = []
    let partial = shape.profile.columns.filter { column in
      guard
        column.name != title && column.name != shape.key && shape.ref(column.name) == nil
          && column.filled * 100 >= column.rows && column.filled * 10 <= column.rows * 9
      else { return false }
      guard let group = groupOnly(column, of: shape) else { return true }
      grouped.append("'\(column.name)' is a field of the records whose '\(group.column)' is \(group.value)")
      return false
    }
    // The sparsest first: a field few records have says most about them.
    let chosen = Set(
      partial.sorted { $0.filled < $1.filled }.prefix(CollectionInference.maxCompletenessColumns).map(\.name))
    var terms: [String] = []
    var shares: [String] = []
    for column in shape.profile.columns where chosen.contains(column.name) {
      let share = Double(column.filled) / Double(column.rows)
      let weight = Int(((1 - share) * 10).rounded())
      terms.append("count(\(Naming.expression(column.name)))" + (weight > 1 ? " * \(weight)" : ""))
      shares.append("'\(column.name)' \(Int((share * 100).rounded())) %")
    }
    guard !terms.isEmpty else { return (nil, nil) }
    let left =
      grouped.isEmpty
      ? ""
      : " (not counted: \(grouped.joined(separator: "; ")), which says where a record is, not how complete)"
    return (
      terms.joined(separator: " + "),
      "no number counts who chose a record: how complete it is, a field fewer records have weighing more (filled: \(shares.joined(separator: ", ")))\(left); it only breaks ties of the words, where each word stands in the title aside"
    )
  }

  /// A field that the records of one group have and the others lack: nearly
  /// every record with a value of another column has it, and nearly every
  /// record that has it is one of them. airportsdata's `lid`, the FAA's
  /// local code, is filled for each of 12,579 US airports and 35 in US
  /// territories, none elsewhere: it says an airport is American, not that
  /// it is better known than one abroad (London Heathrow has no `lid`; a
  /// private strip in Texas does). The group is a column of few values
  /// that repeat, as a facet's are.
  func groupOnly(_ column: ColumnProfile, of shape: Schema.TableShape) -> (column: String, value: String)? {
    let table = shape.found.table
    guard let index = table.column(named: column.name) else { return nil }
    let values = table.columns[index]
    for other in shape.profile.columns
    where other.name != column.name && other.kind == .text && other.distinct >= 2
      && other.distinct <= Self.facetValues(rows: other.rows)
    {
      guard let groupIndex = table.column(named: other.name) else { continue }
      let groups = table.columns[groupIndex]
      var withField: [String: Int] = [:]
      var all: [String: Int] = [:]
      for row in 0..<min(values.count, groups.count) where !groups[row].isEmpty {
        all[groups[row], default: 0] += 1
        if !values[row].isEmpty { withField[groups[row], default: 0] += 1 }
      }
      guard let (value, count) = withField.max(by: { $0.value < $1.value }) else { continue }
      let members = all[value] ?? 0
      if count * 20 >= column.filled * 19 && count * 20 >= members * 19 && members < other.filled {
        return (other.name, value)
      }
    }
    return nil
  }

  /// `#ff0d0d`, `#FFF`, `#00000080`: a colour written in hex.
  static func isColour(_ value: String) -> Bool {
    let digits = value.utf8.dropFirst()
    return value.hasPrefix("#") && [3, 4, 6, 8].contains(digits.count)
      && digits.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
  }

  /// A key of short codes without spaces (`LAX`, `00M`, `de`, a code
  /// point's `0041` among `00A0`s): what a person types, so searched.
  /// Numbers and long tokens (uuids) are not.
  static func isCodeKey(_ column: ColumnProfile) -> Bool {
    column.kind == .text && column.maxLength <= 12 && column.averageWords <= 1 && column.hasLetters
  }

  /// A key of names (a time zone table's `city`: Zürich, Ho-Chi-Minh-Stadt)
  /// is what a visitor types as much as the title is, so it is searched; a
  /// key of identifiers (`a3f9-…`, `track_0042`) is not: most of its values
  /// hold a digit or an underscore.
  static func isNamedKey(_ column: ColumnProfile) -> Bool {
    guard column.kind == .text, column.hasLetters, !column.samples.isEmpty else { return false }
    let named = column.samples.filter { value in
      value.contains(where: \.isLetter) && !value.contains(where: { $0.isNumber || $0 == "_" })
    }
    return named.count * 10 >= column.samples.count * 9
  }

  /// A numeric column named like a score; else how many records refer to
  /// it, followed down through the tables that refer to those.
  func popularity(of shape: Schema.TableShape) -> (String?, String?) {
    if let column = scoreColumn(shape) {
      var reason = "the number '\(column.name)' is named like a score"
      if Self.scoreKind(column) == .count {
        let grades = shape.profile.columns.filter { Self.scoreKind($0) == .grade }.map { "'\($0.name)'" }
        if !grades.isEmpty {
          reason =
            "the number '\(column.name)' counts who chose a record, which \(grades.joined(separator: " and ")) only grades"
        }
      }
      return (Naming.expression(column.name), reason)
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
    guard !found.isEmpty else { return completeness(of: shape) }
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
    // Parts that some records leave empty: written so that an empty one
    // leaves no " · " behind ("Airport · " for an airport without a city).
    var optional = Set<String>()
    // Parts written after their label (a number: "Version 12.1").
    var labelled: [String: String] = [:]
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
      // A record it refers to may have no title (mendeleev's groups 3–12
      // are unnamed), and is then absent: "Element · " otherwise.
      if targetTitle.empty > 0 { optional.insert(first + ".title") }
      searched.append(path + "." + Naming.expression(targetTitle.name))
      for next in target.refs where next.table != shape.name && !isCodeTable(next.table) {
        guard let nextTitle = titles[next.table] else { continue }
        let nextPath = path + "." + Naming.expression(next.column)
        chain.insert(add([Naming.stem(next.column)], nextPath), at: 0)
        if target.profile.column(named: next.column).map({ $0.empty > 0 }) ?? false {
          optional.insert(chain[0] + ".title")
        }
        searched.insert(nextPath + "." + Naming.expression(nextTitle.name), at: searched.count - 1)
        break
      }
      parts += chain.map { $0 + ".title" }
      if shape.profile.column(named: ref.column).map({ $0.empty > 0 }) ?? false {
        optional.formUnion(chain.map { $0 + ".title" })
      }
    }
    parts = Array(parts.prefix(2))
    // A count of the record's own items (a book's editions, `itemsOf:`)
    // says less than the names it lists (its authors, `addLists`).
    if parts.isEmpty, let count = childCount(shape),
      !(count.ownItems
        && shape.profile.columns.contains { isSearchedList($0, of: shape) && $0.filled * 2 >= $0.rows })
    {
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
      // Words and years before bare numbers: "Car · USA · 1973", not "Car · 8".
      let columns =
        shape.profile.columns.filter { $0.kind != .integer || Naming.words($0.name).last == "year" }
        + shape.profile.columns.filter { $0.kind == .integer && Naming.words($0.name).last != "year" }
      for column in columns
      where isFacetColumn(column, of: shape) && parts.count < 2 && !isNearlyConstant(column, of: shape)
        && !echoesKind(column, of: shape, singular: plan.singular)
        // The maker the title begins with says it twice ("Acura Integra · Acura").
        && !isTitleHead(column, of: shape)
        // A flag of 0 and 1 (ggplot2's movies: `Comedy`) or true and false
        // reads as nothing in a subtitle ("Movie · 1971 · 1").
        && !Self.isYesNo(column)
        // A code of two or three letters (`GB`) without a label map says
        // little in a subtitle ("Airport · GB"): words come next instead.
        && (isLabelled(column, of: shape) || column.kind != .text || column.averageLength > 3)
      {
        // A code reads as its label (the facet's map: a country's name, or
        // filled in by hand).
        let id = Naming.id(column.name, fallback: "")
        let expression =
          isLabelled(column, of: shape) && !id.isEmpty
          ? "label(\(Naming.expression(column.name)), '\(id)')" : facetExpression(column)
        parts.append(add([column.name], expression))
        if column.empty > 0 { optional.insert(parts[parts.count - 1]) }
        // A number other than a year says nothing alone ("Emoji · 12.1"):
        // it reads with its label ("Emoji · Version 12.1").
        if column.kind == .integer || column.kind == .number,
          Naming.words(column.name).last != "year", !isLabelled(column, of: shape)
        {
          labelled[parts[parts.count - 1]] = Naming.label(column.name)
        }
      }
    }
    // Else two short texts that repeat a little (an airport's city and
    // region), rather than no subtitle or one value for nearly all; a code
    // of two or three letters (`GB`, `TX`) only after a word a reader knows.
    if parts.isEmpty {
      let texts = shape.profile.columns.filter { column in
        column.kind == .text && !titled.contains(column.name) && column.name != shape.key
          && shape.ref(column.name) == nil && column.filled * 10 >= column.rows * 9 && column.distinct >= 2
          && column.uniqueness <= 0.9 && column.averageWords <= 4 && column.averageLength <= 30
          && !isNearlyConstant(column, of: shape) && !echoesKind(column, of: shape, singular: plan.singular)
      }
      let words = texts.filter { $0.averageLength > 3 }
      for column in (words.isEmpty ? texts : words).prefix(2) {
        parts.append(add([column.name], Naming.expression(column.name)))
        if column.empty > 0 { optional.insert(parts[parts.count - 1]) }
      }
    }
    // Titles that repeat (a car per model year) are told apart by a date's year.
    if title.uniqueness < 1, plan.distinct == nil, parts.count < 3,
      let date = shape.profile.columns.first(where: { $0.kind == .date && $0.filled * 10 >= $0.rows * 9 }),
      !plan.fields.contains(where: { $0.expression == "year(\(Naming.expression(date.name)))" })
    {
      parts.append(add(["year"], "year(\(Naming.expression(date.name)))"))
    }
    if !parts.isEmpty {
      plan.subtitle =
        plan.singular
        + parts.map { part in
          // A section on the field itself: `{{#artist}} · {{artist.title}}{{/artist}}`.
          let field = part.split(separator: ".").first.map(String.init) ?? part
          let shown = labelled[part].map { "\($0) {{\(part)}}" } ?? "{{\(part)}}"
          return optional.contains(part) ? "{{#\(field)}} · \(shown){{/\(field)}}" : " · \(shown)"
        }.joined()
    }
    plan.search = searched
    for column in shape.profile.columns
    where (column.kind == .text || Self.namesItsRecord(column)) && !titled.contains(column.name)
      && shape.ref(column.name) == nil
      && (column.name != shape.key || Self.isCodeKey(column) || Self.isNamedKey(column))
      && !isFacetColumn(column, of: shape)
      && column.averageWords <= 40
      && column.filled * 10 >= column.rows && column.uniqueness > 0.05
    {
      // A translation of the title (pycountry's `name_de`: "Deutschland")
      // names the record as the title does, in every language given.
      guard
        plan.search.count < CollectionInference.maxSearched
          || CollectionInference.translated(column.name, in: shape) == title.name
      else {
        plan.searchLeftOut += 1
        continue
      }
      plan.search.append(Naming.expression(column.name))
      if column.name == shape.key && Self.isCodeKey(column) { plan.codeKey = Naming.expression(column.name) }
    }
    // Without a key of codes, a column of codes that nearly every record has
    // and nearly none shares is one (countryinfo's `code`: 254 countries,
    // three codes twice, so no key): `DE` names Germany there too.
    if plan.codeKey == nil,
      let code = shape.profile.columns.first(where: { column in
        Self.isCodeKey(column) && column.filled * 20 >= column.rows * 19
          && column.distinct * 20 >= column.filled * 19
          && plan.search.contains(Naming.expression(column.name))
      })
    {
      plan.codeKey = Naming.expression(code.name)
    }
  }

  /// A column whose values name the kind of record the subtitle already
  /// starts with (`kind` in the `us` package's states: "state" or
  /// "territory"): "State · state" says it twice.
  func echoesKind(_ column: ColumnProfile, of shape: Schema.TableShape, singular: String) -> Bool {
    guard let index = shape.found.table.column(named: column.name) else { return false }
    let kind = singular.lowercased()
    let length = kind.utf8.count
    // Lengths first: lower-casing every value of a million rows costs seconds.
    return shape.found.table.columns[index].contains { $0.utf8.count == length && $0.lowercased() == kind }
  }

  /// One value in nine of ten rows or more (`USA` for 3,372 of 3,376
  /// airports): a subtitle showing it says nothing.
  func isNearlyConstant(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard let index = shape.found.table.column(named: column.name), column.filled > 0 else { return false }
    var counts: [String: Int] = [:]
    for value in shape.found.table.columns[index] where !value.isEmpty { counts[value, default: 0] += 1 }
    return (counts.values.max() ?? 0) * 10 >= column.filled * 9
  }

  /// Nearly constant (`isNearlyConstant`), and no other value held by
  /// more than two rows.
  func isStrayed(_ column: ColumnProfile, of shape: Schema.TableShape) -> Bool {
    guard column.kind != .list, let index = shape.found.table.column(named: column.name), column.filled > 0
    else { return false }
    var counts: [String: Int] = [:]
    for value in shape.found.table.columns[index] where !value.isEmpty { counts[value, default: 0] += 1 }
    let sorted = counts.values.sorted(by: >)
    return sorted[0] * 10 >= column.filled * 9 && (sorted.count < 2 || sorted[1] <= 2)
  }

  /// The records that refer to it, counted for a subtitle: the largest
  /// table among its children (through a join table, the far side).
  /// `ownItems`: the child is a list of the record's own (`itemsOf:`).
  func childCount(_ shape: Schema.TableShape) -> (noun: String, expression: String, ownItems: Bool)? {
    var best: (noun: String, expression: String, rows: Int, ownItems: Bool)?
    for (child, column) in schema.children(of: shape.name) where child.name != shape.name {
      var noun = child.name
      if child.isJoin, let other = child.refs.first(where: { $0.column != column }) { noun = other.table }
      if !child.isJoin && !isCollection(child.name) { continue }
      if child.profile.rows > best?.rows ?? -1 {
        let singular = Naming.words(Naming.singularName(noun)).joined(separator: " ")
        let plural = Naming.words(noun).joined(separator: " ")
        var ownItems = false
        if case .items(_, let parent, _, _) = child.found.source { ownItems = parent == shape.name }
        best = (
          Naming.singularName(noun),
          "plural(count(\(Naming.expression(child.name))), '\(singular)', '\(plural)')", child.profile.rows,
          ownItems
        )
      }
    }
    return best.map { ($0.noun, $0.expression, $0.ownItems) }
  }
}
