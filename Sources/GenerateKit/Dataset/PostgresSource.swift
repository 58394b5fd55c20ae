import Foundation
import PostgresNIO

/// Loads a table from a PostgreSQL server: every row of a table or view
/// (`table: artists`, or `table: music.artists` for another schema), or of
/// the user's own query (`query: SELECT …`).
///
/// Nothing is ever written: everything runs in a `READ ONLY` transaction
/// that is rolled back, and the query must be one `SELECT` (`WITH …
/// SELECT`, `VALUES`, `TABLE`), checked here by its first word and by the
/// server, which takes only those in `DECLARE … CURSOR FOR` and refuses a
/// data-modifying `WITH`, `SELECT … FOR UPDATE` or `nextval()` in a
/// read-only transaction. Nothing from the config is spliced into SQL but
/// that query; a table name is looked up among the server's tables and
/// views and then quoted as an identifier.
///
/// Rows stream through a cursor, `batchRows` at a time, so the client holds
/// one batch of raw rows besides the table being built, and reading stops
/// at the first row over a limit (`limits:` as for every source): an
/// endless `WITH RECURSIVE` is fetched only as far as the limit.
///
/// Values become text as `PostgresText` says. Errors name the place as the
/// config's line (connection, password, SQL, a column of a type that cannot
/// be read) or `postgres://user@host:port/db:table:row:column` for a value;
/// the password is read from the environment and never printed.
enum PostgresSource {
  /// Rows per `FETCH`: large enough that the round trips cost little (a
  /// 100,000-row table is 20 of them), small enough that a batch of raw
  /// rows stays a few megabytes.
  static let batchRows = 5_000

  static let cursorPrefix = "DECLARE generate_rows NO SCROLL CURSOR FOR\n"

  static func load(_ spec: SiteConfig.Table, _ source: SiteConfig.Table.Postgres, limits: SiteConfig.Limits)
    throws -> Table
  {
    let url: PostgresURL
    switch PostgresURL.parse(source.url.value) {
    case .success(let parsed): url = parsed
    case .failure(let problem):
      throw DiagnosticsError(
        .error(at: source.url.location, "postgres in table '\(spec.name)' \(problem.reason)"))
    }
    let session = try connect(url, source, table: spec.name)
    defer { session.close() }
    let place: SourceLocation
    switch source.read {
    case .table(let name): place = name.location
    case .query(let query): place = query.location
    }
    func run(_ sql: String) throws -> PostgresQueryResult {
      do {
        return try session.query(sql)
      } catch let failure as PostgresSession.Failure {
        throw DiagnosticsError(.error(at: place, "table '\(spec.name)': PostgreSQL: \(failure.reason)"))
      }
    }
    _ = try run("BEGIN TRANSACTION READ ONLY")
    let sql: String
    let label: String
    switch source.read {
    case .table(let requested):
      let found = try lookUp(requested, table: spec.name, run: run)
      sql = "SELECT * FROM \(quoted(found.schema)).\(quoted(found.name))"
      label = found.name
    case .query(let query):
      let keyword = SQLiteSource.firstKeyword(of: query.value)
      guard ["SELECT", "WITH", "VALUES", "TABLE"].contains(keyword) else {
        let what = keyword.isEmpty ? "" : "; this is \(keyword)"
        throw DiagnosticsError(
          .error(
            at: query.location,
            "table '\(spec.name)': the query must be one SELECT (or WITH … SELECT, or VALUES) that only reads\(what)"
          ))
      }
      sql = withoutTrailingSemicolons(query.value)
      label = spec.name
    }
    do {
      _ = try session.query(cursorPrefix + sql + "\n")
    } catch let failure as PostgresSession.Failure {
      var at = place
      if case .query(let query) = source.read, let position = failure.position {
        let offset = position - 1 - cursorPrefix.count
        if offset >= 0, offset < query.value.count {
          at = SQLiteSource.place(in: query, byteOffset: String(query.value.prefix(offset)).utf8.count)
        }
      }
      throw DiagnosticsError(.error(at: at, "table '\(spec.name)': PostgreSQL: \(failure.reason)"))
    }
    let file = "\(url.shown):\(label)"
    let fetch = "FETCH FORWARD \(batchRows) FROM generate_rows"
    var batch = try run(fetch)
    // The columns come with the rows; a query with none gets them from one
    // row of nulls joined to it (names only, no values read).
    let first = try batch.rows.first ?? run(emptyHeaderQuery(sql)).rows.first
    let columns = first.map { Array($0) } ?? []
    let asText = try readableColumns(columns, table: spec.name, at: place, run: run)
    var builder = try TableBuilder(
      spec: spec, file: file, header: columns.map(\.columnName), places: [], fallback: place, kind: .grid,
      limits: limits)
    builder.limitPlace = place
    var fields = [String](repeating: "", count: columns.count)
    var row = 0
    while true {
      for postgresRow in batch.rows {
        if builder.isFull { break }
        for (column, cell) in postgresRow.enumerated() where column < fields.count {
          fields[column] = builder.cellText(
            PostgresText.text(cell.bytes, type: cell.dataType, asText: asText[column]), row: row,
            column: column,
            name: cell.columnName)
          // An integer, float or numeric value is a number to templates
          // (`Table.numberColumns`), as SQLite's INTEGER and REAL are.
          if cell.bytes != nil {
            builder.noteDatabaseValue(column: column, isNumber: Self.numberTypes.contains(cell.dataType))
          }
        }
        builder.append(fields)
        row += 1
      }
      if batch.rows.count < batchRows || builder.isFull { break }
      batch = try run(fetch)
    }
    _ = try? session.query("CLOSE generate_rows")
    _ = try? session.query("ROLLBACK")
    return try builder.finish()
  }

