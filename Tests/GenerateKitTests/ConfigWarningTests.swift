import Foundation
import Testing

@testable import GenerateKit

/// Config mistakes that still give a working site — a name no record has,
/// a scope that matches nothing, a popularity that is text, a trending term
/// that finds nothing, an icon that does not exist — each a warning at the
/// config line that caused it, through the real executable: the site is
/// published, the exit status is 0, and `--strict` fails the build instead.
@Suite struct ConfigWarningTests {
  static var executable: String { BadInputSuite.executable }

  /// Edits `site.yml` (each replacement may hold a `1️⃣` where the warning
  /// must point), builds, and returns the warnings printed, with the marker.
  static func build(
    _ edits: [(String, String)], arguments: [String] = [], in project: TemporaryProject
  ) throws -> (
    result: (status: Int32, stdout: [UInt8], output: String, err: String), warnings: [String], at: String
  ) {
    var text = try project.read("site.yml")
    var marker = ""
    for (old, new) in edits {
      try #require(text.contains(old), "site.yml has no \(old.debugDescription)")
      let marked = Marked(text.replacingOccurrences(of: old, with: new))
      if marked.line > 0 { marker = "site.yml:\(marked.line):\(marked.column): warning: " }
      text = marked.text
    }
    try project.write("site.yml", text)
    let result = try runProcess(
      executable, ["--config", "site.yml", "--output", "site", "--quiet"] + arguments, in: project.root)
    let warnings = result.err.split(separator: "\n").map(String.init).filter { $0.contains(": warning: ") }
    return (result, warnings, marker)
  }

