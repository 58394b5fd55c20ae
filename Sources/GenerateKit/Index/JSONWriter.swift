/// A minimal JSON encoder writing straight into bytes: keys sorted, no
/// white space, so the same value always gives the same bytes. Hand-written
/// because the index is mostly long integer arrays, which Foundation's
/// encoder boxes one by one.
struct JSONWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func int(_ value: Int) {
    if value == 0 {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    var magnitude = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      while magnitude > 0 {
        buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): raw("\\\"")
      case UInt8(ascii: "\\"): raw("\\\\")
      case UInt8(ascii: "\n"): raw("\\n")
      case UInt8(ascii: "\r"): raw("\\r")
      case UInt8(ascii: "\t"): raw("\\t")
      case 0..<0x20:
        raw("\\u00")
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 15)])
      default:
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Ascending integers as a JSON array of differences (first absolute).
  mutating func deltas<C: Collection>(_ values: C) where C.Element == Int32 {
    bytes.append(UInt8(ascii: "["))
    var previous: Int32 = 0
    var first = true
    for value in values {
      if !first { bytes.append(UInt8(ascii: ",")) }
      int(Int(value - previous))
      previous = value
      first = false
    }
    bytes.append(UInt8(ascii: "]"))
  }

  mutating func value(_ value: JSONValue) {
    switch value {
    case .int(let number): int(number)
    case .string(let text): string(text)
    case .bool(let flag): flag ? raw("true") : raw("false")
    case .null: raw("null")
    case .fragment(let fragment): fragment.write(into: &self)
    case .array(let items):
      bytes.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        self.value(item)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let pairs):
      bytes.append(UInt8(ascii: "{"))
      for (index, pair) in pairs.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
        .enumerated()
      {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        string(pair.key)
        bytes.append(UInt8(ascii: ":"))
        self.value(pair.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }
}

/// A JSON value: what `IndexEncoder` builds before writing it.
enum JSONValue {
  case int(Int)
  case string(String)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([String: JSONValue])
  /// A value that writes itself when the tree is written.
  case fragment(any JSONFragment)
}
