/// A JSON reader over bytes that knows the line and column of everything it
/// reads, so a malformed document, a record that is not an object or a
/// value that cannot be a table cell is reported at `file:line:column`.
/// Foundation's `JSONSerialization` gives no positions, and building its
/// tree of objects for a million records would cost far more than the
/// table itself; this reads records one at a time into flat fields.
/// Near 500 lines on purpose: the grammar and the positions it
/// reports share one cursor, and read best together.
struct JSONReader {
  /// One field of a record, nested objects flattened to dotted names.
  struct Field {
    var name: String
    var value: String
    /// Where the value starts.
    var line: Int
    var column: Int
    /// Where the name was written.
    var nameLine: Int
    var nameColumn: Int
    /// Why the value cannot be a table cell (a number out of range).
    var problem: String?
    /// The value is a list's items (`Table+Lists.swift`); `ofObjects`:
    /// the field of objects in a list (`editions.format`).
    var isList = false
    var ofObjects = false
    /// The value was a JSON `true` or `false`, or a number, not a string:
    /// what a template reads as a boolean or a number (`Table.booleanColumns`).
    var isBoolean = false
    var isNumber = false
    /// For a field of objects in a list, that list's name (`editions`).
    var array: String?

    /// Takes a scalar's text and problem, and whether it was a boolean or
    /// a number, from its first byte (`first`, before it was read).
    mutating func take(_ scalar: (text: String, problem: String?), first: UInt8?) {
      isBoolean = first == UInt8(ascii: "t") || first == UInt8(ascii: "f")
      isNumber =
        first.map { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
      value = scalar.text
      problem = scalar.problem
    }
  }

  /// A record's opening brace and its fields.
  struct Record {
    var line = 0
    var column = 0
    var fields: [Field] = []
  }

  static let maximumDepth = 200

