import Foundation
import Testing

@testable import GenerateKit

/// The server `Tests/postgres/start.sh` starts (Tests/run.sh sources it):
/// Chinook as Data/chinook/chinook.sqlite holds it, with keys, and the
/// `oddities` and `shapes` tables. Unset, these tests are skipped.
enum TestPostgres {
  static let url = ProcessInfo.processInfo.environment["GENERATE_TEST_POSTGRES"]
  static let passwordVariable = "GENERATE_TEST_POSTGRES_PASSWORD"
  static let isRunning = url != nil
  static let skipped = Comment(
    rawValue: "GENERATE_TEST_POSTGRES is not set: no PostgreSQL server (Tests/run.sh starts one)")

  /// `postgres:` and `passwordEnv:` for a flow mapping in a config.
  static var source: String { "postgres: \"\(url ?? "")\", passwordEnv: \(passwordVariable)" }
}

@Suite(.enabled(if: TestPostgres.isRunning, TestPostgres.skipped))
struct PostgresSourceTests {
  @Test func everyReadableTypeBecomesTheTextAPersonWouldRead() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let table = try fixture.load("t: { \(TestPostgres.source), table: oddities, key: id }").tableNamed["t"]
    #expect(
      table?.header == [
        "id", "flag", "small", "price", "ratio", "big", "day", "at", "at_utc", "uid", "mood", "doc", "label",
      ])
    #expect(
      values(table, row: 0) == [
        "id": "1", "flag": "true", "small": "-3", "price": "1.50", "ratio": "0.99",
        "big": "-12345678901234567890.000123", "day": "2009-01-05", "at": "2009-01-05 10:30:00",
        "at_utc": "2009-01-05 10:30:00.25+00", "uid": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "mood": "calm",
        "doc": #"{"a": [1, 2]}"#, "label": "Zoë",
      ])
    #expect(
      values(table, row: 1) == [
        "id": "2", "flag": "false", "small": "", "price": "0.00", "ratio": "1e-07", "big": "0.5",
        "day": "0044-03-15", "at": "1999-12-31 23:59:59.999999", "at_utc": "", "uid": "", "mood": "loud",
        "doc": "", "label": "",
      ])
  }

  /// Integer, float and numeric columns are numbers to templates, as
  /// SQLite's INTEGER and REAL are (a NULL does not change that); what
  /// `{{field}}` prints is the text above.
  @Test func numericColumnsAreNumberColumns() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let table = try #require(
      try fixture.load("t: { \(TestPostgres.source), table: oddities, key: id }").tableNamed["t"])
    let numbers = Set(table.numberColumns.map { table.header[$0] })
    #expect(numbers == ["id", "small", "price", "ratio", "big"])
  }

  @Test func aQueryChoosesTheRowsAndAnEmptyResultKeepsItsColumns() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let dataset = try fixture.load(
      """
      t: { \(TestPostgres.source), query: "SELECT id, upper(name) AS name FROM artists WHERE id < 4 ORDER BY id DESC;", key: id }
      none: { \(TestPostgres.source), query: "SELECT id, name FROM artists WHERE false" }
      """)
    #expect(dataset.tableNamed["t"]?.columns == [["3", "2", "1"], ["AEROSMITH", "ACCEPT", "AC/DC"]])
    #expect(dataset.tableNamed["none"]?.header == ["id", "name"])
    #expect(dataset.tableNamed["none"]?.count == 0)
  }

  /// The default site, its tables read from PostgreSQL instead of SQLite
  /// (Data/site-sqlite.yml with each `sqlite:` replaced), equals the site
  /// built from the CSV files, byte for byte; and a build from a server is
  /// never "up to date" (there is no file to fingerprint).
  @Test func theDefaultSiteFromPostgresIsTheSiteFromFiles() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-pg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: out) }
    var text = try String(
      contentsOf: packageRoot.appendingPathComponent("Data/site-sqlite.yml"), encoding: .utf8)
    text = text.replacingOccurrences(
      of: "{ sqlite: chinook/chinook.sqlite,", with: "{ \(TestPostgres.source),"
    )
    .replacingOccurrences(
      of: "    sqlite: chinook/chinook.sqlite\n",
      with: "    postgres: \"\(TestPostgres.url ?? "")\"\n    passwordEnv: \(TestPostgres.passwordVariable)\n"
    )
    .replacingOccurrences(
      of: "templates: templates\n",
      with: "templates: \(packageRoot.appendingPathComponent("Data/templates").path)\n")
    #expect(!text.contains("sqlite:"))
    let config = out.appendingPathComponent("site-postgres.yml")
    try Data(text.utf8).write(to: config)
    var sites: [[String: Data]] = []
    for (name, path) in [
      ("files", packageRoot.appendingPathComponent("Data/site.yml").path), ("postgres", config.path),
    ] {
      var options = BuildOptions()
      options.configPath = path
      options.outputPath = out.appendingPathComponent(name).path
      let started = Date()
      _ = try SiteBuilder(options: options, log: { _ in }).build()
      print("default site from \(name): built in \(Int(Date().timeIntervalSince(started) * 1000)) ms (debug)")
      sites.append(try snapshotFolder(options.outputPath))
    }
    #expect(sites[0].count > 600)
    #expect(sites[0].keys.sorted() == sites[1].keys.sorted())
    let differing = sites[0].keys.filter { sites[0][$0] != sites[1][$0] }.sorted()
    #expect(differing.isEmpty, "files that differ: \(differing.prefix(10))")

    var options = BuildOptions()
    options.configPath = config.path
    options.outputPath = out.appendingPathComponent("postgres").path
    #expect(try !SiteBuilder(options: options, log: { _ in }).build().upToDate)
  }
}

