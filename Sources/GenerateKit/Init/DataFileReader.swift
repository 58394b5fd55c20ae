import Foundation

/// One table found in the files given to `init` or `inspect`, loaded
/// through the same sources a build uses, with what its file declares (a
/// SQLite primary key and foreign keys).
public struct FoundTable: Sendable {
  public enum Source: Sendable, Equatable {
    /// A CSV file and the byte its fields are separated by.
    case csv(path: String, separator: UInt8)
    /// A JSON document; `keyPath` names the array of records inside it, or
    /// with `members` the object whose members are the records (their
    /// names in that column).
    case json(path: String, keyPath: String?, members: String?)
    case jsonLines(path: String)
    case sqlite(path: String, table: String)
    /// A table of a PostgreSQL server (`PostgresInspector`): its URL, the
    /// table's name (`schema.name` outside the search path's schema), and
    /// the query that reads it when some of its columns cannot be read.
    case postgres(url: String, table: String, query: String?)
    /// The objects in the list `list` of each record of the JSON table
    /// `parent` read from `path` (`itemsOf:`), `reference` holding each
    /// one's parent.
    case items(path: String, parent: String, list: String, reference: String)

    /// The file, as given on the command line (a server's URL).
    public var path: String {
      switch self {
      case .csv(let path, _), .json(let path, _, _), .jsonLines(let path), .sqlite(let path, _),
        .postgres(let path, _, _), .items(let path, _, _, _):
        return path
      }
    }
  }

  /// The table's name in the config (letters, digits and `_`).
  public var name: String
  public var source: Source
  public var table: Table
  public var profile: TableProfile
  /// A SQLite table's declared single-column primary key.
  public var declaredKey: String?
  /// A SQLite table's declared foreign keys: column → referenced table
  /// (its name in the database) and column (nil: its primary key).
  public var declaredRefs: [(column: String, table: String, targetColumn: String?)] = []
  /// A PostgreSQL table's columns of a type that cannot be read (`bytea`,
  /// `point`…), left out by the query that reads it.
  public var unreadable: [(column: String, type: String)] = []
  /// How many arrays of records the JSON document held, when it held
  /// several (the largest was taken).
  public var otherArrays: [(path: String, count: Int)] = []
  /// Columns `init` leaves out because an expression cannot name them
  /// (`DataFileReader.isWritable`): `table` and `profile` lack them.
  public var leftOut: [String] = []
  /// A CSV file's columns of items with a separator (`rock;pop`), read as
  /// lists and declared under the table's `lists:`.
  var lists: [ListDetection.Found] = []
  /// Values that stand for "no value" among numbers (`NA`), declared under
  /// the table's `missing:` and read as empty (`TableProfile.missingMarkers`).
  var missing: [String] = []
  /// A CSV file's encoding when it is not UTF-8 (`DataFileReader.encoding`).
  var encoding: SiteConfig.TextEncoding = .utf8
}

/// Reads the files given on the command line into tables: a CSV, JSON or
/// JSON Lines file is one table; a SQLite database is every table in it.
/// Nothing is parsed here: each table is loaded by the build's own sources.
public struct DataFileReader {
  public init() {}

