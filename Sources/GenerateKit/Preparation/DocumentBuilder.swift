import Foundation
import Mustache

/// Joins the tables into documents as the config describes: compiles every
/// expression (reporting each fault at its place in the config), then
/// computes titles, popularity, links, subtitles, facets and search text.
public struct DocumentBuilder {
  public init() {}

  public func prepare(_ config: SiteConfig, dataset: Dataset, baseURL: String) throws -> PreparedSite {
    let compiler = ExpressionCompiler(dataset: dataset)
    var diagnostics: [Diagnostic] = []
    var collections: [PreparedCollection] = []
    // Duplicate ids, undeclared facets and tables were refused at load
    // (`ConfigChecker`); here each id maps to its first declaration.
    let facets = config.facets
    var facetIndex: [String: Int] = [:]
    for (index, facet) in facets.enumerated() where facetIndex[facet.id] == nil {
      facetIndex[facet.id] = index
    }

    func compile(_ located: SiteConfig.Located<String>, table: Table) -> CompiledExpression? {
      do {
        return .located(
          try compiler.compile(located.value, table: table), located.location, text: located.value)
      } catch {
        var location = located.location
        location.column += error.offset
        diagnostics.append(
          .error(at: location, "in expression '\(Self.quoted(located.value))': \(error.message)"))
        return nil
      }
    }
    // Subtitles, links and paths are text, not HTML: the index stores them
    // raw and the browser sets them with textContent, and pages escape them
    // when they print them. So these templates render without escaping.
    func template(_ located: SiteConfig.Located<String>?) -> MustacheTemplate? {
      guard let located else { return nil }
      do {
        return try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + located.value)
      } catch let error as MustacheTemplate.ParserError {
        var location = located.location
        location.column += error.context.columnNumber - 1
        diagnostics.append(.error(at: location, "in template '\(located.value)': \(error.error)"))
      } catch {
        diagnostics.append(.error(at: located.location, "in template '\(located.value)': \(error)"))
      }
      return nil
    }

    // Each prepared collection's `where:` and `fold:`, by its index.
    var filters: [(keep: CompiledExpression?, fold: CompiledExpression?)] = []
    var seenIDs = Set<String>()
    for spec in config.collections where seenIDs.insert(spec.id).inserted {
      guard let table = dataset.tableNamed[spec.table] else { continue }
      let title = compile(spec.title, table: table)
      let popularity = spec.popularity.flatMap { compile($0, table: table) }
      var fields: [(name: String, expression: CompiledExpression)] = []
      var fieldIndex: [String: Int] = [:]
      for field in spec.fields {
        guard let compiled = compile(field.expression, table: table) else { continue }
        fieldIndex[field.name] = fields.count
        fields.append((field.name, compiled))
      }
      var collectionFacets: [(facet: Int, expression: CompiledExpression)] = []
      for facet in spec.facets {
        guard let index = facetIndex[facet.facet] else {
          diagnostics.append(
            .error(
              at: facet.expression.location,
              "collection '\(spec.id)' sets facet '\(facet.facet)', which is not declared under facets"))
          continue
        }
        if let compiled = compile(facet.expression, table: table) {
          collectionFacets.append((index, compiled))
        }
      }
      var searchFields: [CompiledExpression] = []
      var primarySearch: [Bool] = []
      let weights = Dictionary(
        spec.weights.map { ($0.name, Double($0.expression.value) ?? 1) }, uniquingKeysWith: { $1 })
      for name in spec.search {
        if let index = fieldIndex[name.value] {
          searchFields.append(fields[index].expression)
        } else if let compiled = compile(name, table: table) {
          searchFields.append(compiled)
        } else {
          continue
        }
        primarySearch.append((weights[name.value] ?? 1) >= 2)
      }
      for weight in spec.weights where !spec.search.contains(where: { $0.value == weight.name }) {
        diagnostics.append(
          .error(
            at: weight.expression.location,
            "weight for '\(weight.name)', which is not under search in collection '\(spec.id)'"))
      }
      let distinct = spec.distinct.flatMap { compile($0, table: table) }
      let writesPages = spec.page != nil && (config.pages?.contains { $0.value == spec.id } ?? true)
      let keep = spec.filter.flatMap { compile($0, table: table) }
      let fold = spec.fold.flatMap { compile($0, table: table) }
      guard let title else { continue }
      filters.append((keep, fold))
      let prepared = PreparedCollection(
        config: spec, table: table, title: title, popularity: popularity, fields: fields,
        fieldIndex: fieldIndex,
        facets: collectionFacets, searchFields: searchFields, subtitle: template(spec.subtitle),
        url: template(spec.url), pagePath: template(spec.page?.path), writesPages: writesPages)
      prepared.primarySearch = primarySearch
      prepared.distinct = distinct
      collections.append(prepared)
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }

