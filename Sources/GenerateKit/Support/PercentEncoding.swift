/// Percent-encoding of UTF-8 bytes (RFC 3986): the bytes `keep` accepts as
/// they are, every other one as `%XX`. Byte by byte, without Foundation's
/// `CharacterSet` bridging, because it runs per record (search links) and
/// per request (the preview's redirects).
enum PercentEncoding {
  /// RFC 3986's unreserved characters: ASCII letters, digits and `-._~`.
  static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default:
      false
    }
  }

  /// `text` with every byte `keep` refuses written as `%XX` (upper-case hex).
  static func encode(_ text: String, keeping keep: (UInt8) -> Bool = isUnreserved) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
      if keep(byte) {
        bytes.append(byte)
      } else {
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
