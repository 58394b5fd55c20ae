/// Words of column names that a reader knows in another form, for the
/// record page's labels and the names `init` writes: codes written in
/// capitals (`iata` → IATA), abbreviations spelt out (`tz` → Time zone,
/// `lat` → Latitude), a unit in parentheses (`elevation_ft` → Elevation
/// (ft)) and a language after a name (`name_ja` → Name (ja)).
/// airportsdata's columns (`icao`, `iata`, `subd`, `lat`, `lon`, `tz`)
/// and Wikidata-style `name_ja` needed each of these.
enum ReadableWords {
  /// Written in capitals.
  static let acronyms: Set<String> = [
    "id", "url", "isbn", "gdp", "iata", "icao", "faa", "iso", "fips", "uuid", "api", "csv", "json", "html",
    "http", "ip", "sku", "upc", "ean", "doi", "issn", "mpg", "imdb", "utc", "gps", "tld", "gtin", "asin",
    "ssn",
    "vat", "usd", "eur",
  ]
  /// Spelt out.
  static let expansions: [String: [String]] = [
    "tz": ["time", "zone"], "timezone": ["time", "zone"], "lat": ["latitude"], "lng": ["longitude"],
    "lon": ["longitude"], "subd": ["subdivision"], "elev": ["elevation"], "pop": ["population"],
    "abbr": ["abbreviation"], "abbrev": ["abbreviation"], "desc": ["description"], "qty": ["quantity"],
    "addr": ["address"], "tel": ["telephone"], "dob": ["date", "of", "birth"], "yr": ["year"],
  ]
  /// Units a name may end with, after the measure (and an optional `in`).
  static let units: Set<String> = [
    "ft", "m", "km", "mi", "cm", "mm", "kg", "g", "lb", "lbs", "oz", "ms", "kmh", "mph", "pct", "percent",
  ]
  /// Languages a name, title or description may be given in (`name_ja`).
  static let languages: Set<String> = [
    "en", "fr", "de", "es", "it", "pt", "nl", "ru", "ja", "zh", "ko", "ar", "he", "el", "pl", "sv", "da",
    "fi", "tr", "cs", "hu", "ro", "uk", "hi", "th", "vi", "fa", "nb", "nn", "ca", "eu", "gl",
  ]
  static let namedInLanguages: Set<String> = ["name", "title", "label", "description", "summary"]

  /// Lower-case words in, words for a label out: expansions spelt out, a
  /// unit or language as a last word in parentheses, capitals kept where
  /// the word is an acronym (`isAcronym` is asked of what comes out).
  static func rewrite(_ words: [String]) -> (words: [String], suffix: String?) {
    var words = words
    var suffix: String?
    if words.count > 1, let last = words.last {
      if units.contains(last) {
        words.removeLast()
        if words.count > 1, words.last == "in" { words.removeLast() }
        suffix = last == "pct" || last == "percent" ? "%" : last
      } else if languages.contains(last), namedInLanguages.contains(words[words.count - 2]) {
        words.removeLast()
        suffix = last
      }
    }
    words = words.flatMap { expansions[$0] ?? [$0] }
    return (words, suffix.map { "(\($0))" })
  }
}
