/// What `init` proposes to show: a collection (a chip, a page per record)
/// for each table with a title, the facets offered as search tokens, and
/// a scope where one fits. Every choice keeps its reason for the config's
/// comments.
public struct SitePlan: Sendable {
  public struct Collection: Sendable {
    public var id: String
    public var label: String
    public var singular: String
    public var table: String
    public var title: String
    public var titleReason: String
    public var subtitle: String?
    public var popularity: String?
    public var popularityReason: String?
    public var search: [String] = []
    public var fields: [(name: String, expression: String)] = []
    public var facets: [(facet: String, expression: String)] = []
    /// Records that share a title collapse into one result.
    public var distinct: String?
    /// The artwork's columns (`ArtworkInference`).
    public var image: String?
    public var symbol: String?
    /// A searched key of codes (`LAX`), or a column of codes nearly every
    /// record has and nearly none shares, weighed like the title.
    public var codeKey: String?
    /// A searched list of the record's other names (geonames'
    /// `alternatenames`, `aliases`), weighed like the title too.
    public var otherNames: String?
    /// What the config weighs like the title: the code, the other names.
    public var weighed: [String] {
      [codeKey, otherNames.flatMap { search.contains($0) ? $0 : nil }].compactMap { $0 }
    }
    /// Text columns past `maxSearched` that would have been searched.
    public var searchLeftOut = 0
    /// Columns offered as sorts and ranges (`CollectionInference+ValueKeys`).
    public var valueKeys: [ValueKey] = []
  }

  /// A column offered both as a sort option and as a range.
  public struct ValueKey: Sendable, Equatable {
    public var id: String
    public var label: String
    public var by: String
    public var format: SiteConfig.ValueFormat
    /// Newest or largest first: years and dates.
    public var descending: Bool
    public var reason: String
  }

  public struct Facet: Sendable, Equatable {
    public var id: String
    public var label: String
    public var icon: String
    public var reason: String
    /// The values it takes (where known), for a scope.
    public var values: [String]
    /// When its values are codes (`L`, `E`…): every code, for a `labels:`
    /// map the config offers to fill in. Empty otherwise.
    public var codes: [String] = []
    /// What each code reads as where `init` knows (`GB`: United Kingdom,
    /// `CountryCodes`); a code not here is written as itself to fill in.
    public var names: [String: String] = [:]
  }

  public struct Scope: Sendable, Equatable {
    public var id: String
    public var label: String
    public var facet: String?
    public var value: String?
  }

  public var schema: Schema
  public var collections: [Collection]
  public var facets: [Facet]
  public var scopes: [Scope]
  /// Why each table that is not a collection is not one.
  public var tablesOnly: [(table: String, reason: String)]
  /// The site's language, read once from the first collection
  /// (`SiteLanguage.code(for:)`): the config, its labels and the
  /// description all ask for it, a map of codes once per code.
  public var language = "en"
}

/// Chooses collections, titles, subtitles, search fields, popularity,
/// facets and scopes from a schema.
public struct CollectionInference {
  public init() {}

