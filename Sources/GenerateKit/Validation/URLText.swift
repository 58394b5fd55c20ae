/// Small URL facts shared by the page and site checks, following the WHATWG
/// URL rules where they matter for a static site.
enum URLText {
  /// The value with the leading and trailing spaces a URL parser ignores,
  /// and the tabs and newlines it drops anywhere, removed.
  static func trimmed(_ value: String) -> String {
    guard value.utf8.contains(where: { $0 <= 0x20 }) else { return value }
    var scalars = Substring(value).unicodeScalars
    while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
    while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
    var result = String.UnicodeScalarView()
    for scalar in scalars where scalar != "\t" && scalar != "\n" && scalar != "\r" { result.append(scalar) }
    return String(result)
  }

  /// Whether the URL starts with a scheme: a letter, then letters, digits,
  /// `+`, `-` or `.`, then `:`.
  static func hasScheme(_ url: String) -> Bool {
    var isFirst = true
    for byte in url.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        break
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
        if isFirst { return false }
      case UInt8(ascii: ":"):
        return !isFirst
      default:
        return false
      }
      isFirst = false
    }
    return false
  }

  /// `%XX` sequences decoded as UTF-8; nil when there are none or they are
  /// not valid UTF-8.
  static func percentDecoded(_ text: String) -> String? {
    let source = Array(text.utf8)
    guard source.contains(UInt8(ascii: "%")) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(source.count)
    var index = 0
    while index < source.count {
      if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
        let high = source[index + 1].hexDigitValue, let low = source[index + 2].hexDigitValue
      {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(source[index])
        index += 1
      }
    }
    let decoded = String(decoding: bytes, as: UTF8.self)
    // Invalid UTF-8 decodes to U+FFFD, which re-encodes differently.
    return decoded.utf8.elementsEqual(bytes) ? decoded : nil
  }

  /// The folder a page's relative links resolve against, with its
  /// trailing slash (`artists/1-ac-dc/`), or empty at the root.
  static func folder(of page: String) -> Substring {
    guard let slash = page.lastIndex(of: "/") else { return "" }
    return page[...slash]
  }
}
