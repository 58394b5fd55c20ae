/// Columns of ISO 3166-1 country codes (`GB`, `GBR`): a facet and a
/// subtitle read "United Kingdom" through a `labels:` map `init` fills in
/// from Debian's iso-codes (`CountryCodes+Names.swift`), where other codes
/// get a map to fill in by hand.
enum CountryCodes {
  /// Where the names come from, for the config's comment.
  static func source(_ language: String) -> String {
    translations(language).isEmpty
      ? "English names of the ISO 3166-1 country codes, from Debian's iso-codes"
      : "Names of the ISO 3166-1 country codes in '\(language)', from Debian's iso-codes (English where untranslated)"
  }

  /// A country's English name in the site's language, where iso-codes
  /// translates it; else in English.
  static func name(_ english: String, in language: String) -> String {
    translations(language)[english] ?? english
  }

  /// How many distinct values a column needs before its values alone say
  /// countries; fewer when its name says so too.
  static let fewestByValues = 8
  static let fewestByName = 3

  /// Words of a column's name that say it holds something else written in
  /// two or three capitals that are often country codes too: a language
  /// (`DE`, `FR`), a size, a state or province (`CA`, `GA`), a currency, an
  /// airport.
  static let otherWords: Set<String> = [
    "lang", "language", "languages", "locale", "size", "sizes", "currency", "state", "states", "province",
    "provinces", "region", "regions", "subd", "subdivision", "county", "script", "unit", "units", "airport",
    "iata", "icao", "grade", "class", "status", "type", "kind",
  ]

  /// Whether a column's name says countries: `country`, `country_code`,
  /// `iso_country`, `nation`, `nationality`, `cc`, `ctry`.
  static func isCountryName(_ words: [String]) -> Bool {
    words.contains { $0.contains("countr") || $0.hasPrefix("nation") || $0 == "cc" || $0 == "ctry" }
  }

  /// Each value's country name, when nine in ten of a column's distinct
  /// `values` are alpha-2 codes, or nine in ten alpha-3 codes, and its
  /// `name` does not say they are something else. Without a name that
  /// says countries the codes must be capitals and more of them (eight
  /// languages `EN`, `DE`, `FR`… are not nine in ten countries, and US
  /// states are about half). A value that is no code is not in the map.
  static func names(of values: [String], column name: String) -> [String: String]? {
    let words = Naming.words(name)
    guard !words.contains(where: otherWords.contains) else { return nil }
    let named = isCountryName(words)
    guard values.count >= (named ? fewestByName : fewestByValues),
      let length = values.first?.count, length == 2 || length == 3,
      values.allSatisfy({ $0.count == length })
    else { return nil }
    var result: [String: String] = [:]
    for value in values {
      guard named || value.allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
      let code = value.uppercased()
      if let country = length == 2 ? Self.names[code] : Self.alpha2[code].flatMap({ Self.names[$0] }) {
        result[value] = country
      }
    }
    return result.count * 10 >= values.count * 9 ? result : nil
  }
}