  /// Words in a numeric column's name that make it a popularity, singular
  /// or plural: what people chose (`votes`, `downloads`, `population`,
  /// Debian's `dependents`) and what graded it (`rating`, `score`).
  static let scoreWords: Set<String> = [
    "popularity", "score", "rating", "votes", "vote", "stars", "star", "downloads", "download", "views",
    "likes",
    "plays", "playcount", "pop", "population", "followers", "favorites", "favourites", "weight", "dependents",
    "dependent", "installs", "reviews", "review", "ratings", "fans", "subscribers", "watchers", "forks",
    "stargazers", "citations", "visits", "visitors", "passengers", "sales", "listeners", "readers", "members",
    // Population in the languages catalogues of places are written in:
    // Data/world's `人口`, a Russian list's `население`.
    "人口", "население", "численность", "bevölkerung", "einwohner", "población", "habitantes", "popolazione",
    "abitanti", "população", "bevolking", "inwoners", "인구", "πληθυσμός", "ludność", "nüfus", "السكان",
  ]
  /// Score words that grade a record rather than count who chose it.
  static let gradeWords: Set<String> = ["rating", "score", "stars", "star", "grade"]
  /// Words that may come before or after a score word in a popularity's
  /// name (`rating_count`, `num_votes`, `avg_rating`).
  static let scoreTailWords: Set<String> = [
    "count", "total", "sum", "avg", "average", "mean", "number", "num", "n",
  ]
  /// Tail words that make a score word a count of people (`ratings_count`:
  /// 3.8 million) rather than a grade (`rating`: 4.3).
  static let countTailWords: Set<String> = ["count", "total", "sum", "number", "num", "n"]
  /// Tail words that make any score word a grade (`avg_votes`).
  static let averageTailWords: Set<String> = ["avg", "average", "mean"]
  /// At most this many columns weigh how complete a record is.
  static let maxCompletenessColumns = 6
  /// Words that make a text column a title, in the languages catalogues
  /// are written in: a Russian country list titles its records by
  /// `название`, a Japanese one by `名前`.
  static let titleWords: Set<String> = [
    "name", "title", "label", "heading", "caption", "subject", "term", "word",
    "nom", "titre", "libelle", "libellé", "nombre", "titulo", "título", "nome", "titolo", "naam", "titel",
    "bezeichnung", "название", "наименование", "имя", "заголовок", "名前", "名称", "名", "标题", "題名", "이름",
    "제목", "όνομα", "τίτλος", "nazwa", "tytuł", "namn", "navn", "nimi", "שם", "اسم", "عنوان",
    "الاسم", "العنوان", "نام", "नाम", "शीर्षक", "নাম", "ชื่อ", "назва", "ім'я", "jméno", "název", "név",
    "cím", "isim", "başlık", "nama", "judul", "tên", "タイトル", "名字", "题名",
  ]
  /// Words that name a column of addresses (`url`, `homepage`, `email`).
  static let linkWords: Set<String> = ["url", "uri", "href", "link", "website", "homepage", "email", "mail"]
  /// Words that name a summary of a record, not its name: Debian's
  /// `summary` ("GNU Bourne Again SHell") beside its `package` (`bash`).
  static let summaryWords: Set<String> = [
    "summary", "synopsis", "abstract", "overview", "tagline", "blurb", "excerpt", "teaser", "lede",
  ]
  /// Words that make a name the long, official or descriptive form of
  /// another: a person titles a country by `название`, not by
  /// `официальное_название` ("Russian Federation" and not "the Federal
  /// Republic of Germany" in pycountry's translations), and a language by
  /// `name`, not `inverted_name` (iso-codes).
  static let qualifierWords: Set<String> = [
    "official", "full", "long", "formal", "legal", "complete", "descriptive", "description", "native",
    "inverted", "sort", "sorting", "alternate", "alternative", "alt", "officiel", "officielle", "complet",
    "complète", "oficial", "completo", "ufficiale", "officieel", "volledig", "offiziell", "offizieller",
    "amtlich", "vollständig", "официальное", "официальный", "полное", "полный", "длинное", "正式", "公式",
  ]
  /// A referenced table of at most this many rows, a tenth of those of a
  /// table referring to it or fewer, is a list of codes (genres, media
  /// types): a facet, not a subtitle.
  static let codeTableRows = 50
  static let facetValues = 30
  /// At most this many fields searched and facets per table: a table of
  /// thousands of columns gives a config a person can read and a site
  /// that builds in proportion to its records.
  static let maxSearched = 20
  /// Six: what a sheet of filters shows without scrolling, every label in
  /// view (faceted search UIs list a handful and fold the rest).
  static let maxFacetsPerTable = 6
  static let scopeValues = 4

  // MARK: Titles

