import Foundation
import Testing

@testable import GenerateKit

/// A dynamic partial naming no template, page paths that differ only by
/// case, and `last()` beside `first()` in expressions.
@Suite struct TemplateRoundThreeTests {
  /// `{{>*name}}` whose value names no template is an error at the tag,
  /// naming the record whose page asked for it (as a static partial that
  /// does not exist is at load), and the previous site stays as it was.
  @Test func aDynamicPartialNamingNoTemplateIsAnError() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    let tag = Marked(
      "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1>\n<div>1️⃣{{>*artistName}}</div><ol>{{#tracks}}{{> row}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}"
    )
    try project.write("templates/album.mustache", tag.text)
    // The first album's artist names a template that does exist.
    try project.write("templates/partials/Beyoncé.mustache", "<p>queen</p>")
    let diagnostics = expectBuildFailure(project)
    let messages = diagnostics.map(\.description)
    #expect(messages.count == 1, "\(messages)")
    let message = messages.first ?? ""
    #expect(message.contains("templates/album.mustache:\(tag.line):\(tag.column): error:"), "\(message)")
    #expect(message.contains("partial 'AC/DC'"), "\(message)")
    #expect(message.contains("on the page of record 11 of albums ("), "\(message)")
    #expect(message.contains("data/albums.csv:3:1), and on 1 more page;"), "\(message)")
    #expect(try project.snapshot() == before)
  }

  /// A value that is empty (or missing) names no partial: nothing, as in
  /// swift-mustache, so data may leave it out.
  @Test func aDynamicPartialWithNoValueRendersNothing() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "templates/album.mustache",
      "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1><div>{{>*noSuchField}}</div><ol>{{#tracks}}{{> row}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}"
    )
    _ = try project.build()
    let page = try project.read("site/albums/10-lemonade/index.html")
    #expect(page.contains("<div></div>"))
  }

  /// Two records whose page paths differ only by case would overwrite
  /// each other on a file system that ignores case (macOS, Windows): an
  /// error at the config's `path:`, naming both records.
  @Test func pagePathsThatDifferOnlyByCaseAreAnError() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    try project.write("data/genres.csv", "id,name\n1,Rock\n2,Pop\n3,MPB\nJazz,Jazz\njazz,Jazz again\n")
    var config = try project.read("site.yml")
    config += """

        - id: genres
          label: Genres
          singular: Genre
          table: genres
          title: name
          page: { template: album, path: "genres/{{id}}/" }

      """
    try project.write("site.yml", config)
    let lines = config.components(separatedBy: "\n")
    let line = (lines.firstIndex { $0.contains("genres/{{id}}/") } ?? 0) + 1
    let diagnostics = expectBuildFailure(project)
    let messages = diagnostics.map(\.description)
    #expect(messages.count == 1, "\(messages)")
    let message = messages.first ?? ""
    #expect(message.contains("site.yml:\(line):"), "\(message)")
    #expect(message.contains("record jazz of genres"), "\(message)")
    #expect(message.contains("record Jazz of genres"), "\(message)")
    #expect(message.contains("differ only by case"), "\(message)")
    #expect(try project.snapshot() == before)
  }

  /// `last(x)` is the list's last item, as `first(x)` is its first: a
  /// record opens as one.
  @Test func lastIsTheLastItem() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    var config = try project.read("site.yml")
    config = config.replacingOccurrences(
      of: "      tracks: tracks\n",
      with:
        "      tracks: tracks\n      opener: first(tracks)\n      closer: last(tracks)\n      lastName: last(tracks.name)\n"
    )
    try project.write("site.yml", config)
    try project.write(
      "templates/album.mustache",
      "{{<layout}}{{$body}}{{#record}}<p>{{opener.title}} … {{closer.title}} ({{lastName}})</p><ol>{{#tracks}}{{> row}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}"
    )
    _ = try project.build()
    let page = try project.read("site/albums/11-back-in-black/index.html")
    #expect(page.contains("<p>Hells Bells … Back in Black (Back in Black)</p>"), "\(page)")
  }

  /// A price: `thousands(x, digits)` writes a number with its digits
  /// grouped and exactly that many after the decimal mark, as the site's
  /// language writes them; `thousands(x)` still wants a whole number.
  @Test(arguments: [("en", "3,725.00", "532,142.9"), ("de", "3.725,00", "532.142,9")])
  func thousandsWithDigitsWritesAPrice(_ language: String, _ whole: String, _ fraction: String) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    var config = try project.read("site.yml")
    config = config.replacingOccurrences(
      of: "      tracks: tracks\n",
      with:
        "      tracks: tracks\n      seconds: thousands(sum(tracks.milliseconds) / 1000, 2)\n      sevenths: thousands(sum(tracks.milliseconds) / 7, 1)\n"
    )
    config = config.replacingOccurrences(of: "title: Mini\n", with: "title: Mini\nlanguage: \(language)\n")
    try project.write("site.yml", config)
    try project.write(
      "templates/album.mustache",
      "{{<layout}}{{$body}}{{#record}}<p class=\"price\">{{seconds}} | {{sevenths}}</p><ol>{{#tracks}}{{> row}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}"
    )
    _ = try project.build()
    let page = try project.read("site/albums/12-livro/index.html")
    #expect(page.contains("<p class=\"price\">\(whole) | \(fraction)</p>"), "\(page)")
  }
}
