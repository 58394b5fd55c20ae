import Mustache

/// A collection with its expressions resolved against the schema.
struct PreparedCollection: @unchecked Sendable {
  var config: SiteConfig.Collection
  var table: Table
  var title: CompiledExpression
  var popularity: CompiledExpression?
  var fields: [(name: String, expression: CompiledExpression)]
  var fieldIndex: [String: Int]
  /// (index into `PreparedSite.facets`, expression).
  var facets: [(facet: Int, expression: CompiledExpression)]
  var searchFields: [CompiledExpression]
  var subtitle: MustacheTemplate?
  var url: MustacheTemplate?
  var pagePath: MustacheTemplate?
  /// Whether this build writes a page per record.
  var writesPages: Bool

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
  private(set) var evaluator: ExpressionEvaluator
  public internal(set) var documents: [Document] = []
  /// The base URL path pages link with, e.g. `/` or `/music/`.
  public let baseURL: String
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
    self.evaluator = evaluator
    self.baseURL = baseURL
  }

  func documentIndex(table: Table, row: Int) -> Int? {
    guard let rows = documentOfRow[ObjectIdentifier(table)], row < rows.count, rows[row] >= 0 else { return nil }
    return Int(rows[row])
  }

  func register(document index: Int, table: Table, row: Int) {
    let id = ObjectIdentifier(table)
    if documentOfRow[id] == nil { documentOfRow[id] = [Int32](repeating: -1, count: table.count) }
    if documentOfRow[id]?[row] == -1 { documentOfRow[id]?[row] = Int32(index) }
  }

  func setEvaluator(_ evaluator: ExpressionEvaluator) { self.evaluator = evaluator }

  public var recordCount: Int { documents.count }
}
