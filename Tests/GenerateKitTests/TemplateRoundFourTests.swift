import Foundation
import Testing

@testable import GenerateKit

/// Round 4 of templates written by others: numbers an expression computes,
/// dates, a tag that prints an object, and a feed beside the HTML pages
/// (two collections over one table).
@Suite struct TemplateRoundFourTests {
  static let album =
    "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1><p class=\"values\">{{values}}</p><ol>{{#tracks}}{{> row}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}"

  /// The mini project with `fields` added to albums and `{{values}}` —
  /// a subtitle-like template over them — on the album page.
  static func project(fields: [String: String], values: String, albums: String? = nil) throws
    -> TemporaryProject
  {
    let project = try TemporaryProject()
    if let albums { try project.write("data/albums.csv", albums) }
    var config = try project.read("site.yml")
    let lines = fields.sorted { $0.key < $1.key }.map { "      \($0.key): \($0.value)\n" }.joined()
    config = config.replacingOccurrences(of: "      tracks: tracks\n", with: "      tracks: tracks\n" + lines)
    try project.write("site.yml", config)
    try project.write(
      "templates/album.mustache", album.replacingOccurrences(of: "{{values}}", with: values))
    return project
  }

  /// A number a field computes prints as a person writes it: 15
  /// significant digits at most, never an exponent.
  @Test func aComputedNumberPrintsAsAPersonWritesIt() throws {
    let project = try Self.project(
      fields: [
        "third": "0.1 + 0.2", "tiny": "count(tracks) / 200000", "mean": "sum(tracks.milliseconds) / 3",
        "huge": "count(tracks) * 1000000000000000000", "cents": "round(0.285, 2)",
      ],
      values: "{{third}}|{{tiny}}|{{mean}}|{{huge}}|{{cents}}")
    defer { project.remove() }
    _ = try project.build()
    let page = try project.read("site/albums/10-lemonade/index.html")
    #expect(
      page.contains("<p class=\"values\">0.3|0.00001|142333.333333333|2000000000000000000|0.29</p>"),
      "\(page)")
  }

  static let datedAlbums = """
    id,title,artist_id,released
    10,Lemonade,1,2016-04-23
    11,Back in Black,2,1980-07-25T10:00:00+02:00
    12,Livro,3,1997-05

    """

  /// `date()` writes an ISO date, month or timestamp in the site's
  /// language, or in the one it names; `rfc822` for a feed.
  @Test(arguments: [
    ("en", "April 23, 2016", "July 25, 1980", "May 1997"),
    ("de", "23. April 2016", "25. Juli 1980", "Mai 1997"),
    ("fr", "23 avril 2016", "25 juillet 1980", "mai 1997"),
    ("ja", "2016年4月23日", "1980年7月25日", "1997年5月"),
  ])
  func aDateIsWrittenInTheSiteLanguage(_ language: String, _ day: String, _ stamp: String, _ month: String)
    throws
  {
    let project = try Self.project(
      fields: [
        "released": "date(released)", "rss": "date(released, 'rfc822')", "short": "date(released, 'short')",
        "german": "date(released, 'MMMM y', 'de')",
      ],
      values: "{{released}}|{{rss}}|{{short}}|{{german}}", albums: Self.datedAlbums)
    defer { project.remove() }
    var config = try project.read("site.yml")
    config = config.replacingOccurrences(of: "title: Mini\n", with: "title: Mini\nlanguage: \(language)\n")
    try project.write("site.yml", config)
    _ = try project.build()
    let lemonade = try project.read("site/albums/10-lemonade/index.html")
    #expect(lemonade.contains("<p class=\"values\">\(day)|Sat, 23 Apr 2016 00:00:00 +0000|"), "\(lemonade)")
    #expect(lemonade.contains("|April 2016</p>"), "\(lemonade)")
    let back = try project.read("site/albums/11-back-in-black/index.html")
    #expect(back.contains("<p class=\"values\">\(stamp)|Fri, 25 Jul 1980 10:00:00 +0200|"), "\(back)")
    #expect(back.contains("|Juli 1980</p>"), "\(back)")
    let livro = try project.read("site/albums/12-livro/index.html")
    #expect(livro.contains("<p class=\"values\">\(month)|"), "\(livro)")
    if language == "en" { #expect(lemonade.contains("|4/23/16|"), "\(lemonade)") }
  }

  /// A value that is not a date is an error at the field, naming the
  /// record, and the previous site stays as it was.
  @Test func aValueThatIsNotADateIsAnError() throws {
    let project = try Self.project(
      fields: ["released": "date(released)"], values: "{{released}}", albums: Self.datedAlbums)
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    try project.write(
      "data/albums.csv", Self.datedAlbums.replacingOccurrences(of: "1997-05", with: "last spring"))
    let config = try project.read("site.yml")
    let line = (config.components(separatedBy: "\n").firstIndex { $0.contains("released: date(") } ?? 0) + 1
    let messages = expectBuildFailure(project).map(\.description)
    #expect(messages.count == 1, "\(messages)")
    let message = messages.first ?? ""
    #expect(message.contains("site.yml:\(line):"), "\(message)")
    #expect(message.contains("for record 12 of table 'albums'"), "\(message)")
    #expect(message.contains("date() needs an ISO date"), "\(message)")
    #expect(message.contains("not 'last spring'"), "\(message)")
    #expect(try project.snapshot() == before)
  }

  /// A style `date()` does not know is an error where the config says it.
  @Test func anUnknownDateStyleIsAnError() throws {
    let project = try Self.project(
      fields: ["released": "date(released, 'fancy!')"], values: "{{released}}", albums: Self.datedAlbums)
    defer { project.remove() }
    let messages = expectBuildFailure(project).map(\.description)
    #expect(messages.count == 1, "\(messages)")
    let message = messages.first ?? ""
    #expect(message.contains("site.yml:"), "\(message)")
    #expect(message.contains("not 'fancy!'"), "\(message)")
  }

  /// A tag that prints one of the page's objects, or a list of them, is an
  /// error at the tag naming the object's names and the page; nothing of
  /// Swift's description reaches a page, and the previous site stays.
  @Test(arguments: [
    ("{{site}}", "{{site}} is an object (its names: description, language, rtl, tint, title)"),
    ("{{{search}}}", "{{search}} is an object (its names: placeholder, slashFocuses, title, topResults)"),
    ("{{kinds}}", "{{kinds}} is a list of objects"),
  ])
  func printingAnObjectIsAnError(_ tag: String, _ expected: String) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    let marked = Marked(Self.album.replacingOccurrences(of: "{{values}}", with: "1️⃣" + tag))
    try project.write("templates/album.mustache", marked.text)
    let messages = expectBuildFailure(project).map(\.description)
    #expect(messages.count == 1, "\(messages)")
    let message = messages.first ?? ""
    #expect(
      message.contains("templates/album.mustache:\(marked.line):\(marked.column): error:"), "\(message)")
    #expect(message.contains(expected), "\(message)")
    #expect(message.contains("on the page of record 10 of albums"), "\(message)")
    #expect(message.contains("and on 2 more pages"), "\(message)")
    #expect(try project.snapshot() == before)
  }

  /// The renderer writes nothing for an object, as it does for a list of
  /// them, and notes each tag (once) for the error; text is unaffected.
  @Test func theRendererWritesNothingForAnObject() throws {
    let template = try MustacheParser.parse("[{{..}}][{{.a}}][{{a.b}}][{{list}}][{{.a}}]")
    var renderer = CompiledRenderer(templates: [:])
    let data: [String: Any] = ["a": ["b": "ab"] as [String: Any], "list": [["b": "c"]] as [[String: Any]]]
    let bytes = renderer.render(template, object: data)
    #expect(String(decoding: bytes, as: UTF8.self) == "[][][ab][][]")
    #expect(
      renderer.objectTags == [
        ObjectTags.Use(tag: "..", holder: nil, names: ["a", "list"], list: false),
        ObjectTags.Use(tag: ".a", holder: nil, names: ["b"], list: false),
        ObjectTags.Use(tag: "list", holder: nil, names: [], list: true),
      ])
  }

  /// An object from the data still prints as its JSON (documented), and
  /// opening the page's objects still works.
  @Test func openingAnObjectStillWorks() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "templates/album.mustache",
      Self.album.replacingOccurrences(
        of: "{{values}}", with: "{{#site}}{{title}}/{{language}}{{/site}}|{{#kinds}}{{label}};{{/kinds}}"))
    _ = try project.build()
    let page = try project.read("site/albums/10-lemonade/index.html")
    #expect(page.contains("<p class=\"values\">Mini/en|Artists;Albums;Songs;Playlists;</p>"), "\(page)")
  }

  /// A second collection over the albums writes a feed beside each album
  /// page: its own fields and URL (not the first collection's), checked as
  /// well-formed XML rather than as a page, escaped, and left out of the
  /// sitemap.
  @Test func aFeedBesideThePagesReadsItsOwnCollection() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("data/artists.csv", "id,name\n1,Beyoncé\n2,AC/DC & <Friends>\n3,Caetano Veloso\n")
    var config = try project.read("site.yml")
    config += """
        - id: feeds
          label: Feeds
          singular: Feed
          table: albums
          title: title
          searchable: false
          subtitle: "{{trackCount}} tracks"
          fields:
            trackCount: count(tracks)
            by: artist_id.name
          page: { template: feed, path: "albums/{{slug}}/feed.xml" }

      """
    try project.write("site.yml", config)
    try project.write(
      "templates/feed.mustache",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <feed xmlns="http://www.w3.org/2005/Atom">{{#record}}<title>{{title}} by {{by}}</title><subtitle>{{subtitle}}</subtitle><id>{{url}}</id>{{/record}}</feed>

      """)
    _ = try project.build()
    let feed = try project.read("site/albums/11-back-in-black/feed.xml")
    #expect(
      feed.contains(
        "<title>Back in Black by AC/DC &amp; &lt;Friends&gt;</title><subtitle>2 tracks</subtitle><id>/albums/11-back-in-black/feed.xml</id>"
      ), "\(feed)")
    #expect(HTMLValidator().checkXML(Array(feed.utf8), path: "feed.xml").isEmpty)
    // The album's own page is still the album's.
    let page = try project.read("site/albums/11-back-in-black/index.html")
    #expect(page.contains("<h1>Back in Black</h1>"), "\(page)")
    let sitemap = try project.read("site/sitemap.xml")
    #expect(sitemap.contains("albums/11-back-in-black/</loc>"), "\(sitemap)")
    #expect(!sitemap.contains("feed.xml"), "\(sitemap)")
  }

  /// A feed that is not well-formed XML fails the build at its line and
  /// column, as a page that is not well-formed does.
  @Test func aFeedThatIsNotWellFormedIsAnError() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    var config = try project.read("site.yml")
    config += """
        - id: feeds
          label: Feeds
          table: albums
          title: title
          searchable: false
          page: { template: feed, path: "albums/{{slug}}/feed.xml" }

      """
    try project.write("site.yml", config)
    try project.write("templates/feed.mustache", "<feed><title>{{record.title}}</feed>\n")
    let messages = expectBuildFailure(project).map(\.description)
    #expect(!messages.isEmpty)
    #expect(messages.contains { $0.contains("feed.xml:1:") && $0.contains("error:") }, "\(messages)")
    #expect(try project.snapshot() == before)
  }
}
