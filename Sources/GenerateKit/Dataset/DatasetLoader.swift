import Foundation

/// All tables of a site, loaded and cross-checked: unique keys, and every
/// reference pointing at a record that exists.
public struct Dataset: Sendable {
  public var tables: [Table]
  public var tableNamed: [String: Table]

  /// Every table's warnings, in the order the tables were read.
  public var warnings: [Diagnostic] { tables.flatMap(\.warnings) }

  /// Drops the key → row dictionaries once every reference has been
  /// resolved (the expressions are compiled): they are the largest thing a
  /// build keeps that nothing reads afterwards.
  func releaseKeyIndexes() {
    for table in tables { table.rowForKey = [:] }
  }

  /// Drops where each value was read, but for key columns
  /// (`Table.releasePlaces`), once the site is prepared.
  func releasePlaces() {
    for table in tables { table.releasePlaces() }
  }
}

/// Loads the tables a config declares. Problems are collected across all
/// files (up to a limit per file) so one run shows every fault.
public struct DatasetLoader {
  /// How many errors one table may report before the rest are dropped.
  static let errorsPerFile = TableBuilder.errorsPerSource

  public init() {}

  public func load(_ config: SiteConfig) throws -> Dataset {
    var diagnostics: [Diagnostic] = []
    var tables: [Table] = []
    var byName: [String: Table] = [:]
    var seenLocation: [String: SourceLocation] = [:]

    for spec in config.tables where spec.source != nil {
      if let first = seenLocation[spec.name] {
        diagnostics.append(
          .error(at: spec.location, "duplicate table '\(spec.name)' (first declared at \(first))"))
        continue
      }
      seenLocation[spec.name] = spec.location
      do {
        let table = try loadSource(spec, config: config)
        tables.append(table)
        byName[spec.name] = table
      } catch let error as DiagnosticsError {
        diagnostics += error.diagnostics
      }
    }
    // Grouped tables may group grouped tables: make each once its source
    // exists, and name a cycle as one.
    var waiting = config.tables.filter { $0.groupBy != nil || $0.itemsOf != nil }
    while !waiting.isEmpty {
      var next: [SiteConfig.Table] = []
      for spec in waiting {
        if let itemsOf = spec.itemsOf {
          guard let parent = byName[itemsOf.table] else {
            next.append(spec)
            continue
          }
          do {
            let table = try loadItems(spec, of: parent, list: itemsOf.list, config: config)
            tables.append(table)
            byName[spec.name] = table
          } catch let error as DiagnosticsError {
            diagnostics += error.diagnostics
          }
          continue
        }
        guard let groupBy = spec.groupBy else { continue }
        guard let source = byName[groupBy.table] else {
          next.append(spec)
          continue
        }
        guard let column = source.column(named: groupBy.column) else {
          diagnostics.append(
            .error(
              at: spec.location, "table '\(groupBy.table)' has no column '\(groupBy.column)' to group by"))
          continue
        }
        let table = group(source, by: column, name: spec.name)
        tables.append(table)
        byName[spec.name] = table
      }
      if next.count == waiting.count {
        diagnostics += Self.ungroupable(next, declared: Set(config.tables.map(\.name)))
        break
      }
      waiting = next
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }

    for spec in config.tables {
      guard let table = byName[spec.name] else { continue }
      for ref in spec.refs {
        guard let column = table.column(named: ref.value.column) else {
          diagnostics.append(
            .error(at: ref.location, "table '\(spec.name)' has no column '\(ref.value.column)'"))
          continue
        }
        guard let target = byName[ref.value.table] else {
          diagnostics.append(
            .error(
              at: ref.location,
              "refs of table '\(spec.name)' name table '\(ref.value.table)', which is not declared"))
          continue
        }
        table.references[column] = target
        diagnostics += checkReferences(table, column: column, target: target)
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return Dataset(tables: tables, tableNamed: byName)
  }

  /// Reads one table from its source. Each source only parses; the rules
  /// they share live in `TableBuilder`.
  func loadSource(_ spec: SiteConfig.Table, config: SiteConfig) throws -> Table {
    let table = try readSource(spec, config: config)
    table.detectNumerals(decimal: spec.decimal?.value)
    return table
  }

  private func readSource(_ spec: SiteConfig.Table, config: SiteConfig) throws -> Table {
    guard let source = spec.source else { throw DiagnosticsError([]) }
    let limits = config.limits
    guard let file = source.file else {
      guard case .postgres(let server) = source else { throw DiagnosticsError([]) }
      return try PostgresSource.load(spec, server, limits: limits)
    }
    let fullPath = URL(
      fileURLWithPath: file.value, relativeTo: URL(fileURLWithPath: config.directory + "/")
    ).path
    let shownPath = Self.displayPath(fullPath)
    var named = DataFile.Named(
      what: "data file", table: spec.name, shownPath: shownPath, missingAt: spec.location,
      at: file.location)
    // The lists child tables take are theirs, not this table's columns.
    let taken = Set(config.tables.compactMap { $0.itemsOf?.table == spec.name ? $0.itemsOf?.list : nil })
    switch source {
    case .postgres(let server):
      return try PostgresSource.load(spec, server, limits: limits)
    case .csv:
      return try CSVSource.load(spec, path: fullPath, named, limits: limits)
    case .json(_, let path):
      return try JSONSource.loadDocument(
        spec, path: fullPath, named, at: path, skipping: taken, limits: limits)
    case .jsonLines:
      return try JSONSource.loadLines(spec, path: fullPath, named, skipping: taken, limits: limits)
    case .sqliteTable(_, let table):
      named.what = "database"
      return try SQLiteSource.load(spec, path: fullPath, named, read: .table(table), limits: limits)
    case .sqliteQuery(_, let query):
      named.what = "database"
      return try SQLiteSource.load(spec, path: fullPath, named, read: .query(query), limits: limits)
    }
  }

  /// A child table (`itemsOf: books.editions`): the objects in a list of
  /// each record of a table read from JSON, its `refs:` entry to that
  /// table naming the column that holds each one's parent.
  func loadItems(_ spec: SiteConfig.Table, of parent: Table, list: String, config: SiteConfig) throws -> Table
  {
    guard let parentSpec = config.tables.first(where: { $0.name == parent.name }),
      let source = parentSpec.source, let file = source.file
    else {
      throw DiagnosticsError(
        .error(
          at: spec.location,
          "table '\(spec.name)' takes the items of table '\(parent.name)', which is not read from a file; itemsOf names a table read from JSON"
        ))
    }
    guard let reference = spec.refs.first(where: { $0.value.table == parent.name })?.value.column else {
      throw DiagnosticsError(
        .error(
          at: spec.location,
          "table '\(spec.name)' takes the items of table '\(parent.name)': name the column that holds each one's \(parent.name) record under refs, as in refs: { parent: \(parent.name) }"
        ))
    }
    let fullPath = URL(
      fileURLWithPath: file.value, relativeTo: URL(fileURLWithPath: config.directory + "/")
    ).path
    let named = DataFile.Named(
      what: "data file", table: spec.name, shownPath: Self.displayPath(fullPath), missingAt: spec.location,
      at: file.location)
    let table = try JSONSource.loadItems(
      spec, parent: parent, list: list, reference: reference, source: source,
      members: parentSpec.members?.value, path: fullPath, named, limits: config.limits)
    table.detectNumerals(decimal: spec.decimal?.value)
    return table
  }

  func checkReferences(_ table: Table, column: Int, target: Table) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let values = table.columns[column]
    // False once enough is reported.
    func check(_ value: String, row: Int) -> Bool {
      if value.isEmpty || target.rowForKey[value] != nil { return true }
      if diagnostics.count == Self.errorsPerFile { return false }
      let record = table.keyColumn == nil ? "" : "record \(table.key(ofRow: row)): "
      diagnostics.append(
        .error(
          at: table.location(row: row, column: column),
          "\(record)\(table.header[column]) refers to \(target.name) '\(value)', which does not exist"))
      return true
    }
    if table.isList(column) {
      // Each item of a list of references names a record.
      for row in 0..<values.count {
        for item in Table.items(of: values[row]) where !check(item, row: row) { return diagnostics }
      }
      return diagnostics
    }
    for row in 0..<values.count where !check(values[row], row: row) { break }
    return diagnostics
  }

  /// Why grouped tables could not be made: a source that is not declared
  /// (or failed to load, already reported), or a cycle of groupings.
  static func ungroupable(_ specs: [SiteConfig.Table], declared: Set<String>) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let byName = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var reported = Set<String>()
    for spec in specs {
      if let itemsOf = spec.itemsOf {
        let why =
          declared.contains(itemsOf.table)
          ? "which is not read from a file; itemsOf names a table read from JSON"
          : "which is not declared"
        diagnostics.append(
          .error(
            at: spec.location, "table '\(spec.name)' takes the items of table '\(itemsOf.table)', \(why)"))
        continue
      }
      guard let groupBy = spec.groupBy else { continue }
      if !declared.contains(groupBy.table) {
        diagnostics.append(
          .error(
            at: spec.location, "table '\(spec.name)' groups table '\(groupBy.table)', which is not declared"))
        continue
      }
      // Follow the chain; a name seen twice closes a cycle.
      var chain = [spec.name]
      var current = groupBy.table
      while let next = byName[current], !chain.contains(current) {
        chain.append(current)
        guard let source = next.groupBy?.table else { break }
        current = source
      }
      guard let start = chain.firstIndex(of: current) else { continue }
      let cycle = Array(chain[start...]) + [current]
      if reported.insert(Set(cycle).sorted().joined(separator: ",")).inserted {
        diagnostics.append(
          .error(
            at: spec.location,
            "tables group each other in a cycle: \(cycle.joined(separator: " → ")); a grouped table must group a table read from a file"
          ))
      }
    }
    return diagnostics
  }

