import Foundation

/// A prepared collection's `where:` and `fold:`, compiled.
struct CollectionFilters {
  var keep: CompiledExpression?
  var fold: CompiledExpression?
}

extension DocumentBuilder {
  /// Phase 1: every expression and text template of every collection,
  /// compiled against the tables, each fault reported at its place in the
  /// config. Nothing is evaluated yet.
  func compileCollections(_ config: SiteConfig, dataset: Dataset, compiler: ExpressionCompiler) throws
    -> ([PreparedCollection], [CollectionFilters])
  {
    var diagnostics: [Diagnostic] = []
    var collections: [PreparedCollection] = []
    // Duplicate ids, undeclared facets and tables were refused at load
    // (`ConfigChecker`); here each id maps to its first declaration.
    var facetIndex: [String: Int] = [:]
    for (index, facet) in config.facets.enumerated() where facetIndex[facet.id] == nil {
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
    func template(_ located: SiteConfig.Located<String>?) -> RecordTemplate? {
      guard let located else { return nil }
      do {
        return try RecordTemplate(located.value)
      } catch {
        var location = located.location
        // A later line's column is not the config line's.
        if error.line == 1 { location.column += error.column - 1 }
        diagnostics.append(.error(at: location, "in template '\(located.value)': \(error.message)"))
      }
      return nil
    }

    var filters: [CollectionFilters] = []
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
      filters.append(CollectionFilters(keep: keep, fold: fold))
      let prepared = PreparedCollection(
        config: spec, table: table, title: title, popularity: popularity, fields: fields,
        fieldIndex: fieldIndex,
        facets: collectionFacets, searchFields: searchFields, subtitle: template(spec.subtitle),
        url: template(spec.url), pagePath: template(spec.page?.path), writesPages: writesPages)
      prepared.primarySearch = primarySearch
      prepared.distinct = distinct
      prepared.image = spec.image.flatMap { compile($0, table: table) }
      prepared.symbol = spec.symbol.flatMap { compile($0, table: table) }
      // `sort:` and `range:`: a field's name, `title`, `popularity` or an expression.
      for key in spec.sorts + spec.ranges where prepared.valueKeys[key.by.value] == nil {
        let by = key.by.value
        let compiled =
          by == "title" ? title : by == "popularity" ? nil : fieldIndex[by].map { fields[$0].expression }
        if let found = compiled ?? (by == "popularity" ? nil : compile(key.by, table: table)) {
          prepared.valueKeys[by] = found
        }
      }
      collections.append(prepared)
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return (collections, filters)
  }
}
