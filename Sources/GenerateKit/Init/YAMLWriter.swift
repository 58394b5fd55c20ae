/// The one way `init` writes YAML. Everything it writes that came from the
/// data — file paths, table, column and key names, titles, sample values,
/// labels, and the reasons in comments that quote them — goes through here,
/// because a name is not to become configuration: a file named
/// `a⏎siteURL: "https://evil.example"⏎#.csv` written raw would add keys of
/// its own to the config.
///
/// libyaml (which Yams, and so `ConfigLoader`, reads with) ends a line at
/// LF, CR, NEL (U+0085), LS (U+2028) and PS (U+2029), and refuses a
/// character outside YAML's printable set anywhere in the text, comments
/// included. So a value is written plain only when it is made of letters,
/// digits and a few harmless marks; otherwise double-quoted, with every
/// such character escaped. A comment has them escaped too, so nothing can
/// end it early.
enum YAMLWriter {
  /// Plain YAML words that do not read as the string they spell (booleans
  /// and null in YAML 1.1, which libyaml's resolver follows).
  static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"]

  /// Plain when YAML reads it back as the same string in block and flow
  /// context alike; else double-quoted.
  static func scalar(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
      !reserved.contains(text.lowercased()), Double(text) == nil,
      first.properties.isAlphabetic || first == "_",
      last != " "
    else { return quoted(text) }
    let allowed: Set<Unicode.Scalar> = ["_", ".", "/", "-", "(", ")", "'", "+", " ", "*"]
    for scalar in text.unicodeScalars
    where
      ControlEscapes.needsEscape(scalar)
      || !(scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        || scalar.properties.generalCategory == .nonspacingMark || allowed.contains(scalar))
    {
      return quoted(text)
    }
    return text
  }

  /// Whether the config's reader gives back a value as written. Yams
  /// decodes each value with Foundation, which drops a byte-order mark
  /// (U+FEFF) at its start however it is escaped, so a value that starts
  /// with one cannot be written; every other string can.
  static func readsBack(_ text: String) -> Bool {
    text.unicodeScalars.first != "\u{FEFF}"
  }

  /// A label made from the data, without the byte-order marks at its
  /// start that would not read back: for text `init` composes, where the
  /// mark means nothing.
  static func readable(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars
    while scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    return String(scalars)
  }

  /// A double-quoted scalar: `"` and `\` escaped, and every character
  /// libyaml would read as a line break or refuse as unprintable written
  /// as an escape, so the value stays on its line and reads back the same.
  static func quoted(_ text: String) -> String {
    "\"" + escaped(text, quote: true) + "\""
  }

  /// The text with line breaks and unprintable characters as YAML escapes
  /// (`\n`, `\u2028`); with `quote`, `"` and `\` too.
  static func escaped(_ text: String, quote: Bool) -> String {
    ControlEscapes.escaped(text, quote: quote)
  }

  /// A comment line at `indent` spaces. Its text cannot end it early: a
  /// line break or control character in a name it quotes is written as an
  /// escape, as in a quoted value.
  static func comment(_ text: String, indent: Int = 0) -> String {
    String(repeating: " ", count: indent) + "# " + escaped(text, quote: false)
  }

  /// A name or value inside a comment, in single quotes as the reasons
  /// quote names (`'artist_id'`), a quote in it doubled as YAML does, so
  /// where it starts and ends is plain; `comment` escapes the rest.
  static func named(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
  }

  /// libyaml reads a key written before `:` (a simple key) only when it is
  /// at most 1,024 characters; a longer key is written after `?`.
  static let longestSimpleKey = 512

  static func isLong(_ key: String) -> Bool { key.utf8.count > longestSimpleKey }

  /// `key: value` inside a flow mapping (`{ … }`); with `quotingKey`,
  /// the key double-quoted even where it could be plain (codes in
  /// `labels:`, so `L` and `"L"` read alike to a person).
  static func flowEntry(_ key: String, _ value: String, quotingKey: Bool = false) -> String {
    let written = quotingKey ? quoted(key) : scalar(key)
    return isLong(written) ? "? \(written) : \(value)" : "\(written): \(value)"
  }

  /// `key: value` in a block mapping at `indent` spaces; a long key as an
  /// explicit `? key` line followed by `: value`.
  static func blockEntry(_ key: String, _ value: String, indent: Int) -> [String] {
    let space = String(repeating: " ", count: indent)
    let written = scalar(key)
    guard isLong(written) else { return ["\(space)\(written): \(value)"] }
    return ["\(space)? \(written)", "\(space): \(value)"]
  }

  /// `key:` opening a nested block at `indent` spaces.
  static func blockKey(_ key: String, indent: Int) -> [String] {
    let space = String(repeating: " ", count: indent)
    let written = scalar(key)
    guard isLong(written) else { return ["\(space)\(written):"] }
    return ["\(space)? \(written)", "\(space):"]
  }

  static func flowList(_ items: [String]) -> String {
    "[" + items.map { scalar($0) }.joined(separator: ", ") + "]"
  }

  /// Text for a terminal: a name or value printed by `inspect` or `init`
  /// with its control characters as escapes, so a column name cannot move
  /// the cursor, clear the screen or forge a line of output.
  static func printable(_ text: String) -> String {
    escaped(text, quote: false)
  }
}
