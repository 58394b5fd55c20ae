import Foundation
import GRDB
import Testing

@testable import GenerateKit

/// Bad input from every kind of source fails the build with the place in
/// that source (`file:line:column`, `database:table:row:column`, or the
/// config's line for what the config named), and leaves the published site
/// exactly as it was. Long on purpose: 36 cases of a few lines each, one
/// per source and fault, read best side by side.
@Suite struct BadSourceTests {
  /// The mini fixture with its artists table read from `source` (the YAML
  /// after `artists: `), built once with `good` files in place.
  struct Case {
    let project: TemporaryProject
    let before: [String: Data]

    init(source: String, good: (TemporaryProject) throws -> Void) throws {
      project = try TemporaryProject()
      let config = try project.read("site.yml").replacingOccurrences(
        of: "  artists: { file: data/artists.csv, key: id }", with: "  artists: \(source)")
      try project.write("site.yml", config)
      try good(project)
      _ = try project.build()
      before = try project.snapshot()
    }

    /// Breaks the project, builds, and checks the failure: a diagnostic
    /// containing `message`, at `file` (a suffix) `line`:`column`.
    func expectFailure(
      message: String, file: String, line: Int, column: Int,
      sourceLocation: Testing.SourceLocation = #_sourceLocation, breaking: (TemporaryProject) throws -> Void
    ) throws {
      defer { project.remove() }
      try breaking(project)
      let diagnostics = expectBuildFailure(project, sourceLocation: sourceLocation)
      let match = diagnostics.first { $0.message.contains(message) }
      #expect(
        match != nil, "no diagnostic containing \(message.debugDescription) in \(diagnostics)",
        sourceLocation: sourceLocation)
      if let match {
        #expect(match.location?.file.hasSuffix(file) == true, "\(match)", sourceLocation: sourceLocation)
        #expect(match.location?.line == line, "\(match)", sourceLocation: sourceLocation)
        #expect(match.location?.column == column, "\(match)", sourceLocation: sourceLocation)
      }
      #expect(try project.snapshot() == before, "the published site changed", sourceLocation: sourceLocation)
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
        $0.contains("staging")
      }
      #expect(leftovers.isEmpty, "a staging folder was left behind", sourceLocation: sourceLocation)
    }

    /// The 1-based line and column of `text`'s first occurrence in site.yml.
    func configPlace(of text: String) throws -> (line: Int, column: Int) {
      let lines = try project.read("site.yml").split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated() {
        if let range = line.range(of: text) {
          return (index + 1, line[..<range.lowerBound].unicodeScalars.count + 1)
        }
      }
      Issue.record("\(text) is not in site.yml")
      return (0, 0)
    }
  }

  static let artistsJSON =
    #"[{"id": 1, "name": "Beyoncé"}, {"id": 2, "name": "AC/DC"}, {"id": 3, "name": "Caetano Veloso"}]"#

  static func jsonCase() throws -> Case {
    try Case(source: "{ file: data/artists.json, key: id }") {
      try $0.write("data/artists.json", artistsJSON)
    }
  }

  static func jsonLinesCase() throws -> Case {
    try Case(source: "{ file: data/artists.jsonl, key: id }") {
      try $0.write(
        "data/artists.jsonl",
        "{\"id\": 1, \"name\": \"Beyoncé\"}\n{\"id\": 2, \"name\": \"AC/DC\"}\n{\"id\": 3, \"name\": \"Caetano Veloso\"}\n"
      )
    }
  }

  static func sqliteCase(
    _ source: String = "{ sqlite: data/music.sqlite, table: Artist, key: id }", extra: [String] = []
  ) throws -> Case {
    try Case(source: source) { project in
      let queue = try DatabaseQueue(path: project.path("data/music.sqlite"))
      try queue.write { db in
        try db.execute(sql: "CREATE TABLE Artist (id INTEGER, name TEXT)")
        try db.execute(sql: "INSERT INTO Artist VALUES (1, 'Beyoncé'), (2, 'AC/DC'), (3, 'Caetano Veloso')")
        for statement in extra { try db.execute(sql: statement) }
      }
    }
  }

  static func sqlite(_ project: TemporaryProject, _ statement: String) throws {
    let queue = try DatabaseQueue(path: project.path("data/music.sqlite"))
    try queue.write { db in try db.execute(sql: statement) }
  }

  // MARK: CSV

  @Test func csvDuplicateHeaderName() throws {
    let marked = Marked("id,name,1️⃣name\n1,Beyoncé,x\n2,AC/DC,y\n3,Caetano,z\n")
    try Case(source: "{ file: data/artists.csv, key: id }") { _ in }
      .expectFailure(
        message: "duplicate column name 'name' in table 'artists' (columns 2 and 3)",
        file: "data/artists.csv", line: marked.line, column: marked.column
      ) {
        try $0.write("data/artists.csv", marked.text)
      }
  }

  /// A `;` file's errors are at the field, counted by `;` as by commas.
  @Test func csvSemicolonSeparatedErrorsAreAtTheirField() throws {
    let marked = Marked("id;name\n1;\"Beyoncé; Knowles, B\"\n2;AC/DC;1️⃣x\n3;Caetano\n")
    try Case(source: #"{ file: data/artists.csv, separator: ";", key: id }"#) {
      try $0.write("data/artists.csv", "id;name\n1;\"Beyoncé; Knowles, B\"\n2;AC/DC\n3;Caetano\n")
    }
    .expectFailure(
      message: "record has 3 fields; the header has 2", file: "data/artists.csv", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.csv", marked.text)
    }
  }

  @Test func csvEmptyHeaderName() throws {
    let marked = Marked("id,name,1️⃣\n1,Beyoncé,x\n2,AC/DC,y\n3,Caetano,z\n")
    try Case(source: "{ file: data/artists.csv, key: id }") { _ in }
      .expectFailure(
        message: "column 3 of table 'artists' has an empty name", file: "data/artists.csv", line: marked.line,
        column: marked.column
      ) {
        try $0.write("data/artists.csv", marked.text)
      }
  }

  @Test func csvNULInAFieldIsAnErrorAtTheField() throws {
    let marked = Marked("id,name\n1,Beyoncé\n2,1️⃣AC\u{0}DC\n3,Caetano Veloso\n")
    try Case(source: "{ file: data/artists.csv, key: id }") { _ in }
      .expectFailure(
        message: "record 2: field 'name' contains the control character U+0000 (NUL)",
        file: "data/artists.csv", line: marked.line, column: marked.column
      ) {
        try $0.write("data/artists.csv", marked.text)
      }
  }

  @Test func csvControlCharacterInAQuotedMultilineField() throws {
    let marked = Marked("id,name\n1,Beyoncé\n2,AC/DC\n3,\"Caetano\nVeloso\",1️⃣\"x\u{7}\"\n")
    try Case(source: "{ file: data/artists.csv, key: id }") { _ in }
      .expectFailure(
        message: "record has 3 fields; the header has 2", file: "data/artists.csv", line: marked.line,
        column: marked.column
      ) {
        try $0.write("data/artists.csv", marked.text)
      }
  }

  @Test func csvC1ControlIsNamedAsAnEncodingProblem() throws {
    // In an id (in text it is dropped with a warning: ControlCharacterTests).
    let marked = Marked("id,name\n1️⃣1\u{85},Beyoncé\n2,AC/DC\n3,Caetano Veloso\n")
    try Case(source: "{ file: data/artists.csv, key: id }") { _ in }
      .expectFailure(
        message: "U+0085 (a C1 control, often text decoded with the wrong encoding)",
        file: "data/artists.csv", line: marked.line, column: marked.column
      ) {
        try $0.write("data/artists.csv", marked.text)
      }
  }

  @Test func csvKeyColumnMissingIsAtTheConfigsKey() throws {
    let c = try Case(source: "{ file: data/artists.csv, key: id }") { _ in }
    let place = try c.configPlace(of: "key: id }")
    try c.expectFailure(
      message: "table 'artists' has no key column 'id' (its columns: ident, name)", file: "site.yml",
      line: place.line, column: place.column + 5
    ) {
      try $0.write("data/artists.csv", "ident,name\n1,Beyoncé\n")
    }
  }

  // MARK: JSON

  @Test func jsonMissingFile() throws {
    let c = try Self.jsonCase()
    let place = try c.configPlace(of: "artists: {")
    try c.expectFailure(
      message: "artists.json' of table 'artists' does not exist", file: "site.yml", line: place.line,
      column: place.column
    ) {
      try FileManager.default.removeItem(atPath: $0.path("data/artists.json"))
    }
  }

  @Test func jsonMalformedAtItsLineAndColumn() throws {
    let marked = Marked("[\n  {\"id\": 1, \"name\": \"Beyoncé\"},\n  {\"id\": 2, \"name\" 1️⃣\"AC/DC\"}\n]")
    try Self.jsonCase().expectFailure(
      message: "malformed JSON: expected ':', found '\"'", file: "data/artists.json", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonRecordsWithoutACommaBetweenThem() throws {
    let marked = Marked("[\n  {\"id\": 1, \"name\": \"Beyoncé\"}\n  1️⃣{\"id\": 2, \"name\": \"AC/DC\"}\n]")
    try Self.jsonCase().expectFailure(
      message: "malformed JSON: expected ',' or ']', found '{'", file: "data/artists.json", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonUnterminatedString() throws {
    let marked = Marked("[{\"id\": 1, \"name\": 1️⃣\"Beyoncé}]")
    try Self.jsonCase().expectFailure(
      message: "malformed JSON: unterminated string", file: "data/artists.json", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonRawLineBreakInAString() throws {
    let marked = Marked("[{\"id\": 1, \"name\": \"Beyoncé1️⃣\n\"}]")
    try Self.jsonCase().expectFailure(
      message:
        "record 1: field 'name': malformed JSON: a control character (a line break) in a string must be written as an escape (\\n); if the string should end on this line, its closing quote is missing",
      file: "data/artists.json", line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  // MARK: JSON: the record and field of a failure
  // Each names the record (its number in the file) and the field being
  // read, found by reading the record again only once it has failed.

  static let latin1Fix =
    "save the file as UTF-8 (`iconv -f WINDOWS-1252 -t UTF-8` converts a Windows or Latin-1 export)"

  /// `text` with `@` replaced by the byte 0xE9 (Latin-1 é), written as is.
  static func writeLatin1(_ text: String, to file: String, in project: TemporaryProject) throws {
    let bytes = text.utf8.map { $0 == UInt8(ascii: "@") ? 0xE9 : $0 }
    try Data(bytes).write(to: project.root.appendingPathComponent(file))
  }

  @Test func jsonInvalidUTF8InAValueNamesTheRecordAndField() throws {
    try Self.jsonCase().expectFailure(
      message: "record 2: field 'name' holds invalid UTF-8 (byte 0xE9); \(Self.latin1Fix)",
      file: "data/artists.json", line: 2, column: 24
    ) {
      try Self.writeLatin1(
        "[{\"id\": 1, \"name\": \"Beyoncé\"},\n {\"id\": 2, \"name\": \"Caf@\"}]", to: "data/artists.json",
        in: $0)
    }
  }

  @Test func jsonInvalidUTF8InANestedValueNamesTheDottedField() throws {
    try Self.jsonCase().expectFailure(
      message: "record 1: field 'origin.city' holds invalid UTF-8 (byte 0xE9)",
      file: "data/artists.json", line: 1, column: 47
    ) {
      try Self.writeLatin1(
        "[{\"id\": 1, \"name\": \"B\", \"origin\": {\"city\": \"Qu@bec\"}}]", to: "data/artists.json", in: $0)
    }
  }

  @Test func jsonLinesInvalidUTF8InAFieldsName() throws {
    try Self.jsonLinesCase().expectFailure(
      message: "record 2: a field's name holds invalid UTF-8 (byte 0xE9); \(Self.latin1Fix)",
      file: "data/artists.jsonl", line: 2, column: 13
    ) {
      try Self.writeLatin1(
        "{\"id\": 1, \"name\": \"B\"}\n{\"id\": 2, \"n@me\": \"C\"}\n", to: "data/artists.jsonl", in: $0)
    }
  }

  @Test func jsonInvalidUTF8BetweenFieldsNamesTheFieldBefore() throws {
    try Self.jsonCase().expectFailure(
      message: "record 3, after field 'name': malformed JSON: expected a quoted name, found byte 0xE9",
      file: "data/artists.json", line: 1, column: 47
    ) {
      try Self.writeLatin1(
        "[{\"id\": 1}, {\"id\": 2}, {\"id\": 3, \"name\": \"C\", @}]", to: "data/artists.json", in: $0)
    }
  }

  @Test func jsonTruncatedDocumentNamesTheLastRecord() throws {
    let marked = Marked("[{\"id\": 1, \"name\": \"B\"},\n{\"id\": 2, \"name\": \"C\"1️⃣")
    try Self.jsonCase().expectFailure(
      message:
        "record 2: field 'name': malformed JSON: expected ',' or '}', found the end of the input",
      file: "data/artists.json", line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonLinesNULInAStringNamesTheRecordAndField() throws {
    let marked = Marked("{\"id\": 1, \"name\": \"B\"}\n{\"id\": 2, \"name\": \"C1️⃣\u{0}\"}\n")
    try Self.jsonLinesCase().expectFailure(
      message:
        "record 2: field 'name': malformed JSON: a control character (byte 0x00) in a string must be written as an escape",
      file: "data/artists.jsonl", line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.jsonl", marked.text)
    }
  }

  /// The record is the first level: its 200th list in is one too many.
  @Test func jsonDeepNestingNamesTheField() throws {
    let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
    let marked = Marked(
      "[{\"id\": 1, \"name\": \"B\", \"deep\": \(String(repeating: "[", count: 199))1️⃣\(deep.dropFirst(199))}]"
    )
    try Self.jsonCase().expectFailure(
      message: "record 1: field 'deep': JSON nested more than 200 levels deep", file: "data/artists.json",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  /// Line 5 of the file is its fourth record: a blank line is no record.
  @Test func jsonLinesABadLineInTheMiddleIsNamedByLineAndRecord() throws {
    var lines = (1...8).map { "{\"id\": \($0), \"name\": \"Artist \($0)\"}" }
    lines.insert("", at: 1)
    lines[4] = "{\"id\": 4, \"name\": \"Caf@\"}"
    try Self.jsonLinesCase().expectFailure(
      message: "record 4: field 'name' holds invalid UTF-8 (byte 0xE9)", file: "data/artists.jsonl", line: 5,
      column: 23
    ) {
      try Self.writeLatin1(lines.joined(separator: "\n") + "\n", to: "data/artists.jsonl", in: $0)
    }
  }

  @Test func jsonRecordThatIsNotAnObject() throws {
    let marked = Marked(
      "[{\"id\": 1, \"name\": \"Beyoncé\"},\n 1️⃣\"AC/DC\",\n {\"id\": 3, \"name\": \"Caetano\"}]")
    try Self.jsonCase().expectFailure(
      message: "record 2 is a string, not an object", file: "data/artists.json", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonDocumentThatIsAnObjectNeedsAPath() throws {
    let marked = Marked("1️⃣{\"artists\": []}")
    try Self.jsonCase().expectFailure(
      message: "expected an array of records, found an object; name the array inside it with 'path:'",
      file: "data/artists.json", line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonPathThatIsNotThere() throws {
    let c = try Case(source: "{ file: data/artists.json, path: data.items, key: id }") {
      try $0.write("data/artists.json", "{\"data\": {\"items\": \(Self.artistsJSON)}}")
    }
    let marked = Marked("{\"data\": 1️⃣{\"records\": \(Self.artistsJSON)}}")
    try c.expectFailure(
      message: "path 'data.items': this object has no key 'items' (its keys: records)",
      file: "data/artists.json", line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  /// A list is a field of several values (ListFieldTests), but not as the
  /// key, which names one record.
  @Test func jsonListAsTheKeyIsAnErrorAtTheRecord() throws {
    let marked = Marked(
      "[{\"id\": 1, \"name\": \"Beyoncé\"}, {\"id\": 1️⃣[2, 4], \"name\": [\"AC\", \"DC\"]}, {\"id\": 3, \"name\": \"C\"}]"
    )
    try Self.jsonCase().expectFailure(
      message: "record 2: field 'id' is a list; the key holds one value per record",
      file: "data/artists.json",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonRecordWithoutTheKeyTheConfigUses() throws {
    let marked = Marked(
      "[{\"id\": 1, \"name\": \"Beyoncé\"},\n 1️⃣{\"name\": \"AC/DC\"},\n {\"id\": 3, \"name\": \"C\"}]")
    try Self.jsonCase().expectFailure(
      message: "record has no field 'id', which the config uses (the key)", file: "data/artists.json",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonEscapedControlCharacterIsAtTheString() throws {
    let marked = Marked(
      "[{\"id\": 1, \"name\": \"Beyoncé\"}, {\"id\": 2, \"name\": 1️⃣\"AC\\u0007DC\"}, {\"id\": 3, \"name\": \"C\"}]"
    )
    try Self.jsonCase().expectFailure(
      message: "record 2: field 'name' contains the control character U+0007", file: "data/artists.json",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonDuplicateFieldInARecord() throws {
    let marked = Marked(
      "[{\"id\": 1, \"name\": \"Beyoncé\", 1️⃣\"name\": \"B\"}, {\"id\": 2, \"name\": \"AC/DC\"}, {\"id\": 3, \"name\": \"C\"}]"
    )
    try Self.jsonCase().expectFailure(
      message: "duplicate field 'name' in record 1", file: "data/artists.json", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonEmptyFieldName() throws {
    let marked = Marked(
      "[{\"id\": 1, \"name\": \"Beyoncé\", 1️⃣\"\": 1}, {\"id\": 2, \"name\": \"AC/DC\"}, {\"id\": 3, \"name\": \"C\"}]"
    )
    try Self.jsonCase().expectFailure(
      message: "column 3 of table 'artists' has an empty name", file: "data/artists.json", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.json", marked.text)
    }
  }

  @Test func jsonReferenceToAMissingRecordIsAtTheValue() throws {
    let c = try Case(source: "{ file: data/albums.json, key: id, refs: { artist_id: artists } }") { project in
      let config = try project.read("site.yml").replacingOccurrences(
        of: "  albums: { file: data/albums.csv, key: id, refs: { artist_id: artists } }",
        with: "  albums: { file: data/albums.json, key: id, refs: { artist_id: artists } }"
      )
      .replacingOccurrences(
        of: "  artists: { file: data/albums.json, key: id, refs: { artist_id: artists } }",
        with: "  artists: { file: data/artists.csv, key: id }")
      try project.write("site.yml", config)
      try project.write(
        "data/albums.json",
        #"[{"id": 10, "title": "Lemonade", "artist_id": 1}, {"id": 11, "title": "Back in Black", "artist_id": 2}, {"id": 12, "title": "Livro", "artist_id": 3}]"#
      )
    }
    let marked = Marked(
      "[{\"id\": 10, \"title\": \"Lemonade\", \"artist_id\": 1},\n {\"id\": 11, \"title\": \"Back in Black\", \"artist_id\": 1️⃣99},\n {\"id\": 12, \"title\": \"Livro\", \"artist_id\": 3}]"
    )
    try c.expectFailure(
      message: "record 11: artist_id refers to artists '99', which does not exist", file: "data/albums.json",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/albums.json", marked.text)
    }
  }

  // MARK: JSON Lines

  @Test func jsonLinesMalformedLine() throws {
    let marked = Marked(
      "{\"id\": 1, \"name\": \"Beyoncé\"}\n{\"id\": 2, \"name\": \"AC/DC\"1️⃣\n{\"id\": 3, \"name\": \"C\"}\n")
    try Self.jsonLinesCase().expectFailure(
      message: "malformed JSON: expected ',' or '}', found the end of the input", file: "data/artists.jsonl",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.jsonl", marked.text)
    }
  }

  @Test func jsonLinesTwoObjectsOnOneLine() throws {
    let marked = Marked("{\"id\": 1, \"name\": \"Beyoncé\"} 1️⃣{\"id\": 2, \"name\": \"AC/DC\"}\n")
    try Self.jsonLinesCase().expectFailure(
      message: "JSON Lines holds one object per line", file: "data/artists.jsonl", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.jsonl", marked.text)
    }
  }

  @Test func jsonLinesLineThatIsNotAnObject() throws {
    let marked = Marked("{\"id\": 1, \"name\": \"Beyoncé\"}\n1️⃣[2, \"AC/DC\"]\n{\"id\": 3, \"name\": \"C\"}\n")
    try Self.jsonLinesCase().expectFailure(
      message: "record 2 is a list, not an object", file: "data/artists.jsonl", line: marked.line,
      column: marked.column
    ) {
      try $0.write("data/artists.jsonl", marked.text)
    }
  }

  @Test func jsonLinesNumberOutOfRange() throws {
    let marked = Marked(
      "{\"id\": 1, \"name\": \"Beyoncé\"}\n{\"id\": 2, \"name\": 1️⃣1e999}\n{\"id\": 3, \"name\": \"C\"}\n")
    try Self.jsonLinesCase().expectFailure(
      message: "record 2: field 'name' holds the number 1e999, which is out of range",
      file: "data/artists.jsonl",
      line: marked.line, column: marked.column
    ) {
      try $0.write("data/artists.jsonl", marked.text)
    }
  }

  // MARK: SQLite

  @Test func sqliteMissingDatabase() throws {
    let c = try Self.sqliteCase()
    let place = try c.configPlace(of: "artists: {")
    try c.expectFailure(
      message: "music.sqlite' of table 'artists' does not exist", file: "site.yml", line: place.line,
      column: place.column
    ) {
      try FileManager.default.removeItem(atPath: $0.path("data/music.sqlite"))
    }
  }

  @Test func sqliteFileThatIsNotADatabase() throws {
    let c = try Self.sqliteCase()
    let place = try c.configPlace(of: "data/music.sqlite")
    try c.expectFailure(
      message: "as a SQLite database: file is not a database", file: "site.yml", line: place.line,
      column: place.column
    ) {
      try $0.write("data/music.sqlite", String(repeating: "not a database\n", count: 100))
    }
  }

  @Test func sqliteWrongTable() throws {
    let c = try Self.sqliteCase()
    let place = try c.configPlace(of: "Artist,")
    try c.expectFailure(
      message: "music.sqlite' has no table or view 'Artist' (it has: Performer)", file: "site.yml",
      line: place.line, column: place.column
    ) {
      try Self.sqlite($0, "ALTER TABLE Artist RENAME TO Performer")
    }
  }

  @Test func sqliteErrorInTheQuery() throws {
    let c = try Self.sqliteCase(
      #"{ sqlite: data/music.sqlite, query: "SELECT id, name FROM Artist ORDER BY id", key: id }"#)
    let place = try c.configPlace(of: "name FROM Artist")
    try c.expectFailure(
      message: "SQLite: no such column: name", file: "site.yml", line: place.line, column: place.column
    ) {
      try Self.sqlite($0, "ALTER TABLE Artist RENAME COLUMN name TO title")
    }
  }

  @Test func sqliteSyntaxErrorInABlockQueryIsAtTheQuery() throws {
    let c = try Self.sqliteCase(
      "\n    sqlite: data/music.sqlite\n    query: |\n      SELECT id, name\n      FROM Artist\n    key: id")
    let place = try c.configPlace(of: "|")
    try c.expectFailure(
      message: "SQLite: near \"FROM\": syntax error", file: "site.yml", line: place.line, column: place.column
    ) {
      let config = try $0.read("site.yml").replacingOccurrences(
        of: "      SELECT id, name\n", with: "      SELECT id, name,\n")
      try $0.write("site.yml", config)
    }
  }

  @Test func sqliteBlobThatIsNotText() throws {
    try Self.sqliteCase().expectFailure(
      message: "row 4: column 'name' holds binary data (a BLOB of 2 bytes)", file: "data/music.sqlite:Artist",
      line: 4, column: 2
    ) {
      try Self.sqlite($0, "INSERT INTO Artist VALUES (4, x'FF00')")
    }
  }

  @Test func sqliteTextThatIsNotUTF8() throws {
    try Self.sqliteCase().expectFailure(
      message: "row 2: column 'name' holds text that is not valid UTF-8", file: "data/music.sqlite:Artist",
      line: 2, column: 2
    ) {
      try Self.sqlite($0, "UPDATE Artist SET name = CAST(x'41C328' AS TEXT) WHERE id = 2")
    }
  }

  @Test func sqliteControlCharacterAtTableRowColumn() throws {
    try Self.sqliteCase().expectFailure(
      message: "record 3: field 'name' contains the control character U+0001",
      file: "data/music.sqlite:Artist", line: 3, column: 2
    ) {
      try Self.sqlite($0, "UPDATE Artist SET name = 'Caetano' || char(1) WHERE id = 3")
    }
  }

  @Test func sqliteDuplicateIdNamesBothRows() throws {
    try Self.sqliteCase().expectFailure(
      message: "duplicate id '2' in table 'artists' (first on row 2)", file: "data/music.sqlite:Artist",
      line: 4, column: 1
    ) {
      try Self.sqlite($0, "INSERT INTO Artist VALUES (2, 'Again')")
    }
  }

  @Test func sqliteMissingKeyColumnIsAtTheConfigsKey() throws {
    let c = try Self.sqliteCase(#"{ sqlite: data/music.sqlite, query: "SELECT * FROM Artist", key: id }"#)
    let place = try c.configPlace(of: "key: id }")
    try c.expectFailure(
      message: "table 'artists' has no key column 'id' (its columns: artist_id, name)", file: "site.yml",
      line: place.line, column: place.column + 5
    ) {
      try Self.sqlite($0, "ALTER TABLE Artist RENAME COLUMN id TO artist_id")
    }
  }

  @Test func sqliteDuplicateResultColumns() throws {
    let c = try Self.sqliteCase(
      #"{ sqlite: data/music.sqlite, query: "SELECT a.id, a.name FROM Artist a", key: id }"#)
    let place = try c.configPlace(of: "\"SELECT")
    try c.expectFailure(
      message: "duplicate column name 'id' in table 'artists' (columns 1 and 3)", file: "site.yml",
      line: place.line, column: place.column
    ) {
      let config = try $0.read("site.yml").replacingOccurrences(
        of: "SELECT a.id, a.name FROM", with: "SELECT a.id, a.name, a.id FROM")
      try $0.write("site.yml", config)
    }
  }

  @Test func sqliteColumnTheExpressionsUseIsMissing() throws {
    let c = try Self.sqliteCase()
    try c.expectFailure(
      message: "table 'artists' has no column or related table 'name'", file: "site.yml",
      line: try c.configPlace(of: "title: name").line, column: try c.configPlace(of: "title: name").column + 7
    ) {
      try Self.sqlite($0, "ALTER TABLE Artist RENAME COLUMN name TO title")
    }
  }
}
