import Foundation
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

  /// `;`, tabs and `|` separate fields as commas do, and commas are then
  /// plain text; quoted fields may hold the separator.
  @Test func readsOtherSeparators() throws {
    func rows(_ text: String, _ separator: UInt8) throws -> [[String]] {
      var rows: [[String]] = []
      try CSVReader(bytes: Array(text.utf8), file: "t.csv", separator: separator).forEachRow {
        rows.append($0.fields)
      }
      return rows
    }
    #expect(
      try rows("id;name\n1;\"a; b\"\n2;1,5;\n", CSVSeparator.semicolon) == [
        ["id", "name"], ["1", "a; b"], ["2", "1,5", ""],
      ])
    #expect(try rows("id\tname\n1\ta, b\n", CSVSeparator.tab) == [["id", "name"], ["1", "a, b"]])
    #expect(try rows("id|name\n1|\"x|y\"\n", CSVSeparator.pipe) == [["id", "name"], ["1", "x|y"]])
  }

  /// Errors in a `;` file point at the line and column as in a comma one.
  @Test func errorsInASemicolonFileAreAtTheirPlace() {
    let marked = Marked("id;name\n1;\"ok; fine\"\n2;\"closed\"1️⃣x;\n")
    do {
      try CSVReader(bytes: Array(marked.text.utf8), file: "t.csv", separator: CSVSeparator.semicolon)
        .forEachRow { _ in }
      Issue.record("a stray character after a quote was accepted")
    } catch {
      #expect(
        error.diagnostics.first?.location
          == SourceLocation(file: "t.csv", line: marked.line, column: marked.column))
    }
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

  /// A lone CR ends a line as LF and CR LF do (Python's csv module reads
  /// it so, and old Mac exports use it), outside quotes and inside them,
  /// and the lines after it are counted right.
  @Test func aLoneCarriageReturnEndsALine() throws {
    let parsed = try rows("id,name\r1,a\r2,\"b\rc\"\r\n3,d\n\r4,e")
    #expect(parsed == [["id", "name"], ["1", "a"], ["2", "b\rc"], ["3", "d"], ["4", "e"]])
    let (_, diagnostic) = failure("id,name\r1,ok\r\"two\rlines\",x\r4,\"never closed\n")
    #expect(diagnostic?.location == SourceLocation(file: "t.csv", line: 5, column: 3))
  }

  /// The bad byte's place is found in the field as written: after doubled
  /// quotes, and on a later line of a quoted field.
  @Test func invalidUTF8InAQuotedFieldIsAtItsOwnLine() {
    var bytes = Array("id,name\n1,\"say \"\"hi\"\"\nthen caf".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("\"\n".utf8)
    do {
      try CSVReader(bytes: bytes, file: "t.csv").forEachRow { _ in }
      Issue.record("invalid UTF-8 was accepted")
    } catch {
      #expect(error.diagnostics.first?.location == SourceLocation(file: "t.csv", line: 3, column: 9))
    }
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
      #expect(
        error.diagnostics.first?.message.hasPrefix("row 1: field 'name' holds invalid UTF-8 (byte 0xC3)")
          == true)
    }
  }
}

/// Shape does not matter: one very wide line, or records longer than the
/// chunk the reader streams by, parse in linear time with exact places.
struct CSVStreamingTests {
  func rows(of bytes: [UInt8]) throws -> [CSVReader.Row] {
    var rows: [CSVReader.Row] = []
    try CSVReader(bytes: bytes, file: "t.csv").forEachRow { rows.append($0) }
    return rows
  }

  func rows(ofFile bytes: [UInt8]) throws -> [CSVReader.Row] {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let named = DataFile.Named(
      what: "data file", table: "t", shownPath: "t.csv", missingAt: SourceLocation(file: "site.yml"),
      at: SourceLocation(file: "site.yml"))
    let reader = try CSVReader(path: url.path, named, limit: Int.max)
    var rows: [CSVReader.Row] = []
    try reader.forEachRow { rows.append($0) }
    return rows
  }

  /// A CR at the end of one chunk and its LF at the start of the next are
  /// one line end.
  @Test func aCRLFSplitAcrossChunksIsOneLineEnd() throws {
    let first = "id,name\r\n1," + String(repeating: "a", count: ChunkedFile.chunkSize - 12) + "\r"
    let good = Array((first + "\n2,b\r\n").utf8)
    #expect(good[ChunkedFile.chunkSize - 1] == UInt8(ascii: "\r"))
    #expect(try rows(ofFile: good).map(\.line) == [1, 2, 3])
    do {
      _ = try rows(ofFile: good + Array("3,\"open\n".utf8))
      Issue.record("the unterminated field was accepted")
    } catch {
      #expect(error.diagnostics.first?.location == SourceLocation(file: "t.csv", line: 4, column: 3))
    }
  }

