import Foundation
import Testing

@testable import GenerateKit

/// Every input dimension has a limit under `limits:`: a source or config
/// over one is refused at the config's line, naming the limit and the file
/// to raise it in, and stops being read there (`SiteConfig.Limits`).
@Suite struct InputLimitTests {
  /// A config of one table `t` read from `source`, with `limits` (the YAML
  /// inside `limits: { … }`), loaded with its dataset.
  func load(_ fixture: SourceFixture, source: String, limits: String = "") throws -> Dataset {
    let config = """
      title: T
      \(limits.isEmpty ? "" : "limits: { \(limits) }")
      tables:
        t: \(source)
      collections:
        - { id: c, table: t, title: x }

      """
    try fixture.write("site.yml", config)
    return try DatasetLoader().load(try ConfigLoader().load(path: fixture.path("site.yml")))
  }

  func failure(_ fixture: SourceFixture, source: String, limits: String = "") -> [Diagnostic] {
    do {
      _ = try load(fixture, source: source, limits: limits)
      Issue.record("loading was expected to fail")
      return []
    } catch {
      return error.diagnostics
    }
  }

  /// The 1-based line and column of `text` in the fixture's site.yml.
  func place(of text: String, in fixture: SourceFixture) throws -> (line: Int, column: Int)? {
    let config = try String(contentsOfFile: fixture.path("site.yml"), encoding: .utf8)
    for (index, line) in config.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let range = line.range(of: text) {
        return (index + 1, line[..<range.lowerBound].unicodeScalars.count + 1)
      }
    }
    return nil
  }

  static let endlessView =
    "CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c"

  /// Read to its end, this view took a build to 2.4 GB; counted as it
  /// streams, it stops at the limit at once.
  @Test func aViewThatNeverEndsStopsAtRowsPerTable() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.database("db.sqlite", [Self.endlessView])
    let diagnostics = failure(
      fixture, source: "{ sqlite: db.sqlite, table: v }", limits: "rowsPerTable: 1000")
    let match = diagnostics.first { $0.message.contains("has more than 1000 rows") }
    #expect(match != nil, "\(diagnostics)")
    #expect(match?.message.contains("(limits.rowsPerTable); raise limits.rowsPerTable in") == true)
    #expect(match?.message.contains("site.yml") == true)
    let at = try place(of: "v }", in: fixture)
    #expect(match?.location?.line == at?.line && match?.location?.column == at?.column, "\(diagnostics)")
  }

  /// The same through a query, stopped by the bytes it returns; the rows
  /// are long so that `tableBytes` is what is crossed.
  @Test func anEndlessQueryStopsAtTableBytes() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.database("db.sqlite", ["CREATE TABLE unused (a)"])
    let query =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x, printf('%.1000c', 'a') AS y FROM c"
    let diagnostics = failure(
      fixture, source: "{ sqlite: db.sqlite, query: \"\(query)\" }", limits: "tableBytes: 1000000")
    let match = diagnostics.first { $0.message.contains("has more than 1000000 bytes of text") }
    #expect(match != nil, "\(diagnostics)")
    #expect(match?.message.contains("raise limits.tableBytes in") == true)
    #expect(match?.location?.line == (try place(of: "WITH", in: fixture))?.line)
  }

  /// Sorted, the endless view gathers every row inside SQLite before the
  /// first is returned: SQLite's own memory is held to `sqliteMemoryBytes`.
  @Test func aSortedViewThatNeverEndsStopsAtSQLiteMemoryBytes() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.database("db.sqlite", [Self.endlessView + " ORDER BY x DESC"])
    let diagnostics = failure(
      fixture, source: "{ sqlite: db.sqlite, table: v }", limits: "sqliteMemoryBytes: 20000000")
    let match = diagnostics.first { $0.message.contains("SQLite took more than 20000000 bytes of memory") }
    #expect(match != nil, "\(diagnostics)")
    #expect(
      match?.message.contains("(limits.sqliteMemoryBytes); raise limits.sqliteMemoryBytes in") == true)
    #expect(match?.location?.line == (try place(of: "v }", in: fixture))?.line)
  }

  /// A wide endless view is stopped by the cells it returns.
  @Test func aWideEndlessViewStopsAtCellsPerTable() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let columns = (0..<1000).map { "x AS c\($0)" }.joined(separator: ", ")
    try fixture.database(
      "db.sqlite",
      [
        "CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT \(columns) FROM c"
      ])
    let diagnostics = failure(
      fixture, source: "{ sqlite: db.sqlite, table: v }", limits: "cellsPerTable: 20000")
    #expect(diagnostics.contains { $0.message.contains("(limits.cellsPerTable)") }, "\(diagnostics)")
  }

  /// A long field is refused by default with how to allow it, and read
  /// once `limits.valueBytes` is raised (a 200 MB field works the same way;
  /// 2 MB keeps the test fast).
  @Test func aLongFieldNamesTheLimitAndLoadsOnceItIsRaised() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    let long = String(repeating: "word ", count: 400_000)
    try fixture.write("t.csv", "id,x\n1,short\n2,\(long)\n")
    let diagnostics = failure(fixture, source: "{ file: t.csv, key: id }")
    let match = diagnostics.first { $0.message.contains("over the limit of 1048576 bytes") }
    #expect(match != nil, "\(diagnostics)")
    #expect(
      match?.message.contains("raise limits.valueBytes in \(fixture.path("site.yml"))") == true,
      "\(diagnostics)")
    let dataset = try load(fixture, source: "{ file: t.csv, key: id }", limits: "valueBytes: 4194304")
    #expect(values(dataset.tableNamed["t"], row: 1)["x"]?.utf8.count == long.utf8.count)
  }

  /// A CSV file of more rows than `rowsPerTable` is refused at its line.
  @Test func aFileOfTooManyRows() throws {
    let fixture = try SourceFixture(files: [
      "t.csv": "x\n" + (1...50).map(String.init).joined(separator: "\n")
    ])
    defer { fixture.remove() }
    let diagnostics = failure(fixture, source: "{ file: t.csv }", limits: "rowsPerTable: 10")
    let match = diagnostics.first { $0.message.contains("table 't' has more than 10 rows") }
    #expect(match != nil, "\(diagnostics)")
    #expect(match?.location?.line == (try place(of: "t.csv", in: fixture))?.line)
  }

  /// Too many columns, counted before the rows are read.
  @Test func aTableOfTooManyColumns() throws {
    let header = (0..<20).map { "c\($0)" }.joined(separator: ",")
    let fixture = try SourceFixture(files: [
      "t.csv": header + "\n" + String(repeating: "1,", count: 19) + "1\n"
    ])
    defer { fixture.remove() }
    let diagnostics = failure(fixture, source: "{ file: t.csv }", limits: "columnsPerTable: 5")
    #expect(
      diagnostics.contains {
        $0.message.contains("has 20 columns, over the limit of 5 (limits.columnsPerTable)")
          && $0.location?.file.hasSuffix("site.yml") == true
      },
      "\(diagnostics)")
  }
}

