import Foundation
import Yams

/// The `tables:` section: where each table's rows come from (CSV of any
/// separator, JSON,
/// JSON Lines or SQLite), its key and its references. Every value keeps its
/// place so that the dataset loader can point back at the line that named a
/// missing file, table, column or a failing query.
extension NodeReader {
  static let tableKeys = [
    "file", "path", "separator", "sqlite", "postgres", "passwordEnv", "table", "query", "key", "refs",
    "groupBy", "itemsOf",
    "lists", "members", "missing", "decimal", "encoding",
  ]

  mutating func table(name: String, node: Node, keyNode: Node) -> SiteConfig.Table? {
    let what = "table '\(name)'"
    guard let pairs = mapping(node, allowed: Self.tableKeys, what: what) else { return nil }
    let file = located(pairs, "file", what: what)
    let path = located(pairs, "path", what: what)
    let database = located(pairs, "sqlite", what: what)
    let sqlTable = located(pairs, "table", what: what)
    let query = located(pairs, "query", what: what)
    let key = located(pairs, "key", what: what)
    var refs: [SiteConfig.Located<(column: String, table: String)>] = []
    if let pair = pairs["refs"] {
      if let mapping = pair.value.mapping {
        for (column, target) in mapping {
          guard let columnName = column.string, let targetName = target.string else {
            fail(column, "refs in \(what) map column names to table names")
            continue
          }
          refs.append(.init(value: (columnName, targetName), location: location(target)))
        }
      } else {
        fail(pair.value, "refs in \(what) must map column names to table names")
      }
    }
    let lists = pairs["lists"].map { listColumns($0.value, what: what) } ?? []
    var groupBy: (table: String, column: String)?
    if let pair = pairs["groupBy"] {
      // `rows.country`, or `items.maker.name` for a dotted (nested JSON) column.
      let text = pair.value.string ?? ""
      if let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex {
        groupBy = (String(text[..<dot]), String(text[text.index(after: dot)...]))
      } else {
        fail(pair.value, "groupBy in \(what) must name a table and column, as in rows.country")
      }
    }
    var itemsOf: (table: String, list: String)?
    if let pair = pairs["itemsOf"] {
      // `books.editions`, or `books.info.editions` for a list inside an object.
      let text = pair.value.string ?? ""
      if let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex {
        itemsOf = (String(text[..<dot]), String(text[text.index(after: dot)...]))
      } else {
        fail(pair.value, "itemsOf in \(what) must name a table and its list, as in books.editions")
      }
    }
    if let key, key.value.isEmpty, let pair = pairs["key"] {
      fail(pair.value, "key in \(what) must name a column")
    }

    let server = located(pairs, "postgres", what: what)
    let kinds = [
      file != nil, database != nil, server != nil, pairs["groupBy"] != nil, pairs["itemsOf"] != nil,
    ]
    .filter { $0 }.count
    if kinds == 0 {
      fail(node, "missing required key 'file' in \(what) (or 'sqlite', 'postgres', 'groupBy' or 'itemsOf')")
      return nil
    }
    if kinds > 1 {
      fail(node, "\(what) takes one of 'file', 'sqlite', 'postgres', 'groupBy' and 'itemsOf'; choose one")
      return nil
    }
    if server == nil, let pair = pairs["passwordEnv"] {
      fail(pair.key, "'passwordEnv' in \(what) belongs to a PostgreSQL table ('postgres:')")
    }
    var source: SiteConfig.Table.Source?
    if let file {
      for extra in ["table", "query"] where pairs[extra] != nil {
        if let pair = pairs[extra] {
          fail(pair.key, "'\(extra)' in \(what) belongs to a database table ('sqlite:' or 'postgres:')")
        }
      }
      source = fileSource(file, path: path, pairs: pairs, what: what)
    } else if let server {
      source = postgresSource(
        server, table: sqlTable, query: query, pairs: pairs, node: node, what: what)
    } else if let database {
      if let pair = pairs["path"] {
        fail(pair.key, "'path' in \(what) belongs to a JSON file ('file: ….json' or '….geojson')")
      }
      if let pair = pairs["separator"] {
        fail(pair.key, "'separator' in \(what) belongs to a CSV file ('file: ….csv')")
      }
      switch (sqlTable, query) {
      case (let sqlTable?, nil): source = .sqliteTable(database: database, table: sqlTable)
      case (nil, let query?):
        if query.value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, let pair = pairs["query"] {
          fail(pair.value, "query in \(what) is empty")
        }
        source = .sqliteQuery(database: database, query: query)
      case (_?, _?): fail(node, "\(what) has both 'table' and 'query'; choose one")
      case (nil, nil):
        fail(node, "\(what) reads a SQLite database: it needs 'table' (a table or view) or 'query' (SQL)")
      }
    } else {
      let kind = itemsOf == nil ? "groupBy" : "itemsOf"
      for extra in ["path", "separator", "table", "query", "lists"] where pairs[extra] != nil {
        if let pair = pairs[extra] { fail(pair.key, "'\(extra)' in \(what) has no use with '\(kind)'") }
      }
    }
    var table = SiteConfig.Table(
      name: name, location: location(keyNode), source: source, key: key, refs: refs, groupBy: groupBy,
      lists: lists)
    table.itemsOf = itemsOf
    if let pair = pairs["missing"] {
      table.missing = strings(pair.value, what: "missing in \(what)")
    }
    if let pair = pairs["decimal"] {
      switch pair.value.string {
      case ".": table.decimal = .init(value: .point, location: location(pair.value))
      case ",": table.decimal = .init(value: .comma, location: location(pair.value))
      default:
        fail(
          pair.value,
          "decimal in \(what) must be \".\" or \",\" (the mark between a number's whole part and its fraction)"
        )
      }
    }
    if let pair = pairs["encoding"] {
      if case .csv? = source {
        switch pair.value.string?.lowercased() {
        case "utf-8", "utf8": table.encoding = .utf8
        case "windows-1252", "cp1252", "latin-1", "latin1", "iso-8859-1": table.encoding = .windows1252
        default:
          fail(
            pair.value,
            "encoding in \(what) must be \"utf-8\" or \"windows-1252\" (Latin-1 reads as its superset)")
        }
      } else {
        fail(pair.key, "'encoding' in \(what) applies to a CSV file only (JSON is UTF-8)")
      }
    }
    if let pair = pairs["members"] {
      if case .json? = source {
        if let column = pair.value.string, !column.isEmpty {
          table.members = .init(value: column, location: location(pair.value))
        } else {
          fail(
            pair.value,
            "members in \(what) must name the column that takes each member's name, as in members: id")
        }
      } else {
        fail(
          pair.key,
          "'members' in \(what) applies to a .json or .geojson file only (an object whose members are the records)"
        )
      }
    }
    return table
  }