  /// Builds with the edits and expects exactly one warning, `message`, at the
  /// marker; the site is published all the same.
  static func expectWarning(
    _ edits: [(String, String)], _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let (result, warnings, at) = try build(edits, in: project)
    #expect(result.status == 0, "\(result.err)", sourceLocation: sourceLocation)
    #expect(warnings == [at + message], "\(result.err)", sourceLocation: sourceLocation)
    #expect(
      FileManager.default.fileExists(atPath: project.path("site/index.html")), "no site was published",
      sourceLocation: sourceLocation)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aSubtitleNameNoRecordHas() throws {
    // Names inside a section belong to what it opens (`artist_id` of an album).
    try Self.expectWarning(
      [
        (
          "subtitle: \"Song · {{artistName}} · {{duration}}\"",
          "subtitle: 1️⃣\"Song · {{artistNme}} · {{uppercased(duration)}} {{#album}}{{artist_id}}{{/album}}\""
        )
      ],
      "'{{artistNme}}' in the subtitle of collection 'songs' renders empty: no field, column of table 'tracks' or built-in name is called 'artistNme' (did you mean 'artistName'?)"
    )
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aURLAndAPagePathNameNoRecordHas() throws {
    try Self.expectWarning(
      [("url: \"{{album.url}}#track-{{id}}\"", "url: 1️⃣\"{{albun.url}}#track-{{id}}\"")],
      "'{{albun}}' in the url of collection 'songs' renders empty: no field, column of table 'tracks' or built-in name is called 'albun' (did you mean 'album'?)"
    )
    try Self.expectWarning(
      [("path: \"artists/{{slug}}/\"", "path: 1️⃣\"artists/{{slug}}-{{genre}}/\"")],
      "'{{genre}}' in the page path of collection 'artists' renders empty: no field, column of table 'artists' or built-in name is called 'genre'"
    )
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aScopeValueNoRecordHas() throws {
    try Self.expectWarning(
      [
        (
          "  - { id: library, label: Library, facet: buyer, value: \"5\" }",
          "  - 1️⃣{ id: library, label: Library, facet: buyer, value: \"55\" }"
        )
      ],
      "scope 'library' matches no record: no searchable record has '55' for facet 'buyer' (did you mean '5'?)"
    )
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aPopularityThatIsText() throws {
    try Self.expectWarning(
      [
        (
          "popularity: count(albums.tracks.invoice_lines) * 3 + count(albums.tracks.playlist_tracks)",
          "popularity: 1️⃣name"
        )
      ],
      "popularity 'name' is not a number for 3 records of artists, which rank as 0; the first is record 1 of artists (data/artists.csv:2:1): 'Beyoncé'"
    )
  }

  /// A record with no value (a song nobody bought) ranks as 0 silently.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aMissingPopularityIsZeroSilently() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let (result, warnings, _) = try Self.build(
      [
        (
          "popularity: count(invoice_lines) * 3 + count(playlist_tracks)",
          "popularity: first(invoice_lines.id)"
        )
      ], in: project)
    #expect(result.status == 0, "\(result.err)")
    #expect(warnings.isEmpty, "\(result.err)")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aTrendingTermThatFindsNothing() throws {
    // Prefixes and words spread over the title and searched fields find something.
    try Self.expectWarning(
      [("trending: [Beyoncé]", "trending: [Beyoncé, Beyon, Back Black, angus bells, 1️⃣Metalica]")],
      "trending term 'Metalica' finds nothing: no searchable record has the word 'metalica' or a word starting with it"
    )
    try Self.expectWarning(
      [("trending: [Beyoncé]", "trending: [Beyoncé, 1️⃣Hells Formation]")],
      "trending term 'Hells Formation' finds nothing: each of its words is found, but no searchable record has them all"
    )
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aFacetIconThatDoesNotExist() throws {
    try Self.expectWarning(
      [("  - { id: genre, label: Genre }", "  - 1️⃣{ id: genre, label: Genre, icon: globus }")],
      "facet 'genre' has icon 'globus', which does not exist, so its tokens show the tag icon (did you mean 'globe'?); icons: calendar, clock, close, folder, genre, globe, person, place, search, star, tag"
    )
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func strictFailsOnAConfigWarningAndKeepsTheSite() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let first = try runProcess(
      Self.executable, ["--config", "site.yml", "--output", "site", "--quiet"], in: project.root)
    try #require(first.status == 0, "\(first.err)")
    let before = try project.snapshot()
    let (result, warnings, at) = try Self.build(
      [("trending: [Beyoncé]", "trending: [Beyoncé, 1️⃣Metalica]")], arguments: ["--strict"], in: project)
    #expect(result.status == 1)
    #expect(warnings.count == 1 && warnings.first?.hasPrefix(at) == true, "\(result.err)")
    #expect(
      result.err.contains("generate: 1 warning (--strict) while building index; site/ was left unchanged"),
      "\(result.err)")
    #expect(try project.snapshot() == before)
  }

  /// The icon names Swift accepts are exactly the glyphs the browser draws:
  /// dom.js's filled `PATHS`, and the outlines of glyphs.js, which dom.js
  /// names in its `STROKED` list.
  @Test func facetIconsMatchTheGlyphsInDomJS() throws {
    func script(_ name: String) throws -> String {
      try String(
        contentsOf: packageRoot.appendingPathComponent("Templates/assets/js/ui/\(name)"), encoding: .utf8)
    }
    func keys(_ block: String, in file: String) throws -> [String] {
      let text = try script(file)
      let start = try #require(text.range(of: block), "\(file) has no \(block)")
      let body = text[start.upperBound...].prefix { $0 != "}" }
      return body.split(separator: "\n").compactMap { line in
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.firstIndex(of: ":").map { String(trimmed[..<$0]) }
      }
    }
    let outlines = try keys("export const STROKED = {", in: "glyphs.js")
    let listed = try #require(
      try script("dom.js").split(separator: "\n").first { $0.hasPrefix("const STROKED = [") })
    #expect(listed == "const STROKED = [" + outlines.sorted().map { "'\($0)'" }.joined(separator: ", ") + "]")
    let names = try keys("const PATHS = {", in: "dom.js") + outlines
    #expect(names.sorted() == FacetIcons.names.sorted())
    #expect(FacetIcons.names == FacetIcons.names.sorted(), "keep FacetIcons.names sorted: warnings list them")
  }
}
