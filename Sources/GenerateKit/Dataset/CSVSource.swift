/// Reads RFC 4180 CSV (a header row, quoted fields with doubled quotes,
/// `\n`, `\r\n` or a lone `\r` as line ends; fields separated by commas, or
/// by `;`, tabs or `|` as `separator` says) straight from bytes, keeping the line and
/// column of every field so errors can point at them. Hand-written rather
/// than SwiftCSV because it must report positions, reject invalid UTF-8
/// where it occurs, and read a million rows without per-field objects.
///
/// It streams: the file is read in chunks of `ChunkedFile.chunkSize`, and
/// only the record being parsed is kept beyond the current chunk. Time is
/// linear in the bytes and fields whatever the shape — columns are counted
/// with a cursor that only moves forward along a line, so one line of a
/// million fields costs no more than a million lines of one.
struct CSVReader {
  struct Row {
    var fields: [String]
    /// 1-based line the record starts on.
    var line: Int
    /// 1-based line and column (in Unicode scalars) of each field's first byte.
    var lines: [Int]
    var columns: [Int]
  }

  let file: String
  /// The byte between fields: one of `CSVSeparator.all`.
  let separator: UInt8
  private let input: ChunkedFile

  init(bytes: [UInt8], file: String, separator: UInt8 = CSVSeparator.comma) {
    self.file = file
    self.separator = separator
    self.input = ChunkedFile(bytes: bytes)
  }

  /// Reads the data file `path` (checked and opened by `ChunkedFile`).
  init(path: String, _ named: DataFile.Named, limit: Int, separator: UInt8 = CSVSeparator.comma) throws {
    self.file = named.shownPath
    self.separator = separator
    self.input = try ChunkedFile(path: path, named, limit: limit)
  }

  /// Parses every row, calling `body` for each (header included, as row 0).
  func forEachRow(_ body: (Row) throws -> Void) throws {
    var buffer: [UInt8] = []
    _ = try input.read(into: &buffer)
    while buffer.count < 3 && !input.atEnd { _ = try input.read(into: &buffer) }
    var parser = CSVRecordParser(file: file, separator: separator)
    if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
      parser.state.index = 3
      parser.state.lineStart = 3
    }
    var row = Row(fields: [], line: 1, lines: [], columns: [])
    while true {
      let atEnd = input.atEnd
      let outcome = try buffer.withUnsafeBufferPointer { bytes in
        try parser.parseRecord(bytes, atEnd: atEnd, into: &row)
      }
      switch outcome {
      case .row:
        if parser.rows == 0 { parser.header = row.fields }
        parser.rows += 1
        try body(row)
      case .end:
        return
      case .needMore:
        let drop = min(parser.state.index, parser.state.lineStart)
        if drop > 0 {
          buffer.removeSubrange(0..<drop)
          parser.state.shift(by: drop)
        }
        _ = try input.read(into: &buffer, minimum: max(ChunkedFile.chunkSize, buffer.count))
      }
    }
  }
}

/// The byte-level state machine behind `CSVReader`, over one buffer.
struct CSVRecordParser {
  struct State {
    var index = 0
    var line = 1
    /// Buffer offset of the current line's first byte.
    var lineStart = 0

    mutating func shift(by count: Int) {
      index -= count
      lineStart -= count
    }
  }

  /// Where invalid UTF-8 is, by record and field, and how to mend it: a
  /// spreadsheet's export in Windows-1252 or Latin-1 (`café` as `caf\xE9`).
  func invalidUTF8(field: Int, byte: UInt8) -> String {
    let hex = "0x" + String(byte, radix: 16, uppercase: true)
    let fix = "save the file as UTF-8 (`iconv -f WINDOWS-1252 -t UTF-8` converts a Windows or Latin-1 export)"
    guard rows > 0 else { return "column name \(field + 1) holds invalid UTF-8 (byte \(hex)); \(fix)" }
    let name = field < header.count ? "field '\(header[field])'" : "field \(field + 1)"
    return "row \(rows): \(name) holds invalid UTF-8 (byte \(hex)); \(fix)"
  }

  enum Outcome {
    case row
    case needMore
    case end
  }

  let file: String
  /// The byte between fields: a stored byte, not a closure, so the loops
  /// over bytes cost what they did with the comma as a constant.
  let separator: UInt8
  var state = State()
  /// The header's names and how many rows came before the one being
  /// parsed, for an error to name the record and field it is in.
  var header: [String] = []
  var rows = 0
  /// A forward-only column counter for the current line: (line start,
  /// offset, column at that offset).
  private var cursor = (lineStart: -1, offset: 0, column: 1)
  private var scratch: [UInt8] = []

  init(file: String, separator: UInt8 = CSVSeparator.comma) {
    self.file = file
    self.separator = separator
  }

