/// The config's cross-references, checked as soon as the config and the
/// templates are loaded, so every such mistake shows up with the other
/// config errors in step 1 instead of surfacing steps later: templates a
/// page needs, `pages:` entries, scopes' facets, duplicate ids, the tables
/// collections are built on, the label maps facets name. A facet icon
/// that does not exist is a warning: the site still works.
struct ConfigChecker {
  let config: SiteConfig
  let templates: TemplateSet?

  func check() -> [Diagnostic] {
    var diagnostics: [Diagnostic] = config.stringWarnings
    var facetLocations: [String: SourceLocation] = [:]
    for facet in config.facets {
      if let first = facetLocations[facet.id] {
        diagnostics.append(.error(at: facet.location, "duplicate facet '\(facet.id)' (first at \(first))"))
      }
      facetLocations[facet.id] = facetLocations[facet.id] ?? facet.location
      if case .named(let name) = facet.labels, config.labels[name.value] == nil {
        let known = config.labels.keys.sorted()
        diagnostics.append(
          .error(
            at: name.location,
            "facet '\(facet.id)' uses labels '\(name.value)', which is not declared under labels"
              + (known.isEmpty ? "" : " (labels: \(known.joined(separator: ", ")))")
              + ClosestName.hint(name.value, in: known)))
      }
      if !FacetIcons.names.contains(facet.icon) {
        diagnostics.append(
          .warning(
            at: facet.location,
            "facet '\(facet.id)' has icon '\(facet.icon)', which does not exist, so its tokens show the tag icon"
              + ClosestName.hint(facet.icon, in: FacetIcons.names)
              + "; icons: \(FacetIcons.names.joined(separator: ", "))"))
      }
    }
    var scopeLocations: [String: SourceLocation] = [:]
    for scope in config.scopes {
      if let first = scopeLocations[scope.id] {
        diagnostics.append(.error(at: scope.location, "duplicate scope '\(scope.id)' (first at \(first))"))
      }
      scopeLocations[scope.id] = scopeLocations[scope.id] ?? scope.location
      if let facet = scope.facet, facetLocations[facet] == nil {
        diagnostics.append(
          .error(
            at: scope.location,
            "scope '\(scope.id)' filters by facet '\(facet)', which is not declared under facets"))
      }
    }

    let tables = Set(config.tables.map(\.name))
    let knownTables = config.tables.map(\.name).joined(separator: ", ")
    var collectionLocations: [String: SourceLocation] = [:]
    for collection in config.collections {
      if let first = collectionLocations[collection.id] {
        diagnostics.append(
          .error(at: collection.location, "duplicate collection '\(collection.id)' (first at \(first))"))
        continue
      }
      collectionLocations[collection.id] = collection.location
      if collection.id == "top" {
        diagnostics.append(
          .error(
            at: collection.location,
            "'top' is reserved for the Top Results chip; choose another collection id"))
      }
      if !tables.contains(collection.table) {
        let known = knownTables
        diagnostics.append(
          .error(
            at: collection.location,
            "collection '\(collection.id)' uses table '\(collection.table)', which is not declared (tables: \(known))"
          ))
      }
      for facet in collection.facets where facetLocations[facet.facet] == nil {
        diagnostics.append(
          .error(
            at: facet.expression.location,
            "collection '\(collection.id)' sets facet '\(facet.facet)', which is not declared under facets"))
      }
    }

    let knownCollections = config.collections.map(\.id).joined(separator: ", ")
    for entry in config.pages ?? [] where collectionLocations[entry.value] == nil {
      let known = knownCollections
      diagnostics.append(
        .error(
          at: entry.location,
          "pages lists '\(entry.value)', which is not a collection (collections: \(known))"))
    }
    // By id, not a search per entry: `pages:` and `collections:` may each
    // hold thousands (limits.configItems, limits.collections).
    var collectionByID: [String: SiteConfig.Collection] = [:]
    for collection in config.collections where collectionByID[collection.id] == nil {
      collectionByID[collection.id] = collection
    }
    for entry in config.pages ?? [] {
      if let collection = collectionByID[entry.value], collection.page == nil {
        diagnostics.append(
          .error(
            at: entry.location,
            "pages lists '\(entry.value)', but collection '\(entry.value)' has no page: template"))
      }
    }

    guard let templates else { return diagnostics }
    let folders =
      (templates.directories.map(DatasetLoader.displayPath)
      + (templates.builtIn ? [TemplateSet.builtInName] : []))
      .joined(separator: ", ")
    for required in ["search", "404"] where !templates.has(required) {
      diagnostics.append(
        .error(
          at: SourceLocation(file: config.path), "missing template '\(required).mustache' (in \(folders))"))
    }
    if config.browse && !templates.has("browse") {
      diagnostics.append(
        .error(
          at: SourceLocation(file: config.path),
          "missing template 'browse.mustache' (in \(folders)); write one, or set browse: false"))
    }
    for collection in config.collections {
      guard let page = collection.page, !templates.has(page.template) else { continue }
      guard config.pages.map({ $0.contains { $0.value == collection.id } }) ?? true else { continue }
      diagnostics.append(
        .error(
          at: page.path.location,
          "collection '\(collection.id)' uses template '\(page.template)', but there is no \(page.template).mustache (in \(folders))"
        ))
    }
    return diagnostics
  }
}
