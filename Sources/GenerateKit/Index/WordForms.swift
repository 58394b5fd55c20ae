/// Word forms: the stem a term shares with its other forms in the site's
/// language, indexed beside the term so `loves` finds "Love" and `countries`
/// finds "Country". English only: Snowball English (Porter2) steps 1a–1c —
/// plurals, `-ed`, `-ing`, and a final `y` — the same as the browser's
/// `engine/forms.js`; `Tests/Shared/word-forms-cases.json` holds both to it.
enum WordForms {
  /// The manifest's `options.forms` for a site language: `en` for English,
  /// nil (no word forms) for a language without rules.
  static func rules(forLanguage language: String) -> String? {
    let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
    return primary == "en" ? "en" : nil
  }

  /// The stem for `rules` (nil: the term itself).
  static func stem(_ term: String, rules: String?) -> String {
    rules == "en" ? englishStem(term) : term
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
