import Foundation
import Testing

@testable import GenerateKit

/// The built-in record page: a config with no templates and pages with no
/// template gets every field as a labelled row and the records that refer
/// to each record as linked lists (Fixtures/records).
@Suite struct RecordPageTests {
  /// A folder holding `shelves.csv` as given and 60 books on shelf 1.
  static func library(shelves: String) throws -> URL {
    let folder = try emptyFolder("records")
    try Data(shelves.utf8).write(to: folder.appendingPathComponent("shelves.csv"))
    let books = (1...60).map { "\($0),Book \($0),1" }.joined(separator: "\n")
    try Data("id,title,shelf_id\n\(books)\n".utf8).write(to: folder.appendingPathComponent("books.csv"))
    return folder
  }

  static func build(config: String) throws -> (pages: [String: String], remove: () -> Void) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)")
    var options = BuildOptions()
    options.configPath = config
    options.outputPath = output.path
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    let pages = try snapshotFolder(output.path).filter { $0.key.hasSuffix(".html") }
      .mapValues { String(decoding: $0, as: UTF8.self) }
    return (pages, { try? FileManager.default.removeItem(at: output) })
  }

  /// The `<main>` element's text with tags removed and spaces collapsed:
  /// what a reader sees, in order.
  static func visibleText(_ html: String) -> String {
    guard let start = html.range(of: "<main"), let end = html.range(of: "</main>") else { return "" }
    let main = String(html[start.lowerBound..<end.upperBound])
    let text = main.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  @Test func fieldsAreLabelledRowsInConfigOrderAndRecordsAreLinks() throws {
    let (pages, remove) = try Self.build(config: fixturesRoot.appendingPathComponent("records/site.yml").path)
    defer { remove() }
    let album = try #require(pages["albums/11-back-in-black/index.html"])
    #expect(
      Self.visibleText(album).contains(
        "Album Back in Black Album · AC/DC Details Artist AC/DC Release length 9:27 Song count 2 Tracks Hells Bells Back in Black"
      ), "\(Self.visibleText(album))")
    #expect(
      album.contains("<dt>Artist</dt><dd><span class=\"detail-link\"><a href=\"/artists/2-ac-dc/\">AC/DC</a>")
    )
    #expect(album.contains("<a href=\"/songs/102-hells-bells/\">Hells Bells</a>"))
    // The songs that refer to the album, with their count.
    #expect(
      Self.visibleText(album).contains("Songs 2 H Hells Bells Song · 5:12"), "\(Self.visibleText(album))")
  }

  @Test func withoutFieldsTheColumnsShowAndReferrersAreListedMostPopularFirst() throws {
    let (pages, remove) = try Self.build(config: fixturesRoot.appendingPathComponent("records/site.yml").path)
    defer { remove() }
    let artist = try #require(pages["artists/2-ac-dc/index.html"])
    let text = Self.visibleText(artist)
    // The name column is the title: not repeated as a row.
    #expect(text.contains("Details ID 2 Albums 1"), "\(text)")
    #expect(!text.contains("Name AC/DC"))
    #expect(artist.contains("<a href=\"/albums/11-back-in-black/\">Back in Black</a>"))
    // A song refers to its album and genre: links among its rows.
    let song = Self.visibleText(try #require(pages["songs/102-hells-bells/index.html"]))
    #expect(song.contains("Composer Angus Young Duration 5:12"), "\(song)")
    #expect(song.contains("Album Back in Black") && song.contains("Genre Rock"), "\(song)")
    // playlist_tracks has no collection: the playlist lists the songs at its other end.
    let playlist = Self.visibleText(try #require(pages["playlists/7-road-trip/index.html"]))
    #expect(playlist.contains("Songs 3 H Hells Bells"), "\(playlist)")
    let genre = Self.visibleText(try #require(pages["genres/1-rock/index.html"]))
    #expect(genre.contains("Songs"), "\(genre)")
  }

  @Test func longListsStopAtFiftyAndValuesStayText() throws {
    let folder = try Self.library(shelves: "id,name,release_date\n1,<b>Shelf</b>,2001-02-03\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      """
      title: Library
      tables:
        shelves: { file: shelves.csv, key: id }
        books: { file: books.csv, key: id, refs: { shelf_id: shelves } }
      collections:
        - { id: shelves, label: Shelves, table: shelves, title: name, page: { path: "shelves/{{slug}}/" } }
        - { id: books, label: Books, table: books, title: title, page: {} }

      """.utf8
    ).write(to: folder.appendingPathComponent("site.yml"))
    let (pages, remove) = try Self.build(config: folder.appendingPathComponent("site.yml").path)
    defer { remove() }
    let shelf = try #require(pages.first { $0.key.hasPrefix("shelves/") }?.value)
    #expect(shelf.contains("<h1>&lt;b&gt;Shelf&lt;/b&gt;</h1>"))
    // No subtitle configured: no empty line under the title.
    #expect(!shelf.contains("hero-meta"))
    #expect(Self.visibleText(shelf).contains("Release date 2001-02-03"))
    #expect(Self.visibleText(shelf).contains("Books 60"))
    #expect(shelf.components(separatedBy: "class=\"song-row\"").count - 1 == 50)
    #expect(shelf.contains("and 10 more"))
    // `page: {}`: the record template at the collection's default path.
    let book = try #require(pages["books/1-book-1/index.html"], "\(pages.keys.sorted())")
    #expect(Self.visibleText(book).contains("Shelf &lt;b&gt;Shelf&lt;/b&gt;"), "\(Self.visibleText(book))")
  }

  /// Records with no page whose links lead into another record's page
  /// (`{{shelf.url}}#b1`, as a song links into its album): that page lists
  /// every one of them, past the cap, with the id the link points at, so
  /// the build's link check passes.
  @Test func recordsLinkingIntoThePageAreAllListedWithTheirIDs() throws {
    let folder = try Self.library(shelves: "id,name\n1,Fiction\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      """
      title: Library
      tables:
        shelves: { file: shelves.csv, key: id }
        books: { file: books.csv, key: id, refs: { shelf_id: shelves } }
      collections:
        - { id: shelves, label: Shelves, table: shelves, title: name, page: {} }
        - { id: books, label: Books, table: books, title: title, fields: { shelf: shelf_id }, url: "{{shelf.url}}#b{{id}}" }

      """.utf8
    ).write(to: folder.appendingPathComponent("site.yml"))
    let (pages, remove) = try Self.build(config: folder.appendingPathComponent("site.yml").path)
    defer { remove() }
    let shelf = try #require(pages["shelves/1-fiction/index.html"], "\(pages.keys.sorted())")
    #expect(shelf.components(separatedBy: "class=\"song-row\"").count - 1 == 60)
    #expect(shelf.contains("<li class=\"song-row\" id=\"b60\">"))
    #expect(!shelf.contains("more</p>"))
  }

  /// Keys that make the same slug: each later record's page takes `-2`, `-3`… (the slug is
  /// made again each time a page or its path reads it, from its key, title and that number).
  @Test func recordsWhoseSlugsMeetGetNumberedPages() throws {
    let folder = try emptyFolder("slugs")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("id,name\nNew York,New York City\nnew-york,The Big Apple\nNEW YORK!,Gotham\n".utf8)
      .write(to: folder.appendingPathComponent("cities.csv"))
    try Data(
      """
      title: Cities
      tables:
        cities: { file: cities.csv, key: id }
      collections:
        - { id: cities, label: Cities, table: cities, title: name, page: {} }

      """.utf8
    ).write(to: folder.appendingPathComponent("site.yml"))
    let (pages, remove) = try Self.build(config: folder.appendingPathComponent("site.yml").path)
    defer { remove() }
    let paths = pages.keys.filter { $0.hasPrefix("cities/") }.sorted()
    #expect(
      paths == [
        "cities/new-york-2/index.html", "cities/new-york-3/index.html", "cities/new-york/index.html",
      ],
      "\(paths)")
    let titled = { (path: String) in pages[path].map { Self.visibleText($0) } ?? "" }
    #expect(titled("cities/new-york/index.html").contains("New York City"))
    #expect(titled("cities/new-york-2/index.html").contains("The Big Apple"))
    #expect(titled("cities/new-york-3/index.html").contains("Gotham"))
  }

  @Test func namesAreMadeReadable() {
    #expect(RecordContext.readable("release_date") == "Release date")
    #expect(RecordContext.readable("lifeExp") == "Life exp")
    #expect(RecordContext.readable("gdpPercap") == "GDP percap")
    #expect(RecordContext.readable("id") == "ID")
    #expect(RecordContext.readable("ISBN13") == "ISBN13")
    #expect(RecordContext.readable("name") == "Name")
    #expect(RecordContext.withoutIDSuffix("artist_id") == "artist")
    #expect(RecordContext.withoutIDSuffix("id") == "id")
  }
}