/// A config that is large on some dimension is refused at the line where
/// it crosses its limit, quickly and before any stage sees it; one large
/// where it is allowed builds.
@Suite struct ConfigLimitTests {
  func failure(_ config: String) throws -> [Diagnostic] {
    let fixture = try SourceFixture(files: ["site.yml": config, "t.csv": "id,name\n1,A\n"])
    defer { fixture.remove() }
    do {
      _ = try ConfigLoader().load(path: fixture.path("site.yml"))
      Issue.record("the config was expected to be refused")
      return []
    } catch {
      return error.diagnostics
    }
  }

  static let base =
    "tables:\n  t: { file: t.csv, key: id }\ncollections:\n  - { id: c, table: t, title: name }\n"

  /// A 10 MB title passed and took a build to 3 GB: it is in every page.
  @Test func aTenMegabyteTitle() throws {
    let diagnostics = try failure("title: " + String(repeating: "T", count: 10 << 20) + "\n" + Self.base)
    #expect(diagnostics.count == 1, "\(diagnostics.map(\.message))")
    let message = diagnostics.first?.message ?? ""
    #expect(
      message.hasPrefix("'title' is 10485760 bytes long, over the limit of 65536 (limits.configValueBytes)"))
    #expect(message.contains("raise limits.configValueBytes in"))
    #expect(diagnostics.first?.location?.line == 1 && diagnostics.first?.location?.column == 8)
  }

  /// 100,000 facets passed and took a build to 3.4 GB and two minutes.
  @Test func aHundredThousandFacets() throws {
    let facets = (0..<100_000).map { "  - { id: f\($0) }\n" }.joined()
    let diagnostics = try failure("title: T\nfacets:\n" + facets + Self.base)
    #expect(diagnostics.count == 1, "\(diagnostics.prefix(3).map(\.message))")
    #expect(
      diagnostics.first?.message
        == "'facets' has more than 1000 items, over the limit of 1000 (limits.facets); raise limits.facets in "
        + (diagnostics.first?.location?.file ?? "") + " (at most 1000000) to allow more")
    // At the 1,001st facet: line 2 is `facets:`.
    #expect(diagnostics.first?.location?.line == 1_003)
  }

  /// `count` YAML items made by `item` from their number, joined by `separator`.
  static func items(_ count: Int, _ separator: String = ", ", _ item: (Int) -> String) -> String {
    (0..<count).map(item).joined(separator: separator)
  }

  /// Each limit on a count, and a config body one over it.
  static let overCounts: [(String, String)] = [
    (
      "collections",
      "collections: [" + items(1_001) { "{ id: c\($0), table: t, title: name }" } + "]\n"
        + "tables: { t: { file: t.csv } }\n"
    ),
    (
      "tables",
      "tables:\n" + items(1_001, "") { "  t\($0): { file: t.csv }\n" }
        + "collections: [{ id: c, table: t0, title: name }]\n"
    ),
    ("scopes", "scopes: [" + items(1_001) { "{ id: s\($0) }" } + "]\n" + base),
    ("trending", "search: { trending: [" + items(1_001) { "t\($0)" } + "] }\n" + base),
    (
      "labels",
      "labels: { big: {" + items(11) { "c\($0): L" } + "} }\nlimits: { labels: 10 }\n" + base
    ),
    ("configItems", "pages: [" + items(10_001) { "p\($0)" } + "]\n" + base),
    (
      "configDepth",
      "limits: { configDepth: 8 }\nsearch: { title: " + String(repeating: "[", count: 10)
        + String(repeating: "]", count: 10) + " }\n" + base
    ),
  ]

  @Test(arguments: overCounts.map(\.0))
  func aCountOverItsLimit(_ limit: String) throws {
    let body = Self.overCounts.first { $0.0 == limit }?.1 ?? ""
    let diagnostics = try failure("title: T\n" + body)
    #expect(
      diagnostics.contains { $0.message.contains("(limits.\(limit)); raise limits.\(limit) in") },
      "\(diagnostics.prefix(3).map(\.message))")
  }

  /// Nine lines of aliases stand for a billion values: the walk over the
  /// config meets each list once, so the readers' own errors come back
  /// (it walked 10 million nodes, 84 s in a debug build, before).
  @Test func aliasesThatExpandToABillionValues() throws {
    var config = "title: T\nsearch:\n  trending:\n    - &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1..<9 {
      config +=
        "    - &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    let diagnostics = try failure(config + Self.base)
    #expect(diagnostics.count == 9, "\(diagnostics.prefix(3).map(\.message))")
    #expect(diagnostics.allSatisfy { $0.message == "items of trending must be strings" })
  }

  /// The limits are raised where they are named, and a value within
  /// them reads as before.
  @Test func aRaisedLimitLetsItThrough() throws {
    let fixture = try SourceFixture(files: [
      "site.yml": "title: T\nlimits: { facets: 2000 }\nfacets:\n"
        + (0..<1_500).map { "  - { id: f\($0) }\n" }.joined() + Self.base,
      "t.csv": "id,name\n1,A\n",
    ])
    defer { fixture.remove() }
    let config = try ConfigLoader().load(path: fixture.path("site.yml"))
    #expect(config.facets.count == 1_500)
    #expect(config.limits.facets == 2_000)
  }

  /// 10,000 collections took 89 s and 5,000 took 33 s, a step quadratic in
  /// collections; 2,000 build (the time is measured outside the tests).
  @Test func twoThousandCollectionsBuild() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    var config = "title: Many\nlimits: { collections: 2000 }\nbuiltInTheme: true\ntemplates: []\n"
    config += "tables:\n  items: { file: data/genres.csv, key: id }\ncollections:\n"
    for number in 0..<2_000 {
      config += "  - { id: c\(number), label: C\(number), table: items, title: name }\n"
    }
    try project.write("site.yml", config)
    let summary = try project.build()
    #expect(summary.records == 2_000 * 3)
    let search = try project.read("site/index.html")
    #expect(search.contains("C1999"))
  }
}
