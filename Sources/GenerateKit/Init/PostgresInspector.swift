import Foundation

/// `generate init postgres://user@host:port/db`: every table of the
/// database the user may read (not views, not the system's), each with its
/// declared single-column primary key and foreign keys from `pg_catalog`,
/// then loaded as a build would load it (`PostgresSource`, through
/// `DataFileReader.load`). The password is read from PGPASSWORD, and the
/// config written names none: a build reads it from there too.
struct PostgresInspector {
  let reader: DataFileReader

  func read(_ text: String) throws -> [FoundTable] {
    let place = SourceLocation(file: text)
    let url: PostgresURL
    switch PostgresURL.parse(text) {
    case .success(let parsed): url = parsed
    case .failure(let problem):
      throw DiagnosticsError(.error(at: SourceLocation(file: "postgres://…"), "the URL \(problem.reason)"))
    }
    let declared: [Declared]
    do {
      let session = try PostgresSession(url, password: ProcessInfo.processInfo.environment["PGPASSWORD"])
      defer { session.close() }
      _ = try session.query("BEGIN TRANSACTION READ ONLY")
      declared = try Self.tables(session)
      _ = try? session.query("ROLLBACK")
    } catch let failure as PostgresSession.Failure {
      throw DiagnosticsError(
        .error(at: place, "cannot read the PostgreSQL database at \(url.shown): \(failure.reason)"))
    }
    if declared.isEmpty {
      throw DiagnosticsError(.error(at: place, "the database has no tables this user can read"))
    }
    var tables: [FoundTable] = []
    var diagnostics: [Diagnostic] = []
    for item in declared {
      do {
        // Columns of a type that cannot be read are left out by a query
        // that names the others (a table of none of them is left out).
        var query: String?
        if !item.unreadable.isEmpty {
          guard !item.readable.isEmpty else { continue }
          query =
            "SELECT \(item.readable.map(PostgresSource.quoted).joined(separator: ", ")) FROM \(item.quotedName)"
        }
        var table = try reader.load(
          name: Naming.tableName(item.name), source: .postgres(url: text, table: item.name, query: query))
        table.declaredKey = item.key
        table.declaredRefs = item.refs
        table.unreadable = item.unreadable
        tables.append(table)
      } catch let error as DiagnosticsError {
        diagnostics += error.diagnostics
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return tables
  }

  struct Declared {
    /// As `table:` names it: `name` in the search path's schema, else `schema.name`.
    var name: String
    /// `"schema"."name"`, for SQL.
    var quotedName: String
    var key: String?
    var refs: [(column: String, table: String, targetColumn: String?)] = []
    /// The columns `PostgresText` can read, in order, and the others with their types.
    var readable: [String] = []
    var unreadable: [(column: String, type: String)] = []
  }

  /// The readable tables (ordinary and partitioned) outside the system's
  /// schemas, the search path's schema first, and their one-column keys.
  static func tables(_ session: PostgresSession) throws -> [Declared] {
    let tables = PostgresSource.strings(
      try session.query(
        """
        SELECT c.oid::int8, n.nspname::text, c.relname::text, n.nspname = current_schema()
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
          AND has_table_privilege(c.oid, 'SELECT')
        ORDER BY n.nspname = current_schema() DESC, n.nspname, c.relname
        """))
    var byOID: [String: Int] = [:]
    var declared: [Declared] = []
    for row in tables where row.count == 4 {
      byOID[row[0]] = declared.count
      declared.append(
        Declared(
          name: row[3] == "true" ? row[2] : row[1] + "." + row[2],
          quotedName: PostgresSource.quoted(row[1]) + "." + PostgresSource.quoted(row[2])))
    }
    guard !declared.isEmpty else { return [] }
    // Each column's type, a domain's base type beside it: an enum reads
    // as its label, and a domain as the type it is over.
    let readable = Set(PostgresText.readable.map { String($0.rawValue) })
    let columns = PostgresSource.strings(
      try session.query(
        """
        SELECT a.attrelid::int8, a.attname::text, a.atttypid::int8, t.typbasetype::int8, t.typtype::text,
          format_type(a.atttypid, a.atttypmod)
        FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attnum > 0 AND NOT a.attisdropped
          AND a.attrelid IN (\(byOID.keys.sorted().joined(separator: ", ")))
        ORDER BY a.attrelid, a.attnum
        """))
    for row in columns where row.count == 6 {
      guard let index = byOID[row[0]] else { continue }
      if readable.contains(row[2]) || readable.contains(row[3]) || row[4] == "e" {
        declared[index].readable.append(row[1])
      } else {
        declared[index].unreadable.append((row[1], row[5]))
      }
    }
    // Keys of one column only: a key of several is no record's id.
    let constraints = PostgresSource.strings(
      try session.query(
        """
        SELECT k.conrelid::int8, k.contype::text, a.attname::text, k.confrelid::int8, f.attname::text
        FROM pg_constraint k
        JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
        LEFT JOIN pg_attribute f ON f.attrelid = k.confrelid AND f.attnum = k.confkey[1]
        WHERE k.contype IN ('p', 'f') AND cardinality(k.conkey) = 1
        ORDER BY k.conrelid, k.conname
        """))
    for row in constraints where row.count == 5 {
      guard let index = byOID[row[0]] else { continue }
      if row[1] == "p" {
        declared[index].key = row[2]
      } else if let target = byOID[row[3]] {
        declared[index].refs.append((row[2], declared[target].name, row[4].isEmpty ? nil : row[4]))
      }
    }
    return declared
  }
}
