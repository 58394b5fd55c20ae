/// Control characters written as escapes (`\n`, `\r`, `\t`, `\u001B`), so
/// text that came from data — a file, column or key name, a value quoted in
/// a message — stays on its line: it cannot end a YAML line or comment
/// early, forge a line of a build's output, or move a terminal's cursor.
enum ControlEscapes {
  /// The text with every character `needsEscape` names as an escape; with
  /// `quote`, `"` and `\` too (for a double-quoted YAML scalar).
  static func escaped(_ text: String, quote: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { needsEscape($0) || (quote && ($0 == "\"" || $0 == "\\")) })
    else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"" where quote: out += "\\\""
      case "\\" where quote: out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if needsEscape(scalar) {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// A character that may not stand as itself inside a line: C0 and C1
  /// controls and DEL (tab included), the Unicode line and paragraph
  /// separators (libyaml and some terminals break lines at them), and what
  /// YAML's printable set leaves out of the Basic Multilingual Plane (the
  /// byte-order mark, which libyaml drops, U+FFFE and U+FFFF).
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: return true
    default: return false
    }
  }
}