  public func read(_ paths: [String]) throws -> [FoundTable] {
    var found: [FoundTable] = []
    var diagnostics: [Diagnostic] = []
    var names = Set<String>()
    func uniqueName(_ base: String) -> String {
      var name = base
      var number = 2
      while names.contains(name) {
        name = "\(base)_\(number)"
        number += 1
      }
      names.insert(name)
      return name
    }
    for path in paths {
      do {
        for var table in try readFile(path) {
          let name = uniqueName(table.name)
          if name != table.name { table = try reload(table, as: name) }
          let children = childTables(of: &table, name: uniqueName)
          found.append(table)
          found += children
        }
      } catch let error as DiagnosticsError {
        diagnostics += error.diagnostics
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return found
  }

  /// Warnings for the columns left out of every table (`FoundTable.leftOut`).
  public func warnings(_ found: [FoundTable]) -> [Diagnostic] {
    found.flatMap { table in
      table.unreadable.map { item in
        .warning(
          at: SourceLocation(file: DatasetLoader.displayPath(table.source.path)),
          "column \(YAMLWriter.quoted(item.column)) of table '\(table.name)' is left out of the config: its PostgreSQL type \(item.type) cannot be read as text (cast it in the query, as in \(item.column)::text, to add it)"
        )
      }
        + table.leftOut.map { column in
          .warning(
            at: SourceLocation(file: DatasetLoader.displayPath(table.source.path)),
            "column \(YAMLWriter.quoted(column)) of table '\(table.name)' is left out of the config: an expression cannot name it (a name with a backquote, with nothing between two dots or at either end of one, or that starts with a byte-order mark)"
          )
        }
    }
  }

  /// How the checks a build makes before it opens a data file (`DataFile`)
  /// name a file given on the command line: a regular file — not a named
  /// pipe, which would hang `init` and `inspect` forever, nor a device —
  /// opened without waiting on a writer, and a text file within the
  /// default size limit.
  static func named(_ path: String) -> DataFile.Named {
    let shownPath = DatasetLoader.displayPath(path)
    let place = SourceLocation(file: shownPath)
    return DataFile.Named(what: "data file", table: "", shownPath: shownPath, missingAt: place, at: place)
  }

  func readFile(_ path: String) throws -> [FoundTable] {
    if PostgresURL.looksLikeOne(path) { return try PostgresInspector(reader: self).read(path) }
    guard FileManager.default.fileExists(atPath: path) else {
      throw DiagnosticsError(.error(at: SourceLocation(file: path), "no such file"))
    }
    let named = Self.named(path)
    // Its size is limited where it is read as text; a database's is not, as in a build.
    try DataFile.check(path, named, limit: nil)
    let lower = path.lowercased()
    let base = Naming.tableName(
      URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
    if CSVSeparator.isCSV(path) {
      let encoding = try Self.encoding(ofFile: path)
      let separator = try Self.separator(ofFile: path, encoding: encoding)
      return [try load(name: base, source: .csv(path: path, separator: separator), encoding: encoding)]
    }
    if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") {
      return [try load(name: base, source: .jsonLines(path: path))]
    }
    // GeoJSON (a map tool's export) is JSON: its features' `properties`.
    if lower.hasSuffix(".json") || lower.hasSuffix(".geojson") {
      let arrays = try JSONRecordsFinder.arrays(inFile: path, named)
      guard let best = JSONRecordsFinder.best(arrays) else {
        throw DiagnosticsError(
          .error(
            at: SourceLocation(file: path), "the JSON document holds no array of objects to read as records"))
      }
      var table = try load(
        name: base, source: .json(path: path, keyPath: best.path, members: best.membersColumn))
      table.otherArrays = arrays.filter { $0.path != best.path && $0.memberFields == nil }.map {
        ($0.path ?? "", $0.objects)
      }
      return [table]
    }
    if Self.isSQLite(path) { return try readDatabase(path) }
    throw DiagnosticsError(
      .error(
        at: SourceLocation(file: path),
        "cannot tell what this file holds: give a .csv, .tsv, .tab, .json, .geojson, .jsonl or .ndjson file, or a SQLite database"
      ))
  }

  /// The separator of a CSV file: the one its name implies (a comma; a
  /// tab for `.tsv`), unless its header reads as one column with that and
  /// with commas, but as two or more non-empty names with exactly one of
  /// `;`, tabs and `|` — the export of a spreadsheet set to another
  /// separator. Anything less clear keeps the implied one, and the build's
  /// own errors.
  static func separator(ofFile path: String, encoding: SiteConfig.TextEncoding = .utf8) throws -> UInt8 {
    let implied = CSVSeparator.implied(byFile: path)
    let handle = try DataFile.open(path, named(path))
    defer { try? handle.close() }
    var head = Array((try? handle.read(upToCount: 1 << 16)) ?? Data())
    if encoding == .windows1252 {
      var text: [UInt8] = []
      Windows1252.appendUTF8(of: head, to: &text)
      head = text
    }
    struct Stop: Error {}
    func header(_ separator: UInt8) -> [String]? {
      var names: [String]?
      try? CSVReader(bytes: head, file: path, separator: separator).forEachRow { row in
        names = row.fields
        throw Stop()
      }
      return names
    }
    if [implied, CSVSeparator.comma].contains(where: { (header($0)?.count ?? 1) > 1 }) { return implied }
    let fits = CSVSeparator.all.filter { separator in
      guard separator != implied, separator != CSVSeparator.comma, let names = header(separator) else {
        return false
      }
      return names.count > 1 && names.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
    return fits.count == 1 ? fits[0] : implied
  }

  /// The encoding of a CSV file: UTF-8, unless its bytes are not and read
  /// as Windows-1252 (a spreadsheet's "CSV" saved on Windows, Latin-1's
  /// `België` as `Belgi\xEB`). Read whole, a chunk at a time: such a byte
  /// may come late.
  static func encoding(ofFile path: String) throws -> SiteConfig.TextEncoding {
    let file = try ChunkedFile(path: path, named(path), limit: SiteConfig.Limits().fileBytes)
    var buffer: [UInt8] = []
    var fits = true
    var valid = true
    while try file.read(into: &buffer) {
      // A chunk may end inside a character: its last three bytes wait.
      let whole = file.atEnd ? buffer.count : max(0, buffer.count - 3)
      if valid, buffer.withUnsafeBufferPointer({ UTF8Check.firstInvalidOffset(in: $0[..<whole]) }) != nil {
        valid = false
      }
      fits = fits && Windows1252.fits(buffer[..<whole])
      buffer.removeSubrange(..<whole)
    }
    return !valid && fits ? .windows1252 : .utf8
  }

  /// SQLite files start with this header, whatever they are named.
  static func isSQLite(_ path: String) -> Bool {
    guard let handle = try? DataFile.open(path, named(path)) else { return false }
    defer { try? handle.close() }
    let header = (try? handle.read(upToCount: 16)) ?? Data()
    return header == Data("SQLite format 3\0".utf8)
  }

  /// Loads a table as a build would, through `DatasetLoader`, from a
  /// config that declares just this table (paths from the current folder).
  /// A CSV file's columns that hold lists are found in its first reading
  /// and read again as lists.
  /// Columns of numbers with markers of missing values (`NA`) are found
  /// in the reading after that, and read again with the markers empty.
  func load(name: String, source: FoundTable.Source, encoding: SiteConfig.TextEncoding = .utf8) throws
    -> FoundTable
  {
    var found = try load(name: name, source: source, lists: [], encoding: encoding)
    if case .csv(_, let separator) = source {
      let lists = ListDetection.lists(in: found.table, fileSeparator: separator)
      if !lists.isEmpty { found = try load(name: name, source: source, lists: lists, encoding: encoding) }
    }
    let missing = TableProfile.missingMarkers(in: found.table)
    return missing.isEmpty
      ? found
      : try load(name: name, source: source, lists: found.lists, missing: missing, encoding: encoding)
  }

  func load(
    name: String, source: FoundTable.Source, lists: [ListDetection.Found], missing: [String] = [],
    encoding: SiteConfig.TextEncoding = .utf8
  ) throws -> FoundTable {
    var spec = Self.spec(name: name, source: source)
    spec.encoding = encoding
    spec.lists = lists.map { .init(value: ($0.column, $0.separator), location: spec.location) }
    spec.missing = missing.map { .init(value: $0, location: spec.location) }
    let config = SiteConfig(
      path: "", directory: FileManager.default.currentDirectoryPath, title: "", description: "",
      language: "en", baseURL: "/", tint: "", templates: [], search: .init(), tables: [spec], collections: [],
      facets: [], scopes: [])
    var table = try DatasetLoader().loadSource(spec, config: config)
    if table.header.count > Self.maximumColumns {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: source.path),
          "table '\(name)' has \(table.header.count) columns; init chooses among at most \(Self.maximumColumns), since its choices weigh the columns against each other (time grows with their square): write the table's entry in site.yml by hand, or read the columns a site needs through a query"
        ))
    }
    let leftOut = table.header.filter { !Self.isWritable($0) }
    if !leftOut.isEmpty { table = Self.table(table, without: Set(leftOut)) }
    var found = FoundTable(
      name: name, source: source, table: table, profile: TableProfile(table), leftOut: leftOut)
    found.lists = lists
    found.missing = missing
    found.encoding = encoding
    return found
  }

