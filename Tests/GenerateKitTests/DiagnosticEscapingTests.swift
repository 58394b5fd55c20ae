import Testing

@testable import GenerateKit

/// A diagnostic is one line of the output whatever it quotes: a name from
/// the data with a line break or a terminal escape in it is shown escaped.
@Suite struct DiagnosticEscapingTests {
  @Test func aNameWithALineBreakCannotForgeALine() {
    let forged = "data\nsite.yml:1:1: error: forged.csv"
    let diagnostic = Diagnostic.error(
      at: SourceLocation(file: forged, line: 3, column: 2), "table 'x\ry' names '\(forged)'")
    let lines = DiagnosticPrinter().lines(for: [diagnostic])
    #expect(lines.count == 1)
    #expect(!lines[0].contains("\n") && !lines[0].contains("\r"))
    #expect(lines[0].hasPrefix("data\\nsite.yml:1:1: error: forged.csv:3:2: error: table 'x\\ry'"))
  }

  @Test func terminalControlsAreShownNotObeyed() {
    let diagnostic = Diagnostic.warning(at: nil, "column '\u{1B}[2Jname\u{2028}' is empty")
    #expect(diagnostic.description == "warning: column '\\u001B[2Jname\\u2028' is empty")
  }

  @Test func plainTextIsUnchanged() {
    let diagnostic = Diagnostic.error(
      at: SourceLocation(file: "Data/tracks.csv", line: 12, column: 4), "album 999 does not exist — «São»")
    #expect(diagnostic.description == "Data/tracks.csv:12:4: error: album 999 does not exist — «São»")
  }
}
