/// A record's code as a name: the whole value of a search field weighing
/// like the title, in a field of codes — one word with a letter, nearly
/// every record's its own (ISO's `alpha_2`, countryinfo's `code`, an
/// airport's `ICAO`). The query that is exactly a record's code names it as
/// its whole title would (FORMAT.md "Term shard", `whole`): `DE` is
/// Germany, before Denmark and the Democratic Republic of the Congo, which
/// only begin with the letters. A field many records share a value of
/// (a song's `artistName`) is no code, and a value two records share
/// (countryinfo lists `CW` twice) names neither.
enum CodeNames {
  /// In a field of codes, at least this share of the filled values are one
  /// word with a letter, and at least this share of those are distinct.
  static let share = 0.95

  /// Document index → the normalised codes (run together, as a title's
  /// whole is) that name it.
  static func of(_ site: PreparedSite) -> [Int: [String]] {
    var result: [Int: [String]] = [:]
    for (number, collection) in site.collections.enumerated() {
      let fields = collection.primarySearch.indices.filter { collection.primarySearch[$0] }
      guard !fields.isEmpty, collection.config.searchable else { continue }
      let documents = site.documents.indices.filter { site.documents[$0].collection == number }
      for field in fields {
        let values = Parallel.map(count: documents.count) { offset -> (filled: Bool, code: String?) in
          let text = site.evaluator.evaluate(
            collection.searchFields[field], table: collection.table,
            row: site.documents[documents[offset]].row
          ).text
          return (!text.isEmpty, code(text))
        }
        let filled = values.filter(\.filled).count
        var counts: [String: Int] = [:]
        for value in values { if let code = value.code { counts[code, default: 0] += 1 } }
        let coded = values.count(where: { $0.code != nil })
        guard filled > 0, Double(coded) >= Double(filled) * share,
          Double(counts.count) >= Double(coded) * share
        else { continue }
        for (offset, value) in values.enumerated() {
          guard let code = value.code, counts[code] == 1, result[documents[offset]]?.contains(code) != true
          else { continue }
          result[documents[offset], default: []].append(code)
        }
      }
    }
    return result
  }

  /// A value's code: its runs run together, when it is one word (no space)
  /// with a letter; nil otherwise.
  static func code(_ text: String) -> String? {
    guard !text.isEmpty, !text.contains(where: \.isWhitespace), text.contains(where: \.isLetter) else {
      return nil
    }
    var runs: [String] = []
    TextNormalizer.forEachTerm(in: text) { term, joined in if !joined { runs.append(term) } }
    return runs.isEmpty ? nil : runs.joined()
  }
}
