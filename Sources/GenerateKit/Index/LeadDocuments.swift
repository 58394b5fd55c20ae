/// A document's display row, `[kind, title, subtitle, url, hue, fields?]`,
/// written the same way in document shards and in term shards' `docs`
/// (FORMAT.md).
struct DocumentRows {
  let site: PreparedSite
  let order: [Int]
  let kindIndex: [Int: Int]
  let searched: SearchedFields

  init(site: PreparedSite, order: [Int]) {
    self.site = site
    self.order = order
    self.kindIndex = site.kindIndex
    self.searched = SearchedFields(site: site)
  }

  /// Document `number`'s order of magnitude of popularity, lower for the
  /// more popular (`PopularityTiers`).
  func tier(_ number: Int32) -> Int {
    -PopularityTiers.tier(site.documents[order[Int(number)]].popularity)
  }

  /// Document `number`'s row; `numbered` puts the number in front, as a
  /// term shard's `docs` lists it; `fields: false` leaves the searched
  /// fields' texts out (a term shard's row of a document its words find by
  /// title).
  /// `artwork`: the image and symbol, which only document shards carry.
  func row(_ number: Int, numbered: Bool = false, fields: Bool = true, artwork: Bool = false) -> DocumentRow {
    let index = order[number]
    let document = site.documents[index]
    // Read once: on disk for a large site (`DocumentStore`).
    let shown = document.shown
    return DocumentRow(
      number: numbered ? number : nil, kind: kindIndex[document.collection] ?? 0, title: document.title,
      subtitle: shown.subtitle, url: site.url(of: index, stored: shown.url), hue: document.hue,
      fields: fields ? searched.texts(of: index, subtitle: shown.subtitle) : nil,
      image: artwork && !(shown.image.isEmpty && shown.symbol.isEmpty) ? shown.image : nil,
      symbol: artwork && !shown.symbol.isEmpty ? shown.symbol : nil)
  }
}

/// The documents a term shard carries rows for (its `docs`): those that the
/// one-word queries the shard answers show first, so a first query needs no
/// document shard. The queries are the shard's prefix and the longer prefixes
/// of its terms, the ones reaching the most postings first (every person
/// typing `love` passes `lo` and `lov`), each adding its first `limit`
/// documents by the engine's ranking rules for one word while typing
/// (FORMAT.md "Ranking", then number), until the rows fill `budget` bytes.
/// A query it misses costs only the document shards it always did.
struct LeadDocuments {
  let postings: [String: Postings]
  /// Documents shown per query: the page's suggestions.
  let limit: Int
  /// Inline postings per term (`IndexBuilder.Options.inlinePostings`): the
  /// engine ranks only these while typing.
  let inline: Int
  /// Prefixes tried per shard, best first: bounds the work, not the result.
  var maxQueries = 64
  /// A document's order of magnitude of popularity, lower first
  /// (`PopularityTiers`): it comes before the title's first word.
  var tier: (Int32) -> Int = { _ in 0 }

  /// A one-word query a shard answers: a prefix, and the shard's terms it begins.
  struct Query {
    var prefix: String
    var terms: ArraySlice<String>
  }

  /// Lead documents of a leaf shard (`tops == nil`) or of an internal
  /// shard, whose only query is its prefix, answered from `tops`.
  func select(
    prefix: String, terms: ArraySlice<String>, tops: [[Int32]]?, budget: Int, size: (Int32) -> Int
  ) -> [Int32] {
    guard limit > 0, budget > 0 else { return [] }
    let queries =
      tops == nil
      ? Self.queries(prefix: prefix, terms: terms, postings: postings, limit: maxQueries)
      : [Query(prefix: prefix, terms: terms)]
    var chosen = Set<Int32>()
    var used = 0
    for query in queries {
      let best = tops.map { firstFromTops(query.prefix, tops: $0) } ?? first(query.prefix, terms: query.terms)
      let new = best.filter { !chosen.contains($0) }
      let bytes = new.reduce(0) { $0 + size($1) + 1 }
      if used + bytes > budget { break }
      used += bytes
      chosen.formUnion(new)
    }
    return chosen.sorted()
  }

