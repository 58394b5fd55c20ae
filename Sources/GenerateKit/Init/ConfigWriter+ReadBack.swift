import Foundation

/// What `init` means its config to say, and the check that the text it
/// wrote says exactly that when `ConfigLoader` reads it back. The writer
/// escapes every name; this is the proof for the names it did not foresee:
/// a line break that ends a comment, a key that repeats another, a value
/// that YAML reads as something else. Both sides become the same lines —
/// every setting of a `SiteConfig`, including the ones `init` leaves at
/// their defaults, so a key the text gained (`siteURL:`, `templates:`)
/// shows as a difference too.
extension ConfigWriter {
  /// The config `write(plan)` is meant to produce, as `ConfigLoader`
  /// would return it (places aside).
  func meant(_ plan: SitePlan) -> SiteConfig {
    let place = SourceLocation(file: "")
    func located(_ text: String) -> SiteConfig.Located<String> { .init(value: text, location: place) }
    let tables = plan.schema.tables.map { shape -> SiteConfig.Table in
      let source: SiteConfig.Table.Source
      switch shape.found.source {
      case .items(_, let parent, let list, _):
        var table = SiteConfig.Table(
          name: shape.name, location: place, source: nil, key: shape.key.map(located),
          refs: shape.refs.map { .init(value: ($0.column, $0.table), location: place) }, groupBy: nil)
        table.itemsOf = (parent, list)
        return table
      case .csv(let path, let separator): source = .csv(file: located(relative(path)), separator: separator)
      case .json(let path, let keyPath, _):
        source = .json(file: located(relative(path)), path: keyPath.map(located))
      case .jsonLines(let path): source = .jsonLines(file: located(relative(path)))
      case .sqlite(let path, let table):
        source = .sqliteTable(database: located(relative(path)), table: located(table))
      case .postgres(let url, let table, let query):
        let read: SiteConfig.Table.Postgres.Read = query.map { .query(located($0)) } ?? .table(located(table))
        source = .postgres(.init(url: located(url), read: read, passwordEnv: nil))
      }
      var table = SiteConfig.Table(
        name: shape.name, location: place, source: source, key: shape.key.map(located),
        refs: shape.refs.map { .init(value: ($0.column, $0.table), location: place) }, groupBy: nil)
      table.lists = shape.found.lists.map { .init(value: ($0.column, $0.separator), location: place) }
      table.missing = shape.found.missing.map(located)
      table.encoding = shape.found.encoding
      if case .json(_, _, let members?) = shape.found.source { table.members = located(members) }
      return table
    }
    let collections = plan.collections.map { plan -> SiteConfig.Collection in
      var collection = SiteConfig.Collection(
        id: plan.id, location: place, label: plan.label, singular: plan.singular, table: plan.table,
        title: located(plan.title), subtitle: plan.subtitle.map(located),
        popularity: plan.popularity.map(located),
        fields: plan.fields.map { ($0.name, located($0.expression)) },
        facets: plan.facets.map { ($0.facet, located($0.expression)) }, search: plan.search.map(located),
        searchable: true, page: ("record", located("\(plan.id)/{{slug}}/")), url: nil)
      collection.distinct = plan.distinct.map(located)
      collection.image = plan.image.map(located)
      collection.symbol = plan.symbol.map(located)
      collection.weights = plan.weighed.map { ($0, located("2")) }
      (collection.sorts, collection.ranges) = ConfigWriter.valueKeys(plan, located: located)
      return collection
    }
    // What the loader gives a key init leaves out: the words of the site's language.
    let words = UIStrings.builtIn(language(plan))
    var search = SiteConfig.Search()
    (search.title, search.topResults) = (words.text("search"), words.text("topResults"))
    search.placeholder = placeholder(plan)
    search.trending = trending
    let scopes =
      plan.scopes.isEmpty
      ? [SiteConfig.Scope(id: "all", label: words.text("all"), facet: nil, value: nil, location: place)]
      : plan.scopes.map {
        .init(id: $0.id, label: $0.label, facet: $0.facet, value: $0.value, location: place)
      }
    var config = SiteConfig(
      path: "", directory: directory, title: title, description: description, language: language(plan),
      baseURL: "/", siteURL: nil, tint: "#0a84ff", templates: [], search: search, tables: tables,
      collections: collections,
      facets: plan.facets.map {
        .init(
          id: $0.id, label: $0.label, icon: $0.icon, token: true, location: place,
          labels: $0.codes.isEmpty ? nil : .named(located($0.id)))
      }, scopes: scopes, pages: nil)
    for facet in plan.facets where !facet.codes.isEmpty {
      config.labels[facet.id] = .init(
        name: facet.id,
        labels: Dictionary(
          facet.codes.map { ($0, label($0, of: facet, language: language(plan))) },
          uniquingKeysWith: { first, _ in first }),
        location: place)
    }
    return config
  }

