import Foundation

/// Joins the tables into documents as the config describes: compiles every
/// expression (reporting each fault at its place in the config), then
/// computes titles, popularity, links, subtitles, facets and search text.
public struct DocumentBuilder {
  public init() {}

  /// The phases, in order; each may stop the build with the problems it
  /// found, and each hands the next what it needs.
  ///
  /// With `releasingLookups`, the dataset's key → row dictionaries and
  /// the places of its values (but for keys) are dropped as soon as the
  /// expressions are compiled, which resolve every reference into rows:
  /// no phase after reads them (a problem names a record by its key's
  /// place), and at ten million records they were over a gigabyte beside
  /// the documents at the end of preparing. The related records the
  /// built-in record page lists are resolved first. The dataset cannot
  /// then be prepared again.
  public func prepare(
    _ config: SiteConfig, dataset: Dataset, baseURL: String, releasingLookups: Bool = false
  ) throws -> PreparedSite {
    let compiler = ExpressionCompiler(dataset: dataset, labels: config.labels.mapValues(\.labels))
    let (collections, filters) = try compileCollections(config, dataset: dataset, compiler: compiler)
    var evaluator = ExpressionEvaluator(compiler: compiler)
    evaluator.groupingSeparator = Locale(identifier: config.language).groupingSeparator ?? ","
    evaluator.decimalSeparator = Locale(identifier: config.language).decimalSeparator ?? "."
    evaluator.dates = DateText(language: config.language)
    let site = PreparedSite(
      config: config, dataset: dataset, collections: collections, facets: config.facets,
      evaluator: evaluator, baseURL: baseURL)
    if releasingLookups {
      site.prepareRelatedRecords()
      dataset.releaseKeyIndexes()
      dataset.releasePlaces()
    }
    site.warnings = snippetWarnings(collections)
    makeDocuments(site, filters: filters)
    try assignPagePaths(site)
    try assignLinks(site)
    fillDetails(site)
    fillArtwork(site)
    let problems = site.evaluator.problems.diagnostics
    if !problems.isEmpty { throw DiagnosticsError(problems) }
    site.warnings += scopeWarnings(site)
    return site
  }

