import Foundation

/// Writes a site plan as an ordinary config a person can edit: the same
/// layout and keys as a hand-written one (`Data/site.yml`), each choice
/// with a short comment saying why it was made.
public struct ConfigWriter {
  /// The folder the config will be written to, for relative data paths.
  public var directory: String
  public var title: String
  public var description: String
  public var trending: [String] = []
  /// What the trending searches are, for their comment.
  public var trendingComment = "The most popular titles; put the searches you expect here."

  public init(directory: String, title: String, description: String) {
    self.directory = directory
    self.title = title
    self.description = description
  }

  /// The language of the first collection's titles and text.
  func language(_ plan: SitePlan) -> String { plan.language }

  public func write(_ plan: SitePlan) -> String {
    typealias YAML = YAMLWriter
    var out: [String] = []
    out.append(YAML.comment("Written by `generate init` from \(sources(plan))."))
    out.append("# An ordinary config: edit anything. Paths are relative to this file's folder.")
    out.append("# Build it with:  generate --config <this file>")
    out.append("title: \(YAML.scalar(title))")
    out.append("description: \(YAML.scalar(description))")
    let language = language(plan)
    if let reason = SiteLanguage.comment(language) { out.append(YAML.comment("language: \(reason)")) }
    out.append("language: \(YAML.scalar(language))")
    out.append("baseURL: /")
    out.append("tint: \"#0a84ff\"")
    out.append("")
    out.append("search:")
    // The large title in the site's language, as the page's other words are (docs/languages.md).
    out.append("  title: \(YAML.scalar(UIStrings.builtIn(language).text("search")))")
    out.append("  placeholder: \(YAML.scalar(placeholder(plan)))")
    if !trending.isEmpty {
      out.append(YAML.comment(trendingComment, indent: 2))
      out.append("  trending: \(YAML.flowList(trending))")
    }
    out.append("")
    out += tables(plan)
    if !plan.facets.isEmpty {
      out.append("")
      out.append("# Values results can be filtered by, offered as search tokens (\"Genre: Jazz\").")
      out.append("facets:")
      for facet in plan.facets {
        out.append(YAML.comment(facet.reason, indent: 2))
        var parts = [
          YAML.flowEntry("id", YAML.scalar(facet.id)), YAML.flowEntry("label", YAML.scalar(facet.label)),
          YAML.flowEntry("icon", YAML.scalar(facet.icon)),
        ]
        if !facet.codes.isEmpty { parts.append(YAML.flowEntry("labels", YAML.scalar(facet.id))) }
        out.append("  - { \(parts.joined(separator: ", ")) }")
      }
    }
    let coded = plan.facets.filter { !$0.codes.isEmpty }
    if !coded.isEmpty {
      out.append("")
      out.append("# Coded values and what a visitor reads for each: write the meaning after")
      out.append("# each code (L: Living). A code left as it is shows as it is.")
      out.append("labels:")
      for facet in coded {
        guard !facet.names.isEmpty else {
          let pairs = facet.codes.map { YAML.flowEntry($0, YAML.quoted($0), quotingKey: true) }
          out += YAML.blockEntry(facet.id, "{ \(pairs.joined(separator: ", ")) }", indent: 2)
          continue
        }
        // Named codes, one a line to edit: a code iso-codes does not know
        // is written as itself.
        out.append(YAML.comment(CountryCodes.source(language) + ".", indent: 2))
        out += YAML.blockKey(facet.id, indent: 2)
        out += facet.codes.map {
          "    " + YAML.flowEntry($0, YAML.quoted(label($0, of: facet, language: language)), quotingKey: true)
        }
      }
    }
    if !plan.scopes.isEmpty {
      out.append("")
      out.append("# The segmented control under the search field.")
      out.append("scopes:")
      for scope in plan.scopes {
        var parts = [
          YAML.flowEntry("id", YAML.scalar(scope.id)), YAML.flowEntry("label", YAML.scalar(scope.label)),
        ]
        if let facet = scope.facet, let value = scope.value {
          parts += [YAML.flowEntry("facet", YAML.scalar(facet)), YAML.flowEntry("value", YAML.quoted(value))]
        }
        out.append("  - { \(parts.joined(separator: ", ")) }")
      }
    }
    out.append("")
    out.append("# Each collection is a chip after \"Top Results\", in this order, with a page per record.")
    out.append("collections:")
    for (index, collection) in plan.collections.enumerated() {
      if index > 0 { out.append("") }
      out += self.collection(collection)
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// What a facet's code reads as: a country's name in the site's
  /// language (English where iso-codes has no translation), else the code.
  func label(_ code: String, of facet: SitePlan.Facet, language: String) -> String {
    facet.names[code].map { CountryCodes.name($0, in: language) } ?? code
  }

  /// The files read, or their count and folder when there are many; each
  /// path quoted, as data in a comment is.
  func sources(_ plan: SitePlan) -> String {
    let files = Array(Set(plan.schema.tables.map { relative($0.found.source.path) })).sorted()
    let folders = Set(files.map { URL(fileURLWithPath: $0).deletingLastPathComponent().relativePath })
    if files.count > 3, folders.count == 1, let folder = folders.first {
      return "\(files.count) files in \(YAMLWriter.named(folder + "/"))"
    }
    return files.map(YAMLWriter.named).joined(separator: ", ")
  }

  func placeholder(_ plan: SitePlan) -> String {
    let labels = plan.collections.map(\.label)
    switch labels.count {
    case 0: return "Search"
    case 1: return labels[0]
    case 2, 3: return labels.dropLast().joined(separator: ", ") + " and " + (labels.last ?? "")
    default: return labels.prefix(3).joined(separator: ", ") + ", and More"
    }
  }

  /// The table's source as the config says it: a CSV, JSON or JSON Lines
  /// file (with a separator or a path inside it) or a database's table.
  func sourceParts(_ source: FoundTable.Source) -> [String] {
    typealias YAML = YAMLWriter
    switch source {
    case .csv(let path, let separator):
      var parts = [YAML.flowEntry("file", YAML.scalar(relative(path)))]
      if separator != CSVSeparator.implied(byFile: path) {
        parts.append(YAML.flowEntry("separator", CSVSeparator.written(separator)))
      }
      return parts
    case .jsonLines(let path): return [YAML.flowEntry("file", YAML.scalar(relative(path)))]
    case .json(let path, let keyPath, let members):
      var parts = [YAML.flowEntry("file", YAML.scalar(relative(path)))]
      if let keyPath { parts.append(YAML.flowEntry("path", YAML.scalar(keyPath))) }
      if let members { parts.append(YAML.flowEntry("members", YAML.scalar(members))) }
      return parts
    case .sqlite(let path, let table):
      return [
        YAML.flowEntry("sqlite", YAML.scalar(relative(path))), YAML.flowEntry("table", YAML.scalar(table)),
      ]
    case .postgres(let url, let table, let query):
      // The password stays in PGPASSWORD, as when init read the server.
      return [
        YAML.flowEntry("postgres", YAML.scalar(url)),
        query.map { YAML.flowEntry("query", YAML.scalar($0)) } ?? YAML.flowEntry("table", YAML.scalar(table)),
      ]
    case .items(_, let parent, let list, _):
      return [YAML.flowEntry("itemsOf", YAML.scalar("\(parent).\(list)"))]
    }
  }

  func tables(_ plan: SitePlan) -> [String] {
    typealias YAML = YAMLWriter
    var out = ["tables:"]
    let notCollections = Dictionary(plan.tablesOnly, uniquingKeysWith: { first, _ in first })
    for shape in plan.schema.tables {
      var comments = ["key: " + (shape.key == nil ? "none — " : "") + shape.keyReason]
      comments += shape.refs.map { "\(YAML.named($0.column)) → \($0.table): \($0.reason)" }
      if let reason = notCollections[shape.name] { comments.append("not a collection: \(reason)") }
      if case .json(_, _, let members?) = shape.found.source {
        comments.append(
          "members: the records are an object's members; \(YAML.named(members)) takes each one's name")
      }
      if !shape.found.otherArrays.isEmpty, case .json(_, let path, _) = shape.found.source {
        let others = shape.found.otherArrays.prefix(3).map {
          "\($0.path.isEmpty ? "the root" : YAML.named($0.path)) (\($0.count))"
        }
        comments.append(
          "path: the largest array of objects is \(path.map(YAML.named) ?? "the root") (\(shape.profile.rows)); others: \(others.joined(separator: ", "))"
        )
      }
      comments += Self.listComments(shape)
      if !shape.found.missing.isEmpty {
        let words = shape.found.missing.map { "'\($0)'" }.joined(separator: ", ")
        comments.append(
          "missing: \(words) stands for no value among numbers: read as empty, so those columns sort and filter as numbers"
        )
      }
      comments += Self.childComments(shape, plan.schema)
      if shape.found.encoding == .windows1252 {
        comments.append(
          "encoding: the file is not UTF-8; its bytes read as Windows-1252 (Latin-1), as spreadsheets on Windows save CSV"
        )
      }
      for comment in comments { out.append(YAML.comment(comment, indent: 2)) }
      var parts = sourceParts(shape.found.source)
      if shape.found.encoding == .windows1252 { parts.append(YAML.flowEntry("encoding", "windows-1252")) }
      if let key = shape.key { parts.append(YAML.flowEntry("key", YAML.scalar(key))) }
      if !shape.refs.isEmpty {
        let refs = shape.refs.map { YAML.flowEntry($0.column, YAML.scalar($0.table)) }
        parts.append("refs: { \(refs.joined(separator: ", ")) }")
      }
      if let lists = Self.listsPart(shape) { parts.append(lists) }
      if !shape.found.missing.isEmpty {
        parts.append("missing: [\(shape.found.missing.map(YAML.scalar).joined(separator: ", "))]")
      }
      let line = YAML.blockEntry(shape.name, "{ \(parts.joined(separator: ", ")) }", indent: 2)
      if line.count == 1, line[0].count <= 110 {
        out += line
      } else {
        out += YAML.blockKey(shape.name, indent: 2)
        for part in parts { out.append("    \(part)") }
      }
    }
    return out
  }

  func collection(_ collection: SitePlan.Collection) -> [String] {
    typealias YAML = YAMLWriter
    var out: [String] = []
    out.append("  - id: \(YAML.scalar(collection.id))")
    out.append("    label: \(YAML.scalar(collection.label))")
    out.append("    singular: \(YAML.scalar(collection.singular))")
    out.append("    table: \(YAML.scalar(collection.table))")
    out.append(YAML.comment("title: \(collection.titleReason)", indent: 4))
    out.append("    title: \(YAML.scalar(collection.title))")
    if let distinct = collection.distinct {
      out.append("    # Titles repeat: one result per title (its most popular record).")
      out.append("    distinct: \(YAML.scalar(distinct))")
    }
    if let subtitle = collection.subtitle { out.append("    subtitle: \(YAML.quoted(subtitle))") }
    if let image = collection.image {
      out.append("    image: \(YAML.scalar(image))  # a picture: an https URL or a file")
    }
    if let symbol = collection.symbol {
      out.append("    symbol: \(YAML.scalar(symbol))  # an emoji, shown as the artwork")
    }
    if let popularity = collection.popularity {
      if let reason = collection.popularityReason {
        out.append(YAML.comment("popularity: \(reason)", indent: 4))
      }
      out.append("    popularity: \(YAML.scalar(popularity))")
    }
    if !collection.search.isEmpty {
      out.append("    # Searched besides the title.")
      if collection.searchLeftOut > 0 {
        out.append(
          "    # (The first \(collection.search.count); \(collection.searchLeftOut) more text columns are not searched: add any by name.)"
        )
      }
      out.append("    search: \(YAML.flowList(collection.search))")
    }
    if !collection.weighed.isEmpty {
      if collection.codeKey != nil {
        out.append("    # Its code finds a record as surely as its title.")
      }
      if let names = collection.otherNames, collection.weighed.contains(names) {
        // München is Munich's other name: found by it, Munich ranks by its
        // popularity with the titles that hold the word, not below them all.
        out.append("    # '\(names)' holds the record's other names: they weigh like the title.")
      }
      out.append(
        "    weights: { \(collection.weighed.map { YAML.flowEntry($0, "2") }.joined(separator: ", ")) }")
    }
    if !collection.fields.isEmpty {
      out.append("    fields:")
      for field in collection.fields {
        out += YAML.blockEntry(field.name, YAML.scalar(field.expression), indent: 6)
      }
    }
    if !collection.facets.isEmpty {
      out.append("    facets:")
      for facet in collection.facets {
        out += YAML.blockEntry(facet.facet, YAML.scalar(facet.expression), indent: 6)
      }
    }
    out += valueKeys(collection.valueKeys)
    out.append("    page: { template: record, path: \(YAML.quoted("\(collection.id)/{{slug}}/")) }")
    return out
  }

  /// A data file's path from the config's folder; `./` before a name
  /// that starts with a byte-order mark, which the config's reader would
  /// drop (`YAMLWriter.readsBack`).
  func relative(_ path: String) -> String {
    // A server's URL is no path.
    if PostgresURL.looksLikeOne(path) { return path }
    let relative = Self.relativePath(from: directory, to: path)
    return YAMLWriter.readsBack(relative) ? relative : "./" + relative
  }

  static func relativePath(from folder: String, to path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func parts(_ path: String) -> [String] {
      let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
      // Split and compared as bytes: a name may start with a combining
      // mark (which would join the `/` before it into one Character), and
      // two names equal as Swift strings (`é`, `e` + U+0301) are two files.
      return URL(fileURLWithPath: absolute).standardizedFileURL.path.utf8.split(separator: UInt8(ascii: "/"))
        .map { String(decoding: $0, as: UTF8.self) }
    }
    let from = parts(folder)
    let to = parts(path)
    var common = 0
    while common < from.count && common < to.count - 1 && from[common].utf8.elementsEqual(to[common].utf8) {
      common += 1
    }
    return (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
  }
}
