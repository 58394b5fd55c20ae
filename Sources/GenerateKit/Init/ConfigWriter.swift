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

  public init(directory: String, title: String, description: String) {
    self.directory = directory
    self.title = title
    self.description = description
  }

  /// The language of the first collection's titles, from up to 2,000 of them.
  func language(_ plan: SitePlan) -> String {
    guard let first = plan.collections.first, let table = plan.schema.table(first.table)?.found.table,
      let column = table.column(named: first.title)
    else { return "en" }
    let values = table.columns[column]
    return SiteLanguage.code(forTitles: (0..<min(values.count, 2000)).map { values[$0] })
  }

  public func write(_ plan: SitePlan) -> String {
    var out: [String] = []
    out.append("# Written by `generate init` from \(sources(plan)).")
    out.append("# An ordinary config: edit anything. Paths are relative to this file's folder.")
    out.append("# Build it with:  generate --config <this file>")
    out.append("title: \(Self.scalar(title))")
    out.append("description: \(Self.scalar(description))")
    let language = language(plan)
    if let name = SiteLanguage.names[language] {
      out.append("# language: most titles are written in \(name) script")
    }
    out.append("language: \(language)")
    out.append("baseURL: /")
    out.append("tint: \"#0a84ff\"")
    out.append("")
    out.append("search:")
    out.append("  title: Search")
    out.append("  placeholder: \(Self.scalar(placeholder(plan)))")
    if !trending.isEmpty {
      out.append("  # The most popular titles; put the searches you expect here.")
      out.append("  trending: \(Self.flowList(trending))")
    }
    out.append("")
    out += tables(plan)
    if !plan.facets.isEmpty {
      out.append("")
      out.append("# Values results can be filtered by, offered as search tokens (\"Genre: Jazz\").")
      out.append("facets:")
      for facet in plan.facets {
        out.append("  # \(facet.reason)")
        let labels = facet.codes.isEmpty ? "" : ", labels: \(Self.scalar(facet.id))"
        out.append(
          "  - { id: \(Self.scalar(facet.id)), label: \(Self.scalar(facet.label)), icon: \(Self.scalar(facet.icon))\(labels) }"
        )
      }
    }
    let coded = plan.facets.filter { !$0.codes.isEmpty }
    if !coded.isEmpty {
      out.append("")
      out.append("# Coded values and what a visitor reads for each: write the meaning after")
      out.append("# each code (L: Living). A code left as it is shows as it is.")
      out.append("labels:")
      for facet in coded {
        let pairs = facet.codes.map { "\(Self.quoted($0)): \(Self.quoted($0))" }
        out.append("  \(Self.scalar(facet.id)): { \(pairs.joined(separator: ", ")) }")
      }
    }
    if !plan.scopes.isEmpty {
      out.append("")
      out.append("# The segmented control under the search field.")
      out.append("scopes:")
      for scope in plan.scopes {
        var parts = ["id: \(Self.scalar(scope.id))", "label: \(Self.scalar(scope.label))"]
        if let facet = scope.facet, let value = scope.value {
          parts += ["facet: \(Self.scalar(facet))", "value: \(Self.quoted(value))"]
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

  /// The files read, or their count and folder when there are many.
  func sources(_ plan: SitePlan) -> String {
    let files = Array(Set(plan.schema.tables.map { relative($0.found.source.path) })).sorted()
    let folders = Set(files.map { URL(fileURLWithPath: $0).deletingLastPathComponent().relativePath })
    if files.count > 3, folders.count == 1, let folder = folders.first {
      return "\(files.count) files in \(folder)/"
    }
    return files.joined(separator: ", ")
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

  func tables(_ plan: SitePlan) -> [String] {
    var out = ["tables:"]
    let notCollections = Dictionary(plan.tablesOnly, uniquingKeysWith: { first, _ in first })
    for shape in plan.schema.tables {
      var comments = ["key: " + (shape.key == nil ? "none — " : "") + shape.keyReason]
      comments += shape.refs.map { "\($0.column) → \($0.table): \($0.reason)" }
      if let reason = notCollections[shape.name] { comments.append("not a collection: \(reason)") }
      if !shape.found.otherArrays.isEmpty, case .json(_, let path) = shape.found.source {
        let others = shape.found.otherArrays.prefix(3).map {
          "\($0.path.isEmpty ? "the root" : $0.path) (\($0.count))"
        }
        comments.append(
          "path: the largest array of objects is \(path ?? "the root") (\(shape.profile.rows)); others: \(others.joined(separator: ", "))"
        )
      }
      for comment in comments { out.append("  # \(comment)") }
      var parts: [String]
      switch shape.found.source {
      case .csv(let path, let separator):
        parts = ["file: \(Self.scalar(relative(path)))"]
        if separator != CSVSeparator.implied(byFile: path) {
          parts.append("separator: \(CSVSeparator.written(separator))")
        }
      case .jsonLines(let path): parts = ["file: \(Self.scalar(relative(path)))"]
      case .json(let path, let keyPath):
        parts = ["file: \(Self.scalar(relative(path)))"]
        if let keyPath { parts.append("path: \(Self.scalar(keyPath))") }
      case .sqlite(let path, let table):
        parts = ["sqlite: \(Self.scalar(relative(path)))", "table: \(Self.scalar(table))"]
      }
      if let key = shape.key { parts.append("key: \(Self.scalar(key))") }
      if !shape.refs.isEmpty {
        let refs = shape.refs.map { "\(Self.scalar($0.column)): \(Self.scalar($0.table))" }
        parts.append("refs: { \(refs.joined(separator: ", ")) }")
      }
      let line = "  \(Self.scalar(shape.name)): { \(parts.joined(separator: ", ")) }"
      if line.count <= 110 {
        out.append(line)
      } else {
        out.append("  \(Self.scalar(shape.name)):")
        for part in parts { out.append("    \(part)") }
      }
    }
    return out
  }

  func collection(_ collection: SitePlan.Collection) -> [String] {
    var out: [String] = []
    out.append("  - id: \(Self.scalar(collection.id))")
    out.append("    label: \(Self.scalar(collection.label))")
    out.append("    singular: \(Self.scalar(collection.singular))")
    out.append("    table: \(Self.scalar(collection.table))")
    out.append("    # title: \(collection.titleReason)")
    out.append("    title: \(Self.scalar(collection.title))")
    if let distinct = collection.distinct {
      out.append("    # Titles repeat: one result per title (its most popular record).")
      out.append("    distinct: \(Self.scalar(distinct))")
    }
    if let subtitle = collection.subtitle { out.append("    subtitle: \(Self.quoted(subtitle))") }
    if let image = collection.image {
      out.append("    image: \(Self.scalar(image))  # a picture: an https URL or a file")
    }
    if let symbol = collection.symbol {
      out.append("    symbol: \(Self.scalar(symbol))  # an emoji, shown as the artwork")
    }
    if let popularity = collection.popularity {
      if let reason = collection.popularityReason { out.append("    # popularity: \(reason)") }
      out.append("    popularity: \(Self.scalar(popularity))")
    }
    if !collection.search.isEmpty {
      out.append("    # Searched besides the title.")
      if collection.searchLeftOut > 0 {
        out.append(
          "    # (The first \(collection.search.count); \(collection.searchLeftOut) more text columns are not searched: add any by name.)"
        )
      }
      out.append("    search: \(Self.flowList(collection.search))")
    }
    if let code = collection.codeKey {
      out.append("    # Its code (the key) finds a record as surely as its title.")
      out.append("    weights: { \(Self.scalar(code)): 2 }")
    }
    if !collection.fields.isEmpty {
      out.append("    fields:")
      for field in collection.fields {
        out.append("      \(Self.scalar(field.name)): \(Self.scalar(field.expression))")
      }
    }
    if !collection.facets.isEmpty {
      out.append("    facets:")
      for facet in collection.facets {
        out.append("      \(Self.scalar(facet.facet)): \(Self.scalar(facet.expression))")
      }
    }
    out.append("    page: { template: record, path: \(Self.quoted("\(collection.id)/{{slug}}/")) }")
    return out
  }

  /// A data file's path from the config's folder.
  func relative(_ path: String) -> String {
    Self.relativePath(from: directory, to: path)
  }

  static func relativePath(from folder: String, to path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func parts(_ path: String) -> [String] {
      let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
      return URL(fileURLWithPath: absolute).standardizedFileURL.path.split(separator: "/").map(String.init)
    }
    let from = parts(folder)
    let to = parts(path)
    var common = 0
    while common < from.count && common < to.count - 1 && from[common] == to[common] { common += 1 }
    return (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
  }

  // MARK: YAML

  /// Plain when YAML reads it back as the same string in block and flow
  /// context alike; else double-quoted.
  static func scalar(_ text: String) -> String {
    let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"]
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
      !reserved.contains(text.lowercased()), Double(text) == nil,
      first.properties.isAlphabetic || first == "_",
      last != " "
    else { return quoted(text) }
    let allowed: Set<Unicode.Scalar> = ["_", ".", "/", "-", "(", ")", "'", "+", " ", "*"]
    for scalar in text.unicodeScalars
    where
      !(scalar.properties.isAlphabetic || scalar.properties.numericType != nil
      || scalar.properties.generalCategory == .nonspacingMark || allowed.contains(scalar))
    {
      return quoted(text)
    }
    return text
  }

  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
          out += String(format: "\\u%04X", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  static func flowList(_ items: [String]) -> String {
    "[" + items.map { scalar($0) }.joined(separator: ", ") + "]"
  }
}
