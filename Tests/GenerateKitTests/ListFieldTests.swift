import Foundation
import Testing

@testable import GenerateKit

/// Fields holding several values (Fixtures/lists): a JSON array of
/// scalars, an array of objects, a CSV column declared under `lists:`.
/// Each is one field of its record, searched item by item, a facet with
/// several values, a comma list on the record page.
@Suite struct ListFieldTests {
  static let config = fixturesRoot.appendingPathComponent("lists/site.yml").path

  /// The documents' titles in index order, and the numbers a word's
  /// postings hold (title and other fields together) as titles.
  struct BuiltIndex {
    let index: SiteIndex
    let manifest: Manifest
    let titles: [String]

    init() throws {
      let index = try IndexBuilder().build(try preparedSite(config: ListFieldTests.config))
      let manifest: Manifest = try index.decode(index.manifestPath)
      let shards = (manifest.docCount + manifest.docsPerShard - 1) / manifest.docsPerShard
      titles = try (0..<shards).flatMap { number in
        try index.decode(try index.docShardPath(manifest, number), as: DocumentShard.self).docs.map(\.title)
      }
      self.index = index
      self.manifest = manifest
    }

    func found(_ word: String) throws -> Set<String> {
      let shards = try #require(manifest.termShardEntries)
      let shard = try #require(
        shards.filter { word.hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count })
      let terms: TermShard = try index.decode(shard.path)
      guard let entry = terms.terms[word] else { return [] }
      return Set((entry.title.numbers + entry.other.numbers).map { titles[Int($0)] })
    }

