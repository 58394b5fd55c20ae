/// Whether each trending term finds something, checked against the
/// postings the index is written from: every word of the term must be a
/// word, or the start of a word, of one searchable document (its title or
/// searched fields), as the browser's engine requires of a query. A term
/// that finds nothing is a warning at its place in the config: the site
/// still works, but a person tapping it gets "No results".
struct TrendingCheck {
  let postings: [String: Postings]
  /// The postings' terms in UTF-8 order, so a prefix is a range.
  let terms: [String]

  func warnings(_ search: SiteConfig.Search) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for (index, term) in search.trending.enumerated() {
      let location = index < search.trendingLocations.count ? search.trendingLocations[index] : nil
      var words: [String] = []
      TextNormalizer.forEachTerm(in: term) { word, joined in
        if !joined && !words.contains(word) { words.append(word) }
      }
      var found: Set<Int32>?
      var missing: String?
      for word in words {
        let documents = self.documents(startingWith: word)
        if documents.isEmpty {
          missing = word
          break
        }
        found = found.map { $0.intersection(documents) } ?? documents
      }
      if let missing {
        diagnostics.append(
          .warning(
            at: location,
            "trending term '\(term)' finds nothing: no searchable record has the word '\(missing)' or a word starting with it"
          ))
      } else if words.isEmpty {
        diagnostics.append(.warning(at: location, "trending term '\(term)' has no words to search for"))
      } else if found?.isEmpty ?? true {
        diagnostics.append(
          .warning(
            at: location,
            "trending term '\(term)' finds nothing: each of its words is found, but no searchable record has them all"
          ))
      }
    }
    return diagnostics
  }

  /// The documents holding `word` or a term it starts.
  func documents(startingWith word: String) -> Set<Int32> {
    var low = 0
    var high = terms.count
    while low < high {
      let middle = (low + high) / 2
      if terms[middle].utf8.lexicographicallyPrecedes(word.utf8) { low = middle + 1 } else { high = middle }
    }
    var documents = Set<Int32>()
    while low < terms.count && terms[low].hasPrefix(word), let list = postings[terms[low]] {
      documents.formUnion(list.title)
      documents.formUnion(list.other)
      low += 1
    }
    return documents
  }
}
