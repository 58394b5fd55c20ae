import Foundation
import Yams

/// Reads a site configuration, rejecting unknown keys and missing required
/// ones with the line and column where they were (or should have been).
public struct ConfigLoader {
  public init() {}

  public func load(path: String) throws -> SiteConfig {
    let url = URL(fileURLWithPath: path)
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DiagnosticsError(.error(at: SourceLocation(file: path), "cannot read the config file"))
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      let location = UTF8Check.firstInvalidByte(in: [UInt8](data), file: path)
      throw DiagnosticsError(.error(at: location, "the config file is not valid UTF-8"))
    }
    let root: Node
    do {
      guard let node = try Yams.compose(yaml: text) else {
        throw DiagnosticsError(.error(at: SourceLocation(file: path), "the config file is empty"))
      }
      root = node
    } catch let error as YamlError {
      if case .duplicatedKeysInMapping(let keys, let context) = error {
        throw DiagnosticsError(Self.duplicateKeys(keys, after: context.mark.line, in: text, file: path))
      }
      throw DiagnosticsError(Self.diagnostic(for: error, file: path))
    }
    var reader = NodeReader(file: path)
    let config = reader.site(root, path: path, directory: url.deletingLastPathComponent().path)
    guard let config, reader.diagnostics.isEmpty else { throw DiagnosticsError(reader.diagnostics) }
    return config
  }

  /// libyaml reports duplicate keys by name only, at the mapping; each is
  /// found again in the text (a key at the start of a line or after `{` or
  /// `,`) and reported where it is written the second time.
  static func duplicateKeys(_ keys: [String], after line: Int, in text: String, file: String) -> [Diagnostic]
  {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var diagnostics: [Diagnostic] = []
    for key in keys.sorted() {
      var seen: [(line: Int, column: Int)] = []
      for (index, content) in lines.enumerated() where index + 1 >= line {
        let scalars = Array(content.unicodeScalars)
        let keyScalars = Array(key.unicodeScalars)
        var start = 0
        while start + keyScalars.count <= scalars.count {
          let before = start == 0 ? " " : scalars[start - 1]
          if Array(scalars[start..<start + keyScalars.count]) == keyScalars,
            " {,\t\"'".unicodeScalars.contains(before)
          {
            var end = start + keyScalars.count
            if end < scalars.count, scalars[end] == "\"" || scalars[end] == "'" { end += 1 }
            while end < scalars.count, scalars[end] == " " { end += 1 }
            if end < scalars.count, scalars[end] == ":" { seen.append((index + 1, start + 1)) }
          }
          start += 1
        }
      }
      let place = seen.count > 1 ? seen[1] : (line: line, column: 1)
      let first = seen.first.map { " (first on line \($0.line))" } ?? ""
      diagnostics.append(
        .error(
          at: SourceLocation(file: file, line: place.line, column: place.column),
          "duplicate key '\(key)'\(first)"))
    }
    return diagnostics
  }

  static func diagnostic(for error: YamlError, file: String) -> Diagnostic {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return .error(
        at: SourceLocation(file: file, line: mark.line, column: mark.column), "invalid YAML: \(problem)")
    default:
      return .error(at: SourceLocation(file: file), "invalid YAML: \(error)")
    }
  }
}

/// Walks the YAML tree once, collecting every problem instead of stopping
/// at the first.
struct NodeReader {
  let file: String
  var diagnostics: [Diagnostic] = []

  init(file: String) { self.file = file }

  func location(_ node: Node) -> SourceLocation {
    guard let mark = node.mark else { return SourceLocation(file: file) }
    return SourceLocation(file: file, line: mark.line, column: mark.column)
  }

  mutating func fail(_ node: Node, _ message: String) {
    diagnostics.append(.error(at: location(node), message))
  }

