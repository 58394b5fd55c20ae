/// Reads RFC 4180 CSV (a header row, quoted fields with doubled quotes,
/// `\n` or `\r\n` line ends) straight from bytes, keeping the line and
/// column of every field so errors can point at them. Hand-written rather
/// than SwiftCSV because it must report positions, reject invalid UTF-8
/// where it occurs, and stream a million rows without per-field objects.
struct CSVReader {
  struct Row {
    var fields: [String]
    /// 1-based line and column of each field's first byte.
    var line: Int
    var columns: [Int]
  }

  let bytes: [UInt8]
  let file: String

  init(bytes: [UInt8], file: String) {
    self.bytes = bytes
    self.file = file
  }

  func location(line: Int, byteOffset: Int, lineStart: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column(byteOffset: byteOffset, lineStart: lineStart))
  }

  /// 1-based column in Unicode scalars: every byte that does not continue a
  /// UTF-8 sequence starts one. Counted without building a string, since
  /// it runs for every field of every row.
  func column(byteOffset: Int, lineStart: Int) -> Int {
    var column = 1
    var index = lineStart
    while index < byteOffset {
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return column
  }

  /// Parses every row, calling `body` for each (header included, as row 0).
  func forEachRow(_ body: (Row) throws -> Void) throws {
    var index = 0
    let end = bytes.count
    if end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
    var line = 1
    var lineStart = index
    var fields: [String] = []
    var columns: [Int] = []
    var rowLine = 1
    var field: [UInt8] = []
    field.reserveCapacity(64)

    func finishField(start: Int, startLine: Int, startLineStart: Int) throws {
      guard let text = String(validating: field, as: UTF8.self) else {
        var offset = 0
        var validPrefix = field[...]
        while String(validating: validPrefix, as: UTF8.self) == nil, !validPrefix.isEmpty {
          validPrefix = validPrefix.dropLast()
        }
        offset = validPrefix.count
        throw DiagnosticsError(.error(
          at: location(line: startLine, byteOffset: min(start + offset, end), lineStart: startLineStart),
          "invalid UTF-8 in a field"))
      }
      fields.append(text)
      columns.append(column(byteOffset: start, lineStart: startLineStart))
      field.removeAll(keepingCapacity: true)
    }

    while index < end {
      let fieldStart = index
      let fieldLine = line
      let fieldLineStart = lineStart
      if fields.isEmpty {
        rowLine = line
        // Blank lines between records (and at the end) carry no record.
        if bytes[index] == UInt8(ascii: "\n") || bytes[index] == UInt8(ascii: "\r") {
          if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
          }
          index += 1
          continue
        }
      }
      if bytes[index] == UInt8(ascii: "\"") {
        index += 1
        var closed = false
        while index < end {
          let byte = bytes[index]
          if byte == UInt8(ascii: "\"") {
            if index + 1 < end && bytes[index + 1] == UInt8(ascii: "\"") {
              field.append(byte)
              index += 2
              continue
            }
            index += 1
            closed = true
            break
          }
          if byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
          }
          field.append(byte)
          index += 1
        }
        if !closed {
          throw DiagnosticsError(.error(
            at: location(line: fieldLine, byteOffset: fieldStart, lineStart: fieldLineStart),
            "unterminated quoted field"))
        }
        if index < end && bytes[index] != UInt8(ascii: ",") && bytes[index] != UInt8(ascii: "\n")
          && bytes[index] != UInt8(ascii: "\r")
        {
          throw DiagnosticsError(.error(
            at: location(line: line, byteOffset: index, lineStart: lineStart),
            "unexpected character after a closing quote; quotes inside a field must be doubled"))
        }
      } else {
        while index < end {
          let byte = bytes[index]
          if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
          if byte == UInt8(ascii: "\"") {
            throw DiagnosticsError(.error(
              at: location(line: line, byteOffset: index, lineStart: lineStart),
              "a quote inside an unquoted field; quote the whole field and double the quote"))
          }
          field.append(byte)
          index += 1
        }
      }
      try finishField(start: fieldStart, startLine: fieldLine, startLineStart: fieldLineStart)
      if index < end && bytes[index] == UInt8(ascii: ",") {
        index += 1
        if index == end || bytes[index] == UInt8(ascii: "\n") || bytes[index] == UInt8(ascii: "\r") {
          // A trailing comma means one more, empty field.
          fields.append("")
          columns.append(column(byteOffset: index, lineStart: lineStart))
        } else {
          continue
        }
      }
      if index < end && bytes[index] == UInt8(ascii: "\r") { index += 1 }
      if index < end && bytes[index] == UInt8(ascii: "\n") {
        index += 1
        line += 1
        lineStart = index
      }
      try body(Row(fields: fields, line: rowLine, columns: columns))
      fields.removeAll(keepingCapacity: true)
      columns.removeAll(keepingCapacity: true)
    }
  }
}
