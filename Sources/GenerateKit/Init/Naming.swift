import Foundation

/// Names for what `init` writes, made from table and column names: table
/// names an expression can use bare, ids a URL can hold, labels a person
/// reads, and field names in camel case.
enum Naming {
  /// A table name from a file or database table name: letters of any
  /// script, digits and `_`, lower-cased, not starting with a digit.
  static func tableName(_ raw: String) -> String {
    var scalars = String.UnicodeScalarView()
    var lastWasUnderscore = false
    for scalar in raw.lowercased().unicodeScalars {
      let keep = ExpressionParser.isIdentifier(scalar, first: false)
      if keep && scalar != "_" {
        scalars.append(scalar)
        lastWasUnderscore = false
      } else if !lastWasUnderscore && !scalars.isEmpty {
        scalars.append("_")
        lastWasUnderscore = true
      }
    }
    var name = String(scalars)
    while name.hasSuffix("_") { name.removeLast() }
    if name.isEmpty { return "table" }
    if let first = name.unicodeScalars.first, !ExpressionParser.isIdentifier(first, first: true) {
      name = "t_" + name
    }
    return name
  }

  /// An id for files and URLs (`[a-z0-9][a-z0-9_-]*`, at most 64): other
  /// characters become `-`; `fallback` when nothing is left.
  static func id(_ raw: String, fallback: String) -> String {
    var text = ""
    // Other scripts in Latin letters first: 作家 → zuo-jia, Café → cafe.
    for scalar in latin(raw).lowercased().unicodeScalars {
      let allowed = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
      if allowed {
        text.unicodeScalars.append(scalar)
      } else if !text.hasSuffix("-") {
        text += "-"
      }
    }
    while let first = text.first, first == "-" || first == "_" { text.removeFirst() }
    while text.hasSuffix("-") { text.removeLast() }
    text = String(text.prefix(64))
    while text.hasSuffix("-") { text.removeLast() }
    return text.isEmpty ? fallback : text
  }

  /// Other scripts in Latin letters, without diacritics.
  static func latin(_ text: String) -> String {
    guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
    return text.applyingTransform(.toLatin, reverse: false)?.applyingTransform(
      .stripDiacritics, reverse: false)
      ?? text
  }

