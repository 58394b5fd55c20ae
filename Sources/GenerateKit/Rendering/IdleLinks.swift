import Foundation

/// Where the search page's idle lists lead without JavaScript: a trending
/// term to the page of the record it names, each "All Artists…" to its A–Z
/// list. With JavaScript the page's script searches instead; without, a
/// form submitting the words back to the same page left a visitor where
/// they were (issue 33).
enum IdleLinks {
  /// The trending terms the first `resolved` of which look for a record
  /// beyond an exact title: each title is compared with each of them, and
  /// the config allows a million terms where the page shows six.
  static let resolved = 50

  /// `[{text, url}]` per trending term: the most popular record with a page
  /// whose title is the term's words (ignoring case and accents), else one
  /// whose title holds them all in order, else `fallback` (the A–Z hub),
  /// else the search page with the term (`?q=`), as the form it replaces.
  static func trending(_ site: PreparedSite, fallback: String?) -> [[String: Any]] {
    let terms = site.config.search.trending
    guard !terms.isEmpty else { return [] }
    let wanted = terms.map(words)
    // Byte by byte: both sides are the normaliser's words, one space apart
    // (Foundation's `contains` bridged each title, 63,000 × 50 times).
    let wantedBytes = wanted.map { Array((" " + $0 + " ").utf8) }
    var exact: [String: Int] = [:]
    for (number, term) in wanted.enumerated() where exact[term] == nil { exact[term] = number }
    var best = [(document: Int, exact: Bool)?](repeating: nil, count: terms.count)
    for (number, document) in site.documents.enumerated() {
      guard site.collections[document.collection].writesHTMLPages, !document.url.isEmpty else { continue }
      let title = words(document.title)
      let padded = Array((" " + title + " ").utf8)
      func consider(_ term: Int, exactly: Bool) {
        if let current = best[term] {
          if current.exact && !exactly { return }
          if current.exact == exactly
            && site.documents[current.document].popularity >= document.popularity
          {
            return
          }
        }
        best[term] = (number, exactly)
      }
      if let term = exact[title] { consider(term, exactly: true) }
      for term in 0..<min(terms.count, resolved) where !(best[term]?.exact ?? false) {
        if !wanted[term].isEmpty && Self.contains(padded, wantedBytes[term]) {
          consider(term, exactly: false)
        }
      }
    }
    return terms.indices.map { term in
      let url =
        best[term].map { site.baseURL + site.documents[$0.document].url } ?? fallback
        ?? site.baseURL + "?q=" + query(terms[term])
      return ["text": terms[term], "url": url]
    }
  }

  /// `[{id, label, url, all}]` per searchable collection (`all`: "All Artists" in the site's language): `url` its A–Z list, or
  /// the search page browsing it (`?kind=`) when it has none (no page and
  /// no `url:` to link its rows to).
  static func kinds(_ site: PreparedSite, browse: BrowsePages?) -> [[String: Any]] {
    let browsed = Set((browse?.collections ?? []).map { site.collections[$0].config.id })
    return site.collections.filter(\.config.searchable).map {
      let id = $0.config.id
      let url =
        browsed.contains(id)
        ? site.baseURL + BrowsePages.folder + "\(id)/" : site.baseURL + "?kind=" + query(id)
      return [
        "id": id, "label": $0.config.label, "url": url,
        "all": site.config.strings.text("allOf", ["label": $0.config.label]),
      ]
    }
  }

  /// A value as a query string writes it: what a form would send.
  static func query(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
  }

  /// Whether `needle`'s bytes are in `haystack`. (The standard library's
  /// generic `contains` looked its types up on every call: two thirds of
  /// a preview's wait for its open page.)
  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
    return haystack.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pin in
        guard let hayStart = hay.baseAddress, let pinStart = pin.baseAddress else { return false }
        for start in 0...(hay.count - pin.count) where hay[start] == first {
          if memcmp(hayStart + start, pinStart, pin.count) == 0 { return true }
        }
        return false
      }
    }
  }

  /// A text's words as the search finds them, one space apart.
  static func words(_ text: String) -> String {
    var words: [String] = []
    TextNormalizer.forEachTerm(in: text) { term, joined in
      if !joined { words.append(term) }
    }
    return words.joined(separator: " ")
  }
}
