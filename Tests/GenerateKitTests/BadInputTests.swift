import Foundation
import Testing

@testable import GenerateKit

/// Every kind of bad input gives `path:line:column: error: …` naming the
/// record and field, fails the build, and leaves the published site exactly
/// as it was.
@Suite struct BadInputTests {
  /// Builds the fixture once, breaks one file, and checks the failure.
  func expectFailure(
    editing file: String, to marked: String, message: String, in shownFile: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    let edit = Marked(marked)
    try project.write(file, edit.text)
    let diagnostics = expectBuildFailure(project, sourceLocation: sourceLocation)
    let expectedFile = shownFile ?? file
    let match = diagnostics.first { $0.message.contains(message) }
    #expect(
      match != nil, "no diagnostic containing \(message.debugDescription) in \(diagnostics)",
      sourceLocation: sourceLocation)
    if let match, edit.line > 0 {
      #expect(
        match.location?.file.hasSuffix(expectedFile) == true, "\(match)", sourceLocation: sourceLocation)
      #expect(match.location?.line == edit.line, "\(match)", sourceLocation: sourceLocation)
      #expect(match.location?.column == edit.column, "\(match)", sourceLocation: sourceLocation)
    }
    #expect(try project.snapshot() == before, "the published site changed", sourceLocation: sourceLocation)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
      $0.contains("staging")
    }
    #expect(leftovers.isEmpty, "a staging folder was left behind", sourceLocation: sourceLocation)
  }

  @Test func malformedCSV() throws {
    try expectFailure(
      editing: "data/albums.csv", to: "id,title,artist_id\n10,Lemonade,1\n11,1️⃣\"Back in Black,2\n",
      message: "unterminated quoted field")
  }

  @Test func wrongNumberOfFields() throws {
    try expectFailure(
      editing: "data/albums.csv", to: "id,title,artist_id\n10,Lemonade,1\n11,Back in Black,2,1️⃣extra\n",
      message: "record has 4 fields; the header has 3")
  }

  @Test func missingID() throws {
    try expectFailure(
      editing: "data/artists.csv", to: "id,name\n1,Beyoncé\n1️⃣,AC/DC\n3,Caetano Veloso\n", message: "empty id")
  }

  @Test func duplicateID() throws {
    try expectFailure(
      editing: "data/artists.csv", to: "id,name\n1,Beyoncé\n2,AC/DC\n1️⃣2,Caetano Veloso\n",
      message: "duplicate id '2' in table 'artists' (first on line 3)")
  }

  @Test func referenceToAMissingRecord() throws {
    try expectFailure(
      editing: "data/albums.csv",
      to: "id,title,artist_id\n10,Lemonade,1\n11,Back in Black,1️⃣999\n12,Livro,3\n",
      message: "record 11: artist_id refers to artists '999', which does not exist")
  }

  @Test func invalidUTF8() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    var bytes = Array("id,name\n1,Beyonc".utf8)
    bytes += [0xE9]  // Latin-1 é
    bytes += Array("\n2,AC/DC\n3,Caetano\n".utf8)
    try Data(bytes).write(to: project.root.appendingPathComponent("data/artists.csv"))
    let diagnostics = expectBuildFailure(project)
    #expect(diagnostics.first?.location?.line == 2)
    #expect(diagnostics.first?.location?.column == 9)
    #expect(
      diagnostics.first?.message
        == "row 1: field 'name' holds invalid UTF-8 (byte 0xE9); save the file as UTF-8, or give its table `encoding: windows-1252` (a Windows or Latin-1 export)"
    )
    #expect(try project.snapshot() == before)
  }

  @Test func missingDataFile() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    try FileManager.default.removeItem(atPath: project.path("data/genres.csv"))
    let diagnostics = expectBuildFailure(project)
    let diagnostic = try #require(diagnostics.first)
    #expect(
      diagnostic.message.contains("data file '")
        && diagnostic.message.contains("genres.csv' of table 'genres' does not exist"))
    #expect(diagnostic.location?.file.hasSuffix("site.yml") == true)
    let lines = try project.read("site.yml").split(separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.firstIndex { $0.hasPrefix("  genres:") }) + 1
    #expect(diagnostic.location?.line == line)
    #expect(diagnostic.location?.column == 3)
    #expect(try project.snapshot() == before)
  }

  @Test func unknownConfigKey() throws {
    let project = try TemporaryProject()
    let config = try project.read("site.yml").replacingOccurrences(
      of: "title: Mini\n", with: "title: Mini\n1️⃣colour: red\n")
    project.remove()
    try expectFailure(editing: "site.yml", to: config, message: "unknown key 'colour' in the site config")
  }

  @Test func malformedYAML() throws {
    let project = try TemporaryProject()
    let config = try project.read("site.yml").replacingOccurrences(
      of: "  trending: [Beyoncé]\n", with: "  trending: [Beyoncé\ntables21️⃣: x\n")
    project.remove()
    try expectFailure(editing: "site.yml", to: config, message: "invalid YAML")
  }

  @Test func missingRequiredKey() throws {
    let project = try TemporaryProject()
    let config = try project.read("site.yml").replacingOccurrences(of: "    title: title\n", with: "")
      .replacingOccurrences(of: "  - id: albums\n", with: "  - 1️⃣id: albums\n")
    project.remove()
    try expectFailure(
      editing: "site.yml", to: config, message: "missing required key 'title' in collection 'albums'")
  }

  @Test func badExpression() throws {
    let project = try TemporaryProject()
    let config = try project.read("site.yml").replacingOccurrences(
      of: "duration: duration(sum(tracks.milliseconds))", with: "duration: duration(sum(1️⃣tracks.millis))")
    project.remove()
    try expectFailure(
      editing: "site.yml", to: config, message: "table 'tracks' has no column or related table 'millis'")
  }

  @Test func templateSyntaxError() throws {
    try expectFailure(
      editing: "templates/album.mustache",
      to:
        "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1>\n<ol>{{#tracks}}<li>{{title}}</li>1️⃣{{/track}}</ol>{{/record}}{{/body}}{{/layout}}\n",
      message: "template syntax")
  }

  @Test func missingPartial() throws {
    try expectFailure(
      editing: "templates/album.mustache",
      to:
        "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1>\n<ol>{{#tracks}}1️⃣{{> trackrow}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}\n",
      message: "partial 'trackrow' does not exist")
  }

  @Test func allProblemsInOneRunAreReported() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("data/artists.csv", "id,name\n1,Beyoncé\n1,AC/DC\n3,Caetano Veloso\n")
    try project.write(
      "data/albums.csv", "id,title,artist_id\n10,Lemonade,1,x\n11,Back in Black,2\n12,Livro,3\n")
    try project.write("templates/404.mustache", "{{#oops}}")
    let diagnostics = expectBuildFailure(project)
    #expect(
      diagnostics.contains {
        $0.message.contains("duplicate id '1'") && $0.location?.file.hasSuffix("artists.csv") == true
      })
    #expect(
      diagnostics.contains {
        $0.message.contains("record has 4 fields") && $0.location?.file.hasSuffix("albums.csv") == true
      })
    #expect(
      diagnostics.contains {
        $0.message.contains("template syntax") && $0.location?.file.hasSuffix("404.mustache") == true
      })
  }
}