  /// The most columns of one table `init` weighs: about 20 s of a debug
  /// build at 10,000, 47 s at 20,000, so 100,000 would be half an hour.
  static let maximumColumns = 10_000

  /// Whether an expression can name the column: `Naming.expression`
  /// writes it (bare, or in backquotes, a dotted JSON name part by part)
  /// and the expression parser reads that back as the same name. A
  /// backquote cannot be written inside backquotes, and an empty part
  /// (`a..b`, `.a`) cannot be written at all; nor can a name that starts
  /// with a byte-order mark be read back (`YAMLWriter.readsBack`).
  static func isWritable(_ column: String) -> Bool {
    // Written alone as a key or a reference, a name must read back too.
    guard YAMLWriter.readsBack(column), let parsed = try? ExpressionParser.parse(Naming.expression(column)),
      case .path(let parts, _) = parsed
    else { return false }
    // As bytes: `==` would take `e` + U+0301 for `é`.
    return parts.joined(separator: ".").utf8.elementsEqual(column.utf8)
  }

  /// A copy of `table` without the columns named in `names`, for `init`
  /// to profile and choose from (the build still reads the file whole).
  static func table(_ table: Table, without names: Set<String>) -> Table {
    let kept = table.header.indices.filter { !names.contains(table.header[$0]) }
    let copy = Table(
      name: table.name, file: table.file, header: kept.map { table.header[$0] }, keyColumn: nil, kind: .grid)
    for (index, column) in kept.enumerated() {
      if table.lists.contains(column) { copy.lists.insert(index) }
      if table.listsOfObjects.contains(column) { copy.listsOfObjects.insert(index) }
      if let array = table.listArrays[column] { copy.listArrays[index] = array }
      if let format = table.numerals[column] { copy.numerals[index] = format }
    }
    for row in 0..<table.count {
      copy.appendRow()
      for (index, column) in kept.enumerated() {
        if let slot = table.columns[column].slot(ofRow: row) {
          copy.store(table.columns[column].values[slot], column: index)
        }
      }
    }
    copy.seal()
    return copy
  }