  /// A table of the distinct values of one column, keyed by that value;
  /// the other columns come from the first row of each group. Grouped by
  /// a list column, each distinct item is a record (a table of tags).
  func group(_ source: Table, by column: Int, name: String) -> Table {
    let table = Table(
      name: name, file: source.file, header: source.header, keyColumn: column, kind: source.kind)
    table.lists = source.lists.subtracting([column])
    table.listsOfObjects = source.listsOfObjects.subtracting([column])
    table.listArrays = source.listArrays.filter { $0.key != column }
    let keys = source.columns[column]
    let isList = source.isList(column)
    for row in 0..<source.count {
      guard isList else {
        let key = keys[row]
        if key.isEmpty || table.rowForKey[key] != nil { continue }
        table.rowForKey[key] = table.count
        table.appendCopy(of: row, from: source)
        continue
      }
      for key in Table.items(of: keys[row]) where table.rowForKey[key] == nil {
        table.rowForKey[key] = table.count
        table.appendCopy(of: row, from: source, replacing: (column, key))
      }
    }
    table.seal()
    return table
  }

  /// Paths under the working directory print relative to it, as compilers do.
  static func displayPath(_ path: String) -> String {
    // A PostgreSQL server (`generate init postgres://…`) prints as its URL.
    if PostgresURL.looksLikeOne(path) { return path }
    let cwd = FileManager.default.currentDirectoryPath + "/"
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    return standardized.hasPrefix(cwd) ? String(standardized.dropFirst(cwd.count)) : standardized
  }
}
