import Foundation
import PropertyBased
import Testing

@testable import GenerateKit

/// Whatever a user writes — expressions, data bytes, templates — the build
/// ends in a site or in located errors, never in a trap. A trap would end
/// this test process, so each property holds simply by the run finishing;
/// the checks below add that a failure always says where.
@Suite struct NeverTrapTests {
  /// Builds the fixture after `edit`; a failure must carry diagnostics,
  /// each with a message.
  func buildOrFail(_ edit: (TemporaryProject) throws -> Void) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try edit(project)
    do {
      _ = try project.build()
    } catch let error as DiagnosticsError {
      #expect(!error.diagnostics.isEmpty)
      #expect(error.diagnostics.allSatisfy { !$0.message.isEmpty })
    }
  }

  static let expressionTokens = [
    "count(", "sum(", "min(", "max(", "avg(", "distinct(", "first(", "mode(", "top(", "limit(", "join(",
    "duration(", "round(", "thousands(", "plural(", "popular(", "year(", "nosuch(", ")", ")", ",", " + ",
    " - ",
    " * ", " / ", "0", "1", "-1", "1e308", "99999999999999999999", "0.5", "'x'", "'", "playlist_tracks",
    "playlist_tracks.track_id", "playlist_tracks.track_id.milliseconds", "name", "id", "nosuch", ".", "(",
  ]

  @Test func randomExpressions() async throws {
    let expression = Gen.element(of: Self.expressionTokens).array(of: 1...14).map {
      $0.compactMap { $0 }.joined()
    }
    await propertyCheck(count: 60, input: expression) { text in
      try buildOrFail { project in
        let config = try project.read("site.yml").replacingOccurrences(
          of: "songs: plural(count(playlist_tracks), 'song', 'songs')",
          with: "songs: \"\(text.replacingOccurrences(of: "\"", with: ""))\"")
        try project.write("site.yml", config)
      }
    }
  }

  static let csvBytes: [UInt8] = Array("a,\"\r\n\u{0}é1".utf8) + [0xFF, 0xC3, 0xEF, 0xBB, 0xBF]

  @Test func randomCSVBytes() async throws {
    let bytes = Gen.element(of: Self.csvBytes).array(of: 0...60)
    await propertyCheck(count: 60, input: bytes) { body in
      try buildOrFail { project in
        try Data(Array("id,name\n".utf8) + body.compactMap { $0 }).write(
          to: project.root.appendingPathComponent("data/genres.csv"))
      }
    }
  }

  static let templateTokens = [
    "{{", "}}", "{{#record}}", "{{/record}}", "{{^record}}", "{{> row}}", "{{> artist}}", "{{<layout}}",
    "{{/layout}}", "{{$body}}", "{{/body}}", "{{title}}", "{{{title}}}", "{{&title}}",
    "{{uppercased(title)}}",
    "{{shout(title)}}", "{{=<% %>=}}", "<%title%>", "<p>", "</p>", "<", "&", "\"", "{{!comment}}",
    "{{#albumList}}",
    "{{/albumList}}", "text",
  ]

  @Test func randomTemplates() async throws {
    let template = Gen.element(of: Self.templateTokens).array(of: 0...24).map {
      $0.compactMap { $0 }.joined()
    }
    await propertyCheck(count: 60, input: template) { text in
      try buildOrFail { project in try project.write("templates/artist.mustache", text) }
    }
  }
}
