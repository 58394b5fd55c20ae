import NIOConcurrencyHelpers

/// The A–Z browse pages (`browse:`, on by default): every record and every
/// facet value reachable through plain links, so the site is useful
/// without JavaScript and crawlers find every page. One page lists the
/// collections and facets (`browse/`); each collection lists its records
/// A–Z (`browse/<collection>/`, then `page-2/` …); each facet lists its
/// values with counts (`browse/<facet>/`), each value its records
/// (`browse/<facet>/<value>/`). Rows are sorted by normalised title, ties by
/// title and then by record order, so the pages are the same on every build.
struct BrowsePages {
  /// One page to render with the `browse` template.
  struct Page {
    var path: String
    var title: String
    var description: String
    /// Made when the page is rendered, not before: at a million records
    /// every page's rows as template values at once cost gigabytes.
    var context: () -> [String: Any]
    /// A list page's rows written directly, for the built-in template
    /// (`ListRows`); nil for the hub and an empty list.
    var rows: ListRows? = nil
  }

  /// A list page's rows without Mustache: through the template engine a
  /// row cost about 10 µs (a name lookup, a dynamic cast and an HTML
  /// escape a character at a time per value), most of a 100k site's
  /// render. The built-in `browse` template's row is written here as it
  /// writes it; the page is rendered with one marker row in the rows'
  /// place (`markedContext`), whose text is then replaced by every row's.
  /// Only used when `browse` is the built-in template, and only when the
  /// marker row comes out exactly as written here (`splice`); otherwise
  /// the page renders through Mustache as before.
  struct ListRows {
    var markedContext: () -> [String: Any]
    var html: () -> [UInt8]

    /// Stands for the rows (private-use characters around a name: should a
    /// record's text hold it, `splice` finds it twice and gives up).
    static let marker = "\u{E000}browse-rows\u{E001}"
    static var markerRow: [String: Any] { ["title": marker, "url": false, "meta": "", "anchor": false] }

    /// One row as the built-in template's `{{#rows}}` section writes it.
    static func write(_ title: String, url: String?, meta: String, anchor: String?, to bytes: inout [UInt8]) {
      bytes += #"<li class="song-row""#.utf8
      if let anchor {
        bytes += #" id=""#.utf8
        bytes += Escaping.html(anchor).utf8
        bytes.append(UInt8(ascii: "\""))
      }
      bytes += #"><span class="song-main"><span class="song-title">"#.utf8
      if let url {
        bytes += #"<a href=""#.utf8
        bytes += Escaping.html(url).utf8
        bytes += #"">"#.utf8
        bytes += Escaping.html(title).utf8
        bytes += "</a>".utf8
      } else {
        bytes += Escaping.html(title).utf8
      }
      bytes += #"</span><span class="song-sub">"#.utf8
      bytes += Escaping.html(meta).utf8
      bytes += "</span></span></li>\n".utf8
    }

