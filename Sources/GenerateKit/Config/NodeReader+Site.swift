import Yams

/// The site schema: the config's top level, `search:`, `index:`, facets and
/// scopes. Collections and tables have files of their own.
extension NodeReader {
  static let siteKeys = [
    "title", "description", "language", "baseURL", "siteURL", "tint", "templates", "builtInTheme",
    "search", "index", "limits", "tables", "collections", "facets", "scopes", "pages", "labels",
    "browse", "offline", "strings",
  ]

  mutating func site(_ node: Node, path: String, directory: String) -> SiteConfig? {
    guard let pairs = mapping(node, allowed: Self.siteKeys, what: "the site config") else { return nil }
    let what = "the site config"
    // The limits first: they bound everything else, read only once the
    // whole tree is known to be within them.
    var limits = SiteConfig.Limits()
    limits.configFile = file
    if let pair = pairs["limits"] { limits = loadLimits(pair.value) }
    guard checkBounds(node, limits: limits) else { return nil }
    let title = string(pairs, "title", in: node, what: what)
    var description = optionalString(pairs, "description", what: what) ?? ""
    let language = optionalString(pairs, "language", what: what) ?? "en"
    var interface = UIStrings.builtIn(language)
    let stringWarnings = languageWarnings(interface, at: pairs["language"].map { location($0.value) })
    if let pair = pairs["strings"] { overrideStrings(pair.value, in: &interface) }
    var baseURL = "/"
    if let pair = pairs["baseURL"], let text = optionalString(pairs, "baseURL", what: what) {
      if !text.hasPrefix("/") {
        fail(pair.value, "baseURL must be a path starting with '/', such as /music/")
      } else {
        do { baseURL = try BasePath(text).path } catch { fail(pair.value, "baseURL: \(error)") }
      }
    }
    let siteURL = optionalString(pairs, "siteURL", what: what)
    if let pair = pairs["siteURL"], let siteURL,
      !(siteURL.hasPrefix("https://") || siteURL.hasPrefix("http://"))
    {
      fail(pair.value, "siteURL must be an absolute http(s) URL such as https://music.example.org")
    } else if let pair = pairs["siteURL"],
      let bad = siteURL?.unicodeScalars.first(where: {
        $0.value <= 0x20 || "<>\"`{}|\\^".unicodeScalars.contains($0)
      })
    {
      // robots.txt names the sitemap by it as it is, and a sitemap's URL
      // must be one (RFC 3986), not text an XML escape makes readable.
      fail(
        pair.value,
        "siteURL holds '\(bad)', which a URL cannot; percent-encode it (\(PercentEncoding.encode(String(bad))))"
      )
    }
    let tint = optionalString(pairs, "tint", what: what) ?? "#fa2d48"
    if let pair = pairs["tint"], !Self.isColor(tint) {
      fail(pair.value, "tint must be a hex colour such as #fa2d48")
    }
    // The user's own folders, searched before the built-in theme; none by
    // default, and an empty list says the same.
    var templates: [String] = []
    if let pair = pairs["templates"] {
      if let single = pair.value.scalar?.string {
        templates = [single]
      } else {
        templates = strings(pair.value, what: "templates").map(\.value)
      }
    }

    var search = SiteConfig.Search()
    (search.title, search.placeholder) = (interface.text("search"), interface.text("search"))
    search.topResults = interface.text("topResults")
    if let pair = pairs["search"] { search = self.search(pair.value, defaults: search) }
    var index = SiteConfig.Index()
    if let pair = pairs["index"] { index = self.index(pair.value) }

    var tables: [SiteConfig.Table] = []
    if let pair = pairs["tables"] {
      tables = self.tables(pair.value)
    } else {
      fail(node, "missing required key 'tables' in \(what)")
    }
    var collections: [SiteConfig.Collection] = []
    if let pair = pairs["collections"] {
      collections = self.collections(pair.value)
    } else {
      fail(node, "missing required key 'collections' in \(what)")
    }

    var labelMaps: [String: SiteConfig.LabelMap] = [:]
    if let pair = pairs["labels"] { labelMaps = self.labelMaps(pair.value) }
    var facets: [SiteConfig.Facet] = []
    if let pair = pairs["facets"] { facets = self.facets(pair.value) }
    var scopes: [SiteConfig.Scope] = []
    if let pair = pairs["scopes"] { scopes = self.scopes(pair.value) }
    if scopes.isEmpty {
      scopes = [
        .init(id: "all", label: interface.text("all"), facet: nil, value: nil, location: location(node))
      ]
    }

    var pages: [SiteConfig.Located<String>]?
    if let pair = pairs["pages"] { pages = strings(pair.value, what: "pages") }

    guard let title else { return nil }
    // Every page needs a description; without one, say what can be searched.
    if description.trimmingCharacters(in: .whitespaces).isEmpty {
      let labels = collections.filter(\.searchable).map(\.label)
      let list =
        labels.count > 1
        ? labels.dropLast().joined(separator: interface.text("listComma")) + interface.text("andWord")
          + (labels.last ?? "") : labels.first ?? title
      description = interface.text("siteDescription", ["list": list, "site": title])
    }
    var config = SiteConfig(
      path: path, directory: directory, title: title, description: description, language: language,
      baseURL: baseURL, siteURL: siteURL, tint: tint, templates: templates, search: search, tables: tables,
      collections: collections, facets: facets, scopes: scopes, pages: pages)
    config.index = index
    config.limits = limits
    config.labels = labelMaps
    config.strings = interface
    config.stringWarnings = stringWarnings
    config.builtInTheme = bool(pairs, "builtInTheme", default: true, what: what)
    config.browse = bool(pairs, "browse", default: true, what: what)
    config.offline = bool(pairs, "offline", default: true, what: what)
    return config
  }