  /// A person's name split over two columns (`first_name` and `last_name`,
  /// `givenName` and `surname`) when the title is one of them: the two, in
  /// that order, or nil.
  static func nameParts(of title: ColumnProfile, in shape: Schema.TableShape) -> (
    first: ColumnProfile, last: ColumnProfile
  )? {
    func named(_ words: Set<String>) -> ColumnProfile? {
      shape.profile.columns.first { column in
        column.kind == .text && shape.ref(column.name) == nil && column.filled * 2 >= column.rows
          && Naming.words(column.name).contains(where: words.contains)
      }
    }
    // Or a name numbered in two parts (`name1` "Al", `name2` "Newman" in
    // vcd's Baseball; `Name 1`, `name_2`).
    func numbered(_ digit: Character) -> ColumnProfile? {
      shape.profile.columns.first { column in
        column.kind == .text && shape.ref(column.name) == nil && column.filled * 2 >= column.rows
          && column.name.last == digit && !column.name.dropLast().contains(where: \.isNumber)
          && ["name", "names"].contains(Naming.squashed(String(column.name.dropLast())))
      }
    }
    let pair =
      named(["first", "firstname", "given", "givenname", "forename"]).flatMap { first in
        named(["last", "lastname", "family", "familyname", "surname"]).map { (first, $0) }
      } ?? numbered("1").flatMap { first in numbered("2").map { (first, $0) } }
    guard case let (first, last)? = pair, first.name != last.name,
      title.name == first.name || title.name == last.name
    else { return nil }
    return (first, last)
  }

  /// The best short, mostly-unique text column, or nil.
  static func title(of shape: Schema.TableShape) -> (column: ColumnProfile, reason: String)? {
    var best: (column: ColumnProfile, score: Double)?
    for column in shape.profile.columns
    where column.kind == .text && shape.ref(column.name) == nil && column.filled * 2 >= column.rows {
      let words = Naming.words(column.name).map(Naming.singular)
      let nameLike = words.contains(where: titleWords.contains)
      var score = column.uniqueness
      if nameLike { score += 0.5 }
      // Of two names the plain one (`name` before `official_name`); a
      // description alone is a weaker title than a name but a better one
      // than a column most records share (an emoji's "grinning face"
      // before its category).
      if words.contains(where: qualifierWords.contains) || isTranslation(column.name, in: shape) {
        score -= nameLike ? 0.6 : 0.2
      }
      if words.contains(where: summaryWords.contains) { score -= 0.2 }
      // An address is where a record is, never what it is called: a
      // `url` column of unique `javascript:` or `https://` links.
      let links = column.samples.filter { $0.contains("://") || $0.lowercased().hasPrefix("javascript:") }
      if words.contains(where: linkWords.contains)
        || (!column.samples.isEmpty && links.count * 2 > column.samples.count)
      {
        score -= 1
      }
      // Codes (`AFG`, `de`) are what a person types, not what a list
      // reads: a name in a language the title words miss (a Hindi list's
      // `नाम`) comes before its table's three-letter codes.
      if !column.samples.isEmpty && column.samples.allSatisfy(CollectionContext.isCode) { score -= 0.3 }
      // Named for what the table holds: `maker` in makers, `country` in countries.
      if Naming.squashed(column.name) == Naming.squashed(Naming.singularName(shape.name)) { score += 0.5 }
      if column.averageLength > 80 || column.averageWords > 12 { score -= 1 }
      if column.averageLength < 2 { score -= 0.5 }
      // A symbol is not a name: an emoji catalogue's `emoji` column (😀),
      // named for the table and unique, is its picture; the description
      // beside it is what a person reads in a list.
      let symbols = column.samples.filter { !$0.unicodeScalars.contains { $0.properties.isAlphabetic } }
      if !column.samples.isEmpty && symbols.count * 2 > column.samples.count { score -= 1 }
      // Of two names, the shorter: the one a person reads in a list.
      score -= min(column.averageLength, 80) / 400
      if column.name == shape.key && !nameLike { score -= 0.2 }
      if score > (best?.score ?? -0.5) { best = (column, score) }
    }
    guard var column = best?.column else { return nil }
    // Observations with no name (palmerpenguins: species, island, sex)
    // are told by their commonest kind of value: the text column of the
    // most values of those that repeat like a facet's, the first of equals
    // — `species` (3), not `sex` (2), which the shorter length would pick.
    if column.distinct <= facetValues && column.distinct * 10 <= column.filled {
      let categories = shape.profile.columns.filter { other in
        other.kind == .text && shape.ref(other.name) == nil && other.filled * 2 >= other.rows
          && other.distinct <= facetValues && other.distinct * 10 <= other.filled && other.distinct >= 2
          && other.name != shape.key
      }
      if let most = categories.max(by: { $0.distinct < $1.distinct }),
        !Naming.words(column.name).map(Naming.singular).contains(where: titleWords.contains)
      {
        column = most
      }
    }
    var joinedParts = ""
    if let joined = joinedTitle(for: column, in: shape) {
      column = joined.column
      joinedParts = "; '\(joined.parts.0)' and '\(joined.parts.1)' joined"
    }
    let percent = Int((column.uniqueness * 100).rounded())
    var reason =
      "'\(column.name)' is short text (\(Int(column.averageLength.rounded())) characters on average), \(percent) % distinct"
      + joinedParts
    let longer = shape.profile.columns.filter { other in
      other.name != column.name && other.kind == .text
        && Naming.words(other.name).map(Naming.singular).contains(where: qualifierWords.contains)
        && Naming.words(other.name).map(Naming.singular).contains(where: titleWords.contains)
    }
    if !longer.isEmpty {
      reason += "; not " + longer.map { "'\($0.name)'" }.joined(separator: " or ") + ", a longer form"
    }
    return (column, reason)
  }