  private static let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  /// The length of the line break at `index` (a line feed or carriage
  /// return there): 2 for CR LF, 1 for LF or a lone CR — both end a line, as
  /// they do for Python's csv module and in old Mac exports. Nil when a CR
  /// ends the buffer and the file has more, which may be its LF.
  static func lineBreak(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, atEnd: Bool) -> Int? {
    guard bytes[index] == carriageReturn else { return 1 }
    if index + 1 < bytes.count { return bytes[index + 1] == newline ? 2 : 1 }
    return atEnd ? 1 : nil
  }

  /// 1-based column in Unicode scalars: every byte that does not continue a
  /// UTF-8 sequence starts one. Counted from the last field's column, so a
  /// line is walked once however many fields it has.
  mutating func column(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int, lineStart: Int) -> Int {
    if cursor.lineStart != lineStart || offset < cursor.offset {
      cursor = (lineStart, lineStart, 1)
    }
    var position = cursor.offset
    var column = cursor.column
    while position < offset {
      if bytes[position] & 0xC0 != 0x80 { column += 1 }
      position += 1
    }
    cursor.offset = position
    cursor.column = column
    return column
  }

  func location(line: Int, column: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column)
  }

  /// Parses the record at `state.index` into `row`. Returns `.needMore`,
  /// with the state left at the record's start, when the buffer ends before
  /// the record does and the file has more.
  mutating func parseRecord(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool, into row: inout CSVReader.Row)
    throws
    -> Outcome
  {
    let end = bytes.count
    // A local, so the byte loops compare against a register rather than
    // reloading it through `self` (which they mutate).
    let separator = self.separator
    // Blank lines between records (and at the end) carry no record.
    while state.index < end
      && (bytes[state.index] == Self.newline || bytes[state.index] == Self.carriageReturn)
    {
      guard let length = Self.lineBreak(bytes, at: state.index, atEnd: atEnd) else { return .needMore }
      state.index += length
      state.line += 1
      state.lineStart = state.index
    }
    if state.index == end { return atEnd ? .end : .needMore }

    let saved = state
    var index = state.index
    var line = state.line
    var lineStart = state.lineStart
    row.fields.removeAll(keepingCapacity: true)
    row.lines.removeAll(keepingCapacity: true)
    row.columns.removeAll(keepingCapacity: true)
    row.line = line

    func needMore() -> Outcome {
      state = saved
      cursor.lineStart = -1
      return .needMore
    }

    while true {
      let fieldStart = index
      let fieldLine = line
      let fieldLineStart = lineStart
      var valueStart = index
      var valueEnd = index
      var escaped = false
      if index < end && bytes[index] == Self.quote {
        index += 1
        valueStart = index
        scratch.removeAll(keepingCapacity: true)
        var closed = false
        while index < end {
          let byte = bytes[index]
          if byte == Self.quote {
            if index + 1 == end && !atEnd { return needMore() }
            if index + 1 < end && bytes[index + 1] == Self.quote {
              scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[valueStart...index]))
              escaped = true
              index += 2
              valueStart = index
              continue
            }
            valueEnd = index
            index += 1
            closed = true
            break
          }
          if byte == Self.newline || byte == Self.carriageReturn {
            guard let length = Self.lineBreak(bytes, at: index, atEnd: atEnd) else { return needMore() }
            index += length
            line += 1
            lineStart = index
            continue
          }
          index += 1
        }
        if !closed {
          if !atEnd { return needMore() }
          throw DiagnosticsError(
            .error(
              at: location(
                line: fieldLine, column: column(bytes, offset: fieldStart, lineStart: fieldLineStart)),
              "unterminated quoted field"))
        }
        if index == end && !atEnd { return needMore() }
        if index < end && bytes[index] != separator && bytes[index] != Self.newline
          && bytes[index] != Self.carriageReturn
        {
          throw DiagnosticsError(
            .error(
              at: location(line: line, column: column(bytes, offset: index, lineStart: lineStart)),
              "unexpected character after a closing quote; quotes inside a field must be doubled"))
        }
      } else {
        while index < end {
          let byte = bytes[index]
          if byte == separator || byte == Self.newline || byte == Self.carriageReturn { break }
          if byte == Self.quote {
            throw DiagnosticsError(
              .error(
                at: location(line: line, column: column(bytes, offset: index, lineStart: lineStart)),
                "a quote inside an unquoted field; quote the whole field and double the quote"))
          }
          index += 1
        }
        if index == end && !atEnd { return needMore() }
        valueEnd = index
      }

      let raw = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
      let text: String?
      if escaped {
        scratch.append(contentsOf: raw)
        text = String(validating: scratch, as: UTF8.self)
      } else {
        text = String(validating: raw, as: UTF8.self)
      }
      guard let text else {
        // Doubled quotes are ASCII: the bad byte is one of the file's own,
        // found in the field as written, perhaps lines after its start.
        let contentStart =
          fieldStart < valueEnd && bytes[fieldStart] == Self.quote ? fieldStart + 1 : fieldStart
        let bad = contentStart + (UTF8Check.firstInvalidOffset(in: bytes[contentStart..<valueEnd]) ?? 0)
        var badLine = fieldLine
        var badLineStart = fieldLineStart
        var scan = contentStart
        while scan < bad {
          if bytes[scan] == Self.newline || bytes[scan] == Self.carriageReturn {
            scan += Self.lineBreak(bytes, at: scan, atEnd: true) ?? 1
            badLine += 1
            badLineStart = scan
          } else {
            scan += 1
          }
        }
        throw DiagnosticsError(
          .error(
            at: location(line: badLine, column: column(bytes, offset: bad, lineStart: badLineStart)),
            invalidUTF8(field: row.fields.count, byte: bytes[bad])))
      }
      row.fields.append(text)
      row.lines.append(fieldLine)
      row.columns.append(column(bytes, offset: fieldStart, lineStart: fieldLineStart))

      if index < end && bytes[index] == separator {
        index += 1
        if index == end && !atEnd { return needMore() }
        if index == end || bytes[index] == Self.newline || bytes[index] == Self.carriageReturn {
          // A trailing separator means one more, empty field.
          row.fields.append("")
          row.lines.append(line)
          row.columns.append(column(bytes, offset: index, lineStart: lineStart))
        } else {
          continue
        }
      }
      if index < end {
        guard let length = Self.lineBreak(bytes, at: index, atEnd: atEnd) else { return needMore() }
        index += length
        line += 1
        lineStart = index
      }
      state = State(index: index, line: line, lineStart: lineStart)
      return .row
    }
  }
}