  static func isColor(_ text: String) -> Bool {
    let hex = text.dropFirst()
    return text.hasPrefix("#") && [3, 6].contains(hex.count) && hex.allSatisfy(\.isHexDigit)
  }

  mutating func search(_ node: Node, defaults: SiteConfig.Search) -> SiteConfig.Search {
    var search = defaults
    let what = "search"
    guard
      let pairs = mapping(
        node, allowed: ["title", "placeholder", "topResults", "slashFocuses", "suggestions", "trending"],
        what: what)
    else { return search }
    search.title = optionalString(pairs, "title", what: what) ?? search.title
    search.placeholder = optionalString(pairs, "placeholder", what: what) ?? search.placeholder
    search.topResults = optionalString(pairs, "topResults", what: what) ?? search.topResults
    search.slashFocuses = bool(pairs, "slashFocuses", default: true, what: what)
    if let pair = pairs["suggestions"] {
      if let count = pair.value.int, (1...50).contains(count) {
        search.suggestions = count
      } else {
        fail(pair.value, "suggestions must be a whole number from 1 to 50")
      }
    }
    if let pair = pairs["trending"] {
      let terms = strings(pair.value, what: "trending")
      search.trending = terms.map(\.value)
      search.trendingLocations = terms.map(\.location)
    }
    return search
  }