/// A template that renders broken markup is caught by the libxml2 check,
/// at the generated page's line and column, and nothing is published.
@Suite struct BrokenMarkupTests {
  @Test func aMisnestedTagInATemplateNamesThePageLineAndColumn() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    try project.write(
      "templates/album.mustache",
      "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h2>{{/record}}{{/body}}{{/layout}}\n")
    let diagnostics = expectBuildFailure(project)
    let diagnostic = try #require(diagnostics.first)
    // Line 12 of every album page (the layout's 11 lines come first); libxml2
    // notices the mismatch at the end of `</h2>`.
    let titles = [
      "albums/10-lemonade/index.html": "Lemonade", "albums/11-back-in-black/index.html": "Back in Black",
      "albums/12-livro/index.html": "Livro",
    ]
    let title = try #require(titles[diagnostic.location?.file ?? ""], "\(diagnostic)")
    #expect(diagnostic.location?.line == 12)
    #expect(diagnostic.location?.column == "<h1>\(title)</h2>".count + 1, "\(diagnostic)")
    #expect(diagnostic.message.contains("h1") && diagnostic.message.contains("h2"), "\(diagnostic)")
    #expect(diagnostics.count == 3, "one per album page: \(diagnostics)")
    #expect(try project.snapshot() == before)
  }

  @Test func aLinkToAMissingPageIsCaught() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "templates/404.mustache",
      "{{<layout}}{{$body}}<h1>Not Found</h1><p><a href=\"{{base}}nowhere/\">x</a></p>{{/body}}{{/layout}}\n")
    let diagnostics = expectBuildFailure(project)
    let broken = diagnostics.first { $0.location?.file == "404.html" && $0.message.contains("\"/nowhere/\"") }
    #expect(broken != nil, "\(diagnostics)")
    // Placed by line and column, from the page as it was rendered.
    #expect((broken?.location?.line ?? 0) > 1 && (broken?.location?.column ?? 0) > 1, "\(diagnostics)")
  }

  /// A link to an id on another page is checked once that page is
  /// rendered too (pages are checked as they come); the broken one is
  /// placed by line and column, and the site is left as it was.
  @Test func aLinkToAMissingIdOnAnotherPageIsCaught() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let before = try project.snapshot()
    try project.write(
      "templates/404.mustache",
      "{{<layout}}{{$body}}<h1>Not Found</h1><p><a href=\"{{base}}#no-such-id\">x</a></p>{{/body}}{{/layout}}\n"
    )
    let diagnostics = expectBuildFailure(project)
    let broken = diagnostics.first {
      $0.location?.file == "404.html" && $0.message.contains("\"no-such-id\"")
    }
    #expect(broken?.message.contains("which is not on index.html") == true, "\(diagnostics)")
    #expect((broken?.location?.line ?? 0) > 1 && (broken?.location?.column ?? 0) > 1, "\(diagnostics)")
    #expect(try project.snapshot() == before)
  }
}