/// Loads a CSV table: the header names the columns, every other record is
/// a row.
enum CSVSource {
  static func load(_ spec: SiteConfig.Table, path: String, _ named: DataFile.Named, limits: SiteConfig.Limits)
    throws -> Table
  {
    let shownPath = named.shownPath
    var separator = CSVSeparator.comma
    if case .csv(_, let declared)? = spec.source { separator = declared }
    let reader = try CSVReader(path: path, named, limit: limits.fileBytes, separator: separator)
    var builder: TableBuilder?
    var width = 0
    try reader.forEachRow { row in
      guard builder != nil else {
        let places = zip(row.lines, row.columns).map { SourceLocation(file: shownPath, line: $0, column: $1) }
        builder = try TableBuilder(
          spec: spec, file: shownPath, header: row.fields, places: places,
          fallback: SourceLocation(file: shownPath), kind: .text, limits: limits)
        width = row.fields.count
        return
      }
      guard row.fields.count == width else {
        let column = row.columns.count > width ? row.columns[width] : (row.columns.last ?? 1)
        let line = row.lines.count > width ? row.lines[width] : (row.lines.last ?? row.line)
        builder?.report(
          .error(
            at: SourceLocation(file: shownPath, line: line, column: column),
            "record has \(row.fields.count) fields; the header has \(width)"))
        return
      }
      builder?.append(row.fields, line: row.line, columns: row.columns, fieldLines: row.lines)
    }
    guard var builder else {
      throw DiagnosticsError(
        .error(at: SourceLocation(file: shownPath), "data file is empty; it needs a header row"))
    }
    return try builder.finish()
  }
}

/// The bytes a CSV file may separate its fields with, and how a config
/// names them: commas; `;` (spreadsheets where the decimal mark is a
/// comma); tabs (`.tsv`, `.tab`); `|`.
public enum CSVSeparator {
  public static let comma = UInt8(ascii: ","), semicolon = UInt8(ascii: ";")
  public static let tab = UInt8(ascii: "\t"), pipe = UInt8(ascii: "|")
  public static let all = [comma, semicolon, tab, pipe]

  /// The separator a file's name implies: tabs for `.tsv` and `.tab`.
  public static func implied(byFile file: String) -> UInt8 {
    let lower = file.lowercased()
    return lower.hasSuffix(".tsv") || lower.hasSuffix(".tab") ? tab : comma
  }

  /// Whether the file's name makes it a CSV file (`.csv`, `.tsv`, `.tab`).
  public static func isCSV(_ file: String) -> Bool {
    let lower = file.lowercased()
    return lower.hasSuffix(".csv") || lower.hasSuffix(".tsv") || lower.hasSuffix(".tab")
  }

  /// The separator a config's `separator:` value names: the character
  /// itself, or `tab` (or `\t` written unquoted) for a tab.
  public static func named(_ text: String) -> UInt8? {
    switch text {
    case ",": return comma
    case ";": return semicolon
    case "|": return pipe
    case "\t", "tab", "\\t": return tab
    default: return nil
    }
  }

  /// The value `init` writes for `separator:`.
  public static func written(_ separator: UInt8) -> String {
    separator == tab ? "tab" : "\"\(Character(Unicode.Scalar(separator)))\""
  }

  /// How a message names it.
  static func shown(_ separator: UInt8) -> String {
    separator == tab ? "tabs" : "'\(Character(Unicode.Scalar(separator)))'"
  }
}