  /// A translation of another column, named for it with a language's code
  /// after it (`name_en` beside `name`, `titleFr` beside `title`): the
  /// plain one is the record's own, the one a person titles it by (a Greek
  /// holiday's `Χριστούγεννα` rather than its `name_en` "Christmas Day").
  static func isTranslation(_ name: String, in shape: Schema.TableShape) -> Bool {
    translated(name, in: shape) != nil
  }

  /// The column that `name` translates (`name` for `name_de`), or nil. A
  /// code `SiteLanguage` knows, or any code of two or three letters (with a
  /// region, `name_bn_IN`) in a table of three such translations or more:
  /// pycountry's names in 160 languages, `name_or` and `name_ace` among them.
  static func translated(_ name: String, in shape: Schema.TableShape) -> String? {
    func split(_ name: String) -> (base: String, code: String)? {
      // A locale's subtags after the name: a language, then perhaps a
      // script or a region (`bn_IN`, `zh_Hans`), a variant after `@` left
      // out (`sr@latin`).
      var words = Naming.words(name).map { $0.split(separator: "@").first.map(String.init) ?? $0 }
      guard words.count > 1, let last = words.last, (2...4).contains(last.count), last.allSatisfy(\.isLetter)
      else { return nil }
      words.removeLast()
      var code = last
      if last.count == 2 || last.count == 4, words.count > 1, let language = words.last,
        (2...3).contains(language.count), language.allSatisfy(\.isLetter)
      {
        code = language
        words.removeLast()
      }
      guard (2...3).contains(code.count) else { return nil }
      return (Naming.squashed(words.joined(separator: "_")), code)
    }
    guard case let (base, code)? = split(name),
      let original = shape.profile.columns.first(where: {
        $0.name != name && $0.kind == .text && Naming.squashed($0.name) == base
      })
    else { return nil }
    let known =
      SiteLanguage.names[code] != nil || SiteLanguage.stopWords[code] != nil
      || ["en", "eng", "fre", "ger", "spa", "ita", "por", "rus", "jpn", "chi", "zho", "ara"].contains(code)
    if known { return original.name }
    let siblings = shape.profile.columns.lazy.filter { split($0.name)?.base == base }.prefix(3).count
    return siblings >= 3 ? original.name : nil
  }