    func facet(_ id: String) throws -> [String: Set<String>] {
      let facet = try #require(manifest.facets.first { $0.id == id })
      var byValue: [String: Set<String>] = [:]
      for value in facet.values {
        let ids: IDList = try index.decode(value.file)
        byValue[value.name] = Set(ids.ids.numbers.map { titles[Int($0)] })
        #expect(ids.ids.numbers.count == value.count)
      }
      return byValue
    }
  }

  @Test func aJSONArrayIsOneFieldOfItsRecordReadItemByItem() throws {
    let dataset = try DatasetLoader().load(try ConfigLoader().load(path: Self.config))
    let books = try #require(dataset.tableNamed["books"])
    let authors = try #require(books.column(named: "authors"))
    #expect(books.isList(authors))
    #expect(books.items(row: 0, column: authors) == ["Terry Pratchett", "Neil Gaiman"])
    #expect(books.text(row: 0, column: authors) == "Terry Pratchett, Neil Gaiman")
    // Nulls and empty strings inside an array, and an empty array, hold nothing.
    let tags = try #require(books.column(named: "tags"))
    #expect(books.items(row: 8, column: tags) == ["science fiction"])
    #expect(books.items(row: 10, column: tags) == [])
    // An array of objects: each of their fields is a list of its own.
    let formats = try #require(books.column(named: "editions.format"))
    #expect(books.isList(formats))
    #expect(books.items(row: 0, column: formats) == ["Hardcover", "Paperback"])
    #expect(books.text(row: 0, column: try #require(books.column(named: "editions.pages"))) == "288, 412")
    // A CSV column declared under `lists:`, its items trimmed.
    let albums = try #require(dataset.tableNamed["albums"])
    let genres = try #require(albums.column(named: "genres"))
    #expect(albums.items(row: 1, column: genres) == ["electronic", "alternative"])
    #expect(albums.items(row: 2, column: genres) == ["rock"])
    #expect(!albums.isList(try #require(albums.column(named: "artist"))))
    // Grouped by a list, each distinct item is a record, keyed by it.
    let grouped = try #require(dataset.tableNamed["tags"])
    #expect(
      (0..<grouped.count).map { grouped.key(ofRow: $0) }.prefix(4) == [
        "fantasy", "comedy", "apocalypse", "religion",
      ])
    #expect(grouped.rowForKey["science fiction"] != nil && grouped.rowForKey[""] == nil)
    #expect(grouped.isList(try #require(grouped.column(named: "authors"))))
  }

  @Test func expressionsSeeAListOfItems() throws {
    let site = try preparedSite(config: Self.config)
    let books = try #require(site.dataset.tableNamed["books"])
    let compiler = ExpressionCompiler(dataset: site.dataset)
    func value(_ text: String, row: Int) throws -> Value {
      site.evaluator.evaluate(try compiler.compile(text, table: books), table: books, row: row)
    }
    #expect(try value("count(authors)", row: 0).number == 2)
    #expect(try value("count(tags)", row: 10).number == 0)
    #expect(try value("first(authors)", row: 0).text == "Terry Pratchett")
    #expect(try value("join(tags, ' / ')", row: 0).text == "fantasy / comedy / apocalypse")
    #expect(try value("sum(editions.pages)", row: 0).number == 700)
  }

  @Test func everyItemIsSearched() throws {
    let built = try BuiltIndex()
    #expect(
      try built.found("gaiman") == ["Good Omens", "American Gods", "Coraline", "Anansi Boys", "Stardust"])
    #expect(try built.found("baxter") == ["The Long Earth"])
    #expect(try built.found("mythology") == ["American Gods", "Anansi Boys"])
    // An emoji's aliases; a CSV list's second item.
    #expect(try built.found("thumbsup") == ["thumbs up"])
    #expect(try built.found("alternative") == ["OK Computer", "Kid A"])
  }

  @Test func aListFacetGivesTheRecordUnderEachOfItsValues() throws {
    let built = try BuiltIndex()
    let tags = try built.facet("tag")
    #expect(tags["comedy"]?.contains("Good Omens") == true)
    #expect(tags["apocalypse"] == ["Good Omens"])
    #expect(tags["fantasy"]?.contains("Good Omens") == true)
    #expect(tags["horror"] == ["Coraline", "The Talisman", "It"])
    #expect(tags["love"] == ["smiling face with heart-eyes", "red heart"])
    #expect(tags[""] == nil, "an empty item is no value")
    let genres = try built.facet("genre")
    #expect(genres["disco"] == ["Random Access Memories", "Thriller"])
    #expect(genres["rock"] == ["OK Computer", "Rumours"])
  }

  @Test func theRecordPageAndTheSubtitleShowACommaList() throws {
    let (pages, remove) = try RecordPageTests.build(config: Self.config)
    defer { remove() }
    let page = try #require(pages["books/1-good-omens/index.html"])
    let text = RecordPageTests.visibleText(page)
    #expect(text.contains("Book · Terry Pratchett, Neil Gaiman"), "\(text)")
    #expect(text.contains("Authors Terry Pratchett, Neil Gaiman"), "\(text)")
    #expect(text.contains("Tags fantasy, comedy, apocalypse"), "\(text)")
    #expect(text.contains("Editions.format Hardcover, Paperback"), "\(text)")
    #expect(!page.contains("\u{1F}"), "the stored separator never reaches a page")
  }

  @Test func subtitlesJoinAList() throws {
    let site = try preparedSite(config: Self.config)
    let subtitles = Dictionary(
      site.documents.map { ($0.title, $0.subtitle) }, uniquingKeysWith: { first, _ in first })
    #expect(subtitles["Good Omens"] == "Book · Terry Pratchett, Neil Gaiman")
    #expect(subtitles["thumbs up"] == "👍 · +1, thumbsup")
    #expect(subtitles["Untitled Manuscript"] == "Book · ")
  }
}

/// Lists in bad input: each problem at its place, naming the record and
/// field, and the published site left as it was (BadSourceTests.Case).
@Suite struct ListBadInputTests {
  /// The mini fixture with `lists` added to its artists table once it
  /// has built.
  static func csvCase(lists: String) throws -> BadSourceTests.Case {
    let c = try BadSourceTests.Case(source: "{ file: data/artists.csv, key: id }") { _ in }
    let line = "artists: { file: data/artists.csv, key: id }"
    try c.project.write(
      "site.yml",
      try c.project.read("site.yml").replacingOccurrences(
        of: line, with: "artists: { file: data/artists.csv, key: id, lists: \(lists) }"))
    return c
  }

  @Test func aListOfAColumnThatIsNotThereIsAnErrorAtItsName() throws {
    let c = try Self.csvCase(lists: "{ nme: \";\" }")
    let place = try c.configPlace(of: "nme:")
    try c.expectFailure(
      message: "table 'artists' has no column 'nme' to read as a list", file: "site.yml", line: place.line,
      column: place.column
    ) { _ in }
  }