  /// The pairs of a mapping, after checking every key is one we know.
  mutating func mapping(_ node: Node, allowed: [String], what: String) -> [String: (key: Node, value: Node)]?
  {
    guard let mapping = node.mapping else {
      fail(node, "\(what) must be a mapping")
      return nil
    }
    var result: [String: (key: Node, value: Node)] = [:]
    for (key, value) in mapping {
      guard let name = key.string else {
        fail(key, "keys in \(what) must be strings")
        continue
      }
      if !allowed.contains(name) {
        let hint = allowed.sorted().joined(separator: ", ")
        fail(key, "unknown key '\(name)' in \(what); expected one of: \(hint)")
        continue
      }
      if result[name] != nil {
        fail(key, "duplicate key '\(name)' in \(what)")
        continue
      }
      result[name] = (key, value)
    }
    return result
  }

  mutating func string(
    _ pairs: [String: (key: Node, value: Node)], _ key: String, in node: Node, what: String
  ) -> String? {
    guard let pair = pairs[key] else {
      fail(node, "missing required key '\(key)' in \(what)")
      return nil
    }
    guard let value = pair.value.scalar?.string else {
      fail(pair.value, "'\(key)' in \(what) must be a string")
      return nil
    }
    return value
  }

  mutating func optionalString(_ pairs: [String: (key: Node, value: Node)], _ key: String, what: String)
    -> String?
  {
    guard let pair = pairs[key] else { return nil }
    guard let value = pair.value.scalar?.string else {
      fail(pair.value, "'\(key)' in \(what) must be a string")
      return nil
    }
    return value
  }

  mutating func located(_ pairs: [String: (key: Node, value: Node)], _ key: String, what: String)
    -> SiteConfig.Located<String>?
  {
    guard let pair = pairs[key] else { return nil }
    guard let value = pair.value.scalar?.string else {
      fail(pair.value, "'\(key)' in \(what) must be a string")
      return nil
    }
    return .init(value: value, location: location(pair.value))
  }

  mutating func bool(
    _ pairs: [String: (key: Node, value: Node)], _ key: String, default value: Bool, what: String
  ) -> Bool {
    guard let pair = pairs[key] else { return value }
    guard let flag = pair.value.bool else {
      fail(pair.value, "'\(key)' in \(what) must be true or false")
      return value
    }
    return flag
  }

  mutating func strings(_ node: Node, what: String) -> [SiteConfig.Located<String>] {
    guard let sequence = node.sequence else {
      fail(node, "\(what) must be a list")
      return []
    }
    var result: [SiteConfig.Located<String>] = []
    for item in sequence {
      guard let text = item.scalar?.string else {
        fail(item, "items of \(what) must be strings")
        continue
      }
      result.append(.init(value: text, location: location(item)))
    }
    return result
  }

  static let siteKeys = [
    "title", "description", "language", "baseURL", "siteURL", "tint", "templates", "search", "index",
    "limits", "tables", "collections", "facets", "scopes", "pages",
  ]

  mutating func site(_ node: Node, path: String, directory: String) -> SiteConfig? {
    guard let pairs = mapping(node, allowed: Self.siteKeys, what: "the site config") else { return nil }
    let what = "the site config"
    let title = string(pairs, "title", in: node, what: what)
    var description = optionalString(pairs, "description", what: what) ?? ""
    let language = optionalString(pairs, "language", what: what) ?? "en"
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
    }
    let tint = optionalString(pairs, "tint", what: what) ?? "#fa2d48"
    if let pair = pairs["tint"], !Self.isColor(tint) {
      fail(pair.value, "tint must be a hex colour such as #fa2d48")
    }
    var templates = ["Templates"]
    if let pair = pairs["templates"] {
      if let single = pair.value.scalar?.string {
        templates = [single]
      } else {
        templates = strings(pair.value, what: "templates").map(\.value)
        if templates.isEmpty { fail(pair.value, "templates must name at least one folder") }
      }
    }

    var search = SiteConfig.Search()
    if let pair = pairs["search"] { search = self.search(pair.value) }
    var index = SiteConfig.Index()
    if let pair = pairs["index"] { index = self.index(pair.value) }