  /// Tables a web framework or migration tool keeps in an application's
  /// database (a Django or Rails app's SQLite file, mendeleev's
  /// `alembic_version`): never a catalogue's records.
  static func isBookkeeping(_ table: String) -> Bool {
    let name = table.lowercased()
    let exact: Set<String> = [
      "alembic_version", "schema_migrations", "ar_internal_metadata", "flyway_schema_history",
      "knex_migrations", "knex_migrations_lock", "__efmigrationshistory", "_prisma_migrations", "migrations",
      "doctrine_migration_versions", "spatial_ref_sys", "geometry_columns", "sessions", "failed_jobs",
      "password_resets", "personal_access_tokens",
    ]
    let prefixes = ["django_", "auth_", "sqlite_", "_litestream", "__diesel"]
    return exact.contains(name) || prefixes.contains { name.hasPrefix($0) }
  }

  /// The table a child table's rows are details of, when its best title
  /// repeats in most of them and is no name: an element's isotopes by
  /// `half_life_unit`, its ionic radii by `econf` (mendeleev) are read on
  /// the element, not searched as records of their own. A table with no
  /// reference keeps its repeating title (gapminder's `country`, a year
  /// each row).
  static func belongsTo(_ shape: Schema.TableShape, title: ColumnProfile) -> String? {
    guard let parent = shape.refs.first?.table, title.uniqueness < 0.5 else { return nil }
    let words = Naming.words(title.name).map(Naming.singular)
    if words.contains(where: titleWords.contains) { return nil }
    return parent
  }