  func reload(_ found: FoundTable, as name: String) throws -> FoundTable {
    var copy = try load(name: name, source: found.source)
    copy.declaredKey = found.declaredKey
    copy.declaredRefs = found.declaredRefs
    copy.otherArrays = found.otherArrays
    return copy
  }

  /// The spec a config would hold for this table, with no key and no refs
  /// yet: those are what `init` infers.
  static func spec(name: String, source: FoundTable.Source) -> SiteConfig.Table {
    let place = SourceLocation(file: DatasetLoader.displayPath(source.path))
    func located(_ text: String) -> SiteConfig.Located<String> { .init(value: text, location: place) }
    let kind: SiteConfig.Table.Source
    switch source {
    case .csv(let path, let separator): kind = .csv(file: located(path), separator: separator)
    case .json(let path, let keyPath, let members):
      var spec = SiteConfig.Table(
        name: name, location: place, source: .json(file: located(path), path: keyPath.map(located)), key: nil,
        refs: [], groupBy: nil)
      spec.members = members.map(located)
      return spec
    case .jsonLines(let path): kind = .jsonLines(file: located(path))
    case .sqlite(let path, let table): kind = .sqliteTable(database: located(path), table: located(table))
    case .postgres(let url, let table, let query):
      let read: SiteConfig.Table.Postgres.Read = query.map { .query(located($0)) } ?? .table(located(table))
      kind = .postgres(.init(url: located(url), read: read, passwordEnv: nil))
    case .items(_, let parent, let list, let reference):
      var spec = SiteConfig.Table(
        name: name, location: place, source: nil, key: nil,
        refs: [.init(value: (reference, parent), location: place)], groupBy: nil)
      spec.itemsOf = (parent, list)
      return spec
    }
    return SiteConfig.Table(name: name, location: place, source: kind, key: nil, refs: [], groupBy: nil)
  }

