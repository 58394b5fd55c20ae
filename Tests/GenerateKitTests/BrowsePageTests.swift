import Foundation
import Testing

@testable import GenerateKit

/// The A–Z browse pages (`browse:`) and the offline worker (`offline:`):
/// what a visitor without JavaScript, or offline, is given.
@Suite struct BrowsePageTests {
  /// A catalogue of `count` books, each on one of three shelves (a facet),
  /// titled so that sorting, escaping and page cuts all show.
  static func catalogue(count: Int, extra: String = "") throws -> URL {
    let folder = try emptyFolder("browse")
    var rows = ["id,title,shelf"]
    for number in 1...count {
      // Zero-padded so the A–Z order is the number order; every 7th title
      // starts with punctuation, which sorting skips.
      let padded = String(repeating: "0", count: 4 - String(number).count) + String(number)
      let title = number % 7 == 0 ? "\"Book\" \(padded) <i>&" : "book \(padded)"
      rows.append("\(number),\"\(title.replacingOccurrences(of: "\"", with: "\"\""))\",Shelf \(number % 3)")
    }
    rows.append("\(count + 1),Zebra <script>,\"<Shelf & \"\"Co\"\">\"")
    rows.append("\(count + 2),Ábaco,Shelf 1")
    rows.append("\(count + 3),42 Answers,Shelf 1")
    try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("books.csv"))
    try Data(
      """
      title: Library
      siteURL: https://library.example.org
      \(extra)
      tables:
        books: { file: books.csv, key: id }
      facets:
        - { id: shelf, label: Shelf }
      collections:
        - id: books
          label: Books
          singular: Book
          table: books
          title: title
          facets: { shelf: shelf }
          page: { template: record, path: "books/{{slug}}/" }

      """.utf8
    ).write(to: folder.appendingPathComponent("site.yml"))
    return folder
  }

  static func build(_ folder: URL) throws -> (files: [String: String], remove: () -> Void) {
    let output = folder.appendingPathComponent("site")
    var options = BuildOptions()
    options.configPath = folder.appendingPathComponent("site.yml").path
    options.outputPath = output.path
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    let files = try snapshotFolder(output.path).mapValues { String(decoding: $0, as: UTF8.self) }
    return (files, { try? FileManager.default.removeItem(at: folder) })
  }

  /// The record links of a list page, in order.
  static func recordLinks(_ html: String) -> [String] {
    html.components(separatedBy: "<a href=\"/books/").dropFirst().map { String($0.prefix { $0 != "\"" }) }
  }

  @Test func everyRecordIsListedAToZOnPagesOfTwoHundred() throws {
    let (files, remove) = try Self.build(try Self.catalogue(count: 450))
    defer { remove() }
    let first = try #require(files["browse/books/index.html"])
    let second = try #require(files["browse/books/page-2/index.html"])
    let third = try #require(files["browse/books/page-3/index.html"])
    #expect(files["browse/books/page-4/index.html"] == nil)
    let links = [first, second, third].map(Self.recordLinks)
    #expect(links.map(\.count) == [200, 200, 53])
    // Digits first, then A–Z by the normalised title from its first letter:
    // `Ábaco` under A, `"Book" 0007` between book 0006 and book 0008.
    let all = links.flatMap { $0 }
    #expect(all.first?.hasPrefix("453-42-answers") == true, "\(all.prefix(3))")
    #expect(all[1].hasPrefix("452-abaco"), "\(all.prefix(3))")
    let seven = try #require(all.firstIndex { $0.hasPrefix("7-") })
    #expect(all[seven - 1].hasPrefix("6-") && all[seven + 1].hasPrefix("8-"))
    #expect(all.last?.hasPrefix("451-zebra") == true)
    #expect(Set(all).count == 453)
    // Each page says where it is and links its neighbours.
    #expect(second.contains("Page 2 of 3"))
    #expect(second.contains("<a href=\"/browse/books/\" rel=\"prev\">Previous</a>"))
    #expect(second.contains("<a href=\"/browse/books/page-3/\" rel=\"next\">Next</a>"))
    // A–Z jumps reach the page holding each letter's first record.
    #expect(third.contains("<a href=\"/browse/books/page-3/#letter-z\">Z</a>"))
    #expect(third.contains("id=\"letter-z\""))
    #expect(first.contains("<a href=\"/browse/books/#letter-0\">#</a>"))
  }

  @Test func dataIsEscapedAndFacetValuesListTheirRecords() throws {
    let (files, remove) = try Self.build(try Self.catalogue(count: 20))
    defer { remove() }
    let list = try #require(files["browse/books/index.html"])
    #expect(list.contains("Zebra &lt;script&gt;"))
    #expect(list.contains("&quot;Book&quot; 0007 &lt;i&gt;&amp;"))
    #expect(!list.contains("<script>") && !list.contains("<i>&"))
    // The facet page: every value with its count, linking to its records.
    let shelf = try #require(files["browse/shelf/index.html"])
    let text = RecordPageTests.visibleText(shelf)
    #expect(text.contains("&lt;Shelf &amp; &quot;Co&quot;&gt; 1 record"), "\(text)")
    #expect(text.contains("Shelf 0 6 records Shelf 1 9 records Shelf 2 7 records"), "\(text)")
    #expect(shelf.contains("<a href=\"/browse/shelf/shelf-co/\">"))
    let value = try #require(files["browse/shelf/shelf-1/index.html"])
    #expect(Self.recordLinks(value).count == 9)
    #expect(value.contains("<a href=\"/browse/shelf/\">Shelf</a>"))
    // The hub links every collection and facet; the search page and the
    // footer link the hub; the sitemap lists every browse page.
    let hub = try #require(files["browse/index.html"])
    #expect(
      hub.contains("<a href=\"/browse/books/\">Books</a>")
        && hub.contains("<a href=\"/browse/shelf/\">Shelf</a>"))
    let search = try #require(files["index.html"])
    #expect(search.contains("<noscript>") && search.contains("<a href=\"/browse/\">"))
    #expect(try #require(files["books/1-book-0001/index.html"]).contains("<a href=\"/browse/\">A–Z</a>"))
    let sitemap = try #require(files["sitemap.xml"])
    #expect(sitemap.contains("<loc>https://library.example.org/browse/shelf/shelf-1/</loc>"))
    #expect(sitemap.contains("<loc>https://library.example.org/browse/</loc>"))
  }

  @Test func aSecondBuildWritesTheSameBrowsePages() throws {
    let folder = try Self.catalogue(count: 250)
    let (first, remove) = try Self.build(folder)
    defer { remove() }
    let (second, _) = try Self.build(folder)
    let pages = first.keys.filter { $0.hasPrefix("browse/") }
    #expect(pages.count == 1 + 2 + 1 + 4)
    for path in pages { #expect(first[path] == second[path], "\(path)") }
  }

  /// The list pages' rows are written without Mustache for the built-in
  /// template (`BrowsePages.ListRows`): byte for byte what Mustache writes,
  /// escaping included — also where a character combines with `<` or `&`
  /// into one that Mustache does not escape.
  @Test func rowsWrittenDirectlyAreWhatMustacheWrites() throws {
    let folder = try Self.catalogue(count: 230)
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = folder.appendingPathComponent("books.csv")
    var text = try String(contentsOf: csv, encoding: .utf8)
    text += "900,\"<\u{338} & e\u{301} 'quoted' 🎸\",\"Shelf <\u{338}\"\n901,&\u{301}amp; x,Shelf 2\n"
    try Data(text.utf8).write(to: csv)
    let config = try ConfigLoader().load(path: folder.appendingPathComponent("site.yml").path)
    let site = try DocumentBuilder().prepare(config, dataset: try DatasetLoader().load(config), baseURL: "/")
    let index = try IndexBuilder(config.index).build(site)
    let templates = try TemplateSet.load(directories: [], builtIn: true)
    var renderer = PageRenderer()
    let direct = try renderer.render(site, index: index, templates: templates, previewScript: nil)
    renderer.writesListRows = false
    let mustache = try renderer.render(site, index: index, templates: templates, previewScript: nil)
    // Every list page: all but the hub.
    let lists = direct.pages.filter { $0.hasPrefix("browse/") }.count - 1
    #expect(lists >= 2 + 4 && direct.listPagesWritten == lists, "\(lists) \(direct.listPagesWritten)")
    #expect(mustache.listPagesWritten == 0)
    #expect(direct.files.map(\.path) == mustache.files.map(\.path))
    for (written, rendered) in zip(direct.files, mustache.files) {
      #expect(written.bytes == rendered.bytes, "\(written.path)")
    }
    // `≮` stays as it was typed, `<` and U+0338, and is not escaped.
    let expected = Array("<\u{338} &amp; e\u{301} &#39;quoted&#39; 🎸".utf8)
    let found = direct.files.filter {
      BrowsePages.ListRows.occurrences(of: expected, in: $0.bytes, upTo: 1).count == 1
    }
    #expect(
      found.map(\.path).filter { $0.hasPrefix("browse/") } == [
        "browse/books/page-2/index.html", "browse/shelf/shelf/index.html",
      ])
  }

  @Test func browseAndOfflineCanBeTurnedOff() throws {
    let (files, remove) = try Self.build(try Self.catalogue(count: 5, extra: "browse: false\noffline: false"))
    defer { remove() }
    #expect(!files.keys.contains { $0.hasPrefix("browse/") })
    let search = try #require(files["index.html"])
    #expect(!search.contains("/browse/") && !search.contains("service-worker"))
    // The worker that remains removes what an earlier build's worker kept.
    let worker = try #require(files["sw.js"])
    #expect(worker.contains("registration.unregister()") && !worker.contains("'fetch'"))
  }

  @Test func theWorkerPrecachesThePageAndItsAssetsUnderTheBase() throws {
    let folder = try Self.catalogue(count: 5)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("site")
    var options = BuildOptions()
    options.configPath = folder.appendingPathComponent("site.yml").path
    options.outputPath = output.path
    options.baseURL = "/shelf/"
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    let files = try snapshotFolder(output.path).mapValues { String(decoding: $0, as: UTF8.self) }
    let worker = try #require(files["sw.js"])
    let script = try #require(files.keys.first { $0.hasSuffix("js/app.js") })
    let detail = try #require(files.keys.first { $0.hasSuffix("css/detail-page.css") })
    #expect(worker.contains("\"base\":\"/shelf/\""))
    #expect(worker.contains("\"precache\":[\"/shelf/\","))
    #expect(worker.contains("\"/shelf/\(script)\""))
    // The manifest is in the page; a record page's look is kept when a record page is visited.
    #expect(!worker.contains("/shelf/idx/"))
    #expect(!worker.contains(detail))
    #expect(
      try #require(files["index.html"]).contains("<meta name=\"service-worker\" content=\"/shelf/sw.js\" />"))
  }

  @Test func browseMustBeABoolean() throws {
    let folder = try Self.catalogue(count: 5, extra: "browse: sometimes")
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = BuildOptions()
    options.configPath = folder.appendingPathComponent("site.yml").path
    options.outputPath = folder.appendingPathComponent("site").path
    #expect {
      _ = try SiteBuilder(options: options, log: { _ in }).build()
    } throws: { error in
      let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
      return diagnostics.contains { $0.location?.line == 3 && $0.message.contains("browse") }
    }
  }
}