  /// The types whose values templates read as numbers; `oid` is a name.
  static let numberTypes: Set<PostgresDataType> = [.int2, .int4, .int8, .float4, .float8, .numeric]

  /// Opens the session with the password from the environment.
  static func connect(_ url: PostgresURL, _ source: SiteConfig.Table.Postgres, table: String) throws
    -> PostgresSession
  {
    let password: String?
    if let variable = source.passwordEnv {
      guard let value = ProcessInfo.processInfo.environment[variable.value] else {
        throw DiagnosticsError(
          .error(
            at: variable.location,
            "table '\(table)': the environment variable \(variable.value) that passwordEnv names is not set"))
      }
      password = value
    } else {
      password = ProcessInfo.processInfo.environment["PGPASSWORD"]
    }
    do {
      return try PostgresSession(url, password: password)
    } catch let failure as PostgresSession.Failure {
      throw DiagnosticsError(
        .error(
          at: source.url.location,
          "table '\(table)': cannot connect to PostgreSQL at \(url.shown): \(failure.reason)"))
    }
  }

  /// The table or view a `table:` names: `name` (in the search path's
  /// schema first) or `schema.name`; exact, else the one that matches
  /// ignoring case.
  static func lookUp(
    _ requested: SiteConfig.Located<String>, table: String, run: (String) throws -> PostgresQueryResult
  ) throws -> (schema: String, name: String) {
    let rows = try run(
      """
      SELECT table_schema::text, table_name::text FROM information_schema.tables
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY table_schema = current_schema() DESC, table_schema, table_name
      """
    )
    let known = strings(rows).filter { $0.count == 2 }.map { (schema: $0[0], name: $0[1]) }
    let wanted = requested.value
    func matches(_ item: (schema: String, name: String), _ same: (String, String) -> Bool) -> Bool {
      same(item.name, wanted) || same(item.schema + "." + item.name, wanted)
    }
    if let exact = known.first(where: { matches($0, ==) }) { return exact }
    let folded = known.filter { matches($0) { $0.lowercased() == $1.lowercased() } }
    if folded.count == 1 { return folded[0] }
    let list = known.isEmpty ? "it has none" : "it has: \(known.map(\.name).joined(separator: ", "))"
    throw DiagnosticsError(
      .error(
        at: requested.location,
        "table '\(table)': the PostgreSQL database has no table or view '\(wanted)' (\(list))"))
  }

  /// Which columns are read as plain text (enums), after checking every
  /// column's type can be read at all: one error at the config's line per
  /// column that cannot, naming it and its type.
  static func readableColumns(
    _ cells: [PostgresCell], table: String, at place: SourceLocation,
    run: (String) throws -> PostgresQueryResult
  ) throws -> [Bool] {
    let unknown = Set(cells.map(\.dataType).filter { !PostgresText.readable.contains($0) })
    guard !unknown.isEmpty else { return cells.map { _ in false } }
    var enums = Set<UInt32>()
    var names: [UInt32: String] = [:]
    let list = unknown.map { String($0.rawValue) }.joined(separator: ", ")
    for values in strings(
      try run("SELECT oid::int8, typtype::text, format_type(oid, NULL) FROM pg_type WHERE oid IN (\(list))"))
    {
      guard values.count == 3, let oid = UInt32(values[0]) else { continue }
      if values[1] == "e" { enums.insert(oid) }
      names[oid] = values[2]
    }
    var diagnostics: [Diagnostic] = []
    for cell in cells where unknown.contains(cell.dataType) && !enums.contains(cell.dataType.rawValue) {
      let type = names[cell.dataType.rawValue] ?? "\(cell.dataType)"
      diagnostics.append(
        .error(
          at: place,
          "table '\(table)': column '\(cell.columnName)' has PostgreSQL type \(type), which cannot be read as text; cast it in a query (\(cell.columnName)::text) or leave it out"
        ))
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return cells.map { enums.contains($0.dataType.rawValue) }
  }

  /// The rows of a catalog query as text (a value that cannot be read,
  /// which a catalog does not hold, as empty).
  static func strings(_ result: PostgresQueryResult) -> [[String]] {
    result.rows.map { row in
      row.map { cell in
        guard case .success(let text) = PostgresText.text(cell.bytes, type: cell.dataType) else { return "" }
        return text
      }
    }
  }

  /// One row of nulls with the query's columns, for their names when it
  /// returns no rows (the query is planned, never run: `LIMIT 0`).
  static func emptyHeaderQuery(_ sql: String) -> String {
    "SELECT q.* FROM (VALUES (1)) AS one LEFT JOIN (SELECT * FROM (\n\(sql)\n) AS q LIMIT 0) AS q ON true"
  }

  static func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// The query without the `;` (and blanks) that may end it: it is put
  /// inside `DECLARE … FOR` and a subquery, where one would be an error.
  static func withoutTrailingSemicolons(_ sql: String) -> String {
    var text = Substring(sql)
    while let last = text.last, last == ";" || last.isWhitespace { text = text.dropLast() }
    return String(text)
  }
}