  /// A guard against quadratic time, not a benchmark: at 200,000 fields
  /// the old reader took 18 s, and a million never finished.
  @Test func aMillionFieldsOnOneLineParseInLinearTime() throws {
    let count = 1_000_000
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * 3)
    for index in 0..<count {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes += index % 2 == 0 ? [0xC3, 0xA9] : [UInt8(ascii: "x")]  // é, x
    }
    bytes.append(UInt8(ascii: "\n"))
    let clock = ContinuousClock()
    let start = clock.now
    let parsed = try rows(ofFile: bytes)
    let elapsed = clock.now - start
    #expect(elapsed < .seconds(30), "one line of \(count) fields took \(elapsed)")
    let row = try #require(parsed.first)
    #expect(row.fields.count == count)
    #expect(row.columns.last == 2 * count - 1)
    #expect(row.fields.last == "x")
  }

  @Test func recordsAcrossChunkBoundariesReadAsFromMemory() throws {
    var text = "id,name,note\r\n"
    var index = 0
    while text.utf8.count < 3 * ChunkedFile.chunkSize + 1000 {
      index += 1
      switch index % 4 {
      case 0: text += "\(index),\"multi\nline \"\"quoted\"\"\",é\r\n"
      case 1: text += "\(index),plain,\n"
      case 2: text += "\(index),Café ☕,\"a, b\"\n\n"
      default: text += "\(index),x,y\r\n"
      }
    }
    let bytes = Array(text.utf8)
    let fromMemory = try rows(of: bytes)
    let fromFile = try rows(ofFile: bytes)
    #expect(fromMemory.count == index + 1)
    #expect(fromFile.map(\.fields) == fromMemory.map(\.fields))
    #expect(fromFile.map(\.line) == fromMemory.map(\.line))
    #expect(fromFile.map(\.columns) == fromMemory.map(\.columns))
    #expect(fromFile.map(\.lines) == fromMemory.map(\.lines))
  }

  @Test func aFieldLongerThanAChunkIsReadWhole() throws {
    let long = String(repeating: "ab\"\"c\n", count: ChunkedFile.chunkSize / 2)
    let text = "id,body\n1,\"\(long)\"\n2,after\n"
    let parsed = try rows(ofFile: Array(text.utf8))
    #expect(parsed.count == 3)
    #expect(parsed[1].fields[1] == long.replacingOccurrences(of: "\"\"", with: "\""))
    #expect(parsed[2].fields == ["2", "after"])
    #expect(parsed[2].line == 3 + ChunkedFile.chunkSize / 2)
  }

  @Test func aFieldAfterAQuotedNewlineIsPlacedOnItsOwnLine() throws {
    let parsed = try rows(of: Array("a,b,c\n1,\"x\ny\",z\n".utf8))
    #expect(parsed[1].lines == [2, 2, 3])
    #expect(parsed[1].columns == [1, 3, 4])
  }
}

extension Error {
  var diagnostics: [Diagnostic] { (self as? DiagnosticsError)?.diagnostics ?? [] }
}

/// One finder of invalid UTF-8 for every reader: its answer is the first
/// bad byte, in linear time.
struct UTF8CheckTests {
  func offset(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { UTF8Check.firstInvalidOffset(in: $0) }
  }

  @Test func findsTheFirstInvalidByte() {
    #expect(offset(Array("café".utf8)) == nil)
    #expect(offset(Array("caf".utf8) + [0xC3, 0x28]) == 3)
    #expect(offset(Array("ab".utf8) + [0xE2, 0x82]) == 2)
    #expect(offset([0xFF] + Array("x".utf8)) == 0)
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 2_000_000) + [0x80]
    #expect(offset(long) == 2_000_000)
  }

  @Test func aJSONStringWithEscapesPointsAtTheBadByte() throws {
    var bytes = Array(#"[{"id": 1, "name": "\u00e9t\"e "#.utf8)
    bytes += [0xFF]
    bytes += Array(#""}]"#.utf8)
    let found = bytes.withUnsafeBufferPointer { buffer -> GenerateKit.SourceLocation? in
      do {
        try JSONSource.forEachElement(of: buffer, file: "t.json", keyPath: nil, values: true) { _ in }
        return nil
      } catch {
        return error.diagnostics.first?.location
      }
    }
    #expect(found == SourceLocation(file: "t.json", line: 1, column: 32))
  }
}