  mutating func index(_ node: Node) -> SiteConfig.Index {
    var index = SiteConfig.Index()
    let limits: [(String, ClosedRange<Int>, WritableKeyPath<SiteConfig.Index, Int>)] = [
      ("termShardBytes", 256...1_048_576, \.termShardBytes),
      ("documentsPerShard", 1...10_000, \.documentsPerShard),
      ("postingsPerTerm", 1...1_000_000, \.postingsPerTerm),
      ("topsPerPrefix", 1...10_000, \.topsPerPrefix),
      ("rowBytesPerShard", 0...1_048_576, \.rowBytesPerShard),
      ("kindsInOneFile", 0...100_000_000, \.kindsInOneFile),
      ("documentsPerSortFile", 1...1_000_000, \.documentsPerSortFile),
    ]
    guard let pairs = mapping(node, allowed: limits.map(\.0), what: "index") else { return index }
    for (name, range, path) in limits {
      guard let pair = pairs[name] else { continue }
      if let number = pair.value.int, range.contains(number) {
        index[keyPath: path] = number
      } else {
        fail(
          pair.value, "index.\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
    }
    return index
  }

  mutating func facets(_ node: Node) -> [SiteConfig.Facet] {
    var facets: [SiteConfig.Facet] = []
    for item in node.sequence ?? [] {
      guard
        let fields = mapping(item, allowed: ["id", "label", "icon", "token", "labels"], what: "a facet")
      else {
        continue
      }
      guard let id = identifier(fields, in: item, what: "a facet") else { continue }
      let label = optionalString(fields, "label", what: "a facet") ?? id
      let icon = optionalString(fields, "icon", what: "a facet") ?? "tag"
      let token = bool(fields, "token", default: true, what: "a facet")
      var labels: SiteConfig.Labels?
      if let pair = fields["labels"] {
        if let name = pair.value.scalar?.string {
          labels = .named(.init(value: name, location: location(pair.value)))
        } else if let map = labelMap(pair.value, what: "labels of facet '\(id)'") {
          labels = .inline(map)
        }
      }
      facets.append(
        .init(id: id, label: label, icon: icon, token: token, location: location(item), labels: labels))
    }
    if node.sequence == nil { fail(node, "facets must be a list") }
    return facets
  }

  /// `labels:`: names, each with a map of coded values to labels.
  mutating func labelMaps(_ node: Node) -> [String: SiteConfig.LabelMap] {
    guard let mapping = node.mapping else {
      fail(
        node,
        "labels must be a mapping of names to maps of values and their labels, such as status: { L: Living }")
      return [:]
    }
    var maps: [String: SiteConfig.LabelMap] = [:]
    for (key, value) in mapping {
      guard let name = key.string else {
        fail(key, "names under labels must be strings")
        continue
      }
      guard let map = labelMap(value, what: "labels '\(name)'") else { continue }
      maps[name] = .init(name: name, labels: map, location: location(key))
    }
    return maps
  }

  /// `{ L: Living, E: Extinct }`: values as the data holds them, and labels.
  mutating func labelMap(_ node: Node, what: String) -> [String: String]? {
    guard let mapping = node.mapping else {
      fail(node, "\(what) must be a mapping of values to labels, such as { L: Living }")
      return nil
    }
    var map: [String: String] = [:]
    for (key, value) in mapping {
      guard let code = key.scalar?.string, let label = value.scalar?.string else {
        fail(key.scalar == nil ? key : value, "\(what) must map values to labels, each a single value")
        continue
      }
      map[code] = label
    }
    return map
  }

  mutating func scopes(_ node: Node) -> [SiteConfig.Scope] {
    var scopes: [SiteConfig.Scope] = []
    for item in node.sequence ?? [] {
      guard
        let fields = mapping(
          item, allowed: ["id", "label", "facet", "value", "description"], what: "a scope")
      else {
        continue
      }
      guard let id = identifier(fields, in: item, what: "a scope") else { continue }
      let label = optionalString(fields, "label", what: "a scope") ?? id
      let facet = optionalString(fields, "facet", what: "a scope")
      let value = optionalString(fields, "value", what: "a scope")
      if (facet == nil) != (value == nil) {
        fail(item, "a scope needs both 'facet' and 'value', or neither (the whole catalogue)")
      }
      scopes.append(
        .init(
          id: id, label: label, facet: facet, value: value, location: location(item),
          description: optionalString(fields, "description", what: "a scope")))
    }
    if node.sequence == nil { fail(node, "scopes must be a list") }
    return scopes
  }

  mutating func tables(_ node: Node) -> [SiteConfig.Table] {
    guard let mapping = node.mapping else {
      fail(node, "tables must be a mapping of table names to tables")
      return []
    }
    var tables: [SiteConfig.Table] = []
    for (key, value) in mapping {
      guard let name = key.string else {
        fail(key, "table names must be strings")
        continue
      }
      if let table = self.table(name: name, node: value, keyNode: key) { tables.append(table) }
    }
    return tables
  }

  mutating func collections(_ node: Node) -> [SiteConfig.Collection] {
    guard let sequence = node.sequence else {
      fail(node, "collections must be a list")
      return []
    }
    if sequence.isEmpty { fail(node, "collections must list at least one collection") }
    return sequence.compactMap { collection($0) }
  }
}
