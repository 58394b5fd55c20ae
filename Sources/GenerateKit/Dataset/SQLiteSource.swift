import Foundation
import GRDB
import GRDBSQLite

/// Loads a table from a SQLite database through GRDB: every row of a table
/// or view (`table: Artist`), or of the user's own query (`query: SELECT …`).
///
/// The database is opened read-only (`SQLITE_OPEN_READONLY`) and never
/// written. `immutable=1` is not used: it would let SQLite skip locking, and
/// a database another program is writing could then be read half-changed.
/// Nothing from the config is spliced into SQL except the query the user
/// wrote; a table name is first looked up in `sqlite_master` (as a bound
/// parameter) and then quoted as an identifier.
///
/// Values become text as the expression language prints them: integers in
/// decimal, reals as `Value.format` prints numbers, text as it is, null as
/// the empty string. A BLOB is read as text only if it is valid UTF-8.
/// Errors name the place as `database.sqlite:Table:row:column` (1-based
/// row of the result, 1-based column), or the query's place in the config.
enum SQLiteSource {
  enum Read {
    case table(SiteConfig.Located<String>)
    case query(SiteConfig.Located<String>)
  }

  static func load(
    _ spec: SiteConfig.Table, path: String, shownPath: String, database: SiteConfig.Located<String>,
    read: Read
  ) throws -> Table {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
    else {
      throw DiagnosticsError(
        .error(
          at: spec.location, "database '\(shownPath)' of table '\(spec.name)' does not exist"))
    }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.foreignKeysEnabled = false
    configuration.label = "generate"
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch let error as DatabaseError {
      throw DiagnosticsError(
        .error(
          at: database.location,
          "cannot open '\(shownPath)' as a SQLite database: \(error.message ?? "\(error)")"))
    }
    do {
      return try queue.read { db in
        try load(spec, db: db, shownPath: shownPath, database: database, read: read)
      }
    } catch let error as DatabaseError {
      let place: SourceLocation
      switch read {
      case .table(let table): place = table.location
      case .query(let query): place = query.location
      }
      throw DiagnosticsError(.error(at: place, "SQLite: \(error.message ?? "\(error)")"))
    }
  }

  private static func load(
    _ spec: SiteConfig.Table, db: Database, shownPath: String, database: SiteConfig.Located<String>,
    read: Read
  ) throws -> Table {
    let sql: String
    let label: String
    let place: SourceLocation
    switch read {
    case .table(let requested):
      let found = try String.fetchOne(
        db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
        arguments: [requested.value])
      guard let name = found else {
        let names = try String.fetchAll(
          db,
          sql:
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        let known = names.isEmpty ? "it has none" : "it has: \(names.joined(separator: ", "))"
        throw DiagnosticsError(
          .error(
            at: requested.location,
            "database '\(shownPath)' has no table or view '\(requested.value)' (\(known))"))
      }
      sql = "SELECT * FROM \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\""
      label = name
      place = requested.location
    case .query(let query):
      sql = query.value
      label = spec.name
      place = query.location
    }
    let statement: Statement
    do {
      statement = try db.makeStatement(sql: sql)
    } catch let error as DatabaseError {
      var at = place
      if case .query(let query) = read, let connection = db.sqliteConnection {
        at = Self.place(in: query, byteOffset: Int(sqlite3_error_offset(connection)))
      }
      throw DiagnosticsError(.error(at: at, "SQLite: \(error.message ?? "\(error)")"))
    }
    guard statement.isReadonly else {
      throw DiagnosticsError(
        .error(at: place, "the query must only read (a SELECT); it would change the database"))
    }
    let file = "\(shownPath):\(label)"
    var builder = try TableBuilder(
      spec: spec, file: file, header: statement.columnNames, places: [], fallback: place, kind: .grid)
    let handle = statement.sqliteStatement
    let width = statement.columnCount
    var fields = [String](repeating: "", count: width)
    var row = 0
    let cursor = try Row.fetchCursor(statement)
    while try cursor.next() != nil {
      for column in 0..<width {
        switch text(handle, column: Int32(column)) {
        case .success(let value): fields[column] = value
        case .failure(let problem):
          fields[column] = ""
          builder.report(
            .error(
              at: SourceLocation(file: file, line: row + 1, column: column + 1),
              "row \(row + 1): column '\(statement.columnNames[column])' \(problem.reason)"))
        }
      }
      builder.append(fields)
      row += 1
    }
    return try builder.finish()
  }

  /// Where in the config SQLite's error offset into the query falls: found
  /// by reading the config's line and checking the query is written there
  /// as it is (a one-line plain or quoted scalar without escapes);
  /// otherwise the query's own place.
  static func place(in query: SiteConfig.Located<String>, byteOffset: Int) -> SourceLocation {
    let location = query.location
    guard byteOffset >= 0, byteOffset <= query.value.utf8.count, !query.value.contains("\n"),
      let text = try? String(contentsOfFile: location.file, encoding: .utf8)
    else { return location }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard location.line >= 1, location.line <= lines.count else { return location }
    let line = Array(lines[location.line - 1].unicodeScalars)
    let wanted = Array(query.value.unicodeScalars)
    let before = String(decoding: query.value.utf8.prefix(byteOffset), as: UTF8.self).unicodeScalars.count
    for skip in [0, 1] {
      let start = location.column - 1 + skip
      guard start >= 0, start + wanted.count <= line.count else { continue }
      if Array(line[start..<(start + wanted.count)]) == wanted {
        return SourceLocation(file: location.file, line: location.line, column: start + before + 1)
      }
    }
    return location
  }

  struct Unreadable: Error {
    var reason: String
  }

  /// One value of the current row as cell text.
  static func text(_ statement: SQLiteStatement, column: Int32) -> Result<String, Unreadable> {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_NULL:
      return .success("")
    case SQLITE_INTEGER:
      return .success(String(sqlite3_column_int64(statement, column)))
    case SQLITE_FLOAT:
      let value = sqlite3_column_double(statement, column)
      guard value.isFinite else {
        return .failure(Unreadable(reason: "holds \(value), which is not a number the site can show"))
      }
      return .success(Value.format(value))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard let pointer = sqlite3_column_text(statement, column) else { return .success("") }
      let bytes = UnsafeBufferPointer(start: pointer, count: count)
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .failure(Unreadable(reason: "holds text that is not valid UTF-8"))
      }
      return .success(text)
    default:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return .success("") }
      let bytes = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .failure(
          Unreadable(
            reason:
              "holds binary data (a BLOB of \(count) bytes) that cannot be read as text; leave it out with a query"
          ))
      }
      return .success(text)
    }
  }
}
