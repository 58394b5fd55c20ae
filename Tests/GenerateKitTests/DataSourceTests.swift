import Foundation
import GRDB
import Testing

@testable import GenerateKit

/// A folder with a config naming one table and the files it reads.
struct SourceFixture {
  let root: URL

  init(files: [String: String] = [:]) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-source-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for (name, text) in files { try write(name, text) }
  }

  func path(_ name: String) -> String { root.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: root.appendingPathComponent(name))
  }

  /// Creates a SQLite database by running `statements` (the test's own SQL).
  func database(_ name: String, _ statements: [String]) throws {
    let queue = try DatabaseQueue(path: path(name))
    try queue.write { db in
      for statement in statements { try db.execute(sql: statement) }
    }
  }

  /// Loads the tables declared by `tables` (the YAML under `tables:`).
  func load(_ tables: String) throws -> Dataset {
    let config = """
      title: T
      tables:
      \(tables.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
      collections:
        - { id: c, table: t, title: id }

      """
    try write("site.yml", config)
    return try DatasetLoader().load(try ConfigLoader().load(path: path("site.yml")))
  }

  func failure(_ tables: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Diagnostic] {
    do {
      _ = try load(tables)
      Issue.record("loading was expected to fail", sourceLocation: sourceLocation)
      return []
    } catch {
      return error.diagnostics
    }
  }

  func remove() { try? FileManager.default.removeItem(at: root) }
}

func values(_ table: GenerateKit.Table?, row: Int) -> [String: String] {
  guard let table else { return [:] }
  var result: [String: String] = [:]
  for (column, name) in table.header.enumerated() { result[name] = table.columns[column][row] }
  return result
}

/// JSON, JSON Lines and SQLite rows arrive as the same column-stored text
/// a CSV gives, with the documented mapping of types.
@Suite struct DataSourceTests {
  @Test func jsonValuesBecomeTheTextTheExpressionLanguagePrints() throws {
    let fixture = try SourceFixture(files: [
      "t.json": """
      [
        {"id": 1, "name": "A\\u00e9\\ud83c\\udfb5", "price": 0.5, "whole": 2.0, "exp": 1e3,
         "big": 12345678901234567890, "on": true, "off": false, "none": null,
         "artist": {"name": "X", "country": {"code": "BR"}}},
        {"id": 2, "name": "B"}
      ]
      """
    ])
    defer { fixture.remove() }
    let table = try fixture.load("t: { file: t.json, key: id }").tableNamed["t"]
    #expect(
      table?.header == [
        "id", "name", "price", "whole", "exp", "big", "on", "off", "none", "artist.name",
        "artist.country.code",
      ])
    #expect(
      values(table, row: 0) == [
        "id": "1", "name": "Aé🎵", "price": "0.5", "whole": "2", "exp": "1000", "big": "12345678901234567890",
        "on": "true", "off": "false", "none": "", "artist.name": "X", "artist.country.code": "BR",
      ])
    #expect(values(table, row: 1)["price"] == "")
    #expect(table?.rowForKey["2"] == 1)
  }

  @Test func jsonRecordsCanSitAtAPathInsideTheDocument() throws {
    let fixture = try SourceFixture(files: [
      "t.json":
        #"{"meta": {"n": [1, {"x": 2}]}, "data": {"items": [{"id": "a"}, {"id": "b", "extra": 1}]}, "after": "ok"}"#
    ])
    defer { fixture.remove() }
    let table = try fixture.load("t: { file: t.json, path: data.items, key: id }").tableNamed["t"]
    #expect(table?.header == ["id", "extra"])
    #expect(table?.columns[0] == ["a", "b"])
    #expect(table?.columns[1] == ["", "1"])
  }

  @Test func jsonLinesStreamOneObjectPerLine() throws {
    let fixture = try SourceFixture(files: [
      "t.jsonl": "{\"id\": 1, \"n\": \"x\"}\n\n{\"id\": 2}\r\n{\"n\": \"z\", \"id\": 3}"
    ])
    defer { fixture.remove() }
    let table = try fixture.load("t: { file: t.jsonl, key: id }").tableNamed["t"]
    #expect(table?.header == ["id", "n"])
    #expect(table?.columns[0] == ["1", "2", "3"])
    #expect(table?.columns[1] == ["x", "", "z"])
    #expect(table?.location(row: 2, column: 1) == SourceLocation(file: table?.file ?? "", line: 4, column: 7))
  }

  @Test func sqliteTypesMapToText() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.database(
      "m.sqlite",
      [
        "CREATE TABLE Artist (id INTEGER, name TEXT, score REAL, whole REAL, note TEXT, raw BLOB)",
        "INSERT INTO Artist VALUES (1, 'Beyoncé', 0.25, 3.0, NULL, CAST('text' AS BLOB))",
        "INSERT INTO Artist VALUES (2, 'AC/DC', -1.5, 1e20, 'x', NULL)",
      ])
    let table = try fixture.load("t: { sqlite: m.sqlite, table: artist, key: id }").tableNamed["t"]
    #expect(table?.header == ["id", "name", "score", "whole", "note", "raw"])
    #expect(
      values(table, row: 0) == [
        "id": "1", "name": "Beyoncé", "score": "0.25", "whole": "3", "note": "", "raw": "text",
      ])
    #expect(
      values(table, row: 1) == [
        "id": "2", "name": "AC/DC", "score": "-1.5", "whole": "1e+20", "note": "x", "raw": "",
      ])
    #expect(table?.file.hasSuffix("m.sqlite:Artist") == true)
  }

  @Test func sqliteQueriesChooseTheRowsAndTheirOrder() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.database(
      "m.sqlite",
      [
        "CREATE TABLE a (id INTEGER, name TEXT)", "INSERT INTO a VALUES (2, 'b'), (1, 'a'), (3, 'c')",
      ])
    let table = try fixture.load(
      #"t: { sqlite: m.sqlite, query: "SELECT id, upper(name) AS name FROM a WHERE id < 3 ORDER BY id", key: id }"#
    )
    .tableNamed["t"]
    #expect(table?.columns == [["1", "2"], ["A", "B"]])
  }

  @Test func theDatabaseIsNeverWritten() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.database("m.sqlite", ["CREATE TABLE a (id INTEGER)", "INSERT INTO a VALUES (1)"])
    let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path("m.sqlite")))
    let diagnostics = fixture.failure(#"t: { sqlite: m.sqlite, query: "DELETE FROM a RETURNING id" }"#)
    #expect(diagnostics.first?.message.contains("must only read") == true, "\(diagnostics)")
    _ = try fixture.load("t: { sqlite: m.sqlite, table: a }")
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path("m.sqlite"))) == before)
  }
}