    var evaluator = ExpressionEvaluator(compiler: compiler)
    evaluator.groupingSeparator = Locale(identifier: config.language).groupingSeparator ?? ","
    let site = PreparedSite(
      config: config, dataset: dataset, collections: collections, facets: facets, evaluator: evaluator,
      baseURL: baseURL)

    // Titles and popularity first: later steps rank and link by them. Each
    // phase computes on all cores into its own array, then assigns in order,
    // so no record is read while another thread writes it.
    var documents: [Document] = []
    var popularityOfRow: [ObjectIdentifier: [Double]] = [:]
    for (index, collection) in collections.enumerated() {
      let table = collection.table
      let filter = filters[index]
      let computed = Parallel.map(count: table.count) {
        row -> (key: String, title: String, score: Double, slug: String, keep: Bool, same: String?) in
        let key = table.key(ofRow: row)
        let title = evaluator.evaluate(collection.title, table: table, row: row).text
        let score =
          collection.popularity.map { evaluator.evaluate($0, table: table, row: row).number ?? 0 } ?? 0
        let keep = filter.keep.map { Self.isTrue(evaluator.evaluate($0, table: table, row: row)) } ?? true
        let same =
          keep ? filter.fold.map { Self.identity(evaluator.evaluate($0, table: table, row: row)) } : nil
        return (key, title, score, Self.slug(key: key, title: title), keep, same)
      }
      var usedSlugs = Set<String>()
      usedSlugs.reserveCapacity(table.count)
      documents.reserveCapacity(documents.count + table.count)
      var firstOfFold: [String: Int] = [:]
      for (row, item) in computed.enumerated() {
        // Hidden by `where:`: no document, so no page, no index entry, and
        // no url for links to it.
        guard item.keep else { continue }
        // A duplicate of an earlier record: links to it lead to that one.
        if let same = item.same {
          let foldKey = item.title + "\u{0}" + same
          if let first = firstOfFold[foldKey] {
            site.register(document: first, table: table, row: row)
            continue
          }
          firstOfFold[foldKey] = documents.count
        }
        var slug = item.slug
        if !usedSlugs.insert(slug).inserted {
          var suffix = 2
          while !usedSlugs.insert("\(slug)-\(suffix)").inserted { suffix += 1 }
          slug = "\(slug)-\(suffix)"
        }
        site.register(document: documents.count, table: table, row: row)
        documents.append(
          Document(
            collection: index, row: row, key: item.key, title: item.title, slug: slug,
            hue: Self.hue(collection.config.id + "/" + item.key), popularity: item.score))
      }
      if popularityOfRow[ObjectIdentifier(table)] == nil {
        popularityOfRow[ObjectIdentifier(table)] = computed.map(\.score)
      }
    }
    site.documents = documents
    evaluator.popularity = { table, row in popularityOfRow[ObjectIdentifier(table)]?[row] }
    site.setEvaluator(evaluator)

