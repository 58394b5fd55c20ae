import Testing

@testable import GenerateKit

struct CSVReaderTests {
  func rows(_ text: String) throws -> [[String]] {
    var rows: [[String]] = []
    try CSVReader(bytes: Array(text.utf8), file: "t.csv").forEachRow { rows.append($0.fields) }
    return rows
  }

  func failure(_ source: String) -> (Marked, Diagnostic?) {
    let marked = Marked(source)
    do {
      try CSVReader(bytes: Array(marked.text.utf8), file: "t.csv").forEachRow { _ in }
      return (marked, nil)
    } catch {
      return (marked, error.diagnostics.first)
    }
  }

  @Test func readsQuotedFieldsWithCommasQuotesAndNewlines() throws {
    let parsed = try rows("id,name\n1,\"Knowles, \"\"Bey\"\"\"\n2,\"two\nlines\"\r\n\n3,é\n")
    #expect(parsed == [["id", "name"], ["1", "Knowles, \"Bey\""], ["2", "two\nlines"], ["3", "é"]])
  }

  @Test func keepsTrailingEmptyFields() throws {
    #expect(try rows("a,b,c\n1,,\n") == [["a", "b", "c"], ["1", "", ""]])
  }

  @Test func unterminatedQuotePointsAtTheOpeningQuote() {
    let (marked, diagnostic) = failure("id,name\n1,ok\n2,1️⃣\"never closed\n")
    #expect(diagnostic?.location == SourceLocation(file: "t.csv", line: marked.line, column: marked.column))
    #expect(diagnostic?.message.contains("unterminated") == true)
  }

  @Test func quoteInsideAnUnquotedFieldPointsAtTheQuote() {
    let (marked, diagnostic) = failure("id,name\n1,Guns N1️⃣\" Roses\n")
    #expect(diagnostic?.location == SourceLocation(file: "t.csv", line: marked.line, column: marked.column))
  }

  @Test func invalidUTF8PointsAtTheBadByte() {
    var bytes = Array("id,name\n1,caf".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("\n".utf8)
    do {
      try CSVReader(bytes: bytes, file: "t.csv").forEachRow { _ in }
      Issue.record("invalid UTF-8 was accepted")
    } catch {
      #expect(error.diagnostics.first?.location == SourceLocation(file: "t.csv", line: 2, column: 6))
      #expect(error.diagnostics.first?.message == "invalid UTF-8 in a field")
    }
  }
}

extension Error {
  var diagnostics: [Diagnostic] { (self as? DiagnosticsError)?.diagnostics ?? [] }
}