    var tables: [SiteConfig.Table] = []
    if let pair = pairs["tables"] {
      if let mapping = pair.value.mapping {
        for (key, value) in mapping {
          guard let name = key.string else { fail(key, "table names must be strings"); continue }
          if let table = self.table(name: name, node: value, keyNode: key) { tables.append(table) }
        }
      } else {
        fail(pair.value, "tables must be a mapping of table names to tables")
      }
    } else {
      fail(node, "missing required key 'tables' in \(what)")
    }

    var collections: [SiteConfig.Collection] = []
    if let pair = pairs["collections"] {
      if let sequence = pair.value.sequence {
        for item in sequence {
          if let collection = self.collection(item) { collections.append(collection) }
        }
        if sequence.isEmpty { fail(pair.value, "collections must list at least one collection") }
      } else {
        fail(pair.value, "collections must be a list")
      }
    } else {
      fail(node, "missing required key 'collections' in \(what)")
    }

    var facets: [SiteConfig.Facet] = []
    if let pair = pairs["facets"] {
      for item in pair.value.sequence ?? [] {
        guard let fields = mapping(item, allowed: ["id", "label", "icon", "token"], what: "a facet") else {
          continue
        }
        guard let id = string(fields, "id", in: item, what: "a facet") else { continue }
        let label = optionalString(fields, "label", what: "a facet") ?? id
        let icon = optionalString(fields, "icon", what: "a facet") ?? "tag"
        let token = bool(fields, "token", default: true, what: "a facet")
        facets.append(.init(id: id, label: label, icon: icon, token: token, location: location(item)))
      }
      if pair.value.sequence == nil { fail(pair.value, "facets must be a list") }
    }

    var scopes: [SiteConfig.Scope] = []
    if let pair = pairs["scopes"] {
      for item in pair.value.sequence ?? [] {
        guard let fields = mapping(item, allowed: ["id", "label", "facet", "value"], what: "a scope") else {
          continue
        }
        guard let id = string(fields, "id", in: item, what: "a scope") else { continue }
        let label = optionalString(fields, "label", what: "a scope") ?? id
        let facet = optionalString(fields, "facet", what: "a scope")
        let value = optionalString(fields, "value", what: "a scope")
        if (facet == nil) != (value == nil) {
          fail(item, "a scope needs both 'facet' and 'value', or neither (the whole catalogue)")
        }
        scopes.append(.init(id: id, label: label, facet: facet, value: value, location: location(item)))
      }
      if pair.value.sequence == nil { fail(pair.value, "scopes must be a list") }
    }
    if scopes.isEmpty {
      scopes = [.init(id: "all", label: "All", facet: nil, value: nil, location: location(node))]
    }

    var pages: [SiteConfig.Located<String>]?
    if let pair = pairs["pages"] { pages = strings(pair.value, what: "pages") }

    guard let title else { return nil }
    // Every page needs a description; without one, say what can be searched.
    if description.trimmingCharacters(in: .whitespaces).isEmpty {
      let labels = collections.filter(\.searchable).map(\.label)
      let list =
        labels.count > 1
        ? labels.dropLast().joined(separator: ", ") + " and " + (labels.last ?? "") : labels.first ?? title
      description = "Search \(list) of \(title)."
    }
    var config = SiteConfig(
      path: path, directory: directory, title: title, description: description, language: language,
      baseURL: baseURL, siteURL: siteURL, tint: tint, templates: templates, search: search, tables: tables,
      collections: collections, facets: facets, scopes: scopes, pages: pages)
    config.index = index
    if let pair = pairs["limits"] { config.limits = loadLimits(pair.value) }
    return config
  }

  static func isColor(_ text: String) -> Bool {
    let hex = text.dropFirst()
    return text.hasPrefix("#") && [3, 6].contains(hex.count) && hex.allSatisfy(\.isHexDigit)
  }

  mutating func search(_ node: Node) -> SiteConfig.Search {
    var search = SiteConfig.Search()
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
    if let pair = pairs["trending"] { search.trending = strings(pair.value, what: "trending").map(\.value) }
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
}
