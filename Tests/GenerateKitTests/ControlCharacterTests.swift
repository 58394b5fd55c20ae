import Foundation
import Testing

@testable import GenerateKit

/// A C1 control (U+0080–U+009F) is what text decoded with the wrong
/// encoding leaves behind (geonames' cities hold a real U+009F in one city's
/// alternate names). In text it is dropped, with one warning a field at the
/// first one's place, and the site is built; where a changed character would
/// change what a value points at (an id, a reference, a link) it stays an
/// error, as a C0 control (NUL, BEL) does everywhere (`BadSourceTests`).
@Suite struct ControlCharacterTests {
  @Test func c1ControlsInTextAreDroppedWithOneWarningAField() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let marked = Marked("id,name\n1,1️⃣Beyonc\u{9F}é\n2,AC/DC\u{85}\n3,Caetano Veloso\n")
    try project.write("data/artists.csv", marked.text)
    let summary = try project.build()
    #expect(summary.warnings.count == 1, "\(summary.warnings)")
    let warning = try #require(summary.warnings.first)
    #expect(warning.severity == .warning)
    #expect(warning.location?.file.hasSuffix("data/artists.csv") == true, "\(warning)")
    #expect(warning.location?.line == marked.line && warning.location?.column == marked.column, "\(warning)")
    #expect(
      warning.message.hasPrefix("record 1: field 'name' contains the control character U+009F"), "\(warning)")
    #expect(warning.message.contains("2 in this column, all dropped"), "\(warning)")
    // The pages read the text without it.
    let site = try project.snapshot()
    let page = try #require(site.first { $0.key.hasPrefix("artists/") && $0.key.contains("beyonce") }?.value)
    #expect(
      String(decoding: page, as: UTF8.self).contains("<h1>Beyoncé</h1>")
        || String(decoding: page, as: UTF8.self).contains(">Beyoncé<"))
    let withControl = site.filter { _, bytes in
      String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { (0x80...0x9F).contains($0.value) }
    }
    #expect(withControl.isEmpty, "still in \(withControl.keys.sorted())")
  }

  @Test func c1ControlsInAJSONListAreDroppedToo() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let config = try project.read("site.yml").replacingOccurrences(
      of: "  artists: { file: data/artists.csv, key: id }",
      with: "  artists: { file: data/artists.json, key: id }")
    try project.write("site.yml", config)
    try project.write(
      "data/artists.json",
      #"[{"id": 1, "name": "Beyoncé", "aka": ["Queen B\u009f", "Bey"]}, {"id": 2, "name": "AC/DC"}, {"id": 3, "name": "Caetano Veloso"}]"#
    )
    let summary = try project.build()
    #expect(
      summary.warnings.map(\.message).filter { $0.contains("field 'aka'") }.count == 1, "\(summary.warnings)")
  }

  @Test func aC1ControlInAnIdIsStillAnError() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("data/artists.csv", "id,name\n1\u{85},Beyoncé\n2,AC/DC\n3,Caetano Veloso\n")
    let diagnostics = expectBuildFailure(project)
    #expect(
      diagnostics.contains {
        $0.severity == .error && $0.message.contains("field 'id' contains the control character U+0085")
      },
      "\(diagnostics)")
  }

  @Test func aC1ControlInALinkIsStillAnError() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "data/artists.csv",
      "id,name,homepage\n1,Beyoncé,https://example.com/bey\u{9F}\n2,AC/DC,\n3,Caetano Veloso,\n")
    let diagnostics = expectBuildFailure(project)
    #expect(
      diagnostics.contains {
        $0.severity == .error && $0.message.contains("field 'homepage' contains the control character U+009F")
      },
      "\(diagnostics)")
  }
}
