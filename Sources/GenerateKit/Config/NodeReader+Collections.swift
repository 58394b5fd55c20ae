import Yams

/// Collections: the part of the config that says what is searched and shown,
/// and the expressions it is written in.
extension NodeReader {
  /// A mapping of names to expressions, each kept with its place.
  mutating func expressions(
    _ pair: (key: Node, value: Node)?, what: String, keys: String
  ) -> [(String, SiteConfig.Located<String>)] {
    guard let pair else { return [] }
    guard let mapping = pair.value.mapping else {
      fail(pair.value, "\(what) must be a mapping")
      return []
    }
    var result: [(String, SiteConfig.Located<String>)] = []
    for (key, value) in mapping {
      guard let name = key.string, let expression = value.scalar?.string else {
        fail(key, "\(what) map \(keys) to expressions")
        continue
      }
      result.append((name, .init(value: expression, location: location(value))))
    }
    return result
  }

  static let collectionKeys = [
    "id", "label", "singular", "table", "title", "subtitle", "popularity", "fields", "facets", "search",
    "searchable", "page", "url", "where", "fold", "distinct", "weights", "image", "symbol", "sort", "range",
  ]

  mutating func collection(_ node: Node) -> SiteConfig.Collection? {
    guard var collection = collectionBase(node), let mapping = node.mapping else { return nil }
    // The base already reported unknown and duplicate keys: read the two ranking keys quietly.
    var pairs: [String: (key: Node, value: Node)] = [:]
    for (key, value) in mapping {
      if let name = key.string, pairs[name] == nil { pairs[name] = (key, value) }
    }
    let what = "collection '\(collection.id)'"
    collection.distinct = located(pairs, "distinct", what: what)
    collection.image = located(pairs, "image", what: what)
    collection.symbol = located(pairs, "symbol", what: what)
    collection.sorts = valueKeys(pairs["sort"], range: false, what: what)
    collection.ranges = valueKeys(pairs["range"], range: true, what: what)
    collection.weights = expressions(pairs["weights"], what: "weights in \(what)", keys: "search field names")
    for weight in collection.weights {
      let text = weight.expression.value
      guard let number = Double(text), number.isFinite, number > 0, number <= 100 else {
        diagnostics.append(
          .error(
            at: weight.expression.location,
            "weight '\(text)' of '\(weight.name)' in \(what) must be a number greater than 0 and at most 100")
        )
        continue
      }
    }
    return collection
  }

  mutating func collectionBase(_ node: Node) -> SiteConfig.Collection? {
    guard let pairs = mapping(node, allowed: Self.collectionKeys, what: "a collection") else { return nil }
    guard let id = identifier(pairs, in: node, what: "a collection") else { return nil }
    let what = "collection '\(id)'"
    let label = optionalString(pairs, "label", what: what) ?? id
    let singular = optionalString(pairs, "singular", what: what) ?? label
    let table = string(pairs, "table", in: node, what: what)
    let title = located(pairs, "title", what: what)
    if pairs["title"] == nil { fail(node, "missing required key 'title' in \(what)") }
    let fields = expressions(pairs["fields"], what: "fields in \(what)", keys: "names")
    let facets = expressions(pairs["facets"], what: "facets in \(what)", keys: "facet ids")
    var search: [SiteConfig.Located<String>] = []
    if let pair = pairs["search"] { search = strings(pair.value, what: "search in \(what)") }
    var page: (template: String, path: SiteConfig.Located<String>)?
    if let pair = pairs["page"] {
      // No template: the built-in record page.
      if let fields = mapping(pair.value, allowed: ["template", "path"], what: "page in \(what)") {
        let template = optionalString(fields, "template", what: "page in \(what)") ?? "record"
        let path =
          located(fields, "path", what: "page in \(what)")
          ?? .init(value: "\(id)/{{slug}}/", location: location(pair.value))
        page = (template, path)
      }
    }
    guard let table, let title else { return nil }
    var collection = SiteConfig.Collection(
      id: id, location: location(node), label: label, singular: singular, table: table, title: title,
      subtitle: located(pairs, "subtitle", what: what), popularity: located(pairs, "popularity", what: what),
      fields: fields, facets: facets, search: search,
      searchable: bool(pairs, "searchable", default: true, what: what), page: page,
      url: located(pairs, "url", what: what))
    collection.filter = located(pairs, "where", what: what)
    collection.fold = located(pairs, "fold", what: what)
    return collection
  }
}