  /// Phase 2: a document per record that `where:` keeps and `fold:` does
  /// not merge, with its title, slug and popularity — first, because later
  /// phases rank and link by them. Computed on all cores into an array,
  /// then assigned in order, so no record is read while another thread
  /// writes it. A popularity that is text, not a number, counts as 0 and
  /// is a warning naming the first record it was found for.
  func makeDocuments(_ site: PreparedSite, filters: [CollectionFilters]) {
    var evaluator = site.evaluator
    let documents = site.documents
    // Once for all collections: `reserveCapacity` reserves exactly what it
    // is asked, so growing it collection by collection copied every document
    // made so far each time — quadratic in collections (10,000 collections
    // of 20 records, debug build: this step took 81.7 s, now 3.5 s).
    documents.reserveCapacity(site.collections.reduce(0) { $0 + $1.table.count })
    var popularityOfRow: [ObjectIdentifier: [Double]] = [:]
    for (index, collection) in site.collections.enumerated() {
      let table = collection.table
      let filter = filters[index]
      func compute(_ row: Int) -> (
        key: String, title: String, score: Double, slug: String, keep: Bool, same: String?,
        notNumber: String?
      ) {
        let key = table.key(ofRow: row)
        let title = evaluator.evaluate(collection.title, table: table, row: row).text
        let popularity = collection.popularity.map { evaluator.evaluate($0, table: table, row: row) }
        let number = popularity?.number
        let score = number ?? 0
        // Null and empty count as 0 silently: a record nobody bought.
        let notNumber = number == nil ? popularity.map(\.text).flatMap { $0.isEmpty ? nil : $0 } : nil
        let keep = filter.keep.map { Self.isTrue(evaluator.evaluate($0, table: table, row: row)) } ?? true
        let same =
          keep ? filter.fold.map { Self.identity(evaluator.evaluate($0, table: table, row: row)) } : nil
        return (key, title, score, Self.slug(key: key, title: title), keep, same, notNumber)
      }
      var notNumbers = 0
      var firstNotNumber: (row: Int, text: String)?
      var scores: [Double] = []
      scores.reserveCapacity(table.count)
      var usedSlugs = Set<String>()
      usedSlugs.reserveCapacity(table.count)
      var firstOfFold: [String: Int] = [:]
      func add(
        _ item: (
          key: String, title: String, score: Double, slug: String, keep: Bool, same: String?,
          notNumber: String?
        ), row: Int
      ) {
        // Hidden by `where:`: no document, so no page, no index entry, and
        // no url for links to it.
        guard item.keep else { return }
        // A duplicate of an earlier record: links to it lead to that one.
        if let same = item.same {
          let foldKey = item.title + "\u{0}" + same
          if let first = firstOfFold[foldKey] {
            site.register(document: first, table: table, row: row)
            return
          }
          firstOfFold[foldKey] = documents.count
        }
        var suffix: Int32 = 0
        if !usedSlugs.insert(item.slug).inserted {
          suffix = 2
          while !usedSlugs.insert("\(item.slug)-\(suffix)").inserted { suffix += 1 }
        }
        site.register(document: documents.count, table: table, row: row)
        documents.append(
          collection: index, row: row, key: item.key, title: item.title, slugSuffix: suffix,
          hue: Self.hue(collection.config.id + "/" + item.key), popularity: item.score)
      }
      // A chunk of rows at a time, computed on all cores then assigned in
      // order: every row's key, title and slug as Strings at once grew
      // with the catalogue, beside the tables.
      for start in stride(from: 0, to: table.count, by: Self.detailsChunk) {
        let computed = Parallel.map(count: min(table.count, start + Self.detailsChunk) - start) {
          compute(start + $0)
        }
        for (offset, item) in computed.enumerated() {
          scores.append(item.score)
          if item.keep, let text = item.notNumber {
            notNumbers += 1
            if firstNotNumber == nil { firstNotNumber = (start + offset, text) }
          }
          add(item, row: start + offset)
        }
      }
      if let first = firstNotNumber, let popularity = collection.config.popularity {
        let count = notNumbers
        site.warnings.append(
          .warning(
            at: popularity.location,
            "popularity '\(Self.quoted(popularity.value))' is not a number for \(count) \(count == 1 ? "record" : "records") of \(collection.config.id), which rank as 0; the first is \(Self.describe(row: first.row, in: collection)): '\(Self.quoted(first.text))'"
          ))
      }
      if popularityOfRow[ObjectIdentifier(table)] == nil {
        popularityOfRow[ObjectIdentifier(table)] = scores
      }
    }
    documents.finishAdding()
    evaluator.popularity = { table, row in popularityOfRow[ObjectIdentifier(table)]?[row] }
    site.setEvaluator(evaluator)
  }

