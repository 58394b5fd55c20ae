import Foundation
import Testing

@testable import GenerateKit

/// Lists of objects in JSON records (a book's editions, each with an ISBN,
/// a year and a publisher) read as a table of their own (`itemsOf:`), one
/// record per object referring to the record that held it; a list whose
/// objects hold one field (`authors: [{"name": …}]`) stays a list field.
@Suite struct ChildTableTests {
  static let books = """
    {"books": [
     {"id": "hobbit", "title": "The Hobbit", "authors": [{"name": "J. R. R. Tolkien"}],
      "editions": [{"isbn": "9780261102217", "year": 1937, "publisher": "Allen & Unwin"},
                   {"isbn": "9780547928227", "year": 2012, "publisher": "Houghton Mifflin"}]},
     {"id": "dune", "title": "Dune", "authors": [{"name": "Frank Herbert"}],
      "editions": [{"isbn": "9780441013593", "year": 1965, "publisher": "Chilton Books"}]},
     {"id": "emma", "title": "Emma", "authors": [{"name": "Jane Austen"}], "editions": []},
     {"id": "persuasion", "title": "Persuasion", "authors": [{"name": "Jane Austen"}], "editions": null}
    ]}
    """

  @Test func editionsBecomeATableThatRefersToItsBook() throws {
    let folder = try DataFolder(["books.json": Self.books])
    defer { folder.remove() }
    let result = try folder.initialize(["books.json"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    #expect(
      text.contains("editions: { itemsOf: books.editions, key: isbn, refs: { book: books } }"), "\(text)")
    #expect(
      text.contains("# 'editions': a list of objects, read as the table editions (one record per object)"),
      "\(text)")
    #expect(text.contains("# itemsOf: each object in the list 'editions' of a books record is a record here"))
    // One field only: the authors stay a list of the book.
    #expect(text.contains("'authors.name': fields of a list of objects"), "\(text)")
    #expect(!text.contains("itemsOf: books.authors"), "\(text)")

    let site = try folder.prepare()
    let hobbit = try #require(site.documents.first { $0.title == "The Hobbit" })
    // Its authors say more than a count of its editions; the count ranks it.
    #expect(hobbit.subtitle == "Book · J. R. R. Tolkien", "\(hobbit.subtitle)")
    let dune = try #require(site.documents.first { $0.title == "Dune" })
    let emma = try #require(site.documents.first { $0.title == "Emma" })
    #expect(hobbit.popularity > dune.popularity && dune.popularity > emma.popularity)
    // Each edition is a record of its own, naming its book.
    let chilton = try #require(site.documents.first { $0.title == "Chilton Books" })
    #expect(chilton.subtitle.contains("Dune"), "\(chilton.subtitle)")
  }

  @Test func aJSONLinesFileHasChildTablesToo() throws {
    let lines = (1...6).map { n in
      #"{"name": "Station \#(n)", "lines": [{"line": "L\#(n % 3)", "platform": \#(n)}, {"line": "X\#(n)", "platform": 9}]}"#
    }
    let folder = try DataFolder(["stations.jsonl": lines.joined(separator: "\n")])
    defer { folder.remove() }
    let result = try folder.initialize(["stations.jsonl"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    #expect(text.contains("itemsOf: stations.lines"), "\(text)")
    let dataset = try DatasetLoader().load(ConfigLoader().load(path: folder.path("site.yml")))
    let child = try #require(dataset.tableNamed["lines"])
    #expect(child.count == 12)
    // Each line names its station by the station's key, its name.
    #expect(text.contains("lines: { itemsOf: stations.lines, refs: { station: stations } }"), "\(text)")
    let line = try #require(child.column(named: "line"))
    let x6 = try #require((0..<child.count).first { child.columns[line][$0] == "X6" })
    #expect(child.columns[try #require(child.column(named: "station"))][x6] == "Station 6")
  }

  /// A list of objects with a stray string in it cannot be a table: it is
  /// read as list fields, and the config is written all the same.
  @Test func aListWithItemsThatAreNotObjectsStaysAList() throws {
    let records = (1...5).map { n in
      #"{"title": "Album \#(n)", "tracks": [{"name": "Song \#(n)", "seconds": \#(n * 60)}, "bonus"]}"#
    }
    let folder = try DataFolder(["albums.json": "[" + records.joined(separator: ",\n") + "]"])
    defer { folder.remove() }
    let result = try folder.initialize(["albums.json"])
    let text = try folder.read("site.yml")
    #expect(!text.contains("itemsOf"), "\(text)")
    #expect(text.contains("'tracks.name', 'tracks.seconds': fields of a list of objects"), "\(text)")
    #expect(result.plan.collections.count == 1)
  }

  /// The config's own mistakes, at the line that makes them.
  @Test func aChildTableNeedsAReferenceAndObjects() throws {
    let folder = try DataFolder(["books.json": Self.books])
    defer { folder.remove() }
    func load(_ tables: String) throws -> String? {
      try folder.write(
        "site.yml",
        "title: T\ntables:\n\(tables)\ncollections:\n  - { id: b, label: B, singular: B, table: books, title: title }\n"
      )
      do {
        _ = try DatasetLoader().load(ConfigLoader().load(path: folder.path("site.yml")))
        return nil
      } catch let error as DiagnosticsError {
        return error.diagnostics.map(\.description).joined(separator: "\n")
      }
    }
    let noRefs = try load(
      "  books: { file: books.json, path: books, key: id }\n  editions: { itemsOf: books.editions }")
    #expect(
      noRefs?.contains("site.yml:4:3: error: table 'editions' takes the items of table 'books'") == true)
    #expect(noRefs?.contains("refs: { parent: books }") == true, "\(String(describing: noRefs))")

    let notObjects = try load(
      "  books: { file: books.json, path: books, key: id }\n  authors: { itemsOf: books.title, refs: { book: books } }"
    )
    #expect(
      notObjects?.contains("books.json:2:28: error: record 1 is a string in 'title' of books record hobbit")
        == true, "\(String(describing: notObjects))")

    let undeclared = try load(
      "  books: { file: books.json, path: books, key: id }\n  editions: { itemsOf: works.editions, refs: { book: books } }"
    )
    #expect(undeclared?.contains("takes the items of table 'works', which is not declared") == true)

    // Declared well, the book's own `editions` is no column: the name is the table's.
    #expect(
      try load(
        "  books: { file: books.json, path: books, key: id }\n  editions: { itemsOf: books.editions, key: isbn, refs: { book: books } }"
      ) == nil)
    let config = try ConfigLoader().load(path: folder.path("site.yml"))
    let dataset = try DatasetLoader().load(config)
    #expect(dataset.tableNamed["books"]?.column(named: "editions") == nil)
    #expect(dataset.tableNamed["books"]?.column(named: "editions.isbn") == nil)
    #expect(dataset.tableNamed["editions"]?.count == 3)
  }
}