    // Page paths, then links of records without pages (which may point into
    // pages), then subtitles (which may name linked records).
    let count = site.documents.count
    let paths = Parallel.map(count: count) { index -> Result<String, RecordLinks.Problem>? in
      let document = site.documents[index]
      let collection = collections[document.collection]
      guard let pagePath = collection.pagePath, collection.writesPages else { return nil }
      return RecordLinks.pagePath(
        pagePath.render(RecordContext(site: site, table: collection.table, row: document.row)))
    }
    var pageOwners: [String: Int] = [:]
    for (index, path) in paths.enumerated() {
      guard let path else { continue }
      let document = site.documents[index]
      let collection = collections[document.collection]
      let location = collection.config.page?.path.location
      switch path {
      case .failure(let problem):
        diagnostics.append(
          .error(at: location, "\(Self.describe(document, in: collection)): \(problem.message)"))
      case .success(let path):
        let file = path.hasSuffix("/") ? path + "index.html" : path
        if let other = pageOwners[file] {
          let first = site.documents[other]
          diagnostics.append(
            .error(
              at: location,
              "\(Self.describe(document, in: collection)) and \(Self.describe(first, in: collections[first.collection])) both have the page path '\(path)'; include something unique such as {{slug}} in the path"
            ))
        } else {
          pageOwners[file] = index
          site.documents[index].url = path
        }
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(Array(diagnostics.prefix(50))) }
    let base = site.baseURL
    let links = Parallel.map(count: count) { index -> Result<String, RecordLinks.Problem>? in
      let document = site.documents[index]
      let collection = collections[document.collection]
      guard document.url.isEmpty else { return nil }
      if let url = collection.url {
        let rendered = url.render(RecordContext(site: site, table: collection.table, row: document.row))
        if let problem = RecordLinks.checkLink(rendered) { return .failure(problem) }
        let relative = rendered.hasPrefix(base) ? String(rendered.dropFirst(base.count)) : rendered
        // `{{album.url}}#track-1` with no album page renders as `#track-1`.
        if !relative.isEmpty && !relative.hasPrefix("#") { return .success(relative) }
      }
      // No page of its own and none to point into (pages switched off for
      // its collection): link to a search for it instead.
      return .success(Self.searchLink(title: document.title, collection: collection.config.id))
    }
    for (index, link) in links.enumerated() {
      switch link {
      case .none: continue
      case .success(let url): site.documents[index].url = url
      case .failure(let problem):
        let document = site.documents[index]
        let collection = collections[document.collection]
        diagnostics.append(
          .error(
            at: collection.config.url?.location,
            "\(Self.describe(document, in: collection)): \(problem.message)"))
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(Array(diagnostics.prefix(50))) }
    let details = Parallel.map(count: count) { index -> (subtitle: String, facets: [[String]]) in
      let document = site.documents[index]
      let collection = collections[document.collection]
      let table = collection.table
      let subtitle =
        collection.subtitle?.render(RecordContext(site: site, table: table, row: document.row)) ?? ""
      var facetValues = [[String]](repeating: [], count: facets.count)
      for (facet, expression) in collection.facets {
        var seen = Set<String>()
        facetValues[facet] = site.evaluator.evaluate(expression, table: table, row: document.row).items
          .map(\.text).filter { !$0.isEmpty && seen.insert($0).inserted }
      }
      return (subtitle, facetValues)
    }
    for (index, detail) in details.enumerated() {
      site.documents[index].subtitle = detail.subtitle
      site.documents[index].facetValues = detail.facets
    }
    let problems = site.evaluator.problems.diagnostics
    if !problems.isEmpty { throw DiagnosticsError(problems) }
    return site
  }

  /// Whether a `where:` value keeps its record: a non-zero number, text
  /// other than empty or "false", a non-empty list, a record.
  static func isTrue(_ value: Value) -> Bool {
    switch value {
    case .null: return false
    case .number(let number): return number != 0
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

  /// `?q=Title&kind=songs`, relative to the base URL.
  static func searchLink(title: String, collection: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    let query = title.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    return "?q=\(query)&kind=\(collection)"
  }

  static func slug(key: String, title: String) -> String {
    let keySlug = TextNormalizer.slug(key)
    let titleSlug = TextNormalizer.slug(title)
    if key.allSatisfy(\.isNumber) {
      return titleSlug.isEmpty ? key : "\(key)-\(titleSlug)"
    }
    return keySlug.isEmpty ? titleSlug : keySlug
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
    let table = collection.table
    return
      "record \(document.key) of \(collection.config.id) (\(table.location(row: document.row, column: table.keyColumn ?? 0)))"
  }
}
