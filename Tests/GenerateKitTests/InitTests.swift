import Foundation
import GRDB
import Yams
import Testing

@testable import GenerateKit

/// A throwaway folder of data files for `init` and `inspect`.
struct DataFolder {
  let root: URL

  init(_ files: [String: String] = [:]) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("generate-init-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for (name, text) in files { try write(name, text) }
  }

  func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  func write(_ relative: String, _ text: String) throws {
    let url = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  func read(_ relative: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

  /// Runs init on these files (relative names) into `site.yml` here.
  func initialize(_ files: [String], force: Bool = false) throws -> SiteInitializer.Result {
    var initializer = SiteInitializer(files: files.map(path))
    initializer.configPath = path("site.yml")
    initializer.force = force
    return try initializer.run()
  }

  /// The written config, loaded and prepared as a build would.
  func prepare() throws -> PreparedSite { try preparedSite(config: path("site.yml")) }
}

/// The small shop the unit tests infer from: makers, products referring to
/// them, tags joined to products, and a quantity column of small numbers
/// that fits every table's ids and must not be taken for a reference.
let shopFiles = [
  "makers.csv":
    "maker_code,name,country\nAC,Acme,Sweden\nLU,Lumo,Denmark\nWO,Woody,Norway\nNO,Nordic,Norway\n",
  "products.csv": """
  id,name,maker,category,rating,quantity
  1,Red Chair,AC,Furniture,4.5,1
  2,Blue Lamp,LU,Lighting,3.9,2
  3,Green Sofa,AC,Furniture,4.8,1
  4,Oak Table,WO,Furniture,4.1,3
  5,Desk Lamp,LU,Lighting,4.0,2
  6,Floor Lamp,LU,Lighting,4.2,1
  7,Pine Shelf,WO,Furniture,3.5,1
  8,Wall Lamp,NO,Lighting,3.8,4

  """,
  "tags.csv": "id,label\n1,modern\n2,classic\n3,outdoor\n",
  "product_tags.csv": "product_id,tag_id\n1,1\n2,1\n3,2\n4,2\n5,1\n6,3\n",
]

@Suite struct InitProfileTests {
  @Test func kindsCountsAndSamples() {
    func kind(_ values: [String]) -> ColumnProfile.Kind { ColumnProfile(name: "c", values: values).kind }
    #expect(kind(["1", "-20", "300"]) == .integer)
    #expect(kind(["1", "0.99", "1e+20"]) == .number)
    #expect(kind(["007", "12"]) == .text, "a leading zero is a code")
    #expect(kind(["true", "false", ""]) == .bool)
    #expect(kind(["2007-01-01", "2008-12-31T10:00:00Z"]) == .date)
    #expect(kind(["inf", "nan"]) == .text)
    #expect(kind(["", ""]) == .empty)
    let column = ColumnProfile(name: "c", values: ["a b", "a b", "", "c", "d"])
    #expect(column.distinct == 3 && column.empty == 1 && column.filled == 4)
    #expect(column.samples == ["a b", "c", "d"])
    #expect(!column.isUnique)
    #expect(ColumnProfile(name: "c", values: ["x", "y"]).isUnique)
  }

  @Test func names() {
    #expect(Naming.tableName("Media Types") == "media_types")
    #expect(Naming.tableName("2020 sales") == "t_2020_sales")
    #expect(Naming.tableName("作家") == "作家")
    #expect(Naming.id("Media_Types", fallback: "x") == "media_types")
    #expect(Naming.id("作家", fallback: "x") == "zuo-jia")
    #expect(Naming.id("Café Crème", fallback: "x") == "cafe-creme")
    #expect(Naming.id("!!!", fallback: "x") == "x")
    #expect(Naming.singular("categories") == "category")
    #expect(Naming.singular("boxes") == "box")
    #expect(Naming.singular("status") == "status")
    #expect(Naming.plural("country") == "countries")
    #expect(Naming.label("media_types") == "Media Types")
    #expect(Naming.camel(["artist", "name"]) == "artistName")
    #expect(Naming.expression("release date") == "`release date`")
    #expect(Naming.expression("maker.name") == "maker.name")
    #expect(Naming.expression("名前") == "名前")
    #expect(FacetIcons.icon(forName: "continent") == "globe")
    #expect(FacetIcons.icon(forName: "Release Year") == "calendar")
    #expect(FacetIcons.icon(forName: "media_type") == "folder")
    #expect(FacetIcons.icon(forName: "colour") == "tag")
  }

  @Test func theYAMLItWritesReadsBackAsWritten() throws {
    for text in ["Rock", "AC/DC", "true", "12", "a: b", "# x", "`name`", "90’s Music", "x\"y", "-1", "Q&A"] {
      let yaml = "value: \(YAMLWriter.scalar(text))\nlist: \(YAMLWriter.flowList([text, "b"]))\n"
      let node = try #require(try Yams.compose(yaml: yaml))
      #expect(node["value"]?.string == text, "\(yaml)")
      #expect(node["list"]?.sequence?.first?.string == text, "\(yaml)")
    }
  }
}

@Suite struct InitJSONPathTests {
  func arrays(_ json: String) throws -> [JSONRecordsFinder.Found] {
    let folder = try DataFolder(["d.json": json])
    defer { folder.remove() }
    return try JSONRecordsFinder.arrays(inFile: folder.path("d.json"))
  }

  @Test func theRootArrayOrTheLargestArrayOfObjects() throws {
    #expect(JSONRecordsFinder.best(try arrays(#"[{"a": 1}, {"a": 2}]"#))?.path == nil)
    let nested = try arrays(
      #"{"meta": {"links": [{"x": 1}]}, "data": {"items": [{"a": 1}, {"a": 2}, {"a": 3}]}, "n": [1, 2, 3, 4]}"#
    )
    #expect(JSONRecordsFinder.best(nested) == .init(path: "data.items", objects: 3))
    #expect(nested.contains(.init(path: "n", objects: 0)))
    #expect(JSONRecordsFinder.best(try arrays(#"{"n": [1, 2]}"#)) == nil)
  }

  @Test func aMalformedDocumentIsReportedAtItsPlace() throws {
    #expect(throws: DiagnosticsError.self) { try arrays("{\"a\": [1, 2}") }
  }
}

@Suite struct InitInferenceTests {
  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  @Test func keysReferencesAndJoinTables() throws {
    let plan = try plan(shopFiles)
    let schema = plan.schema
    #expect(schema.table("makers")?.key == "maker_code")
    #expect(schema.table("products")?.key == "id")
    #expect(schema.table("product_tags")?.key == nil)
    // A text column whose every value is a maker's key, not named like it.
    #expect(schema.table("products")?.refs.map(\.column) == ["maker"])
    #expect(schema.table("products")?.refs.first?.table == "makers")
    // quantity (1…4) fits every table's ids: no reference.
    #expect(schema.table("products")?.ref("quantity") == nil)
    #expect(schema.table("product_tags")?.refs.map(\.table) == ["products", "tags"])
    #expect(schema.table("product_tags")?.isJoin == true)
    #expect(plan.collections.map(\.table) == ["makers", "products", "tags"])
  }

  @Test func titlesSubtitlesPopularityAndFacets() throws {
    let plan = try plan(shopFiles)
    let products = try #require(plan.collections.first { $0.table == "products" })
    #expect(products.title == "name")
    #expect(products.subtitle == "Product · {{maker.title}}")
    #expect(products.search.contains("maker.name"))
    #expect(products.fields.contains { $0 == ("maker", "maker") }, "the maker as a record: a link")
    #expect(products.popularity == "rating", "a number named like a score")
    #expect(products.facets.map(\.facet) == ["category"])
    let makers = try #require(plan.collections.first { $0.table == "makers" })
    #expect(makers.popularity == "count(products)")
    #expect(makers.subtitle == "Maker · {{productCount}}")
    #expect(makers.facets.contains { $0 == ("category", "distinct(products.category)") })
    let tags = try #require(plan.collections.first { $0.table == "tags" })
    #expect(tags.title == "label")
    #expect(tags.popularity == "count(product_tags)")
    #expect(tags.facets.contains { $0 == ("category", "distinct(product_tags.product_id.category)") })
    // Two values: a scope for each, after All.
    #expect(plan.scopes.map(\.label) == ["All", "Furniture", "Lighting"])
    #expect(plan.scopes.last?.facet == "category")
  }

  /// Two references to one table, named for their roles: both found, and
  /// neither makes the matches a list of the team's records (which would
  /// be ambiguous in an expression).
  @Test func referencesNamedForTheirRole() throws {
    let plan = try plan([
      "teams.csv": "id,name\n1,Lions\n2,Tigers\n3,Bears\n",
      "matches.csv": "id,home_team_id,away_team_id,venue\n1,1,2,Stade A\n2,2,3,Stade B\n3,3,1,Stade C\n",
    ])
    #expect(plan.schema.table("matches")?.refs.map(\.table) == ["teams", "teams"])
    #expect(plan.schema.children(of: "teams").isEmpty)
    let matches = try #require(plan.collections.first { $0.table == "matches" })
    #expect(matches.subtitle == "Match · {{homeTeam.title}} · {{awayTeam.title}}")
    #expect(plan.collections.first { $0.table == "teams" }?.popularity == nil)
  }

  @Test func aRepeatedTitleIsCollapsedAndNamedForIt() throws {
    var rows = "country,continent,year,pop\n"
    for country in ["Chad", "Peru", "Laos"] {
      for year in [1952, 1957, 1962] {
        rows += "\(country),\(country == "Peru" ? "Americas" : "Elsewhere"),\(year),\(year)\n"
      }
    }
    let plan = try plan(["stats.csv": rows])
    let collection = try #require(plan.collections.first)
    #expect(collection.title == "country" && collection.distinct == "country")
    #expect(
      collection.id == "countries" && collection.label == "Countries" && collection.singular == "Country")
    #expect(collection.popularity == "pop")
  }
}

@Suite struct InitWriterTests {
  @Test func theWrittenConfigLoadsAndPrepares() throws {
    let folder = try DataFolder(shopFiles.mapKeys { "data/" + $0 })
    defer { folder.remove() }
    let result = try folder.initialize(shopFiles.keys.sorted().map { "data/" + $0 })
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    #expect(text.contains("products: { file: data/products.csv, key: id, refs: { maker: makers } }"))
    #expect(text.contains("# key: the column 'maker_code' is unique in all 4 rows"))
    #expect(text.contains("page: { template: record, path: \"products/{{slug}}/\" }"))
    #expect(!text.contains("templates:"))
    let site = try folder.prepare()
    #expect(site.documents.count == 4 + 8 + 3)
    let config = site.config
    #expect(config.search.trending.first == "Lumo", "the maker most products refer to")
    #expect(config.facets.map(\.id) == ["category"])
  }

