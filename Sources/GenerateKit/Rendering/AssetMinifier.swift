/// Takes comments and indentation out of the hand-written CSS and
/// JavaScript as they are copied into the site — a quarter of their bytes —
/// without a minifier's risks: it never joins lines or renames anything, and
/// it leaves the inside of strings and template literals alone.
enum AssetMinifier {
  static func minify(_ bytes: [UInt8], path: String) -> [UInt8] {
    guard let text = String(validating: bytes, as: UTF8.self) else { return bytes }
    if path.hasSuffix(".js") || path.hasSuffix(".mjs") { return Array(javaScript(text).utf8) }
    if path.hasSuffix(".css") { return Array(css(text).utf8) }
    return bytes
  }

  /// Drops whole-line `//` comments, `/* … */` blocks that start a line, and
  /// leading white space — except inside a multi-line template literal.
  static func javaScript(_ text: String) -> String {
    var output: [Substring] = []
    var inTemplate = false
    var inBlockComment = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if inTemplate {
        output.append(line)
        inTemplate = togglesTemplate(line, startingInside: true)
        continue
      }
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if inBlockComment {
        if trimmed.contains("*/") {
          inBlockComment = false
          let rest = trimmed.range(of: "*/").map { trimmed[$0.upperBound...].drop { $0 == " " } } ?? ""
          if !rest.isEmpty { output.append(rest) }
        }
        continue
      }
      if trimmed.isEmpty || trimmed.hasPrefix("//") { continue }
      if trimmed.hasPrefix("/*") {
        if let end = trimmed.range(of: "*/") {
          let rest = trimmed[end.upperBound...].drop { $0 == " " }
          if !rest.isEmpty { output.append(rest) }
        } else {
          inBlockComment = true
        }
        continue
      }
      output.append(trimmed)
      inTemplate = togglesTemplate(trimmed, startingInside: false)
    }
    return output.joined(separator: "\n") + "\n"
  }

  /// Whether a line leaves a template literal open: backticks outside
  /// quotes and outside a trailing `//` comment, with escapes honoured.
  static func togglesTemplate(_ line: Substring, startingInside: Bool) -> Bool {
    var inside = startingInside
    var quote: Character?
    var escaped = false
    var previous: Character = " "
    for character in line {
      defer { previous = character }
      if escaped {
        escaped = false
        continue
      }
      if character == "\\" {
        escaped = true
        continue
      }
      if let open = quote {
        if character == open { quote = nil }
        continue
      }
      if inside {
        if character == "`" { inside = false }
        continue
      }
      if character == "/" && previous == "/" { break }
      if character == "\"" || character == "'" {
        quote = character
      } else if character == "`" {
        inside = true
      }
    }
    return inside
  }

  /// Drops `/* … */` comments and leading white space, then the spaces
  /// `tightCSS` drops.
  static func css(_ text: String) -> String {
    var result = ""
    var index = text.startIndex
    var quote: Character?
    while index < text.endIndex {
      let character = text[index]
      if let open = quote {
        result.append(character)
        if character == open { quote = nil }
        index = text.index(after: index)
        continue
      }
      if character == "\"" || character == "'" {
        quote = character
      } else if character == "/", text[index...].hasPrefix("/*") {
        guard let end = text[index...].range(of: "*/") else { break }
        index = end.upperBound
        continue
      }
      result.append(character)
      index = text.index(after: index)
    }
    return tightCSS(
      result.split(separator: "\n").map { $0.drop { $0 == " " || $0 == "\t" } }.filter { !$0.isEmpty }
        .joined(separator: "\n") + "\n")
  }

  /// Drops the spaces and tabs CSS never needs, outside strings: after a
  /// comma or a colon (`rgba(118, 118, 128, .12)`, `--tint: #fa2d48`,
  /// `(hover: hover)` — esbuild leaves custom properties' values and media
  /// features as written), before a comma, and on either side of `{`, `}`
  /// and `;`. Never before a colon (`a :hover` is a descendant), never
  /// around `+`, `-` or `>`, and not after a colon that ends a value, as
  /// in `--empty: ;`. Lines stay as they are.
  static func tightCSS(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    func dropsSpaceAfter(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: ",") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
        || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")
    }
    func dropsSpaceBefore(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: ",") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
        || byte == UInt8(ascii: ";")
    }
    var quote: UInt8?
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if let open = quote {
        output.append(byte)
        if byte == UInt8(ascii: "\\"), index < bytes.count {
          output.append(bytes[index])
          index += 1
        } else if byte == open {
          quote = nil
        }
        continue
      }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
        output.append(byte)
        continue
      }
      if isBlank(byte) {
        var end = index
        while end < bytes.count, isBlank(bytes[end]) { end += 1 }
        let before = output.last
        let after = end < bytes.count ? bytes[end] : nil
        let emptyValue =
          before == UInt8(ascii: ":") && (after == UInt8(ascii: ";") || after == UInt8(ascii: "}"))
        if !emptyValue
          && (before.map(dropsSpaceAfter) == true || after.map(dropsSpaceBefore) == true || after == nil)
        {
          index = end
          continue
        }
        output.append(byte)
        continue
      }
      output.append(byte)
    }
    return String(decoding: output, as: UTF8.self)
  }
}