  /// The prefixes a person types on the way to the shard's terms (from the
  /// shard's own prefix on), those reaching the most postings first, then
  /// the shorter, then in order; a prefix always comes before its longer
  /// forms. The first `limit` of them.
  ///
  /// The terms are sorted, so the terms a prefix begins are consecutive: one
  /// pass keeps the prefixes of the current term open, closes those the next
  /// term does not share, and makes a string only for the prefixes chosen.
  static func queries(
    prefix: String, terms: ArraySlice<String>, postings: [String: Postings], limit: Int = .max
  ) -> [Query] {
    struct Group {
      var first: Int
      var end: Int
      var length: Int
      var weight: Int
    }
    let start = prefix.unicodeScalars.count
    let words = terms.map { Array($0.unicodeScalars) }
    var groups: [Group] = []
    var open: [Group] = []
    var previous: [Unicode.Scalar] = []
    for (index, word) in words.enumerated() where word.count >= start {
      var common = 0
      let bound = min(previous.count, word.count)
      while common < bound && previous[common] == word[common] { common += 1 }
      while let last = open.last, last.length > common {
        open.removeLast()
        groups.append(Group(first: last.first, end: index, length: last.length, weight: last.weight))
      }
      var length = (open.last?.length ?? start - 1) + 1
      while length <= word.count {
        open.append(Group(first: index, end: index, length: length, weight: 0))
        length += 1
      }
      let count = postings[terms[terms.startIndex + index]]?.count ?? 0
      for position in open.indices { open[position].weight += count }
      previous = word
    }
    for group in open {
      groups.append(Group(first: group.first, end: words.count, length: group.length, weight: group.weight))
    }
    // Groups of one length are disjoint runs in sorted order, so the first
    // term's position orders their prefixes.
    groups.sort { x, y in
      if x.weight != y.weight { return x.weight > y.weight }
      if x.length != y.length { return x.length < y.length }
      return x.first < y.first
    }
    return groups.prefix(limit).map { group in
      let base = terms.startIndex
      return Query(
        prefix: String(String.UnicodeScalarView(words[group.first][..<group.length])),
        terms: terms[(base + group.first)..<(base + group.end)])
    }
  }

  // Rule bits while typing one word, most significant first (FORMAT.md
  // "Ranking"): title; the word whole in the title, or the whole title a
  // term the word begins; the word whole anywhere (or that whole title);
  // the title's first word holds the term. Typos never apply: the word is
  // as typed. While a word is under three letters, "whole in the title"
  // means only that whole title, and "whole anywhere" means any match.
  private static let title: UInt8 = 16
  /// Of a kind whose titles hold the term (FORMAT.md "Kinds the words name").
  private static let kind: UInt8 = 8
  private static let exactTitle: UInt8 = 4
  private static let exact: UInt8 = 2
  private static let starts: UInt8 = 1

