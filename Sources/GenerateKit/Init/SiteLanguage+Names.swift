import Foundation

/// The language of a catalogue of names — countries, towns, products —
/// which have few small words: "Alankomaat", "Yhdistyneet
/// arabiemiirikunnat" and "Järvenpää" are Finnish by the company their
/// letters keep. Each language's commonest letter trigrams
/// (`LanguageProfiles`, from wordfreq's word lists, written by
/// `Tests/tools/language_profiles.py`) give a trigram's cost by its rank
/// (Zipf: frequency falls as 1 / rank), and the language that spells the
/// data's words cheapest, clearly ahead of the next, is the data's. Names
/// of the whole world (Kabul, Shanghai, Kinshasa) are spelt as no language
/// of `init`'s spells its words, or as Malay and Tagalog do, so a list of
/// them stays English.
extension SiteLanguage {
  /// Profiles of languages `init` never picks, there only to draw away the
  /// words they would spell: a Malay or Chinese place name is no evidence
  /// of Indonesian, a Slovak one none of Czech.
  static let namesOnlyAgainst: Set<String> = ["ca", "fil", "is", "lt", "lv", "ms", "sh", "sk", "sl"]

  /// A trigram beyond a profile's 2,000 costs as if it ranked 8,000th.
  static let unlistedRank = 8_000

  /// Each language's cost of a trigram, in bits: log2(rank + 2).
  static let trigramCosts: [(code: String, costs: [String: Double])] = LanguageProfiles.trigrams
    .sorted { $0.key < $1.key }
    .map { code, text in
      var costs: [String: Double] = [:]
      var trigram = ""
      var rank = 0
      for character in text where !character.isWhitespace {
        trigram.append(character)
        guard trigram.count == 3 else { continue }
        if costs[trigram] == nil { costs[trigram] = log2(Double(rank + 2)) }
        rank += 1
        trigram = ""
      }
      return (code, costs)
    }

  /// How much cheaper, in bits a trigram on average, the data's language
  /// must spell its words than the next language does.
  static let namesMargin = 0.2

  /// The language of names, or nil when none is clear: the language that
  /// spells the words of four Latin letters or more cheapest, all together,
  /// by `namesMargin` over the next (English and `namesOnlyAgainst`
  /// included), if it is one `init` picks other than English, over at
  /// least 50 trigrams (about ten words).
  static func namesLanguage(_ texts: [String]) -> String? {
    var words: [Substring: Int] = [:]
    for text in texts where !TableProfile.missingWords.contains(text) {
      for word in text.lowercased().split(whereSeparator: { !$0.isLetter })
      where word.count >= 4 && word.unicodeScalars.allSatisfy({ script(of: $0) == .latin }) {
        words[word, default: 0] += 1
      }
    }
    let unlisted = log2(Double(unlistedRank + 2))
    var totals = [Double](repeating: 0, count: trigramCosts.count)
    var trigramCount = 0
    for (word, count) in words {
      let letters = Array("_" + word + "_")
      let trigrams = (0..<(letters.count - 2)).map { String(letters[$0..<($0 + 3)]) }
      trigramCount += trigrams.count * count
      for (index, profile) in trigramCosts.enumerated() {
        totals[index] += Double(count) * trigrams.reduce(0) { $0 + (profile.costs[$1] ?? unlisted) }
      }
    }
    guard trigramCount >= 50 else { return nil }
    let ranked = zip(trigramCosts.map(\.code), totals).sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    guard ranked.count > 1, ranked[0].0 != "en", !namesOnlyAgainst.contains(ranked[0].0) else { return nil }
    return (ranked[1].1 - ranked[0].1) / Double(trigramCount) >= namesMargin ? ranked[0].0 : nil
  }
}
