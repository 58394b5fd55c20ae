/// swift-mustache's HTML escape (`String.htmlEscape`), a byte at a time:
/// `<`, `>`, `&`, `"` and `'` become `&lt;`, `&gt;`, `&amp;`, `&quot;` and
/// `&#39;`.
///
/// swift-mustache compares whole characters, so a `<` that a combining
/// mark follows (`<\u{338}`, "≮") or a prepended mark precedes is one
/// character and is left as it is. Only a non-ASCII byte next to one of
/// the five can make such a character; the text is then escaped as
/// swift-mustache does it, a character at a time.
enum HTMLEscape {
  static func append(_ text: String, to out: inout [UInt8]) {
    let start = out.count
    var text = text
    let plain = text.withUTF8 { bytes -> Bool in
      var from = 0
      for index in bytes.indices {
        let entity: StaticString
        switch bytes[index] {
        case UInt8(ascii: "<"): entity = "&lt;"
        case UInt8(ascii: ">"): entity = "&gt;"
        case UInt8(ascii: "&"): entity = "&amp;"
        case UInt8(ascii: "\""): entity = "&quot;"
        case UInt8(ascii: "'"): entity = "&#39;"
        default: continue
        }
        if index > 0 && bytes[index - 1] >= 0x80 || index + 1 < bytes.count && bytes[index + 1] >= 0x80 {
          return false
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<index]))
        out.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
        from = index + 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from...]))
      return true
    }
    if plain { return }
    out.removeSubrange(start...)
    out.append(contentsOf: byCharacter(text).utf8)
  }

  private static let entities: [Character: String] = [
    "<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;",
  ]

  /// swift-mustache's own loop.
  static func byCharacter(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.count)
    for character in text {
      if let entity = entities[character] {
        escaped += entity
      } else {
        escaped.append(character)
      }
    }
    return escaped
  }
}
