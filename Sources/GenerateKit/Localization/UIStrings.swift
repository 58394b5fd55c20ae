import Yams

/// Every string a visitor sees or hears, in the site's language: the
/// built-in catalogue for `language:` (`Templates/strings/<language>.yml`,
/// carried in the binary with the rest of the theme), English for any key it
/// lacks, and the config's `strings:` over both. Templates read them as
/// `{{strings.key}}`; the page's script gets them written into its source
/// (`ScriptStrings`), so only the site's language ships and an English site's
/// script is byte for byte what it was.
public struct UIStrings: Sendable {
  /// The language the site declares (`language:`), as the page's `lang`.
  public var language: String
  /// The catalogue it found: `language`, its primary subtag (`pt-BR` → `pt`),
  /// or `en` when there is none.
  public var catalogue: String
  /// Text by key; a count's forms by `key.category` (`results.few`).
  var texts: [String: String]
  /// Keys that are counts, so their forms go by the language's plural rules.
  var counted: Set<String>
  /// Keys the catalogue had no text for, so English stands in (a warning under `--strict`).
  public var fellBack: [String] = []

  /// Languages written right to left: the page gets `dir="rtl"`.
  public var isRightToLeft: Bool { texts["direction"] == "rtl" }

  /// Codes that name a language whose catalogue has another: `no`, Norwegian,
  /// is written in Bokmål unless it says Nynorsk (`nn`).
  static let aliases = ["no": "nb"]

  /// The catalogue for `language` with English behind it.
  public static func builtIn(_ language: String) -> UIStrings {
    let english = Catalogue.english
    let primary = PluralRules.primary(language)
    let code =
      [language.lowercased(), primary, aliases[primary] ?? ""].first { Catalogue.all[$0] != nil } ?? "en"
    var strings = UIStrings(
      language: language, catalogue: code, texts: english.texts, counted: english.counted)
    guard code != "en", let own = Catalogue.all[code] else { return strings }
    for key in english.keys {
      if english.counted.contains(key) {
        let forms = PluralRules.categories(code).map { "\(key).\($0)" }
        if forms.allSatisfy({ own.texts[$0] != nil }) {
          for form in forms { strings.texts[form] = own.texts[form] }
        } else {
          strings.fellBack.append(key)
        }
      } else if let text = own.texts[key] {
        strings.texts[key] = text
      } else {
        strings.fellBack.append(key)
      }
    }
    return strings
  }

  /// The text of `key` with its `{name}`s filled in.
  public func text(_ key: String, _ values: [String: String] = [:]) -> String {
    Self.fill(texts[key] ?? key, values)
  }

  /// "{count} records" in the form `count` takes in this language.
  public func count(_ key: String, _ count: Int, _ values: [String: String] = [:]) -> String {
    let form = texts["\(key).\(PluralRules.category(count, catalogue))"] ?? texts["\(key).other"] ?? key
    return Self.fill(form, values.merging(["count": String(count)]) { given, _ in given })
  }

  /// A count's forms for the script: category → text, for the categories
  /// the language uses (English's where a language has fewer).
  func forms(_ key: String) -> [(category: String, text: String)] {
    guard let other = texts["\(key).other"] else { return [] }
    return PluralRules.categories(catalogue).map { ($0, texts["\(key).\($0)"] ?? other) }
  }

  /// What templates see as `strings`: every plain text, with the site's
  /// title and the search page's title filled in where a text names them.
  func templateValues(site: String, search: String) -> [String: String] {
    var values: [String: String] = [:]
    for (key, text) in texts where !key.contains(".") {
      values[key] = Self.fill(text, ["site": site, "search": search])
    }
    return values
  }

  /// `{name}` replaced by `values[name]`; a name not given stays as written.
  static func fill(_ text: String, _ values: [String: String]) -> String {
    guard text.contains("{") else { return text }
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      guard let close = rest[open...].firstIndex(of: "}") else { break }
      let name = String(rest[rest.index(after: open)..<close])
      result += values[name] ?? "{\(name)}"
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }

  /// The `{name}`s a text uses.
  static func placeholders(_ text: String) -> Set<String> {
    var names = Set<String>()
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      names.insert(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return names
  }

  /// Sets `key` (a plain key, or `key.category` of a count) to `text`.
  mutating func set(_ key: String, _ text: String) { texts[key] = text }
}
