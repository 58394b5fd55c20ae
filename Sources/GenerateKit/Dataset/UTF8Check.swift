/// Finds where a byte sequence stops being valid UTF-8, so the error can
/// point at the line and column instead of just naming the file.
enum UTF8Check {
  static func firstInvalidByte(in bytes: [UInt8], file: String) -> SourceLocation {
    var offset = 0
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var line = 1
    var lineStart = 0
    var consumed = 0
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        let width = UTF8.width(scalar)
        if scalar == "\n" {
          line += 1
          lineStart = consumed + width
        }
        consumed += width
        offset = consumed
      case .emptyInput:
        break loop
      case .error:
        break loop
      }
    }
    let column =
      String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).unicodeScalars.count + 1
    return SourceLocation(file: file, line: line, column: column)
  }
}