  public func infer(_ schema: Schema) -> SitePlan {
    var titles: [String: ColumnProfile] = [:]
    var titleReasons: [String: String] = [:]
    var tablesOnly: [(String, String)] = []
    for shape in schema.tables {
      if shape.isJoin {
        let sides = shape.refs.map(\.table).joined(separator: " ↔ ")
        tablesOnly.append((shape.name, "joins \(sides): two references and little else"))
      } else if Self.isBookkeeping(shape.name) {
        tablesOnly.append((shape.name, "an application's bookkeeping (migrations, sessions), not its data"))
      } else if let (column, _) = Self.title(of: shape), let parent = Self.belongsTo(shape, title: column) {
        let percent = Int((column.uniqueness * 100).rounded())
        tablesOnly.append(
          (
            shape.name,
            "its rows are details of \(parent): no column tells them apart ('\(column.name)' is \(percent) % distinct)"
          ))
      } else if let (column, reason) = Self.title(of: shape) {
        titles[shape.name] = column
        titleReasons[shape.name] = reason
      } else {
        tablesOnly.append((shape.name, "no text column to be a title"))
      }
    }
    let context = CollectionContext(schema: schema, titles: titles)

    // Facets: code tables first, then a table's own columns of few values.
    var facets: [SitePlan.Facet] = []
    func addFacet(_ facet: SitePlan.Facet) -> String {
      if let same = facets.first(where: { $0.id == facet.id }) { return same.id }
      facets.append(facet)
      return facet.id
    }
    var ownFacets: [String: [(facet: String, expression: String)]] = [:]
    // Only collections' own: a facet of rows that are no collection (an
    // element's oxidation states' `category`) would lend its values to
    // another table's facet of the same name.
    for shape in schema.tables where !shape.isJoin && titles[shape.name] != nil {
      for ref in shape.refs {
        guard context.isCodeTable(ref.table), let targetTitle = titles[ref.table],
          let target = schema.table(ref.table)
        else { continue }
        let id = addFacet(context.codeFacet(target, title: targetTitle))
        ownFacets[shape.name, default: []].append(
          (id, Naming.expression(ref.column) + "." + Naming.expression(targetTitle.name)))
      }
      var own = 0
      let flags = context.flagColumns(of: shape)
      let flagNames = Set(flags.map(\.name))
      if !flags.isEmpty {
        own += 1
        let id = addFacet(context.flagFacet(flags, of: shape))
        ownFacets[shape.name, default: []].append(
          (id, "flags(" + flags.map { Naming.expression($0.name) }.joined(separator: ", ") + ")"))
      }
      // Words and years first, then bare numbers, then yes or no, each in
      // column order, as a subtitle takes them: a category names what a
      // record is (Cars93's `Origin`), a count what it holds (its
      // `Passengers`), and a flag (`Man.trans.avail`, mendeleev's
      // `is_radioactive`) only splits the records in two.
      let candidates = shape.profile.columns.filter {
        context.isFacetColumn($0, of: shape) && !flagNames.contains($0.name)
      }
      func rank(_ column: ColumnProfile) -> Int {
        if CollectionContext.isYesNo(column) { return 2 }
        let numeric = column.kind == .integer || column.kind == .number
        return numeric && Naming.words(column.name).last != "year" ? 1 : 0
      }
      for column in (0...2).flatMap({ tier in candidates.filter { rank($0) == tier } }) {
        own += 1
        if own > Self.maxFacetsPerTable { break }
        let countries = context.countryNames(column, of: shape)
        let coded = context.isCodeColumn(column) || countries != nil
        var facet = SitePlan.Facet(
          id: Naming.id(column.name, fallback: "facet\(facets.count + 1)"),
          // A column of ISO country codes is a country, however it is
          // named (geonames' `countrycode`: "Countrycode" otherwise).
          label: countries != nil && !Naming.words(column.name).contains("country")
            ? "Country" : Naming.facetLabel(column.name),
          icon: FacetIcons.icon(forName: column.name),
          reason: column.kind == .date
            ? "'\(column.name)' in \(shape.name) holds dates of \(Set(context.allValues(shape, column.name).map { $0.prefix(4) }).count) years, a facet by the year"
            : "'\(column.name)' in \(shape.name) takes \(column.distinct) values"
              + (countries != nil
                ? ", ISO 3166-1 country codes: named below"
                : coded ? ", codes: fill in their labels below" : ""),
          values: column.distinct <= Self.scopeValues && !coded && column.kind != .date
            ? context.allValues(shape, column.name) : [])
        if coded { facet.codes = context.allValues(shape, column.name).sorted() }
        facet.names = countries ?? [:]
        let id = addFacet(facet)
        ownFacets[shape.name, default: []].append((id, context.facetExpression(column)))
      }
      // Lists whose values recur (tags): a record under each of them.
      for column in shape.profile.columns where context.isListFacet(column, of: shape) {
        own += 1
        if own > Self.maxFacetsPerTable { break }
        let id = addFacet(context.listFacet(column, of: shape, number: facets.count + 1))
        ownFacets[shape.name, default: []].append((id, Naming.expression(column.name)))
      }
    }
    var collections: [SitePlan.Collection] = []
    for shape in context.ordered() {
      guard let titleColumn = titles[shape.name] else { continue }
      let id = Naming.id(shape.name, fallback: "collection\(collections.count + 1)")
      var plan = SitePlan.Collection(
        id: collections.contains { $0.id == id } ? "\(id)-\(collections.count + 1)" : id,
        label: Naming.label(shape.name), singular: Naming.label(Naming.singularName(shape.name)),
        table: shape.name, title: Naming.expression(titleColumn.name),
        titleReason: titleReasons[shape.name] ?? "")
      let name = Self.nameParts(of: titleColumn, in: shape)
      if let name {
        // A person's name split over two columns: the title joins them.
        plan.title = Naming.expression(name.first.name) + " + ' ' + " + Naming.expression(name.last.name)
        plan.titleReason = "'\(name.first.name)' and '\(name.last.name)' hold a person's name in two parts"
      }
      if name == nil && titleColumn.uniqueness < 0.5 && titleColumn.distinct * 2 <= titleColumn.filled {
        // Rows of a repeated title (a country by year): named for the title.
        plan.distinct = Naming.expression(titleColumn.name)
        plan.singular = Naming.label(titleColumn.name)
        plan.label = Naming.label(Naming.plural(titleColumn.name))
        let id = Naming.id(Naming.plural(titleColumn.name), fallback: plan.id)
        if !collections.contains(where: { $0.id == id }) { plan.id = id }
      }
      context.addFields(
        to: &plan, shape: shape, title: titleColumn,
        alsoTitled: Set([name?.first.name, name?.last.name].compactMap { $0 }))
      context.addLists(to: &plan, shape: shape)
      ArtworkInference.apply(to: &plan, shape: shape)
      (plan.popularity, plan.popularityReason) = context.popularity(of: shape)
      if name == nil { plan.valueKeys = context.valueKeys(of: shape, title: plan.title) }
      // Facets: its own, a code table's own value, then those of the
      // records that refer to it (an album's songs' genres).
      var seen = Set<String>()
      for facet in ownFacets[shape.name] ?? []
      where plan.facets.count < Self.maxFacetsPerTable && seen.insert(facet.facet).inserted {
        plan.facets.append(facet)
        // A record's flags on its page too, once ("Tags: Action, Comedy"),
        // where its 0/1 columns are then left out.
        if facet.expression.hasPrefix("flags("), !plan.fields.contains(where: { $0.name == facet.facet }) {
          plan.fields.append((facet.facet, facet.expression))
        }
      }
      if context.isCodeTable(shape.name) {
        let id = addFacet(context.codeFacet(shape, title: titleColumn))
        if seen.insert(id).inserted { plan.facets.append((id, Naming.expression(titleColumn.name))) }
      }
      // Only from tables that are collections themselves (an album's
      // songs), not from rows of details (an element's isotopes' spins),
      // and no more than a person reads in a sheet of filters.
      for (path, table) in context.relatedTables(of: shape) where titles[table] != nil {
        for facet in ownFacets[table] ?? []
        where plan.facets.count < Self.maxFacetsPerTable && seen.insert(facet.facet).inserted {
          plan.facets.append((facet.facet, "distinct(\(path).\(facet.expression))"))
        }
      }
      collections.append(plan)
    }
    facets.removeAll { facet in !collections.contains { $0.facets.contains { $0.facet == facet.id } } }
    var plan = SitePlan(
      schema: schema, collections: collections, facets: facets, scopes: Self.scopes(facets),
      tablesOnly: tablesOnly)
    plan.language = SiteLanguage.code(for: plan)
    return plan
  }

  /// All, then one scope per value of the first facet of two to four
  /// values that read as words: a scope bar of "0" and "1" (mendeleev's
  /// `most_reliable`), "+" and "−", or "d", "f", "p" says nothing.
  static func scopes(_ facets: [SitePlan.Facet]) -> [SitePlan.Scope] {
    func shown(_ value: String, of facet: SitePlan.Facet) -> String { facet.names[value] ?? value }
    func readable(_ facet: SitePlan.Facet) -> Bool {
      facet.values.allSatisfy { shown($0, of: facet).filter(\.isLetter).count >= 2 }
    }
    guard let facet = facets.first(where: { (2...scopeValues).contains($0.values.count) && readable($0) })
    else {
      return []
    }
    var scopes = [SitePlan.Scope(id: "all", label: "All", facet: nil, value: nil)]
    for value in facet.values {
      var id = Naming.id(value, fallback: "\(facet.id)-\(scopes.count)")
      if scopes.contains(where: { $0.id == id }) { id += "-\(scopes.count)" }
      scopes.append(SitePlan.Scope(id: id, label: shown(value, of: facet), facet: facet.id, value: value))
    }
    return scopes
  }
}