/// What goes wrong with a PostgreSQL source is an error at the config's
/// line, naming the table (and the column), never printing the password.
@Suite(.enabled(if: TestPostgres.isRunning, TestPostgres.skipped))
struct PostgresBadInputTests {
  func failure(_ table: String, limits: String = "") throws -> (SourceFixture, [Diagnostic]) {
    let fixture = try SourceFixture()
    let diagnostics = fixture.failure(table + (limits.isEmpty ? "" : "\n") + limits)
    return (fixture, diagnostics)
  }

  /// The config's line and column of the first occurrence of `text`.
  func place(of text: String, in fixture: SourceFixture) throws -> (line: Int, column: Int) {
    let config = try String(contentsOfFile: fixture.path("site.yml"), encoding: .utf8)
    for (index, line) in config.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let range = line.range(of: text) {
        return (index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1)
      }
    }
    Issue.record("'\(text)' is not in the config")
    return (0, 0)
  }

  @Test func aRefusedConnectionNamesTheServerAtItsLine() throws {
    // Port 1 on loopback: nothing listens there.
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let diagnostics = fixture.failure(
      #"t: { postgres: "postgres://someone@127.0.0.1:1/db", table: artists }"#)
    #expect(diagnostics.count == 1)
    let error = try #require(diagnostics.first)
    #expect(
      error.message
        == "table 't': cannot connect to PostgreSQL at postgres://someone@127.0.0.1:1/db: connection refused")
    #expect(error.location?.line == 3)
    #expect(error.location?.column == (try place(of: "\"postgres://", in: fixture)).column)
  }

  @Test func aWrongPasswordIsRefusedAndNeverPrinted() throws {
    let secret = "not-the-password-\(UUID().uuidString)"
    setenv("GENERATE_TEST_WRONG_PASSWORD", secret, 1)
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let diagnostics = fixture.failure(
      "t: { postgres: \"\(TestPostgres.url ?? "")\", passwordEnv: GENERATE_TEST_WRONG_PASSWORD, table: artists }"
    )
    let error = try #require(diagnostics.first)
    #expect(error.message.contains("cannot connect to PostgreSQL at"))
    #expect(
      error.message.contains("password authentication failed for user \"postgres\""), "\(error.message)")
    #expect(!error.message.contains(secret))
    #expect(error.location?.line == 3)
  }

  @Test func aPasswordInTheURLIsRefusedWithoutEchoingIt() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let diagnostics = fixture.failure(
      #"t: { postgres: "postgres://me:hunter2@127.0.0.1/db", table: artists }"#)
    let error = try #require(diagnostics.first)
    #expect(error.message.contains("holds a password; leave it out of the config"))
    #expect(!error.message.contains("hunter2"))
    #expect(error.location?.line == 3)
  }

  @Test func anUnsetPasswordVariableIsNamedAtItsLine() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let diagnostics = fixture.failure(
      "t: { postgres: \"\(TestPostgres.url ?? "")\", passwordEnv: GENERATE_NO_SUCH_VARIABLE, table: artists }"
    )
    let error = try #require(diagnostics.first)
    #expect(
      error.message
        == "table 't': the environment variable GENERATE_NO_SUCH_VARIABLE that passwordEnv names is not set")
    #expect(error.location?.column == (try place(of: "GENERATE_NO_SUCH_VARIABLE", in: fixture)).column)
  }

  @Test func badSQLIsReportedWhereTheServerFoundIt() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let diagnostics = fixture.failure(
      "t: { \(TestPostgres.source), query: \"SELECT id, name FROM artists WHERE nmae = 'x'\" }")
    let error = try #require(diagnostics.first)
    #expect(
      error.message.hasPrefix("table 't': PostgreSQL: column \"nmae\" does not exist"), "\(error.message)")
    #expect(error.location?.line == 3)
    #expect(error.location?.column == (try place(of: "nmae", in: fixture)).column)
  }

  @Test func onlyAQueryThatReadsIsRunAndNothingIsWritten() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let deleting = fixture.failure(
      "t: { \(TestPostgres.source), query: \"DELETE FROM artists RETURNING id\" }")
    #expect(
      deleting.first?.message
        == "table 't': the query must be one SELECT (or WITH … SELECT, or VALUES) that only reads; this is DELETE"
    )
    // Past the first word, the server refuses what would write.
    for query in [
      "WITH gone AS (DELETE FROM artists RETURNING id) SELECT id FROM gone",
      "SELECT id FROM artists FOR UPDATE",
      "SELECT 1; DELETE FROM artists",
    ] {
      let diagnostics = fixture.failure("t: { \(TestPostgres.source), query: \"\(query)\" }")
      #expect(
        diagnostics.first?.message.hasPrefix("table 't': PostgreSQL: ") == true, "\(query): \(diagnostics)")
    }
    let artists = try fixture.load("t: { \(TestPostgres.source), table: artists, key: id }").tableNamed["t"]
    #expect(artists?.count == 275)
  }

  @Test func aColumnOfAnUnreadableTypeIsNamedWithItsType() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let diagnostics = fixture.failure("t: { \(TestPostgres.source), table: shapes }")
    #expect(
      diagnostics.map(\.message) == [
        "table 't': column 'place' has PostgreSQL type point, which cannot be read as text; cast it in a query (place::text) or leave it out",
        "table 't': column 'photo' has PostgreSQL type bytea, which cannot be read as text; cast it in a query (photo::text) or leave it out",
      ])
    #expect(diagnostics.first?.location?.column == (try place(of: "shapes", in: fixture)).column)
    // Cast as the message says, it reads.
    let table = try fixture.load(
      "t: { \(TestPostgres.source), query: \"SELECT id, place::text AS place FROM shapes\" }"
    ).tableNamed["t"]
    #expect(values(table, row: 0) == ["id": "1", "place": "(0,0)"])
  }

  @Test func anUnknownTableListsTheKnownOnes() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let diagnostics = fixture.failure("t: { \(TestPostgres.source), table: artist }")
    #expect(
      diagnostics.first?.message.hasPrefix(
        "table 't': the PostgreSQL database has no table or view 'artist' (it has: ") == true)
    #expect(diagnostics.first?.message.contains("artists") == true)
  }

  @Test func theLimitsStopAnEndlessQuery() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let started = Date()
    // `limits:` sits beside `tables:`, so the fixture's config is written whole.
    try fixture.write(
      "site.yml",
      """
      title: T
      limits: { rowsPerTable: 20000 }
      tables:
        t: { \(TestPostgres.source), query: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c" }
      collections:
        - { id: c, table: t, title: x }

      """)
    do {
      _ = try DatasetLoader().load(try ConfigLoader().load(path: fixture.path("site.yml")))
      Issue.record("an endless query was read to its end")
    } catch {
      let message = error.diagnostics.first?.message ?? ""
      #expect(message.contains("over the limit of 20000 (limits.rowsPerTable)"), "\(message)")
      #expect(error.diagnostics.first?.location?.line == 4)
    }
    print("endless query stopped at 20,000 rows in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
  }
}