  /// The first `limit` documents for one word `query`, from the terms it begins.
  func first(_ query: String, terms: ArraySlice<String>) -> [Int32] {
    let short = query.unicodeScalars.count < 3
    var score: [Int32: UInt8] = [:]
    // Whole titles count for the word itself and the shortest longer terms that have any
    // (`closestWhole` in engine/match.js; lengths in UTF-16 units, as JavaScript counts).
    let closest =
      terms.filter {
        $0 != query && $0.utf8.starts(with: query.utf8) && !(postings[$0]?.whole.isEmpty ?? true)
      }
      .map(\.utf16.count).min()
    let wordParts = Set(postings[query]?.parts ?? [])
    var named = Set<Int32>()
    for term in terms where term.utf8.starts(with: query.utf8) {
      guard let list = postings[term] else { continue }
      let wholeCounts = term == query || term.utf16.count == closest
      // A term that is the word and a number (`python3`) holds the word whole (`numbered`).
      let same = term == query || Self.numbered(term, query)
      let (titleCut, otherCut) = TermShardStage.split(list, keep: inline)
      let anyExact: UInt8 = same || short ? Self.exact : 0
      let titleBits = Self.title | anyExact | (same && !short ? Self.exactTitle : 0)
      // A part of a joined name counts as another field (FORMAT.md "Parts of names"); so does a
      // longer term in a name that holds the word itself as a part (`numpystl` for `numpy`).
      let termParts = list.parts.isEmpty ? [] : Set(list.parts)
      func isPart(_ number: Int32) -> Bool {
        termParts.contains(number) || (term != query && wordParts.contains(number))
      }
      // A part joined to another word in prose (`Hi-Fi`, `Seattle-Tacoma`) is in the title
      // all the same, though no exact word of it (`compounds` in engine/match.js).
      let termCompounds = list.compounds.isEmpty ? [] : Set(list.compounds)
      for number in list.title[..<titleCut] {
        score[number, default: 0] |=
          isPart(number) ? anyExact | (termCompounds.contains(number) ? Self.title : 0) : titleBits
        named.insert(number)
      }
      // A document of a kind none of whose titles holds the term is a mention: no kind bit.
      let last = list.other[..<otherCut].last ?? -1
      let mentioned = Set(list.mentions.prefix { $0 <= last })
      for number in list.other[..<otherCut] {
        score[number, default: 0] |= anyExact
        if !mentioned.contains(number) { named.insert(number) }
      }
      Self.mark(list.starts, in: &score, with: Self.starts, except: isPart)
      if wholeCounts { Self.mark(list.whole, in: &score, with: Self.exactTitle | Self.exact, except: isPart) }
    }
    for number in named { score[number, default: 0] |= Self.kind }
    return best(score)
  }

  /// The first `count` documents a final search (Enter) for the whole word
  /// shows, by the rules for one word on Enter (FORMAT.md "Ranking"): every
  /// match is exact, so the title, then the whole title, then the title's
  /// first word, then the number; documents found outside the title after
  /// all of those. (Word forms and numbered terms are left out: a row they
  /// bring that is not here comes from its document shard, as before.)
  static func firstOnEnter(_ list: Postings, count: Int, tier: (Int32) -> Int = { _ in 0 }) -> [Int32] {
    let whole = Set(list.whole)
    // Past these, a document of the title list has no whole title nor first word, and at least
    // `count` documents that have one come before it; it can only follow them by number.
    let starts = Set(list.starts.prefix(count + whole.count))
    var candidates = whole.union(starts)
    for number in list.title.prefix(count + candidates.count) { candidates.insert(number) }
    // The whole title, then the popularity tier, then the first word (FORMAT.md "Ranking").
    func rank(_ number: Int32) -> (Int, Int, Int) {
      (whole.contains(number) ? 0 : 2, tier(number), starts.contains(number) ? 0 : 1)
    }
    var first = Array(
      candidates.sorted { rank($0) != rank($1) ? rank($0) < rank($1) : $0 < $1 }.prefix(count))
    // Then the others, those of a kind whose titles hold the word before its mentions.
    if first.count < count {
      let isMention = { (number: Int32) in Self.contains(list.mentions, number) }
      first += list.other.lazy.filter { !isMention($0) }.prefix(count - first.count)
      first += list.mentions.prefix(count - first.count)
    }
    return first
  }

  /// Whether `term` is `word`, which ends in a letter, followed by ASCII digits
  /// only: a version or series (`python3`, `gtk4`), which counts as the word
  /// whole (`numbered` in engine/match.js).
  static func numbered(_ term: String, _ word: String) -> Bool {
    let t = Array(term.unicodeScalars)
    let w = Array(word.unicodeScalars)
    let letters: Set<Unicode.GeneralCategory> = [
      .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
    ]
    guard t.count > w.count, let last = w.last, t.starts(with: w) else { return false }
    guard letters.contains(last.properties.generalCategory) else { return false }
    return t[w.count...].allSatisfy { ("0"..."9").contains($0) }
  }

