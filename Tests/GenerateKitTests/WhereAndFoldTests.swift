import Foundation
import Testing

@testable import GenerateKit

/// `where:` hides records (no document, no page, links print as text) and
/// `fold:` keeps one of several exact duplicates.
@Suite struct WhereAndFoldTests {
  /// The mini project with `lines` added under the collection `id`'s title.
  func project(adding lines: String, to id: String) throws -> TemporaryProject {
    let project = try TemporaryProject()
    let config = try project.read("site.yml")
    let anchor = "  - id: \(id)\n"
    let start = try #require(config.range(of: anchor))
    let title = try #require(config.range(of: "    title: ", range: start.upperBound..<config.endIndex))
    let lineEnd = try #require(config[title.upperBound...].firstIndex(of: "\n"))
    var edited = config
    edited.insert(contentsOf: lines, at: config.index(after: lineEnd))
    try project.write("site.yml", edited)
    return project
  }

  func titles(_ site: PreparedSite, in collection: String) -> [String] {
    site.documents.filter { site.collections[$0.collection].config.id == collection }.map(\.title)
  }

  @Test func whereHidesRecordsFromIndexPagesAndLinks() throws {
    // Livro has no sales: hidden. Its artist page must still name it, unlinked.
    let project = try project(adding: "    where: count(tracks.invoice_lines)\n", to: "albums")
    defer { project.remove() }
    try project.write(
      "templates/artist.mustache",
      "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1>\n"
        + "<ul>{{#albumList}}<li>{{#url}}<a href=\"{{url}}\">{{title}}</a>{{/url}}{{^url}}<span>{{title}}</span>{{/url}}</li>{{/albumList}}</ul>"
        + "{{/record}}{{/body}}{{/layout}}\n")
    let site = try preparedSite(config: project.config)
    #expect(titles(site, in: "albums").sorted() == ["Back in Black", "Lemonade"])
    // Other collections are untouched.
    #expect(titles(site, in: "artists").count == 3)

    _ = try project.build()
    let albums = try FileManager.default.contentsOfDirectory(atPath: project.output + "/albums")
    #expect(albums.contains("11-back-in-black"))
    #expect(!albums.contains { $0.contains("livro") })
    let caetano = try String(
      contentsOfFile: project.output + "/artists/3-caetano-veloso/index.html", encoding: .utf8)
    #expect(caetano.contains("<li><span>Livro</span></li>"))
    #expect(!caetano.contains("livro/"))
    let acdc = try String(contentsOfFile: project.output + "/artists/2-ac-dc/index.html", encoding: .utf8)
    #expect(acdc.contains("<a href=\"/albums/11-back-in-black/\">Back in Black</a>"))
  }

  @Test func foldKeepsTheFirstOfExactDuplicates() throws {
    let project = try project(adding: "    fold: playlist_tracks.track_id\n", to: "playlists")
    defer { project.remove() }
    // 8 is 7 in another order; 9 shares the title but not the songs; 10 the songs but not the title.
    try project.write("data/playlists.csv", "id,name\n7,Road Trip\n8,Road Trip\n9,Road Trip\n10,Drive\n")
    try project.write(
      "data/playlist_tracks.csv",
      "playlist_id,track_id\n7,102\n7,103\n7,100\n8,100\n8,103\n8,102\n9,102\n10,102\n10,103\n10,100\n")
    let config = try ConfigLoader().load(path: project.config)
    let site = try DocumentBuilder().prepare(config, dataset: try DatasetLoader().load(config), baseURL: "/")
    let playlists = site.documents.filter { site.collections[$0.collection].config.id == "playlists" }
    #expect(playlists.map(\.key) == ["7", "9", "10"])
    // The folded record leads to the one kept.
    let table = try #require(site.dataset.tableNamed["playlists"])
    let kept = try #require(site.documentIndex(table: table, row: 1))
    #expect(site.documents[kept].key == "7")
  }

  @Test func aBadWhereExpressionPointsIntoTheConfig() throws {
    let project = try project(adding: "    where: count(1️⃣trakcs)\n", to: "albums")
    defer { project.remove() }
    let marked = Marked(try project.read("site.yml"))
    try project.write("site.yml", marked.text)
    let diagnostics = expectBuildFailure(project)
    let match = try #require(diagnostics.first { $0.message.contains("trakcs") }, "\(diagnostics)")
    #expect(match.location?.file.hasSuffix("site.yml") == true)
    #expect(match.location?.line == marked.line)
    #expect(match.location?.column == marked.column)
  }

  @Test func whereMustBeAString() throws {
    let project = try project(adding: "    where: [1, 2]\n", to: "albums")
    defer { project.remove() }
    let diagnostics = expectBuildFailure(project)
    #expect(
      diagnostics.contains { $0.message.contains("'where' in collection 'albums' must be a string") },
      "\(diagnostics)")
  }

  @Test func digitsAreGroupedAsTheSiteLanguageDoes() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "site.yml",
      try project.read("site.yml").replacingOccurrences(
        of: "title: Mini\n", with: "title: Mini\nlanguage: de\n"))
    let site = try preparedSite(config: project.config)
    #expect(site.evaluator.groupingSeparator == ".")
    #expect(
      try site.evaluator.call("plural", [.number(3290), .text("Titel"), .text("Titel")]).get().text
        == "3.290 Titel")
    #expect(try site.evaluator.call("thousands", [.number(1_234_567)]).get().text == "1.234.567")
  }

  @Test func numbersAndLongDurationsReadAsApple() {
    #expect(ExpressionEvaluator.duration(877_683_000) == "243 hr 48 min")
    #expect(ExpressionEvaluator.duration(3_600_400) == "1 hr")
    #expect(ExpressionEvaluator.duration(343_719) == "5:44")
    #expect(ExpressionEvaluator.thousands(3290) == "3,290")
    #expect(ExpressionEvaluator.thousands(1_234_567, separator: ".") == "1.234.567")
    #expect(ExpressionEvaluator.thousands(-999) == "-999")
  }
}