  /// Phase 5: subtitles (which may name linked records, so after links)
  /// and facet values.
  func fillDetails(_ site: PreparedSite) {
    let collections = site.collections
    let facetCount = site.facets.count
    let facetLabels = site.facetLabels
    func detail(of index: Int) -> (subtitle: String, facets: [[String]]) {
      let document = site.documents[index]
      let collection = collections[document.collection]
      let table = collection.table
      let subtitle =
        collection.subtitle?.render(
          RecordContext(site: site, table: table, row: document.row, document: index))
        ?? ""
      var facetValues = [[String]](repeating: [], count: facetCount)
      for (facet, expression) in collection.facets {
        var seen = Set<String>()
        let labels = facetLabels[facet]
        facetValues[facet] = site.evaluator.evaluate(expression, table: table, row: document.row).items
          .map { item in labels.flatMap { $0[item.text] } ?? item.text }
          .filter { !$0.isEmpty && seen.insert($0).inserted }
      }
      return (subtitle, facetValues)
    }
    var facetValues = FacetValueStore(facetCount: facetCount)
    // A chunk of documents at a time: every document's subtitle and facet
    // lists as Swift values at once (a String and an array of arrays
    // each, held twice while `Parallel.map` gathers them) grew with the
    // catalogue at the end of preparing, beside everything else.
    for start in stride(from: 0, to: site.documents.count, by: Self.detailsChunk) {
      let end = min(site.documents.count, start + Self.detailsChunk)
      let details = Parallel.map(count: end - start) {
        offset -> (subtitle: String, facets: [[String]]) in
        detail(of: start + offset)
      }
      for (offset, detail) in details.enumerated() {
        site.documents[start + offset].subtitle = detail.subtitle
        facetValues.append(detail.facets)
      }
    }
    facetValues.finish()
    site.facetValueStore = facetValues
  }

  /// How many documents `fillDetails` works on at once.
  static let detailsChunk = 1 << 16

  /// Whether a `where:` value keeps its record: a non-zero number, text
  /// other than empty or "false", a non-empty list, a record.
  static func isTrue(_ value: Value) -> Bool {
    switch value {
    case .null: return false
    case .number(let number), .numeral(_, let number): return number != 0
    case .text(let text): return !text.isEmpty && text != "0" && text.lowercased() != "false"
    case .list(let values): return !values.isEmpty
    case .record: return true
    }
  }

  /// What `fold:` compares: records by identity, lists as sets of items
  /// (two playlists holding the same songs in another order are the same).
  static func identity(_ value: Value) -> String {
    value.items.map(\.identity).sorted().joined(separator: "\u{1}")
  }

  /// `?q=Title&kind=songs`, relative to the base URL. Made again each time
  /// it is read (`PreparedSite.url(of:)`): the title's unreserved bytes as
  /// they are, every other one percent-encoded, as Foundation's
  /// `addingPercentEncoding` writes it with the alphanumerics and `-._~`.
  static func searchLink(title: String, collection: String) -> String {
    "?q=\(PercentEncoding.encode(title))&kind=\(collection)"
  }

  /// A numeric key leads its title's words (`12-back-in-black`); a text key
  /// is the slug itself (`de`, `new-york`). When neither has a letter or
  /// digit to show (an emoji title and key, say), a short hash of the key,
  /// so no record is left without a page path.
  static func slug(key: String, title: String) -> String {
    if !key.isEmpty && key.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.numericType != nil }) {
      let titleSlug = TextNormalizer.slug(title)
      return titleSlug.isEmpty ? key : "\(key)-\(titleSlug)"
    }
    let keySlug = TextNormalizer.slug(key)
    if !keySlug.isEmpty { return keySlug }
    let titleSlug = TextNormalizer.slug(title)
    if !titleSlug.isEmpty { return titleSlug }
    return "r-" + String(ContentHash.hex(Array(key.utf8)).prefix(8))
  }

  /// A stable 0–11 from the content hash, so a record keeps its colour
  /// across builds.
  static func hue(_ text: String) -> Int {
    Int(ContentHash.value32(text.utf8) % 12)
  }

  /// Config text as an error message quotes it: whole if short.
  static func quoted(_ text: String) -> String {
    text.count <= 80 ? text : String(text.prefix(77)) + "…"
  }

  /// "record 7 of songs (Data/chinook/tracks.csv:8)": where a record
  /// that caused a problem came from.
  static func describe(_ document: Document, in collection: PreparedCollection) -> String {
    describe(row: document.row, in: collection)
  }

  static func describe(row: Int, in collection: PreparedCollection) -> String {
    let table = collection.table
    return
      "record \(table.key(ofRow: row)) of \(collection.config.id) (\(table.location(row: row, column: table.keyColumn ?? 0)))"
  }
}
