/// Writes the site's strings into the page's script. The script names each
/// string where it is used, its English text after a `/*t:key*/` marker:
///
///     announce(/*t:recentsCleared*/'Recent searches cleared')
///     announce(/*t:filterAdded*/`Added filter ${label}: ${value}`)
///     count(r.total, /*t:results*/{ one: '{count} result', other: '{count} results' })
///
/// and the text after the marker is replaced by the site's: a quoted string
/// stays one, a template literal's `{name}`s become `${name}` (so a
/// translation can put the names in any order), and a count's object gets
/// the forms of the site's language. esbuild drops the markers, so an
/// English site's bundle is byte for byte the same as without them, and a
/// page never ships strings of a language it does not speak.
enum ScriptStrings {
  /// `/*t:snowball*/'any'`: not a string a visitor reads but the Snowball
  /// language the index's word forms follow (`es`), empty where it has none.
  static let snowballKey = "snowball"

  /// `source` with every marked text replaced; the keys not in `strings`
  /// (a user's script with a marker of its own) are left as written.
  static func apply(_ strings: UIStrings, to source: [UInt8]) -> [UInt8] {
    let marker = Array("/*t:".utf8)
    guard let first = find(marker, in: source, from: 0) else { return source }
    var output: [UInt8] = []
    output.reserveCapacity(source.count)
    var at = 0
    var next: Int? = first
    while let start = next {
      guard let close = find(Array("*/".utf8), in: source, from: start),
        let literalEnd = literalEnd(source, from: close + 2)
      else { break }
      let key = String(decoding: source[(start + marker.count)..<close], as: UTF8.self)
      guard let text = replacement(strings, key: key, literal: source[(close + 2)..<literalEnd]) else {
        next = find(marker, in: source, from: close)
        continue
      }
      output += source[at..<start]
      output += text.utf8
      at = literalEnd
      next = find(marker, in: source, from: literalEnd)
    }
    output += source[at...]
    return output
  }

  /// The literal to write for `key`, in the form the script wrote it.
  private static func replacement(_ strings: UIStrings, key: String, literal: ArraySlice<UInt8>) -> String? {
    guard let opening = literal.first else { return nil }
    switch opening {
    case UInt8(ascii: "{"):
      let forms = strings.forms(key)
      guard !forms.isEmpty else { return nil }
      return "{" + forms.map { "\($0.category):\(quoted($0.text))" }.joined(separator: ",") + "}"
    case UInt8(ascii: "`"):
      // The literal's `${…}`s stand, in order, for the {names} of the English text.
      guard let text = strings.texts[key], let english = Catalogue.english.texts[key] else { return nil }
      let names = placeholderOrder(english)
      // An expression may hold a marked text of its own (`${values.join(/*t:orWord*/' or ')}`).
      let expressions = templateExpressions(literal).map {
        String(decoding: apply(strings, to: Array($0.utf8)), as: UTF8.self)
      }
      guard names.count == expressions.count else { return nil }
      let expressionOf = Dictionary(zip(names, expressions), uniquingKeysWith: { first, _ in first })
      var body = ""
      var rest = Substring(text)
      while let open = rest.firstIndex(of: "{"), let end = rest[open...].firstIndex(of: "}") {
        let name = String(rest[rest.index(after: open)..<end])
        body += escapeTemplate(rest[..<open]) + "${" + (expressionOf[name] ?? "''") + "}"
        rest = rest[rest.index(after: end)...]
      }
      return "`" + body + escapeTemplate(rest) + "`"
    case UInt8(ascii: "'"), UInt8(ascii: "\""):
      // One build fact besides the words: the site's Snowball language, or empty, so that a
      // site Snowball does not stem (English has its own rules) folds `snowball.js`'s hook away.
      if key == snowballKey {
        let rules = WordForms.rules(forLanguage: strings.language)
        return quoted(rules == "en" ? "" : rules ?? "")
      }
      return strings.texts[key].map(quoted)
    default: return nil
    }
  }

  /// A JavaScript string literal (JSON's rules, which JavaScript shares).
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// The {names} of a text in the order they appear.
  static func placeholderOrder(_ text: String) -> [String] {
    var names: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      names.append(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return names
  }

  /// The source of each `${…}` of a template literal, in order (braces
  /// inside an expression nest; the theme's marked literals hold no strings
  /// with braces in their expressions).
  static func templateExpressions(_ literal: ArraySlice<UInt8>) -> [String] {
    var expressions: [String] = []
    var index = literal.startIndex
    while index < literal.endIndex {
      if literal[index] == UInt8(ascii: "\\") {
        index += 2
        continue
      }
      if literal[index] == UInt8(ascii: "$"), index + 1 < literal.endIndex,
        literal[index + 1] == UInt8(ascii: "{")
      {
        var depth = 1
        var end = index + 2
        while end < literal.endIndex, depth > 0 {
          if literal[end] == UInt8(ascii: "{") { depth += 1 }
          if literal[end] == UInt8(ascii: "}") { depth -= 1 }
          end += 1
        }
        expressions.append(String(decoding: literal[(index + 2)..<(end - 1)], as: UTF8.self))
        index = end
        continue
      }
      index += 1
    }
    return expressions
  }

  private static func escapeTemplate(_ text: Substring) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`")
      .replacingOccurrences(of: "$", with: "\\$")
  }

  /// Where the literal starting at `from` ends (one past its last byte):
  /// a quoted string or template literal up to its closing quote, an
  /// object of quoted strings up to its closing brace.
  static func literalEnd(_ bytes: [UInt8], from: Int) -> Int? {
    guard from < bytes.count else { return nil }
    let opening = bytes[from]
    var quote: UInt8? = opening == UInt8(ascii: "{") ? nil : opening
    guard quote == nil || [UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`")].contains(opening) else {
      return nil
    }
    var index = from + 1
    while index < bytes.count {
      let byte = bytes[index]
      if let open = quote {
        if byte == UInt8(ascii: "\\") {
          index += 2
          continue
        }
        if byte == open {
          if opening != UInt8(ascii: "{") { return index + 1 }
          quote = nil
        }
      } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
        quote = byte
      } else if byte == UInt8(ascii: "}") {
        return index + 1
      }
      index += 1
    }
    return nil
  }

  static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard let first = needle.first, needle.count <= haystack.count else { return nil }
    var index = from
    while index + needle.count <= haystack.count {
      if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) {
        return index
      }
      index += 1
    }
    return nil
  }
}