  /// The words of a name: `media_types` → media, types; `trackId` → track, id.
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previousWasLower = false
    for character in name {
      if character == "_" || character == "-" || character == " " || character == "." {
        if !current.isEmpty { words.append(current) }
        current = ""
        previousWasLower = false
        continue
      }
      if character.isUppercase && previousWasLower && !current.isEmpty {
        words.append(current)
        current = ""
      }
      current.append(character)
      previousWasLower = character.isLowercase || character.isNumber
    }
    if !current.isEmpty { words.append(current) }
    return words.map { $0.lowercased() }
  }

  /// `media_types` → `Media Types`; `tz` → `Time Zone`, `iata` → `IATA`
  /// (as the record page labels columns: `ReadableWords`).
  static func label(_ name: String) -> String {
    let (parts, suffix) = ReadableWords.rewrite(words(name))
    guard !parts.isEmpty else { return name }
    let text = parts.map {
      ReadableWords.acronyms.contains($0) ? $0.uppercased() : $0.prefix(1).uppercased() + $0.dropFirst()
    }.joined(separator: " ")
    return suffix.map { text + " " + $0 } ?? text
  }

  /// A facet's label: its column's, but for the name inside an object or
  /// a list of objects, labelled by what holds it (`publisher.name` →
  /// `Publisher`, `authors.name` → `Authors`).
  static func facetLabel(_ name: String) -> String {
    let parts = name.split(separator: ".")
    guard parts.count >= 2, let last = parts.last, ["name", "title", "label"].contains(last.lowercased())
    else {
      return label(name)
    }
    return label(parts.dropLast().joined(separator: "."))
  }

  /// English singular of the last word: `categories` → `category`.
  static func singular(_ word: String) -> String {
    let lower = word.lowercased()
    guard lower.count > 3, lower.last == "s", !lower.hasSuffix("ss"), !lower.hasSuffix("us"),
      !lower.hasSuffix("is")
    else { return word }
    if ["series", "species"].contains(where: lower.hasSuffix) { return word }
    if lower.hasSuffix("ies") {
      // Nouns in -ie keep it: movies → movie, cookies → cookie.
      if ieNouns.contains(where: { lower.hasSuffix($0 + "s") }) { return String(word.dropLast()) }
      return String(word.dropLast(3)) + "y"
    }
    for ending in ["sses", "xes", "ches", "shes", "zes"] where lower.hasSuffix(ending) {
      return String(word.dropLast(2))
    }
    return String(word.dropLast())
  }

  /// Nouns ending in -ie, whose plural ends in -ies as a -y noun's does.
  static let ieNouns = [
    "movie", "cookie", "zombie", "rookie", "hippie", "calorie", "genie", "prairie", "brownie", "selfie",
    "smoothie", "goalie", "auntie", "pixie", "sortie", "necktie", "freebie", "indie", "techie", "veggie",
  ]

  /// English plural of the last word of a name: `country` → `countries`.
  static func plural(_ name: String) -> String {
    let lower = name.lowercased()
    if lower.hasSuffix("s") && !lower.hasSuffix("ss") { return name }
    if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
      return String(name.dropLast()) + "ies"
    }
    for ending in ["ss", "x", "ch", "sh", "z"] where lower.hasSuffix(ending) { return name + "es" }
    return name + "s"
  }

  /// The singular of a name, word by word only at its end: `media_types` → `media_type`.
  static func singularName(_ name: String) -> String {
    var parts = words(name)
    guard let last = parts.popLast() else { return name }
    return (parts + [singular(last)]).joined(separator: "_")
  }

  /// Lower camel case in ASCII letters and digits, as Mustache names must
  /// be: (`artist`, `name`) → `artistName`; (`作家`, `名前`) → `zuoJiaMingQian`.
  static func camel(_ parts: [String]) -> String {
    let all = parts.flatMap { part in
      words(latin(part)).map {
        String(
          $0.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) })
      }
      .filter { !$0.isEmpty }
    }
    guard let first = all.first else { return "field" }
    return first + all.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// What a reference column names, without its id ending: `artist_id`
  /// → `artist`, `MediaTypeId` → `media_type`, `maker` → `maker`.
  static func stem(_ column: String) -> String {
    var parts = words(column)
    if parts.count > 1, let last = parts.last, SchemaInference.idSuffixes.contains(last) {
      parts.removeLast()
    }
    return parts.joined(separator: "_")
  }

  /// Lower-case letters and digits only, for comparing names: `Media_Type-ID` → `mediatypeid`.
  static func squashed(_ name: String) -> String {
    String(name.lowercased().filter { $0.isLetter || $0.isNumber })
  }

  /// A column or table name as an expression writes it: bare when it is
  /// letters, digits and `_`, else in backquotes; a dotted JSON column
  /// (`artist.name`) segment by segment.
  static func expression(_ name: String) -> String {
    name.split(separator: ".", omittingEmptySubsequences: false).map { segment in
      let scalars = segment.unicodeScalars
      let bare =
        !scalars.isEmpty
        && scalars.enumerated().allSatisfy { ExpressionParser.isIdentifier($1, first: $0 == 0) }
      return bare ? String(segment) : "`\(segment)`"
    }.joined(separator: ".")
  }
}

extension FacetIcons {
  /// Words in a facet's name that choose its icon; `tag` for any other.
  static let iconWords: [(icon: String, words: Set<String>)] = [
    ("genre", ["genre", "genres", "style", "styles"]),
    ("calendar", ["year", "years", "decade", "date", "month", "day", "season", "era"]),
    ("globe", ["continent", "country", "countries", "region", "language", "languages", "nation"]),
    ("place", ["city", "cities", "place", "location", "venue", "state", "province", "town"]),
    (
      "person",
      ["artist", "author", "maker", "person", "people", "composer", "writer", "creator", "director"]
    ),
    ("folder", ["category", "categories", "type", "kind", "section", "department", "collection", "group"]),
    ("star", ["rating", "stars", "grade"]),
    ("clock", ["duration", "length", "time", "period"]),
  ]

  static func icon(forName name: String) -> String {
    let words = Naming.words(name)
    for (icon, names) in iconWords where words.contains(where: names.contains) && Self.names.contains(icon) {
      return icon
    }
    return "tag"
  }
}
