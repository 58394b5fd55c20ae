/// Word forms: the stem a term shares with its other forms in the site's
/// language, indexed beside the term so `loves` finds "Love", `canciones`
/// finds "Canción" and `странами` finds "Страна". English keeps its own rules:
/// Snowball English (Porter2) steps 1a–1c — plurals, `-ed`, `-ing`, and a final
/// `y` — the same as the browser's `engine/forms.js`, which
/// `Tests/Shared/word-forms-cases.json` holds both to. Every other language
/// Snowball covers is stemmed by its Snowball algorithm (`Snowball`, libstemmer);
/// the browser cannot run it, so the index carries what the engine needs
/// instead (FORMAT.md "Word forms"): every stem as a term of its own, and the
/// endings Snowball took off the site's words.
enum WordForms {
  /// Snowball's algorithm for each ISO 639-1 code it covers (libstemmer 2.2.0;
  /// `porter` and `english` aside, English has the rules below).
  static let algorithms: [String: String] = [
    "ar": "arabic", "ca": "catalan", "da": "danish", "de": "german", "el": "greek", "es": "spanish",
    "eu": "basque", "fi": "finnish", "fr": "french", "ga": "irish", "hi": "hindi", "hu": "hungarian",
    "hy": "armenian", "id": "indonesian", "it": "italian", "lt": "lithuanian", "nb": "norwegian",
    "ne": "nepali", "nl": "dutch", "nn": "norwegian", "no": "norwegian", "pt": "portuguese",
    "ro": "romanian", "ru": "russian", "sr": "serbian", "sv": "swedish", "ta": "tamil",
    "tr": "turkish", "yi": "yiddish",
  ]

  /// The manifest's `options.forms` for a site language: `en` for English, the
  /// language's code (`es`) where Snowball has an algorithm for it, nil (no
  /// word forms: exact words) otherwise.
  static func rules(forLanguage language: String) -> String? {
    let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
    if primary == "en" { return "en" }
    guard let algorithm = algorithms[primary], Snowball.named(algorithm) != nil else { return nil }
    return primary
  }

  /// The stem for `rules` (nil: the term itself). Snowball stems words of
  /// letters only: a term with a digit (`python3`, `1999`) is its own stem.
  static func stem(_ term: String, rules: String?) -> String {
    guard let rules else { return term }
    if rules == "en" { return englishStem(term) }
    guard let algorithm = algorithms[rules], let snowball = Snowball.named(algorithm),
      term.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic })
    else { return term }
    return snowball.stem(snowballInput(term, rules: rules))
  }

  /// The word Snowball is given: the term, but for Russian a final `й` after
  /// a vowel, which NFKD turned into `и` (`новыи` → `новый`), so adjectives
  /// lose their ending as Snowball's rules expect (`новыи` → `нов`, not `новы`).
  /// `Tests/tools/snowball_endings.py` gives its words the same.
  static func snowballInput(_ term: String, rules: String) -> String {
    guard rules == "ru", term.count > 1, term.last == "и", let before = term.dropLast().last,
      "аеиоуыэюя".contains(before)
    else { return term }
    return term.dropLast() + "й"
  }

  /// Whether the index holds `stem` beside a term of the site: English only
  /// when the term does not begin with it (the engine stems in the browser and
  /// finds `loves` from `love`'s shard); a Snowball language always, since the
  /// browser cannot stem — the stem's term is then every form's documents.
  static func indexes(stem: String, of term: String, rules: String?) -> Bool {
    stem != term && (rules != "en" || !term.hasPrefix(stem))
  }

  /// The manifest's `options.endings`, with which the engine finds a typed
  /// word's stem among the index's terms (`forms.js`), shortest first: the
  /// endings Snowball takes off the language's words (`SnowballEndings`, learnt
  /// from Debian's translations) and those it took off the site's own terms
  /// (`canciones` → `cancion`: `es`), each seen on at least `minimum` terms,
  /// at most 6 letters long. Nil for English and for a language without rules.
  static func endings(of terms: [String], rules: String?, minimum: Int = 2) -> [String]? {
    guard let rules, rules != "en" else { return nil }
    var counts: [String: Int] = [:]
    for term in terms {
      let stem = stem(term, rules: rules)
      guard stem != term, term.unicodeScalars.starts(with: stem.unicodeScalars) else { continue }
      let ending = String(String.UnicodeScalarView(term.unicodeScalars.dropFirst(stem.unicodeScalars.count)))
      if ending.unicodeScalars.count <= 6 { counts[ending, default: 0] += 1 }
    }
    let known = SnowballEndings.byLanguage[rules] ?? []
    return Set(known).union(counts.filter { $0.value >= minimum }.keys).sorted {
      let (a, b) = ($0.unicodeScalars.count, $1.unicodeScalars.count)
      return a != b ? a < b : $0.utf8.lexicographicallyPrecedes($1.utf8)
    }
  }

  private static let vowels: Set<UInt8> = Set("aeiouy".utf8)
  private static let doubles: Set<String> = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"]

  private static func isVowel(_ c: UInt8) -> Bool { vowels.contains(c) }

  /// Porter2's R1: what follows the first non-vowel after a vowel.
  private static func r1(_ w: [UInt8]) -> Int {
    for i in w.indices.dropFirst() where !isVowel(w[i]) && isVowel(w[i - 1]) { return i + 1 }
    return w.count
  }

  /// A short syllable ends the word: non-vowel, vowel, non-vowel other than
  /// w, x, y; or a two-letter word of vowel, non-vowel.
  private static func endsInShortSyllable(_ w: [UInt8]) -> Bool {
    let n = w.count
    if n == 2 { return isVowel(w[0]) && !isVowel(w[1]) }
    return n > 2 && !isVowel(w[n - 3]) && isVowel(w[n - 2]) && !Set("aeiouywx".utf8).contains(w[n - 1])
  }

  private static func hasVowel(_ w: ArraySlice<UInt8>) -> Bool { w.contains(where: isVowel) }

  static func englishStem(_ term: String) -> String {
    var w = Array(term.utf8)
    guard w.count >= 4, w.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else {
      return term
    }
    func ends(_ suffix: String) -> Bool {
      w.count >= suffix.utf8.count && w.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }
    // Step 1a: plurals.
    if ends("sses") {
      w.removeLast(2)
    } else if ends("ied") || ends("ies") {
      w.removeLast(w.count > 4 ? 2 : 1)
    } else if ends("us") || ends("ss") {
      // kept
    } else if ends("s") && hasVowel(w.dropLast(2)) {
      w.removeLast()
    }
    // Step 1b: -eed, -ed, -ing.
    if let eed = ["eedly", "eed"].first(where: ends) {
      if w.count - eed.utf8.count >= r1(w) { w.removeLast(eed.utf8.count - 2) }
    } else if let end = ["ingly", "edly", "ing", "ed"].first(where: ends),
      hasVowel(w.dropLast(end.utf8.count))
    {
      w.removeLast(end.utf8.count)
      if ends("at") || ends("bl") || ends("iz") {
        w.append(UInt8(ascii: "e"))
      } else if w.count >= 2, doubles.contains(String(decoding: w.suffix(2), as: UTF8.self)) {
        w.removeLast()
      } else if r1(w) >= w.count && endsInShortSyllable(w) {
        w.append(UInt8(ascii: "e"))
      }
    }
    // Step 1c: a final y after a non-vowel is i (country, countries → countri).
    if w.count > 2, w.last == UInt8(ascii: "y"), !isVowel(w[w.count - 2]) {
      w[w.count - 1] = UInt8(ascii: "i")
    }
    return String(decoding: w, as: UTF8.self)
  }
}