/// A table's source is checked in the config, at the key or value at fault.
@Suite struct TableConfigTests {
  func expectConfigError(
    _ tables: String, _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let fixture = try SourceFixture(files: ["t.csv": "id\n1\n", "t.txt": "id\n1\n"])
    defer { fixture.remove() }
    let marked = Marked(tables)
    let diagnostics = fixture.failure(marked.text, sourceLocation: sourceLocation)
    let match = diagnostics.first { $0.message.contains(message) }
    #expect(match != nil, "no \(message.debugDescription) in \(diagnostics)", sourceLocation: sourceLocation)
    // The fixture puts the tables on line 3 onwards, two spaces in.
    #expect(
      match?.location?.line == marked.line + 2, "\(String(describing: match))", sourceLocation: sourceLocation
    )
    #expect(
      match?.location?.column == marked.column + 2, "\(String(describing: match))",
      sourceLocation: sourceLocation)
  }

  @Test func anUnknownFileKind() throws {
    try expectConfigError(
      "t: { file: 1️⃣t.txt }", "must end in .csv, .tsv, .tab, .json, .geojson, .jsonl or .ndjson")
  }

  @Test func twoSourcesAtOnce() throws {
    try expectConfigError(
      "t: 1️⃣{ file: t.csv, sqlite: m.sqlite }",
      "takes one of 'file', 'sqlite', 'postgres', 'groupBy' and 'itemsOf'")
  }

  @Test func postgresWithoutTableOrQueryOrWithAFileKey() throws {
    try expectConfigError(
      #"t: 1️⃣{ postgres: "postgres://me@localhost/db" }"#, "reads a PostgreSQL server: it needs 'table'")
    try expectConfigError(
      #"t: { postgres: "postgres://me@localhost/db", table: a, 1️⃣separator: ";" }"#,
      "'separator' in table 't' belongs to a file")
    try expectConfigError(
      #"t: { file: t.csv, 1️⃣passwordEnv: PGPASSWORD }"#,
      "'passwordEnv' in table 't' belongs to a PostgreSQL table")
    try expectConfigError(
      #"t: { postgres: 1️⃣"mysql://me@localhost/db", table: a }"#, "must be a URL such as postgres://")
    try expectConfigError(
      #"t: { postgres: "postgres://me@localhost/db", table: a, passwordEnv: 1️⃣"MY PASSWORD" }"#,
      "passwordEnv in table 't' must name an environment variable")
  }

  @Test func sqliteWithoutTableOrQuery() throws {
    try expectConfigError("t: 1️⃣{ sqlite: m.sqlite }", "needs 'table' (a table or view) or 'query' (SQL)")
  }

  @Test func sqliteWithTableAndQuery() throws {
    try expectConfigError(
      "t: 1️⃣{ sqlite: m.sqlite, table: a, query: SELECT 1 }", "has both 'table' and 'query'")
  }

  /// A `.tsv` file is read by tabs; `separator:` sets another, `tab` or
  /// `"\t"` for a tab.
  @Test func tabsForATSVFileAndWhatSeparatorSays() throws {
    let fixture = try SourceFixture(files: [
      "a.tsv": "id\tname\n1\tx, y\n", "b.csv": "id;name\n1;\"x; y\"\n", "c.csv": "id\tname\n1\tz\n",
      "d.csv": "id|name\n1|w\n",
    ])
    defer { fixture.remove() }
    let dataset = try fixture.load(
      #"""
      a: { file: a.tsv, key: id }
      b: { file: b.csv, separator: ";", key: id }
      c: { file: c.csv, separator: tab, key: id }
      d: { file: d.csv, separator: "|", key: id }
      """#)
    #expect(dataset.tableNamed["a"]?.columns == [["1"], ["x, y"]])
    #expect(dataset.tableNamed["b"]?.columns == [["1"], ["x; y"]])
    #expect(dataset.tableNamed["c"]?.columns == [["1"], ["z"]])
    #expect(dataset.tableNamed["d"]?.columns == [["1"], ["w"]])
    let quoted = try fixture.load(#"c: { file: c.csv, separator: "\t", key: id }"#)
    #expect(quoted.tableNamed["c"]?.columns == [["1"], ["z"]])
  }

  @Test func aSeparatorThatIsNotOneOfTheFour() throws {
    try expectConfigError(
      #"t: { file: t.csv, separator: 1️⃣"ab" }"#, #"separator in table 't' must be ",", ";", "|" or tab"#)
  }

  @Test func aSeparatorOnAJSONFile() throws {
    try expectConfigError(
      #"t: { file: t.json, 1️⃣separator: ";" }"#, "'separator' in table 't' applies to a CSV file")
  }

  @Test func aSeparatorOnADatabase() throws {
    try expectConfigError(
      #"t: { sqlite: m.sqlite, table: a, 1️⃣separator: ";" }"#, "'separator' in table 't' belongs to a CSV file"
    )
  }

  @Test func aPathOnACSVFile() throws {
    try expectConfigError(
      "t: { file: t.csv, 1️⃣path: a.b }", "'path' in table 't' applies to a .json or .geojson file only")
  }

  @Test func aPathWithAnEmptyKey() throws {
    try expectConfigError("t: { file: t.json, path: 1️⃣a..b }", "path in table 't' must be keys joined by dots")
  }
}

/// The default site from Data/chinook/chinook.sqlite is the same, byte for
/// byte, as the one from the CSV files it was made from.
@Suite struct SQLiteDefaultSiteTests {
  @Test func theSQLiteAndCSVBuildsAreByteIdentical() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-twins-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    var sites: [[String: Data]] = []
    for config in ["site.yml", "site-sqlite.yml"] {
      var options = BuildOptions()
      options.configPath = packageRoot.appendingPathComponent("Data/\(config)").path
      options.outputPath = out.appendingPathComponent(config).path
      _ = try SiteBuilder(options: options, log: { _ in }).build()
      sites.append(try snapshotFolder(options.outputPath))
    }
    #expect(sites[0].count > 600)
    #expect(sites[0].keys.sorted() == sites[1].keys.sorted())
    let differing = sites[0].keys.filter { sites[0][$0] != sites[1][$0] }.sorted()
    #expect(differing.isEmpty, "files that differ: \(differing.prefix(10))")
  }
}
