import Foundation
import GRDB
import Testing

@testable import GenerateKit

/// `generate init` and `generate inspect` through the real executable, on
/// fixture files of each source type: what the written config says (keys,
/// references, titles, facets, the JSON path), and that it then builds.
@Suite struct InitCommandTests {
  static var executable: String { packageRoot.appendingPathComponent(".build/debug/generate").path }
  static var built: Bool { FileManager.default.isExecutableFile(atPath: executable) }

  /// Runs `generate` in the folder.
  func generate(_ arguments: [String], in folder: DataFolder) throws -> (
    status: Int32, stdout: [UInt8], output: String, err: String
  ) {
    try runProcess(Self.executable, arguments, in: folder.root)
  }

  /// Runs init on the files, checks it succeeded, and loads what it wrote.
  func initialize(_ files: [String], in folder: DataFolder) throws -> SiteConfig {
    let result = try generate(["init"] + files, in: folder)
    try #require(result.status == 0, "init failed: \(result.output)")
    #expect(result.output.contains("Wrote site.yml"), "\(result.output)")
    #expect(!result.err.contains("warning"), "init's own config has problems:\n\(result.err)")
    return try ConfigLoader().load(path: folder.path("site.yml"))
  }

  /// The config builds a site with the built-in theme (no templates of its
  /// own) through the real executable, with no warning, and writes a page
  /// per record.
  func expectBuilds(_ folder: DataFolder, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let result = try generate(["--config", "site.yml", "--output", "site", "--quiet"], in: folder)
    #expect(result.status == 0, "the build failed:\n\(result.output)", sourceLocation: sourceLocation)
    #expect(!result.err.contains("warning"), "\(result.err)", sourceLocation: sourceLocation)
    #expect(
      FileManager.default.fileExists(atPath: folder.path("site/index.html")), sourceLocation: sourceLocation)
    let config = try ConfigLoader().load(path: folder.path("site.yml"))
    let pages =
      FileManager.default.subpaths(atPath: folder.path("site"))?.filter { $0.hasSuffix("/index.html") } ?? []
    for collection in config.collections {
      #expect(
        pages.contains { $0.hasPrefix(collection.id + "/") }, "no page of \(collection.id)",
        sourceLocation: sourceLocation)
    }
  }

  func table(_ config: SiteConfig, _ name: String) throws -> SiteConfig.Table {
    try #require(config.tables.first { $0.name == name }, "no table \(name)")
  }

  func refs(_ table: SiteConfig.Table) -> [String] {
    table.refs.map { "\($0.value.column)→\($0.value.table)" }.sorted()
  }

  func collection(_ config: SiteConfig, table: String) throws -> SiteConfig.Collection {
    try #require(config.collections.first { $0.table == table }, "no collection of \(table)")
  }

  @Test(.enabled(if: built)) func csvFiles() throws {
    let folder = try DataFolder(shopFiles.mapKeys { "data/" + $0 })
    defer { folder.remove() }
    let config = try initialize(shopFiles.keys.sorted().map { "data/" + $0 }, in: folder)
    #expect(try table(config, "products").key?.value == "id")
    #expect(try table(config, "makers").key?.value == "maker_code")
    #expect(try refs(table(config, "products")) == ["maker→makers"])
    #expect(try refs(table(config, "product_tags")) == ["product_id→products", "tag_id→tags"])
    #expect(config.collections.map(\.id) == ["makers", "products", "tags"])
    #expect(try collection(config, table: "products").title.value == "name")
    #expect(config.facets.map(\.id) == ["category"])
    #expect(config.scopes.map(\.id) == ["all", "furniture", "lighting"])
    if case .csv(let file, let separator)? = try table(config, "products").source {
      #expect(separator == CSVSeparator.comma)
      #expect(file.value == "data/products.csv")
    } else {
      Issue.record("products is not read from CSV")
    }
    try expectBuilds(folder)
  }

  /// A spreadsheet's `;` export (BOM, CRLF, decimal commas, quoted fields
  /// holding `;` and `,`): inspect and init read it with `;`, init says so
  /// in the config, and the build titles every record right.
  @Test(.enabled(if: built)) func aSemicolonSeparatedCSVFile() throws {
    let folder = try DataFolder([
      "data/films.csv":
        "\u{FEFF}id;title;rating;genre\r\n1;\"Amélie; or, the Fabulous Destiny\";8,3;Comedy\r\n"
        + "2;\"Run, Lola, Run\";7,7;Thriller\r\n3;Das Boot;8,4;War\r\n4;\"Le \"\"Samouraï\"\"\";8,0;Crime\r\n"
    ])
    defer { folder.remove() }
    let inspected = try generate(["inspect", "data/films.csv"], in: folder)
    #expect(
      inspected.output.hasPrefix("films (data/films.csv, separated by ';'): 4 rows\n"), "\(inspected.output)")
    let config = try initialize(["data/films.csv"], in: folder)
    #expect(try folder.read("site.yml").contains(#"file: data/films.csv, separator: ";""#))
    if case .csv(_, let separator)? = try table(config, "films").source {
      #expect(separator == CSVSeparator.semicolon)
    } else {
      Issue.record("films is not read from CSV")
    }
    try expectBuilds(folder)
    let titles = try folder.prepare().documents.map(\.title)
    #expect(
      titles.sorted() == [
        "Amélie; or, the Fabulous Destiny", "Das Boot", "Le \"Samouraï\"", "Run, Lola, Run",
      ])
  }

  /// A `.tsv` file is read by tabs, with no `separator:` to say so.
  @Test(.enabled(if: built)) func aTSVFile() throws {
    let folder = try DataFolder([
      "data/films.tsv": "id\ttitle\tyear\n1\tRun, Lola, Run\t1998\n2\tDas Boot\t1981\n3\tM; a city\t1931\n"
    ])
    defer { folder.remove() }
    _ = try initialize(["data/films.tsv"], in: folder)
    #expect(try !folder.read("site.yml").contains("separator"))
    try expectBuilds(folder)
    let titles = try folder.prepare().documents.map(\.title)
    #expect(titles.sorted() == ["Das Boot", "M; a city", "Run, Lola, Run"])
  }

  @Test(.enabled(if: built)) func aJSONDocumentWithItsRecordsUnderAKey() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let source = fixturesRoot.appendingPathComponent("init/pycountry")
    for name in ["iso3166-1.json", "iso3166-2.json", "iso4217.json"] {
      try folder.write(name, String(contentsOf: source.appendingPathComponent(name), encoding: .utf8))
    }
    let config = try initialize(["iso3166-1.json", "iso3166-2.json", "iso4217.json"], in: folder)
    let countries = try table(config, "iso3166_1")
    guard case .json(let file, let path)? = countries.source else {
      Issue.record("not read as a JSON document")
      return
    }
    #expect(file.value == "iso3166-1.json" && path?.value == "3166-1")
    #expect(countries.key?.value == "alpha_2")
    #expect(try table(config, "iso3166_2").key?.value == "code")
    #expect(try table(config, "iso4217").key?.value == "alpha_3")
    #expect(config.collections.map(\.title.value) == ["name", "name", "name"])
    try expectBuilds(folder)
  }

  @Test(.enabled(if: built)) func jsonLines() throws {
    var albums = ""
    let artists = ["Queen", "Björk", "Miles Davis"]
    for (index, artist) in artists.enumerated() {
      albums +=
        #"{"slug": "a\#(index)", "title": "Album \#(index)", "artist": "\#(artist)", "year": 1970}"# + "\n"
    }
    for index in 3..<12 {
      albums +=
        #"{"slug": "a\#(index)", "title": "Record \#(index)", "artist": "\#(artists[index % 3])", "year": 1980}"#
        + "\n"
    }
    var people = ""
    for artist in artists { people += #"{"name": "\#(artist)", "born": 1946}"# + "\n" }
    let folder = try DataFolder(["albums.jsonl": albums, "artists.ndjson": people])
    defer { folder.remove() }
    let config = try initialize(["albums.jsonl", "artists.ndjson"], in: folder)
    #expect(try table(config, "artists").key?.value == "name")
    #expect(try table(config, "albums").key?.value == "slug")
    #expect(try refs(table(config, "albums")) == ["artist→artists"])
    #expect(try collection(config, table: "albums").subtitle?.value == "Album · {{artist.title}}")
    #expect(try collection(config, table: "artists").popularity?.value == "count(albums)")
    try expectBuilds(folder)
  }

  @Test(.enabled(if: built)) func aSQLiteDatabaseWithDeclaredForeignKeys() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let queue = try DatabaseQueue(path: folder.path("music.sqlite"))
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE label (code INTEGER PRIMARY KEY, title TEXT NOT NULL);
          CREATE TABLE genre (gid INTEGER PRIMARY KEY, name TEXT);
          CREATE TABLE record (
            serial TEXT PRIMARY KEY, title TEXT, issued_by INTEGER REFERENCES label(code),
            style INTEGER REFERENCES genre);
          INSERT INTO label VALUES (1, 'Blue Note'), (2, 'Impulse!'), (3, 'ECM');
          INSERT INTO genre VALUES (1, 'Jazz'), (2, 'Fusion');
          """)
      for index in 0..<24 {
        try db.execute(
          sql: "INSERT INTO record VALUES (?, ?, ?, ?)",
          arguments: ["BN-\(index)", "Session \(index)", index % 3 + 1, index % 2 + 1])
      }
    }
    try queue.close()
    let config = try initialize(["music.sqlite"], in: folder)
    let record = try table(config, "record")
    #expect(record.key?.value == "serial")
    #expect(refs(record) == ["issued_by→label", "style→genre"])
    if case .sqliteTable(let database, let name)? = record.source {
      #expect(database.value == "music.sqlite" && name.value == "record")
    } else {
      Issue.record("record is not read from SQLite")
    }
    #expect(try table(config, "label").key?.value == "code")
    // Two genres for 24 records: a facet, offered as a token.
    #expect(config.facets.map(\.id) == ["genre"])
    #expect(try collection(config, table: "record").facets.map(\.facet) == ["genre"])
    try expectBuilds(folder)
  }

  @Test(.enabled(if: built)) func nonLatinTextWithTextKeys() throws {
    let folder = try DataFolder([
      "作家.csv": "番号,名前,国\nA1,夏目漱石,日本\nA2,芥川龍之介,日本\nA3,魯迅,中国\nA4,村上春樹,日本\n",
      "作品.csv": """
      題名,作家,年
      吾輩は猫である,A1,1905
      こころ,A1,1914
      羅生門,A2,1915
      狂人日記,A3,1918
      阿Q正伝,A3,1921
      ノルウェイの森,A4,1987

      """,
    ])
    defer { folder.remove() }
    let config = try initialize(["作家.csv", "作品.csv"], in: folder)
    #expect(try table(config, "作家").key?.value == "番号")
    #expect(try table(config, "作品").key?.value == "題名")
    #expect(try refs(table(config, "作品")) == ["作家→作家"])
    #expect(try collection(config, table: "作家").title.value == "名前")
    #expect(config.collections.map(\.id) == ["zuo-jia", "zuo-pin"])
    #expect(try collection(config, table: "作家").popularity?.value == "count(作品)")
    try expectBuilds(folder)
  }

  @Test(.enabled(if: built)) func anExistingConfigIsAnErrorWithoutForce() throws {
    let folder = try DataFolder(["tags.csv": "id,label\n1,modern\n2,classic\n"])
    defer { folder.remove() }
    try folder.write("site.yml", "title: Mine\n")
    let refused = try generate(["init", "tags.csv"], in: folder)
    #expect(refused.status == 1)
    #expect(
      refused.err.hasPrefix("site.yml:1:1: error: site.yml already exists; pass --force"), "\(refused.err)")
    #expect(try folder.read("site.yml") == "title: Mine\n")
    let forced = try generate(["init", "--force", "tags.csv"], in: folder)
    #expect(forced.status == 0, "\(forced.output)")
    #expect(try folder.read("site.yml").contains("tags: { file: tags.csv, key: id }"))
  }

  @Test(.enabled(if: built)) func aFileThatCannotBeReadIsAnErrorAtIt() throws {
    let folder = try DataFolder(["bad.json": "{\"items\": [{\"a\": 1},\n {\"a\": }]}"])
    defer { folder.remove() }
    let missing = try generate(["init", "nothing.csv"], in: folder)
    #expect(
      missing.status == 1 && missing.err.contains("nothing.csv:1:1: error: no such file"), "\(missing.err)")
    let malformed = try generate(["init", "bad.json"], in: folder)
    #expect(malformed.status == 1 && malformed.err.contains("bad.json:2:8: error: "), "\(malformed.err)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("site.yml")))
  }

  @Test(.enabled(if: built)) func inspectShowsColumnsAndWhatInitWouldInfer() throws {
    let folder = try DataFolder(shopFiles)
    defer { folder.remove() }
    let result = try generate(["inspect", "products.csv", "makers.csv"], in: folder)
    #expect(result.status == 0, "\(result.output)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "products (products.csv): 8 rows")
    #expect(
      lines.contains {
        $0.hasPrefix("  category") && $0.contains("text") && $0.contains("Furniture | Lighting")
      })
    #expect(lines.contains { $0.hasPrefix("  rating") && $0.contains("number") })
    #expect(lines.contains("  init: key id — the column 'id' is unique in all 8 rows"))
    #expect(lines.contains { $0.hasPrefix("  init: maker → makers") })
    #expect(lines.contains("  init: facet category = category"))
    // What is searched besides the title, makers' codes weighed like it.
    #expect(lines.contains("  init: searched maker_code (weighed like the title), country"), "\(lines)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("site.yml")), "inspect writes nothing")
  }
}