  /// Every setting of `config` as one line each, values quoted, in the
  /// config's order (maps sorted): equal lines, equal configs.
  static func settings(of config: SiteConfig) -> [String] {
    func q(_ text: String?) -> String { text.map(YAMLWriter.quoted) ?? "none" }
    func list(_ items: [String]) -> String {
      "[" + items.map(YAMLWriter.quoted).joined(separator: ", ") + "]"
    }
    func map(_ pairs: [String: String]) -> String {
      "{" + pairs.sorted { $0.key < $1.key }.map { "\(q($0.key)): \(q($0.value))" }.joined(separator: ", ")
        + "}"
    }
    var lines = [
      "title \(q(config.title))", "description \(q(config.description))", "language \(q(config.language))",
      "baseURL \(q(config.baseURL))", "siteURL \(q(config.siteURL))", "tint \(q(config.tint))",
      "templates \(list(config.templates))", "builtInTheme \(config.builtInTheme)", "browse \(config.browse)",
      "offline \(config.offline)", "pages \(config.pages.map { list($0.map(\.value)) } ?? "all")",
    ]
    let search = config.search
    lines += [
      "search.title \(q(search.title))", "search.placeholder \(q(search.placeholder))",
      "search.topResults \(q(search.topResults))", "search.slashFocuses \(search.slashFocuses)",
      "search.suggestions \(search.suggestions)", "search.trending \(list(search.trending))",
    ]
    let index = config.index
    lines.append(
      "index \(index.termShardBytes) \(index.documentsPerShard) \(index.postingsPerTerm) \(index.topsPerPrefix) \(index.rowBytesPerShard) \(index.kindsInOneFile)"
    )
    lines += SiteConfig.Limits.keys.map { "limits.\($0.name) \(config.limits[keyPath: $0.path])" }
    for table in config.tables {
      let at = "table \(q(table.name))"
      switch table.source {
      case .csv(let file, let separator)?: lines.append("\(at) csv \(q(file.value)) separator \(separator)")
      case .json(let file, let path)?:
        lines.append("\(at) json \(q(file.value)) path \(q(path?.value)) members \(q(table.members?.value))")
      case .jsonLines(let file)?: lines.append("\(at) jsonLines \(q(file.value))")
      case .sqliteTable(let database, let name)?:
        lines.append("\(at) sqlite \(q(database.value)) \(q(name.value))")
      case .sqliteQuery(let database, let query)?:
        lines.append("\(at) sqlite \(q(database.value)) query \(q(query.value))")
      case .postgres(let server)?:
        switch server.read {
        case .table(let name): lines.append("\(at) postgres \(q(server.url.value)) \(q(name.value))")
        case .query(let query): lines.append("\(at) postgres \(q(server.url.value)) query \(q(query.value))")
        }
        lines.append("\(at) passwordEnv \(q(server.passwordEnv?.value))")
      case nil: lines.append("\(at) no source")
      }
      lines.append("\(at) key \(q(table.key?.value))")
      lines += table.refs.map { "\(at) ref \(q($0.value.column)) → \(q($0.value.table))" }
      if let group = table.groupBy { lines.append("\(at) groupBy \(q(group.table)) \(q(group.column))") }
      if let items = table.itemsOf { lines.append("\(at) itemsOf \(q(items.table)) \(q(items.list))") }
      lines += table.lists.map { "\(at) list \(q($0.value.column)) separated by \(q($0.value.separator))" }
      lines += table.missing.map { "\(at) missing \(q($0.value))" }
    }
    for collection in config.collections {
      let at = "collection \(q(collection.id))"
      lines += [
        "\(at) label \(q(collection.label))", "\(at) singular \(q(collection.singular))",
        "\(at) table \(q(collection.table))", "\(at) title \(q(collection.title.value))",
        "\(at) subtitle \(q(collection.subtitle?.value))",
        "\(at) popularity \(q(collection.popularity?.value))",
        "\(at) search \(list(collection.search.map(\.value)))", "\(at) searchable \(collection.searchable)",
        "\(at) page \(q(collection.page?.template)) \(q(collection.page?.path.value))",
        "\(at) url \(q(collection.url?.value))", "\(at) where \(q(collection.filter?.value))",
        "\(at) fold \(q(collection.fold?.value))", "\(at) distinct \(q(collection.distinct?.value))",
        "\(at) image \(q(collection.image?.value))", "\(at) symbol \(q(collection.symbol?.value))",
      ]
      lines += collection.fields.map { "\(at) field \(q($0.name)) = \(q($0.expression.value))" }
      lines += collection.facets.map { "\(at) facet \(q($0.facet)) = \(q($0.expression.value))" }
      lines += collection.weights.map { "\(at) weight \(q($0.name)) = \(q($0.expression.value))" }
      lines += (collection.sorts + collection.ranges).map {
        "\(at) value \(q($0.id)) \(q($0.label)) \(q($0.by.value)) \($0.descending) \($0.format)"
      }
    }
    for facet in config.facets {
      var labels = "none"
      switch facet.labels {
      case .named(let name)?: labels = "named \(q(name.value))"
      case .inline(let pairs)?: labels = "inline \(map(pairs))"
      case nil: break
      }
      lines.append(
        "facet \(q(facet.id)) label \(q(facet.label)) icon \(q(facet.icon)) token \(facet.token) labels \(labels)"
      )
    }
    for name in config.labels.keys.sorted() {
      guard let labels = config.labels[name] else { continue }
      lines.append("labels \(q(name)) name \(q(labels.name)) \(map(labels.labels))")
    }
    for scope in config.scopes {
      lines.append(
        "scope \(q(scope.id)) label \(q(scope.label)) facet \(q(scope.facet)) value \(q(scope.value)) description \(q(scope.description))"
      )
    }
    return lines
  }

  /// Why `loaded` is not the config `init` meant (nil when it is): the
  /// first setting that differs, as meant and as read.
  static func difference(meant: SiteConfig, loaded: SiteConfig) -> String? {
    let expected = settings(of: meant)
    let read = settings(of: loaded)
    // As bytes: Swift's `==` holds canonically equivalent strings equal,
    // and `é` written as `e` + U+0301 is another column or file name.
    func same(_ one: String, _ other: String) -> Bool { one.utf8.elementsEqual(other.utf8) }
    guard !expected.elementsEqual(read, by: same) else { return nil }
    for (index, line) in expected.enumerated() where index >= read.count || !same(read[index], line) {
      return "meant \(line), read \(index < read.count ? read[index] : "nothing")"
    }
    return "read \(read[expected.count]) besides"
  }
}