  @Test func theKeyCannotBeAList() throws {
    let c = try Self.csvCase(lists: "{ id: \";\" }")
    let place = try c.configPlace(of: "id, lists")
    try c.expectFailure(
      message: "the key 'id' of table 'artists' is declared under lists; a key is one value per record",
      file: "site.yml", line: place.line, column: place.column
    ) { _ in }
  }

  @Test func aSeparatorOfSpacesIsAnErrorAtIt() throws {
    let c = try Self.csvCase(lists: "{ name: \" \" }")
    let place = try c.configPlace(of: "\" \" }")
    try c.expectFailure(
      message: "the separator of list 'name' in table 'artists' must be text such as", file: "site.yml",
      line: place.line, column: place.column
    ) { _ in }
  }

  @Test func listsThatAreNotAMappingAreAnError() throws {
    let c = try Self.csvCase(lists: "[name]")
    let place = try c.configPlace(of: "[name]")
    try c.expectFailure(
      message: "lists in table 'artists' must map column names to the text between items", file: "site.yml",
      line: place.line, column: place.column
    ) { _ in }
  }

  @Test func anItemHoldingTheItemSeparatorIsAnErrorAtTheList() throws {
    let marked = Marked(
      #"[{"id": 1, "name": "Beyoncé"}, {"id": 2, "name": "AC/DC", "tags": 1️⃣["rock", "a\u001Fb"]}]"#)
    try BadSourceTests.jsonCase().expectFailure(
      message: "record 2: field 'tags' contains the control character U+001F", file: "data/artists.json",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func anItemHoldingAControlCharacterIsAnError() throws {
    let marked = Marked(
      #"[{"id": 1, "name": "Beyoncé"}, {"id": 2, "name": "AC/DC", "tags": 1️⃣["rock", "a\u0007b"]}]"#)
    try BadSourceTests.jsonCase().expectFailure(
      message: "record 2: field 'tags' contains the control character U+0007", file: "data/artists.json",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }
}

/// The shapes of arrays met in exports, each read without refusing the file.
@Suite struct ListShapeTests {
  @Test func nestedAndMixedArraysAndDeclaredListsOfText() throws {
    let fixture = try SourceFixture(files: [
      "t.jsonl": """
      {"id": 1, "grid": [[1, 2], [3]], "mixed": ["a", {"name": "b", "n": 2}, null], "moods": "calm | dark"}
      {"id": 2, "grid": [], "mixed": "c", "moods": "calm"}
      {"id": 3, "owner": {"names": ["x", "y"]}}

      """
    ])
    defer { fixture.remove() }
    let table = try #require(
      try fixture.load("t: { file: t.jsonl, key: id, lists: { moods: \"|\" } }").tableNamed["t"])
    func items(_ column: String, _ row: Int) throws -> [String] {
      table.items(row: row, column: try #require(table.column(named: column)))
    }
    #expect(table.header == ["id", "grid", "mixed", "mixed.name", "mixed.n", "moods", "owner.names"])
    #expect(try items("grid", 0) == ["1", "2", "3"], "a list of lists is one list")
    #expect(try items("mixed", 0) == ["a"])
    #expect(try items("mixed.name", 0) == ["b"])
    #expect(try items("mixed", 1) == ["c"], "a single value in a list column is a list of one")
    #expect(try items("moods", 0) == ["calm", "dark"])
    #expect(try items("owner.names", 2) == ["x", "y"])
    #expect(table.listsOfObjects == [3, 4])
    #expect(!table.isList(0))
  }

  @Test func aSQLiteColumnDeclaredAListIsCutAtItsSeparator() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.database(
      "m.sqlite",
      [
        "CREATE TABLE t (id INTEGER, genres TEXT)",
        "INSERT INTO t VALUES (1, 'rock / pop'), (2, NULL), (3, 'jazz')",
      ])
    let table = try #require(
      try fixture.load("t: { sqlite: m.sqlite, table: t, key: id, lists: { genres: \" / \" } }").tableNamed[
        "t"])
    #expect((0..<3).map { table.items(row: $0, column: 1) } == [["rock", "pop"], [], ["jazz"]])
    #expect(table.text(row: 0, column: 1) == "rock, pop")
  }
}