/// `generate init postgres://…` reads the tables, their declared keys and
/// foreign keys from the server and writes a config that builds.
@Suite(.enabled(if: TestPostgres.isRunning, TestPostgres.skipped))
struct PostgresInitTests {
  @Test func initReadsTablesKeysAndForeignKeysAndLeavesOutWhatItCannotRead() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    // init, like psql, reads the password from PGPASSWORD; the config names none.
    setenv("PGPASSWORD", ProcessInfo.processInfo.environment[TestPostgres.passwordVariable] ?? "", 1)
    let url = try #require(TestPostgres.url)
    var initializer = SiteInitializer(files: [url])
    initializer.configPath = fixture.path("site.yml")
    let result = try initializer.run()
    let text = result.text
    #expect(text.contains("title: Chinook"))
    #expect(text.contains("# 'artist_id' → artists: a declared foreign key to artists.id"))
    #expect(text.contains("artists: { postgres: \"\(url)\", table: artists, key: id }"))
    #expect(text.contains("refs: { album_id: albums, genre_id: genres, media_type_id: media_types }"))
    // `shapes` holds a point and a bytea: read by a query without them, and said so.
    #expect(text.contains(#"    query: "SELECT \"id\", \"name\" FROM \"public\".\"shapes\"""#))
    #expect(
      result.warnings.map(\.message).contains {
        $0.contains("column \"photo\" of table 'shapes' is left out")
      })
    #expect(!text.contains(ProcessInfo.processInfo.environment[TestPostgres.passwordVariable] ?? "-"))
    let dataset = try DatasetLoader().load(try ConfigLoader().load(path: fixture.path("site.yml")))
    #expect(dataset.tableNamed["tracks"]?.count == 3503)
  }
}
