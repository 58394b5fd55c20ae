/// Finds where bytes stop being valid UTF-8, so an error can point at the
/// line and column instead of just naming the file: the one finder for
/// CSV fields, JSON strings, the config and templates. Linear in the bytes.
enum UTF8Check {
  /// The offset of the first byte of the first invalid sequence, or nil
  /// when every byte is valid UTF-8.
  static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  static func firstInvalidOffset(in bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
    firstInvalidOffset(in: UnsafeBufferPointer(rebasing: bytes))
  }

  /// The place of the first invalid byte of a whole file (lines end at
  /// `\n`), or its start when there is none.
  static func firstInvalidByte(in bytes: [UInt8], file: String) -> SourceLocation {
    bytes.withUnsafeBufferPointer { bytes in
      let offset = firstInvalidOffset(in: bytes) ?? 0
      var line = 1
      var column = 1
      for byte in bytes[..<offset] {
        if byte == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return SourceLocation(file: file, line: line, column: column)
    }
  }
}