  /// The first documents for an internal shard's prefix, which the engine
  /// ranks from `tops` and the prefix's own term.
  func firstFromTops(_ query: String, tops: [[Int32]]) -> [Int32] {
    let short = query.unicodeScalars.count < 3
    let own = postings[query]
    var score: [Int32: UInt8] = [:]
    let (titleCut, otherCut) = own.map { TermShardStage.split($0, keep: inline) } ?? (0, 0)
    let ownTitle = own?.title[..<titleCut] ?? []
    let ownOther = own?.other[..<otherCut] ?? []
    // The tops stand for many terms and say nothing of kinds: every one counts as named.
    for number in tops[0] { score[number, default: 0] |= Self.title | Self.kind | (short ? Self.exact : 0) }
    for number in tops[1] { score[number, default: 0] |= Self.kind | (short ? Self.exact : 0) }
    for number in ownTitle {
      score[number, default: 0] |= Self.title | Self.kind | Self.exact | (short ? 0 : Self.exactTitle)
    }
    for number in ownOther { score[number, default: 0] |= Self.kind | Self.exact }
    Self.mark(own?.whole ?? [], in: &score, with: Self.exactTitle | Self.exact)
    return best(score)
  }

  /// Whether `numbers` (ascending) holds `number`.
  static func contains(_ numbers: [Int32], _ number: Int32) -> Bool {
    var low = 0
    var high = numbers.count
    while low < high {
      let middle = (low + high) / 2
      if numbers[middle] < number { low = middle + 1 } else { high = middle }
    }
    return low < numbers.count && numbers[low] == number
  }

  /// Adds `bits` to the documents of `numbers` (ascending) that are scored
  /// already: through the shorter side, since a common word's `starts` or
  /// `whole` list can hold most of the site, and its scores a few thousand.
  static func mark(
    _ numbers: [Int32], in score: inout [Int32: UInt8], with bits: UInt8,
    except skipped: (Int32) -> Bool = { _ in false }
  ) {
    guard !numbers.isEmpty, !score.isEmpty else { return }
    if numbers.count <= score.count * 8 {
      for number in numbers where !skipped(number) {
        if let at = score.index(forKey: number) { score.values[at] |= bits }
      }
      return
    }
    for number in Array(score.keys) {
      var low = 0
      var high = numbers.count
      while low < high {
        let middle = (low + high) / 2
        if numbers[middle] < number { low = middle + 1 } else { high = middle }
      }
      if low < numbers.count && numbers[low] == number && !skipped(number) {
        score[number, default: 0] |= bits
      }
    }
  }

  /// The `limit` best documents: most rule bits but the first word's, then
  /// the popularity tier, then the first word, then lowest number. One
  /// pass keeping a short sorted list; sorting every candidate to keep
  /// eight was most of this stage's time.
  private func best(_ score: [Int32: UInt8]) -> [Int32] {
    var kept: [(number: Int32, bits: UInt8)] = []
    kept.reserveCapacity(limit + 1)
    let tier = tier
    func before(_ x: (number: Int32, bits: UInt8), _ y: (number: Int32, bits: UInt8)) -> Bool {
      if x.bits >> 1 != y.bits >> 1 { return x.bits >> 1 > y.bits >> 1 }
      let (a, b) = (tier(x.number), tier(y.number))
      if a != b { return a < b }
      return x.bits != y.bits ? x.bits > y.bits : x.number < y.number
    }
    for (number, bits) in score {
      let candidate = (number: number, bits: bits)
      if kept.count == limit, let last = kept.last, !before(candidate, last) { continue }
      var at = kept.count
      while at > 0 && before(candidate, kept[at - 1]) { at -= 1 }
      kept.insert(candidate, at: at)
      if kept.count > limit { kept.removeLast() }
    }
    return kept.map(\.number)
  }
}
