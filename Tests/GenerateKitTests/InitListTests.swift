import Foundation
import Testing

@testable import GenerateKit

/// `init` on data whose fields hold lists: JSON arrays (a book list, an
/// emoji data set, Fixtures/lists) and a CSV column of `;`-separated items.
@Suite struct InitListTests {
  static func fixture(_ name: String) throws -> String {
    try String(
      contentsOf: fixturesRoot.appendingPathComponent("lists").appendingPathComponent(name), encoding: .utf8)
  }

  @Test func aJSONFileWithListsGetsAConfigThatBuilds() throws {
    let folder = try DataFolder(["books.json": try Self.fixture("books.json")])
    defer { folder.remove() }
    let result = try folder.initialize(["books.json"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    let books = try #require(result.plan.collections.first)
    #expect(books.title == "title")
    #expect(books.search.contains("authors") && books.search.contains("tags"), "\(books.search)")
    // Tags and authors recur across books: facets, authors with a person.
    #expect(books.facets.map(\.expression) == ["authors", "tags"], "\(books.facets)")
    #expect(result.plan.facets.first { $0.id == "authors" }?.icon == "person")
    #expect(books.subtitle == "Book · {{authors}}", "\(String(describing: books.subtitle))")
    #expect(text.contains("# lists: 'authors', 'tags' (arrays"), "\(text)")
    // Each edition has a format and pages: a table of its own.
    #expect(text.contains("itemsOf: books.editions"), "\(text)")

    let site = try folder.prepare()
    let omens = try #require(site.documents.firstIndex { $0.title == "Good Omens" })
    #expect(site.documents[omens].subtitle == "Book · Terry Pratchett, Neil Gaiman")
    #expect(
      site.searchText(of: try #require(site.documents.firstIndex { $0.title == "Mort" })).contains("comedy"))
    let tag = try #require(site.facets.firstIndex { $0.id == "tags" })
    #expect(site.facetValues(of: omens, facet: tag) == ["fantasy", "comedy", "apocalypse"])
  }

  @Test func aJSONLinesFileOfEmojiSearchesTheirAliases() throws {
    let folder = try DataFolder(["emoji.jsonl": try Self.fixture("emoji.jsonl")])
    defer { folder.remove() }
    let result = try folder.initialize(["emoji.jsonl"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let emoji = try #require(result.plan.collections.first)
    #expect(emoji.search.contains("aliases"), "\(emoji.search)")
    // Every emoji has aliases of its own: searched, but no facet.
    #expect(!emoji.facets.map(\.expression).contains("aliases"), "\(emoji.facets)")
    let site = try folder.prepare()
    let thumbs = try #require(site.documents.firstIndex { $0.title == "thumbs up" })
    #expect(site.searchText(of: thumbs).contains("thumbsup"))
  }

  @Test func aCSVColumnOfSeparatedItemsIsDeclaredAList() throws {
    let folder = try DataFolder(["albums.csv": try Self.fixture("albums.csv")])
    defer { folder.remove() }
    let result = try folder.initialize(["albums.csv"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    #expect(text.contains("lists: { genres: \";\" }"), "\(text)")
    #expect(text.contains("# 'genres' holds lists: 4 of 5 values are items separated by ';'"), "\(text)")
    let site = try folder.prepare()
    let genre = try #require(site.facets.firstIndex { $0.id == "genres" })
    let thriller = try #require(site.documents.firstIndex { $0.title == "Thriller" })
    #expect(site.facetValues(of: thriller, facet: genre) == ["pop", "disco"])
  }

  @Test func textWithSemicolonsInSentencesIsNoList() {
    let sentences = [
      "It rained; we stayed in and read the whole afternoon.",
      "He left early; nobody knew why he had come at all.",
      "A quiet day.", "Another quiet day.",
    ]
    #expect(ListDetection.detect(sentences, name: "note", ";") == nil)
    #expect(ListDetection.detect(["a;b", "c;d", "e"], name: "x", ";") == nil, "no item recurs")
    #expect(ListDetection.detect(["a;b", "b;c", "a"], name: "x", ";")?.several == 2)
  }

  /// Scraped titles keep their HTML character references (`Tom &amp;
  /// Jerry`, `Rock &#38; Roll`): the `;` that ends one separates nothing,
  /// so the titles stay text (and stay the title), while a `;` between
  /// references still does.
  @Test func characterReferencesAreNoLists() {
    let titles = ["Tom &amp; Jerry", "Rock &#38; Roll", "Salt &amp; Pepper", "Tom &amp; Huck", "Q&A &#x27;s"]
    #expect(ListDetection.detect(titles, name: "title", ";") == nil)
    #expect(
      ListDetection.withoutEntities("a &amp; b &#39;c&#x27; &nope ;d & e;")
        == "a &amp b &#39c&#x27 &nope ;d & e;")
    #expect(
      ListDetection.detect(["rock &amp; roll;pop", "pop;jazz", "jazz"], name: "tags", ";")?.several == 2)
  }
}

extension InitListTests {
  /// A list of numbers is most often of ids (TMDB's `genre_ids`): no facet
  /// of numbers nobody would recognise, but a config that builds.
  @Test func aListOfIdsIsNoFacet() throws {
    let movies = (1...12).map { #"{"id": \#($0), "title": "Movie \#($0)", "genre_ids": [\#($0 % 3), 28]}"# }
    let folder = try DataFolder(["movies.json": "[" + movies.joined(separator: ",\n") + "]"])
    defer { folder.remove() }
    let result = try folder.initialize(["movies.json"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    #expect(result.plan.facets.isEmpty, "\(result.plan.facets)")
  }
}

extension InitListTests {
  /// Beside a file of genres, `genre_ids` refers to it, a record per item:
  /// a facet of genre names, and each movie links its genres.
  @Test func aListOfIdsNamedForATableRefersToIt() throws {
    let names = ["Action", "Comedy", "Drama"]
    let genres = names.enumerated().map { #"{"id": \#($0.offset + 1), "name": "\#($0.element)"}"# }
    let movies = (1...40).map {
      #"{"id": \#($0), "title": "Movie \#($0)", "genre_ids": [\#($0 % 3 + 1), 2]}"#
    }
    let folder = try DataFolder([
      "genres.json": "[" + genres.joined(separator: ",") + "]",
      "movies.json": "[" + movies.joined(separator: ",\n") + "]",
    ])
    defer { folder.remove() }
    let result = try folder.initialize(["movies.json", "genres.json"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    #expect(text.contains("refs: { genre_ids: genres }"), "\(text)")
    #expect(text.contains("      genres: genre_ids\n"), "the field is named for its table: \(text)")
    let site = try folder.prepare()
    let facet = try #require(site.facets.firstIndex { $0.id == "genre" }, "\(site.facets.map(\.id))")
    let first = try #require(site.documents.firstIndex { $0.title == "Movie 1" })
    #expect(site.facetValues(of: first, facet: facet) == ["Comedy"], "a genre listed twice is one value")
    let third = try #require(site.documents.firstIndex { $0.title == "Movie 3" })
    #expect(site.facetValues(of: third, facet: facet) == ["Action", "Comedy"])
  }
}