  /// `lists: { tags: ";", moods: "|" }`: columns of text whose values are
  /// lists, each with the text between its items (JSON arrays need none).
  mutating func listColumns(_ node: Node, what: String) -> [SiteConfig.Located<
    (column: String, separator: String)
  >] {
    guard let mapping = node.mapping else {
      fail(node, "lists in \(what) must map column names to the text between items, as in { tags: \";\" }")
      return []
    }
    var lists: [SiteConfig.Located<(column: String, separator: String)>] = []
    for (column, separator) in mapping {
      guard let columnName = column.string, !columnName.isEmpty else {
        fail(column, "lists in \(what) map column names to the text between items")
        continue
      }
      guard let text = separator.string, !text.trimmingCharacters(in: .whitespaces).isEmpty,
        !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
      else {
        fail(
          separator,
          "the separator of list '\(columnName)' in \(what) must be text such as \";\" or \"|\" (not empty, not only spaces)"
        )
        continue
      }
      lists.append(.init(value: (columnName, text), location: location(column)))
    }
    return lists
  }

  /// The kind of a data file, told by its extension.
  mutating func fileSource(
    _ file: SiteConfig.Located<String>, path: SiteConfig.Located<String>?,
    pairs: [String: (key: Node, value: Node)], what: String
  ) -> SiteConfig.Table.Source? {
    let lower = file.value.lowercased()
    if !CSVSeparator.isCSV(lower), let pair = pairs["separator"] {
      fail(pair.key, "'separator' in \(what) applies to a CSV file (.csv, .tsv or .tab) only")
    }
    if lower.hasSuffix(".json") || lower.hasSuffix(".geojson") {
      if let path,
        path.value.isEmpty || path.value.split(separator: ".", omittingEmptySubsequences: false).contains("")
      {
        if let pair = pairs["path"] {
          fail(pair.value, "path in \(what) must be keys joined by dots, as in data.items")
        }
        return nil
      }
      return .json(file: file, path: path)
    }
    if let pair = pairs["path"] {
      fail(pair.key, "'path' in \(what) applies to a .json or .geojson file only")
    }
    if CSVSeparator.isCSV(lower) {
      guard let pair = pairs["separator"] else {
        return .csv(file: file, separator: CSVSeparator.implied(byFile: lower))
      }
      guard let text = pair.value.string, let separator = CSVSeparator.named(text) else {
        fail(pair.value, "separator in \(what) must be \",\", \";\", \"|\" or tab")
        return nil
      }
      return .csv(file: file, separator: separator)
    }
    if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonLines(file: file) }
    if let pair = pairs["file"] {
      fail(
        pair.value,
        "data file '\(file.value)' of \(what) must end in .csv, .tsv, .tab, .json, .geojson, .jsonl or .ndjson (for SQLite write 'sqlite: \(file.value)')"
      )
    }
    return nil
  }
}