  @Test func anExistingConfigIsKeptWithoutForce() throws {
    let folder = try DataFolder(shopFiles)
    defer { folder.remove() }
    try folder.write("site.yml", "title: Mine\n")
    #expect(throws: DiagnosticsError.self) { try folder.initialize(["tags.csv"]) }
    #expect(try folder.read("site.yml") == "title: Mine\n")
    _ = try folder.initialize(["tags.csv"], force: true)
    // A folder in the config's place is never replaced, even with --force.
    try FileManager.default.createDirectory(
      atPath: folder.path("folder.yml"), withIntermediateDirectories: true)
    var initializer = SiteInitializer(files: [folder.path("tags.csv")])
    initializer.configPath = folder.path("folder.yml")
    initializer.force = true
    #expect(throws: DiagnosticsError.self) { try initializer.run() }
    #expect(try folder.read("site.yml").contains("tags: { file: tags.csv, key: id }"))
  }

  /// Spaces and brackets in file and column names: backquoted expressions,
  /// quoted YAML, ids and field names a URL and Mustache can hold.
  @Test func namesThatAreNotIdentifiers() throws {
    let folder = try DataFolder([
      "my products.csv": """
      Product ID,Product Name,Maker,Release Year,Price (USD)
      1,Red Chair,Acme Co,2020,12
      2,Blue Lamp,Lumo,2021,30
      3,Green Sofa,Acme Co,2020,300
      4,Oak Table,Woody,2021,250
      5,Desk Lamp,Lumo,2020,45
      6,Floor Lamp,Lumo,2021,80
      7,Pine Shelf,Woody,2020,20

      """,
      "Makers.csv": "Maker,Country\nAcme Co,Sweden\nLumo,Denmark\nWoody,Norway\n",
    ])
    defer { folder.remove() }
    let result = try folder.initialize(["my products.csv", "Makers.csv"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    #expect(text.contains("my_products: { file: my products.csv, key: Product ID, refs: { Maker: makers } }"))
    #expect(text.contains("title: \"`Product Name`\""))
    #expect(text.contains("release-year: \"distinct(my_products.`Release Year`)\""))
    // The column named for the table is its title, though it is the key.
    #expect(result.plan.collections.first { $0.table == "makers" }?.title == "Maker")
    #expect(try folder.prepare().documents.count == 10)
  }

  @Test func noTableToSearchIsAnErrorAndWritesNothing() throws {
    let folder = try DataFolder(["numbers.csv": "id,value\n1,2\n2,3\n"])
    defer { folder.remove() }
    #expect(throws: DiagnosticsError.self) { try folder.initialize(["numbers.csv"]) }
    #expect(!FileManager.default.fileExists(atPath: folder.path("site.yml")))
  }

  @Test func dataPathsAreRelativeToTheConfigsFolder() {
    #expect(ConfigWriter.relativePath(from: "/a/b", to: "/a/b/data/x.csv") == "data/x.csv")
    #expect(ConfigWriter.relativePath(from: "/a/b/site", to: "/a/c/x.csv") == "../../c/x.csv")
  }
}

@Suite struct InitSQLiteTests {
  /// Declared keys and foreign keys that the names alone would not give:
  /// a primary key called `code`, a reference column called `made_by`.
  @Test func declaredKeysAndForeignKeys() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let queue = try DatabaseQueue(path: folder.path("shop.db"))
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE brand (code INTEGER PRIMARY KEY, title TEXT);
          CREATE TABLE item (sku TEXT PRIMARY KEY, label TEXT, made_by INTEGER REFERENCES brand(code));
          INSERT INTO brand VALUES (10, 'Acme'), (20, 'Lumo');
          INSERT INTO item VALUES ('a', 'Chair', 10), ('b', 'Lamp', 20), ('c', 'Sofa', 10);
          """)
    }
    try queue.close()
    let result = try folder.initialize(["shop.db"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let item = try #require(result.plan.schema.table("item"))
    #expect(item.key == "sku" && item.keyReason.contains("declared"))
    #expect(
      item.refs == [.init(column: "made_by", table: "brand", reason: "a declared foreign key to brand.code")])
    let text = try folder.read("site.yml")
    #expect(text.contains("item: { sqlite: shop.db, table: item, key: sku, refs: { made_by: brand } }"))
    #expect(try folder.prepare().documents.count == 5)
  }
}

@Suite struct InitChinookTests {
  /// The keys and references init infers from Chinook's CSV files are the
  /// ones the hand-written `Data/site.yml` declares.
  @Test func chinookKeysAndReferencesMatchTheHandWrittenConfig() throws {
    let chinook = packageRoot.appendingPathComponent("Data/chinook")
    let files = try FileManager.default.contentsOfDirectory(atPath: chinook.path).filter {
      $0.hasSuffix(".csv")
    }
    .sorted().map { chinook.appendingPathComponent($0).path }
    let plan = CollectionInference().infer(SchemaInference().infer(try DataFileReader().read(files)))
    let handWritten = try ConfigLoader().load(path: packageRoot.appendingPathComponent("Data/site.yml").path)
    for table in handWritten.tables {
      let inferred = try #require(plan.schema.table(table.name))
      #expect(inferred.key == table.key?.value, "key of \(table.name)")
      let refs = inferred.refs.map { "\($0.column)→\($0.table)" }.sorted()
      #expect(
        refs == table.refs.map { "\($0.value.column)→\($0.value.table)" }.sorted(), "refs of \(table.name)")
    }
    #expect(
      plan.collections.map(\.table) == ["artists", "albums", "tracks", "playlists", "genres", "media_types"])
    #expect(plan.collections.map(\.title) == ["name", "title", "name", "name", "name", "name"])
    #expect(
      plan.tablesOnly.map(\.table).sorted() == ["customers", "invoice_lines", "invoices", "playlist_tracks"])
    #expect(plan.facets.contains { $0.id == "genre" && $0.icon == "genre" })
  }

  /// The whole config init writes for Chinook (without the trending
  /// searches, which need the data prepared), kept beside the hand-written
  /// one to compare: `diff Data/site.yml Tests/GenerateKitTests/Fixtures/init/chinook.yml`.
  /// After an intended change, re-record with `GENERATE_RECORD_GOLDEN=1`.
  @Test func chinookConfigMatchesItsGoldenFile() throws {
    let data = packageRoot.appendingPathComponent("Data")
    let files = try FileManager.default.contentsOfDirectory(
      atPath: data.appendingPathComponent("chinook").path
    )
    .filter { $0.hasSuffix(".csv") }.sorted().map { data.appendingPathComponent("chinook/" + $0).path }
    let plan = CollectionInference().infer(SchemaInference().infer(try DataFileReader().read(files)))
    let text = ConfigWriter(
      directory: data.path, title: "Chinook", description: "Search the Chinook music store."
    )
    .write(plan)
    let golden = fixturesRoot.appendingPathComponent("init/chinook.yml")
    if ProcessInfo.processInfo.environment["GENERATE_RECORD_GOLDEN"] != nil {
      try Data(text.utf8).write(to: golden)
      return
    }
    let stored = try String(contentsOf: golden, encoding: .utf8)
    #expect(
      stored == text,
      "differs from init/chinook.yml:\n\(GoldenSiteTests.diff(Data(stored.utf8), Data(text.utf8)))")
  }
}

extension Dictionary where Key == String {
  func mapKeys(_ transform: (String) -> String) -> [String: Value] {
    Dictionary(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
  }
}