  /// Every table of a database (not views, not SQLite's own), with its
  /// declared primary key and foreign keys.
  func readDatabase(_ path: String) throws -> [FoundTable] {
    let shownPath = DatasetLoader.displayPath(path)
    struct Declared {
      var table: String
      var key: String?
      var refs: [(column: String, table: String, targetColumn: String?)]
    }
    var declared: [Declared] = []
    // Through the build's own connection (`SQLiteSource.Connection`): a
    // database in WAL mode opened read-only by another means gets `-wal`
    // and `-shm` files written beside it, and one a program is writing is
    // read from a private copy.
    do {
      let connection = try SQLiteSource.Connection(path: path)
      func rows(_ sql: String) throws -> [[String: String]] {
        let statement = try connection.prepare(sql)
        let names = statement.columnNames
        var rows: [[String: String]] = []
        while try statement.step() {
          var row: [String: String] = [:]
          for (index, name) in names.enumerated() {
            if case .success(let value) = SQLiteSource.text(statement.handle, column: Int32(index)) {
              row[name] = value
            }
          }
          rows.append(row)
        }
        return rows
      }
      let tables = try rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
      ).compactMap { $0["name"] }
      for table in tables {
        let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let info = try rows("PRAGMA table_info(\(quoted))")
        let keys = info.filter { (Int($0["pk"] ?? "") ?? 0) > 0 }.compactMap { $0["name"] }
        let foreign = try rows("PRAGMA foreign_key_list(\(quoted))")
        // A foreign key of several columns has several rows with one id.
        let ids = foreign.compactMap { $0["id"] }
        let refs = foreign.filter { row in ids.filter { $0 == row["id"] }.count == 1 }
          .compactMap { row -> (String, String, String?)? in
            guard let from = row["from"], let target = row["table"] else { return nil }
            // SQLite reports a key to the primary key with no column.
            let to = row["to"].flatMap { $0.isEmpty ? nil : $0 }
            return (from, target, to)
          }
        declared.append(Declared(table: table, key: keys.count == 1 ? keys[0] : nil, refs: refs))
      }
    } catch let error as SQLiteSource.SQLiteError {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: shownPath),
          "cannot read '\(shownPath)' as a SQLite database: \(error.message)"))
    }
    if declared.isEmpty {
      throw DiagnosticsError(.error(at: SourceLocation(file: shownPath), "the database has no tables"))
    }
    var tables: [FoundTable] = []
    var diagnostics: [Diagnostic] = []
    for item in declared {
      do {
        var table = try load(
          name: Naming.tableName(item.table), source: .sqlite(path: path, table: item.table))
        table.declaredKey = item.key
        table.declaredRefs = item.refs
        tables.append(table)
      } catch let error as DiagnosticsError {
        diagnostics += error.diagnostics
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return tables
  }
}
