/// 64-bit FNV-1a: content addresses for file names, entity tags, and the
/// stable colour of a record. Not a security hash — it only has to change
/// when the bytes change.
enum ContentHash {
  static func value<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// The 32-bit variant, which record colours and the index's term shares
  /// have always used: kept so a record keeps its colour, and a term its
  /// share, across versions.
  static func value32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    return hash
  }

  /// The first `digits` hex digits of the hash (16 at most).
  static func hex<Bytes: Sequence>(_ bytes: Bytes, digits: Int = 10) -> String where Bytes.Element == UInt8 {
    let text = String(value(bytes), radix: 16)
    return String((String(repeating: "0", count: 16 - text.count) + text).prefix(digits))
  }
}
