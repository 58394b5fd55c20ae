/// A collection with its expressions resolved against the schema. A class:
/// it is read on every field lookup, and copying a struct of a dozen
/// references each time showed up in profiles.
final class PreparedCollection: @unchecked Sendable {
  let config: SiteConfig.Collection
  let table: Table
  let title: CompiledExpression
  let popularity: CompiledExpression?
  let fields: [(name: String, expression: CompiledExpression)]
  let fieldIndex: [String: Int]
  /// (index into `PreparedSite.facets`, expression).
  let facets: [(facet: Int, expression: CompiledExpression)]
  let searchFields: [CompiledExpression]
  let subtitle: RecordTemplate?
  let url: RecordTemplate?
  let pagePath: RecordTemplate?
  /// Whether this build writes a page per record.
  let writesPages: Bool
  /// Per search field: whether its weight ranks it like the title.
  var primarySearch: [Bool] = []
  /// Equal values collapse into one search result (`distinct:`).
  var distinct: CompiledExpression?
  /// The record's picture and symbol (`image:`, `symbol:`).
  var image: CompiledExpression?
  var symbol: CompiledExpression?
  /// The `by:` of each `sort:` and `range:` option, compiled (`popularity` has none).
  var valueKeys: [String: CompiledExpression] = [:]

  init(
    config: SiteConfig.Collection, table: Table, title: CompiledExpression, popularity: CompiledExpression?,
    fields: [(name: String, expression: CompiledExpression)], fieldIndex: [String: Int],
    facets: [(facet: Int, expression: CompiledExpression)], searchFields: [CompiledExpression],
    subtitle: RecordTemplate?, url: RecordTemplate?, pagePath: RecordTemplate?, writesPages: Bool
  ) {
    self.config = config
    self.table = table
    self.title = title
    self.popularity = popularity
    self.fields = fields
    self.fieldIndex = fieldIndex
    self.facets = facets
    self.searchFields = searchFields
    self.subtitle = subtitle
    self.url = url
    self.pagePath = pagePath
    self.writesPages = writesPages
  }

  /// Whether this build writes a page per record that is a page: not a
  /// feed (`path: "shows/{{slug}}/feed.xml"`), which the A–Z pages, the
  /// footer's links and the search page's trending links leave out.
  var writesHTMLPages: Bool {
    guard writesPages, let path = config.page?.path.value else { return false }
    return !HTMLValidator.isXML(path)
  }

  func field(named name: String) -> CompiledExpression? {
    fieldIndex[name].map { fields[$0].expression }
  }
}

/// Everything the index and the pages are made from: the data, the
/// collections, and one document per record.
public final class PreparedSite: @unchecked Sendable {
  public let config: SiteConfig
  public let dataset: Dataset
  let collections: [PreparedCollection]
  let facets: [SiteConfig.Facet]
  /// Per facet: the map its values go through (`labels:`), if any.
  let facetLabels: [[String: String]?]
  private(set) var evaluator: ExpressionEvaluator
  /// One per record `where:` keeps (`DocumentStore`: by field, and once
  /// prepared, the fields only pages show on disk for a large site).
  public let documents = DocumentStore()
  /// Whether every link is assigned (`DocumentBuilder.assignLinks`): from
  /// then on a document without a url links to a search for it.
  var searchLinksAssigned = false

  /// Document `index`'s link relative to the base URL: its page, its
  /// `url:`, or (once links are assigned) a search for it. Before, ""
  /// where none is known yet.
  public func url(of index: Int) -> String {
    url(of: index, stored: documents[index].url)
  }

  /// The same, given the document's stored `url` (read with the rest of
  /// what it shows: `Document.shown`).
  func url(of index: Int, stored url: String) -> String {
    guard url.isEmpty, searchLinksAssigned else { return url }
    return DocumentBuilder.searchLink(
      title: documents[index].title, collection: collections[documents[index].collection].config.id)
  }

  /// Every document's facet values (`DocumentBuilder.fillDetails`).
  var facetValueStore = FacetValueStore(facetCount: 0)

  /// Document `index`'s values of facet `facet` (indexed like `facets`),
  /// each once, in the order found.
  public func facetValues(of index: Int, facet: Int) -> [String] {
    facetValueStore.values(of: index, facet: facet)
  }
  /// References resolved both ways, for the record page's related lists.
  var related: RelatedRecords?
  /// The base URL path pages link with, e.g. `/` or `/music/`.
  public let baseURL: String
  /// Mistakes that still give a working site, found while preparing.
  public internal(set) var warnings: [Diagnostic] = []
  /// Local image files named by `image:`, as the site holds them
  /// (`images/<hash>.<ext>`), each once.
  public internal(set) var imageFiles: [(path: String, bytes: [UInt8])] = []
  /// The origins of the remote images documents show (`https://covers.example`),
  /// sorted: what the site's `img-src` must allow.
  public internal(set) var imageOrigins: [String] = []
  /// Collections some of whose documents have an image or a symbol.
  var collectionsWithArtwork: Set<Int> = []

