import Foundation
import Testing

@testable import GenerateKit

/// What a tag prints for a value that is not text: a reference to another
/// record prints its title, a list of records or of computed text its
/// items joined with ", ", as a list column does — never Swift's
/// description of the value (`GenerateKit.RecordContext`, `["a", "b"]`).
/// Both renderers print the same, escaped.
@Suite struct TemplateValueTextTests {
  static let album = """
    {{<layout}}{{$body}}{{#record}}<p class="by">{{artist}}</p>\
    <p class="tracks">{{tracks}}</p><p class="first">{{first(tracks)}}</p>\
    <p class="reversed">{{reversed(tracks)}}</p><p class="names">{{names}}</p>\
    <p class="back">{{reversed(names)}}</p><p class="sorted">{{sorted(names)}}</p>\
    <ol>{{#tracks}}{{> row}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}
    """

  static func project() throws -> TemporaryProject {
    let project = try TemporaryProject()
    try project.write("data/artists.csv", "id,name\n1,Beyoncé\n2,AC/DC & <Friends>\n3,Caetano Veloso\n")
    try project.write("templates/album.mustache", album)
    var config = try project.read("site.yml")
    config = config.replacingOccurrences(
      of: "      tracks: tracks\n", with: "      tracks: tracks\n      names: tracks.name\n")
    try project.write("site.yml", config)
    return project
  }

  @Test func aReferenceAndAListPrintWhatAPersonReads() throws {
    let project = try Self.project()
    defer { project.remove() }
    _ = try project.build()
    let page = try project.read("site/albums/11-back-in-black/index.html")
    #expect(page.contains("<p class=\"by\">AC/DC &amp; &lt;Friends&gt;</p>"), "\(page)")
    #expect(page.contains("<p class=\"tracks\">Hells Bells, Back in Black</p>"), "\(page)")
    #expect(page.contains("<p class=\"first\">Hells Bells</p>"), "\(page)")
    #expect(page.contains("<p class=\"reversed\">Back in Black, Hells Bells</p>"), "\(page)")
    #expect(page.contains("<p class=\"names\">Hells Bells, Back in Black</p>"), "\(page)")
    #expect(page.contains("<p class=\"back\">Back in Black, Hells Bells</p>"), "\(page)")
    #expect(page.contains("<p class=\"sorted\">Back in Black, Hells Bells</p>"), "\(page)")
    #expect(!page.contains("GenerateKit."))
  }

  /// swift-mustache prints the same for every page.
  @Test func bothRenderersPrintTheSame() throws {
    let project = try Self.project()
    defer { project.remove() }
    let site = try preparedSite(config: project.config)
    let set = try TemplateSet.load(directories: [project.path("templates")], builtIn: false)
    let library = try MustacheOracle.library(set)
    var compared = 0
    for (template, context) in CompiledRendererTests.pageContexts(site, set) where template == "album" {
      let mustache = library.render(context, withTemplate: template).map { Array($0.utf8) }
      let ours = set.render(context, withTemplate: template)
      #expect(ours == mustache)
      #expect(!String(decoding: ours ?? [], as: UTF8.self).contains("GenerateKit."))
      compared += 1
    }
    #expect(compared == 3)
    #expect(set.genericReads.reads.isEmpty, "\(set.genericReads.reads)")
  }

  /// A value a nested record leaves empty is nothing: not the page's
  /// value of the same name (`site`, the site's settings, which printed
  /// as Swift's description of a dictionary), so `{{^site}}` shows.
  @Test func anEmptyValueOfANestedRecordDoesNotClimbToThePage() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "data/artists.csv", "id,name,site\n1,Beyoncé,https://beyonce.example\n2,AC/DC,\n3,Caetano Veloso,\n")
    try project.write(
      "templates/album.mustache",
      "{{<layout}}{{$body}}{{#record}}{{#artist}}{{#site}}<a class=\"site\" href=\"{{site}}\">web</a>{{/site}}{{^site}}<span class=\"nosite\">no site</span>{{/site}}{{/artist}}<ol>{{#tracks}}{{> row}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}"
    )
    _ = try project.build()
    let lemonade = try project.read("site/albums/10-lemonade/index.html")
    #expect(lemonade.contains("<a class=\"site\" href=\"https://beyonce.example\">web</a>"), "\(lemonade)")
    let page = try project.read("site/albums/11-back-in-black/index.html")
    #expect(page.contains("<span class=\"nosite\">no site</span>"), "\(page)")
    #expect(!page.contains("class=\"site\""), "\(page)")
  }

  /// A subtitle (`subtitle:`, rendered once per record for the index and
  /// the A–Z pages) prints a reference and a computed list as a page does.
  @Test func aSubtitlePrintsAReferenceAsItsTitle() throws {
    let project = try Self.project()
    defer { project.remove() }
    var config = try project.read("site.yml")
    config = config.replacingOccurrences(
      of: "subtitle: \"Album · {{artist.title}} · {{duration}}\"",
      with: "subtitle: \"Album · {{artist}} · {{tracks}}\"")
    try project.write("site.yml", config)
    let site = try preparedSite(config: project.config)
    let album = try #require(site.documents.first { $0.title == "Back in Black" })
    #expect(album.subtitle == "Album · AC/DC & <Friends> · Hells Bells, Back in Black")
  }
}