  let bytes: UnsafeBufferPointer<UInt8>
  let file: String
  var index: Int
  var line: Int
  var lineStart: Int
  /// The dotted name of a list whose objects are read as records of
  /// their own into `items` (`itemsOf:`, a child table), not as fields.
  var split: String?
  var items: [JSONSource.Element] = []
  /// Lists read as child tables (`itemsOf:`), so not as fields of the
  /// parent: `editions` then names the table, not a column.
  var skipping: Set<String> = []
  /// Where the last failure was, and for a string holding invalid UTF-8
  /// what it says of the field ("holds invalid UTF-8 …"): what `naming`
  /// needs to put the record and field first.
  private(set) var failedAt = -1
  var failed: Bool { failedAt >= 0 }
  var failedPredicate: String?
  private var cursor = (lineStart: -1, offset: 0, column: 1)
  private var scratch: [UInt8] = []
  private var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>, file: String, line: Int = 1) {
    self.bytes = bytes
    self.file = file
    self.index = 0
    self.line = line
    self.lineStart = 0
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      index = 3
      lineStart = 3
    }
  }

  // MARK: Places

  /// The 1-based column of `offset` on the current line, in Unicode
  /// scalars; counted forward from the last answer so a long line (a
  /// minified document) is walked once.
  mutating func column(at offset: Int) -> Int {
    if cursor.lineStart != lineStart || offset < cursor.offset { cursor = (lineStart, lineStart, 1) }
    var position = cursor.offset
    var column = cursor.column
    while position < offset && position < bytes.count {
      if bytes[position] & 0xC0 != 0x80 { column += 1 }
      position += 1
    }
    cursor.offset = position
    cursor.column = column
    return column
  }

  mutating func location(at offset: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column(at: offset))
  }

  mutating func failure(_ message: String, at offset: Int? = nil) -> DiagnosticsError {
    failedAt = offset ?? index
    failedPredicate = nil
    return DiagnosticsError(.error(at: location(at: offset ?? index), message))
  }

  /// What the next byte is, for messages.
  func describeNext() -> String {
    guard index < bytes.count else { return "the end of the input" }
    let byte = bytes[index]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte \(Self.hex(byte))"
  }

  static func hex(_ byte: UInt8) -> String {
    "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
  }

  // MARK: Tokens

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D: index += 1
      case 0x0A:
        index += 1
        line += 1
        lineStart = index
      default: return
      }
    }
  }

  var atEnd: Bool { index >= bytes.count }

  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func expect(_ byte: UInt8, _ what: String) throws {
    guard peek() == byte else { throw failure("malformed JSON: expected \(what), found \(describeNext())") }
    index += 1
  }

  // MARK: Containers
  // The punctuation of objects and lists, written once: `open`, then per
  // member `memberName` and its value (per item just the value), then
  // `another` says whether one more follows.

  /// Consumes the `{` or `[` here; false (with the closer consumed) when the
  /// container is empty.
  mutating func open(closedBy closer: UInt8) -> Bool {
    index += 1
    skipWhitespace()
    guard peek() == closer else { return true }
    index += 1
    return false
  }

  /// A member's quoted name, and the `:` after it.
  mutating func memberName() throws -> String {
    skipWhitespace()
    guard peek() == UInt8(ascii: "\"") else {
      throw failure("malformed JSON: expected a quoted name, found \(describeNext())")
    }
    let name = try readString()
    skipWhitespace()
    try expect(UInt8(ascii: ":"), "':'")
    return name
  }

  /// After a member or item: true past a `,`, false past the closer.
  mutating func another(closedBy closer: UInt8) throws -> Bool {
    skipWhitespace()
    if peek() == UInt8(ascii: ",") {
      index += 1
      return true
    }
    guard peek() == closer else {
      throw failure(
        "malformed JSON: expected ',' or '\(Character(Unicode.Scalar(closer)))', found \(describeNext())")
    }
    index += 1
    return false
  }

  /// What kind of value starts here, for messages ("an object", "a list").
  func kindOfNext() -> String {
    switch peek() {
    case UInt8(ascii: "{"): return "an object"
    case UInt8(ascii: "["): return "a list"
    case UInt8(ascii: "\""): return "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
    case UInt8(ascii: "n"): return "null"
    default: return "a number"
    }
  }

  /// Reads a string; the reader is at its opening quote.
  mutating func readString() throws -> String {
    let open = index
    index += 1
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        if let text = String(validating: raw, as: UTF8.self) { return text }
        throw invalidUTF8(from: start)
      }
      if byte == UInt8(ascii: "\\") { return try readEscapedString(open: open, start: start) }
      if byte < 0x20 { throw controlCharacter(byte) }
      index += 1
    }
    throw failure("malformed JSON: unterminated string", at: open)
  }

  /// A raw control character in a string: a line
  /// break is most often a quote never closed (a truncated record).
  private mutating func controlCharacter(_ byte: UInt8) -> DiagnosticsError {
    guard byte == 0x0A || byte == 0x0D else {
      return failure(
        "malformed JSON: a control character (byte \(Self.hex(byte))) in a string must be written as an escape (\\u00XX)"
      )
    }
    return failure(
      "malformed JSON: a control character (a line break) in a string must be written as an escape (\\n); if the string should end on this line, its closing quote is missing"
    )
  }

  /// The string from `start` to the closing quote just read holds invalid
  /// UTF-8: where, in the document (escapes are ASCII, so the bad byte is
  /// one of the document's own).
  private mutating func invalidUTF8(from start: Int) -> DiagnosticsError {
    let offset = start + (UTF8Check.firstInvalidOffset(in: bytes[start..<(index - 1)]) ?? 0)
    let predicate =
      "holds invalid UTF-8 (byte \(Self.hex(bytes[offset]))); save the file as UTF-8 (`iconv -f WINDOWS-1252 -t UTF-8` converts a Windows or Latin-1 export)"
    let error = failure("a string \(predicate)", at: offset)
    failedPredicate = predicate
    return error
  }

  private mutating func readEscapedString(open: Int, start: Int) throws -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        if let text = String(validating: scratch, as: UTF8.self) { return text }
        throw invalidUTF8(from: start)
      }
      if byte < 0x20 { throw controlCharacter(byte) }
      guard byte == UInt8(ascii: "\\") else {
        scratch.append(byte)
        index += 1
        continue
      }
      let escape = index
      index += 1
      guard let code = peek() else { break }
      index += 1
      switch code {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(code)
      case UInt8(ascii: "b"): scratch.append(0x08)
      case UInt8(ascii: "f"): scratch.append(0x0C)
      case UInt8(ascii: "n"): scratch.append(0x0A)
      case UInt8(ascii: "r"): scratch.append(0x0D)
      case UInt8(ascii: "t"): scratch.append(0x09)
      case UInt8(ascii: "u"):
        var value = try hex4(escape: escape)
        if (0xD800...0xDBFF).contains(value) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else {
            throw failure(
              "malformed JSON: a \\u escape of a high surrogate must be followed by a low one", at: escape)
          }
          index += 2
          let low = try hex4(escape: escape)
          guard (0xDC00...0xDFFF).contains(low) else {
            throw failure(
              "malformed JSON: a \\u escape of a high surrogate must be followed by a low one", at: escape)
          }
          value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
          throw failure("malformed JSON: a lone low surrogate in a \\u escape", at: escape)
        }
        guard let scalar = Unicode.Scalar(value) else {
          throw failure("malformed JSON: bad \\u escape", at: escape)
        }
        scratch.append(contentsOf: String(Character(scalar)).utf8)
      default:
        throw failure("malformed JSON: unknown escape '\\\(Character(Unicode.Scalar(code)))'", at: escape)
      }
    }
    throw failure("malformed JSON: unterminated string", at: open)
  }

  private mutating func hex4(escape: Int) throws -> UInt32 {
    guard index + 4 <= bytes.count else {
      throw failure("malformed JSON: a \\u escape needs four hex digits", at: escape)
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = bytes[index].hexDigitValue else {
        throw failure("malformed JSON: a \\u escape needs four hex digits", at: escape)
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// Reads a number as the expression language prints it: integers as
  /// written (so a 19-digit id keeps every digit), others through `Double`.
  mutating func readNumber() throws -> (text: String, problem: String?) {
    let start = index
    if peek() == UInt8(ascii: "-") { index += 1 }
    guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
      index = start
      throw failure("malformed JSON: unexpected \(describeNext())")
    }
    index += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    var integer = true
    if peek() == UInt8(ascii: ".") {
      integer = false
      index += 1
      guard try requireDigits() else {
        throw failure("malformed JSON: a digit must follow the decimal point")
      }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      integer = false
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard try requireDigits() else { throw failure("malformed JSON: digits must follow the exponent") }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if integer { return (text == "-0" ? "0" : text, nil) }
    guard let value = Double(text), value.isFinite else {
      return (text, "holds the number \(text), which is out of range")
    }
    return (Value.format(value), nil)
  }

  private mutating func skipDigits() {
    while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
  }

  private mutating func requireDigits() throws -> Bool {
    let start = index
    skipDigits()
    return index > start
  }

  mutating func readLiteral(_ word: String, _ text: String) throws -> String {
    for byte in word.utf8 {
      guard peek() == byte else { throw failure("malformed JSON: unexpected \(describeNext())") }
      index += 1
    }
    return text
  }

  // MARK: Values

  /// Reads any value and throws it away (checking it is well formed).
  mutating func skipValue() throws {
    skipWhitespace()
    switch peek() {
    case UInt8(ascii: "{"):
      try enter()
      defer { depth -= 1 }
      guard open(closedBy: UInt8(ascii: "}")) else { return }
      repeat {
        _ = try memberName()
        try skipValue()
      } while try another(closedBy: UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      try enter()
      defer { depth -= 1 }
      guard open(closedBy: UInt8(ascii: "]")) else { return }
      repeat { try skipValue() } while try another(closedBy: UInt8(ascii: "]"))
    default:
      _ = try readScalar()
    }
  }

  /// Guards the stack against a hostile document of deeply nested lists.
  private mutating func enter() throws {
    guard depth < Self.maximumDepth else {
      throw failure("JSON nested more than \(Self.maximumDepth) levels deep")
    }
    depth += 1
  }

  /// Reads a string, number, boolean or null as cell text (null → "").
  mutating func readScalar() throws -> (text: String, problem: String?) {
    switch peek() {
    case UInt8(ascii: "\""): return (try readString(), nil)
    case UInt8(ascii: "t"): return (try readLiteral("true", "true"), nil)
    case UInt8(ascii: "f"): return (try readLiteral("false", "false"), nil)
    case UInt8(ascii: "n"): return (try readLiteral("null", ""), nil)
    case nil: throw failure("malformed JSON: the input ends where a value should be")
    default: return try readNumber()
    }
  }

  /// Reads the object here as one record: nested objects become dotted
  /// names (`artist.name`); a list becomes list fields (`readList`).
  /// With `values` false only names and places are gathered.
  mutating func readRecord(values: Bool = true) throws -> Record {
    var record = Record(line: line, column: column(at: index))
    try readObject(prefix: "", values: values, into: &record.fields)
    return record
  }

  private mutating func readObject(prefix: String, values: Bool, into fields: inout [Field]) throws {
    try enter()
    defer { depth -= 1 }
    guard open(closedBy: UInt8(ascii: "}")) else { return }
    repeat {
      skipWhitespace()
      let (nameLine, nameColumn) = (line, column(at: index))
      let name = prefix + (try memberName())
      skipWhitespace()
      var field = Field(
        name: name, value: "", line: line, column: column(at: index), nameLine: nameLine,
        nameColumn: nameColumn)
      if name == split {
        try readSplit()
        continue
      }
      if !skipping.isEmpty && skipping.contains(name) {
        try skipValue()
        continue
      }
      switch peek() {
      case UInt8(ascii: "{"):
        try readObject(prefix: name + ".", values: values, into: &fields)
      case UInt8(ascii: "["):
        try readList(field, values: values, into: &fields)
      default:
        if values {
          let first = peek()
          field.take(try readScalar(), first: first)
        } else {
          try skipValue()
        }
        fields.append(field)
      }
    } while try another(closedBy: UInt8(ascii: "}"))
  }

  /// The list `split` names, each object in it read as a record (with
  /// values: those are the child table's) into `items`; null is an empty
  /// list, and anything else is an item that is not an object.
  private mutating func readSplit() throws {
    let name = split
    split = nil
    defer { split = name }
    let what = kindOfNext()
    guard peek() == UInt8(ascii: "[") else {
      let location = location(at: index)
      try skipValue()
      if what != "null" { items.append(.other(location, what)) }
      return
    }
    try enter()
    defer { depth -= 1 }
    guard open(closedBy: UInt8(ascii: "]")) else { return }
    repeat {
      skipWhitespace()
      if peek() == UInt8(ascii: "{") {
        items.append(.record(try readRecord()))
      } else {
        let location = location(at: index)
        let kind = kindOfNext()
        try skipValue()
        items.append(.other(location, kind))
      }
    } while try another(closedBy: UInt8(ascii: "]"))
  }

  /// Reads the list here as fields of its record, each marked a list: its
  /// scalars are the items of `field` itself (null and "" are none); the
  /// fields of objects in it are lists named `field.member` (an array of
  /// editions gives `editions.format` and `editions.pages`), so nothing
  /// in an array is refused; a list inside it adds to the same field.
  private mutating func readList(_ field: Field, values: Bool, into fields: inout [Field]) throws {
    var lists = ListFields(template: field)
    try readItems(named: field.name, values: values, into: &lists)
    fields += lists.fields()
  }

  /// The list fields one array makes, in the order their names appear.
  private struct ListFields {
    var template: Field
    var names: [String] = []
    var items: [String: [String]] = [:]
    var problems: [String: String] = [:]

    mutating func declare(_ name: String) {
      if items[name] == nil {
        names.append(name)
        items[name] = []
      }
    }

    mutating func add(_ item: String, to name: String, problem: String?) {
      declare(name)
      if let problem, problems[name] == nil { problems[name] = problem }
      // An item cannot hold the character that separates a cell's items.
      if item.utf8.contains(Table.itemSeparatorByte), problems[name] == nil {
        problems[name] =
          "contains the control character U+001F; only tab and line breaks may appear in text"
      }
      if !item.isEmpty { items[name, default: []].append(item) }
    }

    func fields() -> [Field] {
      names.map { name in
        var field = template
        field.name = name
        field.value = Table.cell(ofItems: items[name] ?? [])
        field.problem = problems[name]
        field.isList = true
        field.ofObjects = name != template.name
        if field.ofObjects { field.array = template.name }
        return field
      }
    }
  }

  private mutating func readItems(named name: String, values: Bool, into lists: inout ListFields) throws {
    try enter()
    defer { depth -= 1 }
    // An empty array is an empty list; one of objects only names their
    // fields (`editions` holds no value of its own).
    guard open(closedBy: UInt8(ascii: "]")) else {
      lists.declare(name)
      return
    }
    repeat {
      skipWhitespace()
      try readItem(named: name, values: values, into: &lists)
    } while try another(closedBy: UInt8(ascii: "]"))
  }

  /// One item of a list, or one member of an object inside a list: a
  /// scalar adds to the list `name`, an array's items and an object's
  /// members add to it and the lists it names.
  private mutating func readItem(named name: String, values: Bool, into lists: inout ListFields) throws {
    switch peek() {
    case UInt8(ascii: "["): try readItems(named: name, values: values, into: &lists)
    case UInt8(ascii: "{"): try readItemObject(prefix: name + ".", values: values, into: &lists)
    default:
      guard values else {
        lists.declare(name)
        try skipValue()
        return
      }
      let (text, problem) = try readScalar()
      lists.add(text, to: name, problem: problem)
    }
  }

  /// An object inside a list: each member adds to the list `prefix +
  /// member`; nested objects extend the name as in a record.
  private mutating func readItemObject(prefix: String, values: Bool, into lists: inout ListFields) throws {
    try enter()
    defer { depth -= 1 }
    guard open(closedBy: UInt8(ascii: "}")) else { return }
    repeat {
      let name = prefix + (try memberName())
      skipWhitespace()
      try readItem(named: name, values: values, into: &lists)
    } while try another(closedBy: UInt8(ascii: "}"))
  }
}