  /// The Content-Security-Policy the site's data needs: `default-src 'self'`,
  /// and the remote images' origins when documents show any. The render
  /// adds the hashes of the stylesheets pages hold inline
  /// (`PageRenderer.Output.styleHashes`, `BuildSummary.contentSecurityPolicy`).
  public var contentSecurityPolicy: String {
    Self.contentSecurityPolicy(imageOrigins: imageOrigins)
  }

  /// `default-src 'self'`, then `img-src` for remote pictures' origins and
  /// `style-src` for inline stylesheets' hashes when there are any. Never
  /// `'unsafe-inline'`: an inline style or script the build did not write
  /// stays blocked.
  public static func contentSecurityPolicy(imageOrigins: [String], styleHashes: [String] = []) -> String {
    var policy = "default-src 'self'"
    if !imageOrigins.isEmpty { policy += "; img-src 'self' " + imageOrigins.joined(separator: " ") }
    if !styleHashes.isEmpty { policy += "; style-src 'self' " + styleHashes.joined(separator: " ") }
    return policy
  }
  /// Per table: the document of each row (-1 where none), for the first
  /// collection built on that table.
  private var documentOfRow: [ObjectIdentifier: [Int32]] = [:]

  init(
    config: SiteConfig, dataset: Dataset, collections: [PreparedCollection], facets: [SiteConfig.Facet],
    evaluator: ExpressionEvaluator, baseURL: String
  ) {
    self.config = config
    self.dataset = dataset
    self.collections = collections
    self.facets = facets
    self.facetLabels = facets.map { config.labels(of: $0) }
    self.evaluator = evaluator
    self.baseURL = baseURL
  }

  func documentIndex(table: Table, row: Int) -> Int? {
    guard let rows = documentOfRow[ObjectIdentifier(table)], row < rows.count, rows[row] >= 0 else {
      return nil
    }
    return Int(rows[row])
  }

  func register(document index: Int, table: Table, row: Int) {
    let id = ObjectIdentifier(table)
    if documentOfRow[id] == nil { documentOfRow[id] = [Int32](repeating: -1, count: table.count) }
    if documentOfRow[id]?[row] == -1 { documentOfRow[id]?[row] = Int32(index) }
  }

  /// The text of a document's searched fields other than the title,
  /// evaluated when the index asks for it rather than stored: at a million
  /// records that saves a string per record for the whole build.
  public func searchText(of index: Int) -> String {
    let document = documents[index]
    let collection = collections[document.collection]
    return collection.searchFields
      .map { evaluator.evaluate($0, table: collection.table, row: document.row).text }
      .joined(separator: " ")
  }

  /// The searched fields' text split by weight: fields weighing like the
  /// title (`weights:` 2 or more) and the rest.
  public func weightedSearchText(of index: Int) -> (primary: String, other: String) {
    let document = documents[index]
    let collection = collections[document.collection]
    var primary: [String] = []
    var other: [String] = []
    for (number, field) in collection.searchFields.enumerated() {
      let text = evaluator.evaluate(field, table: collection.table, row: document.row).text
      if number < collection.primarySearch.count && collection.primarySearch[number] {
        primary.append(text)
      } else {
        other.append(text)
      }
    }
    return (primary.joined(separator: " "), other.joined(separator: " "))
  }

  /// The value a document's collection collapses results by, if it does.
  public func distinctValue(of index: Int) -> String? {
    let document = documents[index]
    let collection = collections[document.collection]
    guard let distinct = collection.distinct else { return nil }
    return evaluator.evaluate(distinct, table: collection.table, row: document.row).text
  }

  /// A document's value for a `sort:` or `range:` option's `by:`: nil when
  /// its collection has no such option.
  func keyValue(_ by: String, of index: Int) -> Value? {
    let document = documents[index]
    let collection = collections[document.collection]
    if by == "popularity" { return .number(document.popularity) }
    guard let expression = collection.valueKeys[by] else { return nil }
    return evaluator.evaluate(expression, table: collection.table, row: document.row)
  }

  func setEvaluator(_ evaluator: ExpressionEvaluator) { self.evaluator = evaluator }

  /// The title of a record `where:` hid, so a page that names it (as plain
  /// text, since it has no url) still can.
  func title(ofHidden table: Table, row: Int) -> String? {
    guard let collection = collections.first(where: { $0.table === table }) else { return nil }
    let text = evaluator.evaluate(collection.title, table: table, row: row).text
    return text.isEmpty ? nil : text
  }

  public var recordCount: Int { documents.count }

  /// The value a scope filters by, as its facet's values are stored: a
  /// scope may name a coded value (`L`) or its label (`Living`).
  func scopeValue(_ value: String, facet: Int) -> String {
    facetLabels[facet]?[value] ?? value
  }

  /// Resolves every reference both ways while the key indexes still exist,
  /// when some collection's pages use the built-in `record` template.
  public func prepareRelatedRecords() {
    guard related == nil,
      collections.contains(where: { $0.writesPages && $0.config.page?.template == "record" })
    else {
      return
    }
    related = RelatedRecords(dataset: dataset, collectionTables: collections.map(\.table))
  }
}
