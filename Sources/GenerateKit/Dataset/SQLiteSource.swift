import Foundation
import GRDBSQLite

/// Loads a table from a SQLite database: every row of a table or view
/// (`table: Artist`), or of the user's own query (`query: SELECT …`).
///
/// The user's folder is left exactly as it was. A database opened even
/// read-only in WAL mode gets `-wal` and `-shm` files written beside it, so
/// it is opened `immutable=1`: SQLite then takes no locks and creates
/// nothing. That is right only while no other program is changing the
/// database, which shows as a `-wal` or `-journal` file with content beside
/// it (changes not yet in the database file, or a writer mid-transaction);
/// then the database and that file are copied to a private temporary folder
/// and the copy is read, recovered by SQLite as the writer left it.
///
/// The query must be one statement that only reads and returns rows — a
/// SELECT, WITH … SELECT or VALUES; ATTACH, PRAGMA and the like are refused
/// at the query in the config. Nothing from the config is spliced into SQL
/// except that query; a table name is looked up among the database's
/// tables and views and then quoted as an identifier.
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
    _ spec: SiteConfig.Table, path: String, _ named: DataFile.Named, read: Read, limits: SiteConfig.Limits
  ) throws -> Table {
    try DataFile.check(path, named, limit: nil)
    let connection: Connection
    do {
      connection = try Connection(path: path)
      _ = try connection.prepare("SELECT count(*) FROM sqlite_master")
    } catch let error as SQLiteError {
      throw DiagnosticsError(
        .error(at: named.at, "cannot open '\(named.shownPath)' as a SQLite database: \(error.message)"))
    }
    let sql: String
    let label: String
    let place: SourceLocation
    switch read {
    case .table(let requested):
      let names = try connection.strings(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name", at: requested.location
      )
      guard let name = names.first(where: { asciiLowercased($0) == asciiLowercased(requested.value) }) else {
        let known = names.filter { !asciiLowercased($0).hasPrefix("sqlite_") }
        let list = known.isEmpty ? "it has none" : "it has: \(known.joined(separator: ", "))"
        throw DiagnosticsError(
          .error(
            at: requested.location,
            "database '\(named.shownPath)' has no table or view '\(requested.value)' (\(list))"))
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
      statement = try connection.prepare(sql)
    } catch let error as SQLiteError {
      var at = place
      if case .query(let query) = read, let offset = error.offset {
        at = Self.place(in: query, byteOffset: offset)
      }
      throw DiagnosticsError(.error(at: at, "SQLite: \(error.message)"))
    }
    if case .query = read, let problem = statement.whyNotARowQuery(sql) {
      throw DiagnosticsError(.error(at: place, problem))
    }
    let file = "\(named.shownPath):\(label)"
    let names = statement.columnNames
    var builder = try TableBuilder(
      spec: spec, file: file, header: names, places: [], fallback: place, kind: .grid, limits: limits)
    builder.limitPlace = place
    let handle = statement.handle
    let width = names.count
    let budget = MemoryBudget(connection, bytes: limits.sqliteMemoryBytes)
    var fields = [String](repeating: "", count: width)
    var row = 0
    do {
      // Rows are counted as SQLite hands them over, and reading stops at the
      // first one over a limit: a view over an unbounded recursive query
      // (`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c)`)
      // streams without end, and read to its end took a build to 2.4 GB.
      while !builder.isFull, try statement.step() {
        for column in 0..<width {
          fields[column] = builder.cellText(
            text(handle, column: Int32(column)), row: row, column: column, name: names[column])
          // An INTEGER or REAL value is a number to templates (`Table.numberColumns`).
          let type = sqlite3_column_type(handle, Int32(column))
          if type != SQLITE_NULL {
            builder.noteDatabaseValue(
              column: column, isNumber: type == SQLITE_INTEGER || type == SQLITE_FLOAT)
          }
        }
        builder.append(fields)
        row += 1
      }
    } catch let error as SQLiteError {
      if budget.exceeded {
        throw DiagnosticsError(
          .error(
            at: place,
            "table '\(spec.name)': SQLite took more than \(limits.sqliteMemoryBytes) bytes of memory to answer it (a sort, grouping or DISTINCT over that much, or over a query that never ends) and was stopped, "
              + limits.over("sqliteMemoryBytes")))
      }
      throw DiagnosticsError(.error(at: place, "SQLite: \(error.message)"))
    }
    withExtendedLifetime(budget) {}
    return try builder.finish()
  }

  /// Stops a query once SQLite itself holds more than `sqliteMemoryBytes`.
  ///
  /// Counting rows stops a view that streams without end, but one that
  /// sorts, groups or removes duplicates from an endless query (`… ORDER
  /// BY x`) gathers it all inside SQLite before the first row. So sorts and
  /// temporary tables are kept in memory (`temp_store = MEMORY`, where
  /// they count, instead of in temporary files that would fill the disk),
  /// and every 10,000 virtual-machine steps the growth of SQLite's memory
  /// since the query began is compared with `sqliteMemoryBytes`; past it
  /// the query is interrupted. With an endless sorted view and a 20 MB
  /// limit, a debug build stops in 0.6 s.
  final class MemoryBudget {
    let bytes: Int64
    private(set) var exceeded = false
    private let connection: Connection

    init(_ connection: Connection, bytes: Int) {
      // Over what SQLite held before (its caches, other tables' loads):
      // the measure is process-wide.
      let (sum, overflow) = sqlite3_memory_used().addingReportingOverflow(Int64(bytes))
      self.bytes = overflow ? .max : sum
      self.connection = connection
      sqlite3_exec(connection.handle, "PRAGMA temp_store = MEMORY", nil, nil, nil)
      sqlite3_progress_handler(
        connection.handle, 10_000,
        { context in
          guard let context else { return 0 }
          let budget = Unmanaged<MemoryBudget>.fromOpaque(context).takeUnretainedValue()
          guard sqlite3_memory_used() > budget.bytes else { return 0 }
          budget.exceeded = true
          return 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { sqlite3_progress_handler(connection.handle, 0, nil, nil) }
  }

  /// SQLite's NOCASE: ASCII letters only.
  static func asciiLowercased(_ text: String) -> String {
    String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
  }

  struct SQLiteError: Error {
    var message: String
    /// The byte offset into the SQL where it went wrong, when SQLite knows.
    var offset: Int?
  }

  /// One open database, closed (and its private copy removed) when done.
  /// The only place the database is opened.
  final class Connection {
    let handle: OpaquePointer
    private let copyFolder: URL?

    init(path: String) throws {
      var flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      var target = "file:" + Self.uriPath(path) + "?immutable=1"
      var copyFolder: URL?
      if Self.hasContent(path + "-wal") || Self.hasContent(path + "-journal") {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
          "generate-sqlite-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        copyFolder = folder
        let copy = folder.appendingPathComponent("database.sqlite").path
        do {
          try FileManager.default.copyItem(atPath: path, toPath: copy)
          for suffix in ["-wal", "-journal"] where Self.hasContent(path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
          }
        } catch {
          try? FileManager.default.removeItem(at: folder)
          throw SQLiteError(message: "cannot copy it to read it untouched: \(error.localizedDescription)")
        }
        // Read-write, so SQLite can recover the copy as a writer left it.
        flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI
        target = "file:" + Self.uriPath(copy)
      }
      self.copyFolder = copyFolder
      var handle: OpaquePointer?
      let code = sqlite3_open_v2(target, &handle, flags, nil)
      guard code == SQLITE_OK, let handle else {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        if let handle { sqlite3_close_v2(handle) }
        if let copyFolder { try? FileManager.default.removeItem(at: copyFolder) }
        throw SQLiteError(message: message)
      }
      self.handle = handle
      if copyFolder != nil { sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil) }
    }

    deinit {
      sqlite3_close_v2(handle)
      if let copyFolder { try? FileManager.default.removeItem(at: copyFolder) }
    }

    /// A regular file beside the database with something in it.
    static func hasContent(_ path: String) -> Bool {
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return false }
      return attributes[.type] as? FileAttributeType == .typeRegular
        && (attributes[.size] as? NSNumber)?.intValue ?? 0 > 0
    }

    /// A path as the path of a `file:` URI: every byte but unreserved
    /// characters and `/` percent-encoded, so `?`, `#` and `%` stay part of it.
    static func uriPath(_ path: String) -> String {
      var result = ""
      for byte in path.utf8 {
        let scalar = Unicode.Scalar(byte)
        if (byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
          || "-._~/".unicodeScalars.contains(scalar)
        {
          result.unicodeScalars.append(scalar)
        } else {
          result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
      }
      return result
    }

    var error: SQLiteError {
      let offset = Int(sqlite3_error_offset(handle))
      return SQLiteError(message: String(cString: sqlite3_errmsg(handle)), offset: offset >= 0 ? offset : nil)
    }

    /// Compiles exactly one statement: a second one after it is an error.
    func prepare(_ sql: String) throws -> Statement {
      let utf8 = Array(sql.utf8) + [0]
      return try utf8.withUnsafeBufferPointer { buffer in
        try buffer.withMemoryRebound(to: CChar.self) { text in
          guard let base = text.baseAddress else { throw SQLiteError(message: "empty query") }
          var statement: OpaquePointer?
          var tail: UnsafePointer<CChar>?
          guard sqlite3_prepare_v2(handle, base, Int32(utf8.count), &statement, &tail) == SQLITE_OK else {
            throw error
          }
          guard let statement else { throw SQLiteError(message: "the query holds no statement") }
          let compiled = Statement(handle: statement, connection: self)
          if let tail, tail.pointee != 0 {
            var next: OpaquePointer?
            let code = sqlite3_prepare_v2(handle, tail, -1, &next, nil)
            if next != nil || code != SQLITE_OK {
              sqlite3_finalize(next)
              var offset = tail - base
              while offset < utf8.count && [0x20, 0x09, 0x0A, 0x0D].contains(utf8[offset]) { offset += 1 }
              throw SQLiteError(
                message: "the query holds more than one statement; a table is read with one SELECT",
                offset: offset)
            }
          }
          return compiled
        }
      }
    }

    func strings(_ sql: String, at place: SourceLocation) throws -> [String] {
      do {
        let statement = try prepare(sql)
        var result: [String] = []
        while try statement.step() {
          result.append(sqlite3_column_text(statement.handle, 0).map { String(cString: $0) } ?? "")
        }
        return result
      } catch let error as SQLiteError {
        throw DiagnosticsError(.error(at: place, "SQLite: \(error.message)"))
      }
    }
  }

  /// One compiled statement, finalized when done.
  final class Statement {
    let handle: OpaquePointer
    private let connection: Connection

    init(handle: OpaquePointer, connection: Connection) {
      self.handle = handle
      self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    var columnNames: [String] {
      (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// True while there is a row; false at the end.
    func step() throws -> Bool {
      switch sqlite3_step(handle) {
      case SQLITE_ROW: return true
      case SQLITE_DONE: return false
      default: throw connection.error
      }
    }

    /// Why the statement is not one that reads rows (nil when it is): it
    /// must only read, begin with SELECT, WITH or VALUES, and return
    /// columns. `sqlite3_stmt_readonly` alone lets ATTACH, DETACH, BEGIN
    /// and most PRAGMAs through, as they change no database file.
    func whyNotARowQuery(_ sql: String) -> String? {
      if sqlite3_stmt_readonly(handle) == 0 {
        return "the query must only read (a SELECT); it would change the database"
      }
      let keyword = SQLiteSource.firstKeyword(of: sql)
      if !["SELECT", "WITH", "VALUES"].contains(keyword) || sqlite3_column_count(handle) == 0 {
        let what = keyword.isEmpty ? "" : "; this is \(keyword)"
        return "the query must be one SELECT (or WITH … SELECT, or VALUES) that returns rows\(what)"
      }
      return nil
    }
  }

  /// The first word of SQL, upper-cased, after blanks and comments.
  static func firstKeyword(of sql: String) -> String {
    var bytes = Substring(sql).utf8[...]
    while let first = bytes.first {
      if first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D || first == 0x0C {
        bytes = bytes.dropFirst()
      } else if bytes.starts(with: "--".utf8) {
        bytes = bytes.drop { $0 != 0x0A }
      } else if bytes.starts(with: "/*".utf8) {
        var rest = bytes.dropFirst(2)
        while !rest.isEmpty && !rest.starts(with: "*/".utf8) { rest = rest.dropFirst() }
        bytes = rest.dropFirst(2)
      } else {
        break
      }
    }
    let word = bytes.prefix { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    return asciiLowercased(String(decoding: word, as: UTF8.self)).uppercased()
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

  /// One value of the current row as cell text.
  static func text(_ statement: OpaquePointer, column: Int32) -> Result<String, TableBuilder.CellProblem> {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_NULL:
      return .success("")
    case SQLITE_INTEGER:
      return .success(String(sqlite3_column_int64(statement, column)))
    case SQLITE_FLOAT:
      let value = sqlite3_column_double(statement, column)
      guard value.isFinite else {
        return .failure(
          TableBuilder.CellProblem(reason: "holds \(value), which is not a number the site can show"))
      }
      return .success(Value.format(value))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard let pointer = sqlite3_column_text(statement, column) else { return .success("") }
      let bytes = UnsafeBufferPointer(start: pointer, count: count)
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .failure(TableBuilder.CellProblem(reason: "holds text that is not valid UTF-8"))
      }
      return .success(text)
    default:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return .success("") }
      let bytes = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .failure(
          TableBuilder.CellProblem(
            reason:
              "holds binary data (a BLOB of \(count) bytes) that cannot be read as text; leave it out with a query"
          ))
      }
      return .success(text)
    }
  }
}