    /// The page rendered with the marker row, its one marker row replaced
    /// by `rows`; nil when the marker row is not there exactly once, as
    /// written by `write` (a template that writes rows differently).
    static func splice(_ rows: [UInt8], into page: [UInt8]) -> [UInt8]? {
      var expected: [UInt8] = []
      write(marker, url: nil, meta: "", anchor: nil, to: &expected)
      let found = occurrences(of: expected, in: page, upTo: 2)
      guard found.count == 1, let at = found.first else { return nil }
      var result: [UInt8] = []
      result.reserveCapacity(page.count - expected.count + rows.count)
      result += page[..<at]
      result += rows
      result += page[(at + expected.count)...]
      return result
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8], upTo limit: Int) -> [Int] {
      guard let first = needle.first, needle.count <= haystack.count else { return [] }
      var found: [Int] = []
      var index = 0
      let last = haystack.count - needle.count
      while index <= last, found.count < limit {
        if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) {
          found.append(index)
          index += needle.count
        } else {
          index += 1
        }
      }
      return found
    }
  }

  /// One line of a list: the text, its link (nil for a record without a
  /// page), and what is shown beside it (a kind, a count).
  struct Row {
    var title: String
    var url: String?
    var meta: String
    /// The sort key: the normalised title without leading punctuation.
    var key: String
    var order: Int
  }

  static let rowsPerPage = 200
  static let folder = "browse/"

  let site: PreparedSite
  let base: String
  /// The pages this build writes (`albums/1-x/index.html`): a record's
  /// link is kept only if it leads to one of them, or off the site.
  var pagePaths: Set<String> = []
  var rowsPerPage = Self.rowsPerPage
  /// The site language's order, letter index and numbers (ICU, through Foundation).
  var collation: Collation { Collation(language: site.config.language) }

  /// What the hub links to, for the search page's `<noscript>` and the
  /// footer: `[{label, url}]` per collection, then per facet.
  struct Link {
    var label: String
    var url: String
  }

  /// The collections whose records can be linked to: a page of their own
  /// (not a feed, `…/feed.xml`), or a `url:`.
  var collections: [Int] {
    site.collections.indices.filter {
      site.collections[$0].writesHTMLPages || site.collections[$0].config.url != nil
    }
  }

  /// Each facet's folder: its id, unless a browsed collection has it.
  func facetFolders() -> [String] {
    let taken = Set(collections.map { site.collections[$0].config.id })
    return site.facets.map { taken.contains($0.id) ? "\($0.id)-values" : $0.id }
  }

  func links() -> [Link] {
    let folders = facetFolders()
    return collections.map {
      Link(
        label: site.collections[$0].config.label,
        url: base + Self.folder + "\(site.collections[$0].config.id)/")
    }
      + site.facets.indices.map {
        Link(label: site.facets[$0].label, url: base + Self.folder + "\(folders[$0])/")
      }
  }

  /// A sorted list's rows, each made when its page is rendered: a list of
  /// records is their document numbers, four bytes a row, where rows made
  /// up front cost hundreds of megabytes at a million records.
  struct RowList {
    var count: Int
    /// A row's index letter (`Collation.letter` of its key).
    var letter: (Int) -> String
    var row: (Int) -> Row

    init(count: Int, letter: @escaping (Int) -> String, row: @escaping (Int) -> Row) {
      self.count = count
      self.letter = letter
      self.row = row
    }

    /// Rows in A–Z order: by key (`order`), then title, then `Row.order`.
    init(sorting rows: [Row], _ collation: Collation) {
      let keys = Collation.Keys(rows.map(\.key), collation)
      let order = rows.indices.sorted { BrowsePages.ascending($0, $1, keys, rows[$0], rows[$1]) }
      self.init(count: rows.count, letter: { keys.letter(order[$0]) }, row: { rows[order[$0]] })
    }
  }

  /// The pages, each list's path and size known at once; the documents'
  /// sort keys and each list's order are made when its first page is
  /// rendered (`Later`), not here. A large build renders the A–Z pages
  /// after the index is built (`PageRenderer.browsePagesAfterIndexFrom`),
  /// so the keys and orders (about 230 bytes a record) and the index's
  /// postings are never held at once.
  func pages() -> [Page] {
    let browsed = collections
    let isBrowsed = Set(browsed)
    let documents = site.documents
    // Per collection and per facet value the numbers of its documents.
    var rowsOf: [Int: [Int32]] = [:]
    var valuesOf = [[String: [Int32]]](repeating: [:], count: site.facets.count)
    for (number, document) in documents.enumerated() where isBrowsed.contains(document.collection) {
      rowsOf[document.collection, default: []].append(Int32(number))
      for facet in site.facets.indices {
        for value in Set(site.facetValues(of: number, facet: facet)) where !value.isEmpty {
          valuesOf[facet][value, default: []].append(Int32(number))
        }
      }
    }
    let singular = site.collections.map(\.config.singular)
    let collation = collation
    // Per browsed document its sort key.
    let sortKeys = Later { () -> Collation.Keys in
      var keyOf = PackedStrings()
      for document in documents {
        keyOf.append(isBrowsed.contains(document.collection) ? Self.sortKey(document.title) : "")
      }
      keyOf.trimCapacity()
      return Collation.Keys(keyOf, collation)
    }
    // Per document its place among every browsed document in A–Z order,
    // made once: each document is in several lists (its collection's, one
    // per facet value it has), and a list sorted by these places is in the
    // order the comparison gives it, which is total (key, title, number).
    // Compared once a document instead of once a list, the collator's work
    // (most of an A–Z sort) is not done again for every list.
    let places = Later { () -> [Int32] in
      let keys = sortKeys.value
      // As `RowList(sorting:_:)` orders rows.
      let ascending = { (a: Int32, b: Int32) -> Bool in
        let (x, y) = (Int(a), Int(b))
        if let order = keys.ascending(x, y) { return order }
        // Equal keys are common (a synthetic catalogue's titles repeat,
        // more the larger it is): their titles compared where they lie.
        if let order = documents.titleOrder(x, y) { return order }
        return x < y
      }
      let all = documents.indices.filter { isBrowsed.contains(documents[$0].collection) }.map { Int32($0) }
      var place = [Int32](repeating: -1, count: documents.count)
      for (at, number) in Self.sorted(all, by: ascending).enumerated() { place[Int(number)] = Int32(at) }
      return place
    }
    let documentRows = { (numbers: [Int32]) -> RowList in
      let sorted = Later { () -> [Int32] in
        let place = places.value
        return numbers.sorted { place[Int($0)] < place[Int($1)] }
      }
      return RowList(
        count: numbers.count, letter: { sortKeys.value.letter(Int(sorted.value[$0])) },
        row: { position in
          let number = Int(sorted.value[position])
          let document = documents[number]
          return Row(
            title: document.title, url: link(site.url(of: number)), meta: singular[document.collection],
            key: sortKeys.value.key(number), order: number)
        })
    }

    var pages: [Page] = []
    var hubRows: [[String: Any]] = []
    for index in browsed {
      let collection = site.collections[index].config
      let rows = documentRows(rowsOf[index] ?? [])
      let folder = Self.folder + "\(collection.id)/"
      hubRows.append([
        "title": collection.label, "url": base + folder,
        "meta":
          "\(collation.number(rows.count)) \(rows.count == 1 ? collection.singular : collection.label)"
          .lowercased(),
      ])
      pages += list(
        rows, folder: folder, heading: collection.label, crumbs: [],
        description: strings.text(
          "browseCollectionText", ["item": noun(collection.singular), "site": site.config.title]))
    }
    var facetRows: [[String: Any]] = []
    for (number, facet) in site.facets.enumerated() {
      let folder = Self.folder + "\(facetFolders()[number])/"
      var used = Set<String>()
      var valueRows: [Row] = []
      let values = Array(valuesOf[number].keys)
      let valueKeys = Collation.Keys(values.map(Self.sortKey), collation)
      let inOrder = values.indices.sorted { valueKeys.ascending($0, $1) ?? (values[$0] < values[$1]) }
      for (order, value) in inOrder.map({ values[$0] }).enumerated() {
        let slug = Self.uniqueSlug(for: value, used: &used)
        let rows = documentRows(valuesOf[number][value] ?? [])
        valueRows.append(
          Row(
            title: value, url: base + folder + "\(slug)/", meta: count(rows.count),
            key: Self.sortKey(value),
            order: order))
        pages += list(
          rows, folder: folder + "\(slug)/", heading: Self.heading(of: value, in: facet),
          crumbs: [["title": facet.label, "url": base + folder]],
          description: strings.text(
            "browseValueText", ["label": facet.label, "value": value, "site": site.config.title]))
      }
      facetRows.append([
        "title": facet.label, "url": base + folder, "meta": count(valueRows.count, "values"),
      ])
      pages += list(
        RowList(sorting: valueRows, collation), folder: folder, heading: facet.label, crumbs: [],
        description: strings.text("browseFacetText", ["item": noun(facet.label), "site": site.config.title]),
        noun: "values")
    }

    var sections: [[String: Any]] = [
      ["id": "browse-collections", "title": strings.text("collections"), "rows": hubRows, "count": false]
    ]
    if !facetRows.isEmpty {
      sections.append([
        "id": "browse-facets", "title": strings.text("byFacet"), "rows": facetRows, "count": false,
      ])
    }
    let hub = Page(
      path: Self.folder + "index.html", title: strings.text("browse"),
      description: strings.text("browseHubText", ["site": site.config.title]),
      context: {
        [
          "heading": strings.text("browseSite", ["site": site.config.title]), "crumbs": [[String: Any]](),
          "letters": [[String: Any]](),
          "sections": sections, "pager": false,
        ]
      })
    return [hub] + pages
  }

  /// A record's link as the page writes it, or nil when it leads nowhere
  /// this build writes (`pages:` left its page out, or `url:` names
  /// something outside the site).
  func link(_ url: String) -> String? {
    guard !url.isEmpty else { return nil }
    if url.hasPrefix("http://") || url.hasPrefix("https://") { return url }
    let path = String(url.prefix { $0 != "#" && $0 != "?" })
    let file = path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path
    return pagePaths.contains(file) ? base + url : nil
  }

  /// A facet value's page heading: the value, or after its facet's label
  /// when it is a bare number, as a page titled "12" says nothing
  /// ("Customer 12").
  static func heading(of value: String, in facet: SiteConfig.Facet) -> String {
    value.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } ? "\(facet.label) \(value)" : value
  }

  /// A list cut into pages of `rowsPerPage`, with A–Z jump links on each.
  func list(
    _ rows: RowList, folder: String, heading: String, crumbs: [[String: Any]], description: String,
    noun: String = "records"
  ) -> [Page] {
    let pageCount = max(1, (rows.count + rowsPerPage - 1) / rowsPerPage)
    func path(_ page: Int) -> String { folder + (page == 1 ? "" : "page-\(page)/") }
    // Each letter's first row: the page it is on and its anchor. Made with
    // the list's order, when its first page is rendered.
    let letters = Later { () -> (jump: [[String: Any]], anchorOfRow: [Int: String]) in
      var letters: [(letter: String, page: Int, anchor: String)] = []
      var anchorOfRow: [Int: String] = [:]
      for position in 0..<rows.count {
        let letter = rows.letter(position)
        guard letters.last?.letter != letter else { continue }
        let anchor = "letter-" + Self.anchor(letter)
        letters.append((letter, position / rowsPerPage + 1, anchor))
        anchorOfRow[position] = anchor
      }
      let jump: [[String: Any]] = letters.map { letter in
        ["label": letter.letter, "url": base + path(letter.page) + "#" + letter.anchor]
      }
      return (jump, anchorOfRow)
    }
    let allCrumbs = [["title": strings.text("browse"), "url": base + Self.folder] as [String: Any]] + crumbs
    let total = count(rows.count, noun)
    var pages: [Page] = []
    for page in 1...pageCount {
      let suffix =
        pageCount > 1 ? strings.text("pageSuffix", ["page": String(page), "pages": String(pageCount)]) : ""
      let start = (page - 1) * rowsPerPage
      let slice = rows.count == 0 ? 0..<0 : start..<min(rows.count, start + rowsPerPage)
      func context(_ items: [[String: Any]]) -> [String: Any] {
        var pager: [String: Any] = [
          "page": page, "pages": pageCount,
          "pageOf": strings.text("pageOf", ["page": String(page), "pages": String(pageCount)]),
        ]
        pager["previous"] = page > 1 ? base + path(page - 1) : false
        pager["next"] = page < pageCount ? base + path(page + 1) : false
        pager["firstPage"] = page > 2 ? base + path(1) : false
        pager["lastPage"] = page < pageCount - 1 ? base + path(pageCount) : false
        let jump = letters.value.jump
        return [
          "heading": heading, "crumbs": allCrumbs, "letters": jump.count > 1 ? jump : [],
          "sections": [["id": "browse-list", "title": false, "rows": items, "count": total]],
          "pager": pageCount > 1 ? pager : false,
        ]
      }
      pages.append(
        Page(
          path: path(page) + "index.html", title: heading + suffix, description: description + suffix,
          context: {
            context(
              slice.map { position in
                let row = rows.row(position)
                return [
                  "title": row.title, "url": row.url ?? false, "meta": row.meta,
                  "anchor": letters.value.anchorOfRow[position] ?? false,
                ]
              })
          },
          rows: slice.isEmpty
            ? nil
            : ListRows(
              markedContext: { context([ListRows.markerRow]) },
              html: {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(slice.count * 160)
                let anchorOfRow = letters.value.anchorOfRow
                for position in slice {
                  let row = rows.row(position)
                  ListRows.write(
                    row.title, url: row.url, meta: row.meta, anchor: anchorOfRow[position], to: &bytes)
                }
                return bytes
              })))
    }
    return pages
  }

  /// `numbers` sorted by `ascending`, a total order: runs sorted on all
  /// cores, then merged two at a time.
  static func sorted(_ numbers: [Int32], by ascending: @escaping (Int32, Int32) -> Bool) -> [Int32] {
    let runLength = 1 << 16
    guard numbers.count > runLength else { return numbers.sorted(by: ascending) }
    var runs = Parallel.map(count: (numbers.count + runLength - 1) / runLength) { run in
      numbers[run * runLength..<min((run + 1) * runLength, numbers.count)].sorted(by: ascending)
    }
    while runs.count > 1 {
      let current = runs
      runs = Parallel.map(count: (current.count + 1) / 2) { pair in
        guard 2 * pair + 1 < current.count else { return current[2 * pair] }
        let (a, b) = (current[2 * pair], current[2 * pair + 1])
        var merged: [Int32] = []
        merged.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
          if ascending(b[j], a[i]) {
            merged.append(b[j])
            j += 1
          } else {
            merged.append(a[i])
            i += 1
          }
        }
        merged += a[i...]
        merged += b[j...]
        return merged
      }
    }
    return runs[0]
  }

  /// Rows in A–Z order: by key (`order`), then title, then `order`.
  fileprivate static func ascending(_ i: Int, _ j: Int, _ keys: Collation.Keys, _ a: Row, _ b: Row) -> Bool {
    if let order = keys.ascending(i, j) { return order }
    if a.title != b.title { return a.title < b.title }
    return a.order < b.order
  }

  /// Two sort keys in A–Z order: by their index letters (`#` first, `…`
  /// last, the others in the language's order, so each letter is one run of
  /// the list), then by the language's collation, then by their code points
  /// (two keys ICU finds equal still have one order); nil for equal keys.
  static func order(_ a: String, _ b: String, letters: (String, String), _ collation: Collation) -> Bool? {
    if letters.0 != letters.1 { return collation.letterBefore(letters.0, letters.1) }
    guard a != b else { return nil }
    switch collation.compare(a, b) {
    case .orderedAscending: return true
    case .orderedDescending: return false
    case .orderedSame: return a < b
    }
  }

  /// A letter's anchor: `0` for digits, `other` for `…`, an ASCII letter in
  /// lower case, any other letter by its code points (`letter-u00d1` for `Ñ`),
  /// so every fragment is plain ASCII.
  static func anchor(_ letter: String) -> String {
    if letter == "#" { return "0" }
    if letter == "…" { return "other" }
    if letter.unicodeScalars.allSatisfy({ $0.isASCII }) { return letter.lowercased() }
    return letter.unicodeScalars.map { "u" + String($0.value, radix: 16) }.joined()
  }

  /// The title's letters and digits in lower case, each run of anything
  /// else one space: `"Weird Al"` sorts as `weird al`, under W, and `AC/DC`
  /// as `ac dc`, before `acdc`. Accents stay (NFC): the language's collation
  /// decides what they mean — `ñ` is a letter of its own in Spanish, `é` is
  /// `e` at first sight in French (`Collation`).
  /// An Arabic title files without its definite article, as Arabic
  /// dictionaries and library catalogues file it (ALA-LC: an initial `al-`
  /// is disregarded): `الجزائر` under ج, beside `جزر القمر`, not every
  /// country under ا.
  static func sortKey(_ title: String) -> String {
    let key = words(title)
    let scalars = Array(key.unicodeScalars.prefix(4))
    guard scalars.count == 4, scalars[0] == "\u{0627}" || scalars[0] == "\u{0671}", scalars[1] == "\u{0644}",
      isArabicLetter(scalars[2]), isArabicLetter(scalars[3])
    else { return key }
    return String(key.unicodeScalars.dropFirst(2))
  }

  private static func isArabicLetter(_ scalar: Unicode.Scalar) -> Bool {
    (0x0620...0x064A).contains(scalar.value) || (0x0671...0x06D3).contains(scalar.value)
  }

  private static func words(_ title: String) -> String {
    // ASCII alone, as most titles are: the same key byte by byte, without
    // asking Unicode's tables about each letter (a fifth of a preview's
    // wait for its open page on 63,000 titles).
    if title.utf8.allSatisfy({ $0 < 0x80 }) {
      var key: [UInt8] = []
      key.reserveCapacity(title.utf8.count)
      var gap = false
      for byte in title.utf8 where byte != UInt8(ascii: "'") {
        let lower = byte >= 65 && byte <= 90 ? byte + 32 : byte
        guard (lower >= 48 && lower <= 57) || (lower >= 97 && lower <= 122) else {
          gap = true
          continue
        }
        if gap && !key.isEmpty { key.append(UInt8(ascii: " ")) }
        gap = false
        key.append(lower)
      }
      return String(decoding: key, as: UTF8.self)
    }
    var key = String.UnicodeScalarView()
    var gap = false
    for scalar in title.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
      // An apostrophe joins (`Ain't` files as `aint`, after `Ainda`), as in slugs.
      if scalar == "'" || scalar == "\u{2019}" || scalar == "\u{02BC}" { continue }
      let mark =
        scalar.properties.generalCategory == .nonspacingMark
        || scalar.properties.generalCategory == .spacingMark
      guard TextNormalizer.isTermCharacter(scalar) || (mark && !key.isEmpty && !gap) else {
        gap = true
        continue
      }
      if gap && !key.isEmpty { key.append(" ") }
      gap = false
      key.append(scalar)
    }
    return String(key)
  }

  /// A value's folder: its slug, made unique among the facet's values; a
  /// slug that looks like a page number's folder gets a prefix.
  static func uniqueSlug(for value: String, used: inout Set<String>) -> String {
    var slug = TextNormalizer.slug(value)
    if slug.isEmpty { slug = "value" }
    if slug.hasPrefix("page-") { slug = "value-" + slug }
    var candidate = slug
    var number = 2
    while !used.insert(candidate).inserted {
      candidate = "\(slug)-\(number)"
      number += 1
    }
    return candidate
  }

  /// "3,503 records" in the site's language and its way of writing numbers (`records` or `values` of its strings).
  func count(_ count: Int, _ noun: String = "records") -> String {
    strings.count(noun, count, ["count": collation.number(count)])
  }

  var strings: UIStrings { site.config.strings }

  /// A label inside a sentence: lower-case in English ("Every album of …"),
  /// as written in languages that capitalise nouns or have no case.
  func noun(_ label: String) -> String { strings.catalogue == "en" ? label.lowercased() : label }
}

/// A value made the first time it is read, by the thread that reads it
/// first (others wait for it): an A–Z list's order and its documents' sort
/// keys, made when the list's first page is rendered.
final class Later<Value>: @unchecked Sendable {
  private enum State {
    case waiting(() -> Value)
    case made(Value)
  }
  private let lock = NIOLock()
  private var state: State

  init(_ make: @escaping () -> Value) { state = .waiting(make) }

  var value: Value {
    lock.withLock {
      switch state {
      case .made(let value): return value
      case .waiting(let make):
        let value = make()
        // What it was made from (a list's unsorted numbers) goes with the closure.
        state = .made(value)
        return value
      }
    }
  }
}
