/// The written index: its files (paths relative to the site root) and the
/// manifest's path, which the search page names.
public struct SiteIndex: Sendable {
  public var files: [(path: String, bytes: [UInt8])]
  public var manifestPath: String
  public var byteCount: Int { files.reduce(0) { $0 + $1.bytes.count } }
}

/// Builds the sharded index described in `FORMAT.md` from prepared documents.
public struct IndexBuilder {
  public struct Options: Sendable {
    /// A term shard is split by longer prefixes once it grows past this.
    public var targetShardBytes = 12 * 1024
    public var docsPerShard = 50
    /// Postings beyond this many per term go to a continuation file.
    public var inlinePostings = 2_000
    public var tops = 64
    public var maxPrefixLength = 4
    /// Past this many term shards the manifest lists one directory file per
    /// first letter instead of every shard, so it stays small at any size.
    public var maxManifestShards = 128
    public init() {}
  }

  public var options = Options()
  public init() {}

  struct Postings {
    var title: [Int32] = []
    var other: [Int32] = []
  }

  public func build(_ site: PreparedSite) -> SiteIndex {
    let order = rankedDocuments(site)
    var files: [(path: String, bytes: [UInt8])] = []
    func add(_ folder: String, _ name: String, _ bytes: [UInt8]) -> String {
      let path = "\(folder)/\(name).\(ContentHash.hex(bytes)).json"
      files.append(("idx/" + path, bytes))
      return path
    }

    // Postings, appended in document-number order so each list is sorted.
    // Terms are cut on all cores a block at a time (bounded memory), then
    // appended in order.
    var postings: [String: Postings] = [:]
    let block = 16_384
    var blockStart = 0
    while blockStart < order.count {
      let start = blockStart
      let end = min(start + block, order.count)
      let cut = Parallel.map(count: end - start) { offset -> (title: [String], other: [String]) in
        let documentIndex = order[start + offset]
        var seen = Set<String>()
        var title: [String] = []
        TextNormalizer.forEachTerm(in: site.documents[documentIndex].title) { term in
          if seen.insert(term).inserted { title.append(term) }
        }
        var other: [String] = []
        TextNormalizer.forEachTerm(in: site.searchText(of: documentIndex)) { term in
          if seen.insert(term).inserted { other.append(term) }
        }
        return (title, other)
      }
      for (offset, terms) in cut.enumerated() {
        let number = Int32(start + offset)
        for term in terms.title { postings[term, default: Postings()].title.append(number) }
        for term in terms.other { postings[term, default: Postings()].other.append(number) }
      }
      blockStart = end
    }

    // Each term's entry is encoded when its shard is written; long lists
    // spill to a continuation file. Shard sizes are planned from the
    // postings alone, so no encoded copy of the whole index is held.
    let terms = postings.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    func entry(_ term: String) -> [UInt8] {
      guard let list = postings[term] else { return Array("[[],[]]".utf8) }
      var writer = JSONWriter()
      let total = list.title.count + list.other.count
      if total <= options.inlinePostings {
        writer.byte(UInt8(ascii: "["))
        writer.deltas(list.title)
        writer.byte(UInt8(ascii: ","))
        writer.deltas(list.other)
        writer.byte(UInt8(ascii: "]"))
        return writer.bytes
      }
      let (titleCut, otherCut) = Self.split(list, keep: options.inlinePostings)
      var more = JSONWriter()
      more.raw("{\"terms\":{")
      more.string(term)
      more.raw(":[")
      more.deltas(list.title[titleCut...])
      more.byte(UInt8(ascii: ","))
      more.deltas(list.other[otherCut...])
      more.raw("]}}")
      let morePath = add("t", "more-" + ContentHash.hex(Array(term.utf8), digits: 8), more.bytes)
      writer.byte(UInt8(ascii: "["))
      writer.deltas(list.title[..<titleCut])
      writer.byte(UInt8(ascii: ","))
      writer.deltas(list.other[..<otherCut])
      writer.byte(UInt8(ascii: ","))
      writer.int(total)
      writer.byte(UInt8(ascii: ","))
      writer.string(morePath)
      writer.byte(UInt8(ascii: "]"))
      return writer.bytes
    }
    var entrySizes: [String: Int] = [:]
    entrySizes.reserveCapacity(terms.count)
    for term in terms {
      guard let list = postings[term] else { continue }
      let total = list.title.count + list.other.count
      if total <= options.inlinePostings {
        entrySizes[term] = 3 + Self.deltaBytes(list.title[...]) + Self.deltaBytes(list.other[...])
      } else {
        let (titleCut, otherCut) = Self.split(list, keep: options.inlinePostings)
        entrySizes[term] = 40 + Self.deltaBytes(list.title[..<titleCut]) + Self.deltaBytes(list.other[..<otherCut])
      }
    }

    // Term shards by prefix, split until each is small.
    var shardList: [(prefix: String, path: String)] = []
    var shardCounter = 0
    func writeShard(prefix: String, terms: ArraySlice<String>, tops: [Int32]?) {
      var writer = JSONWriter(capacity: options.targetShardBytes)
      writer.raw("{\"prefix\":")
      writer.string(prefix)
      writer.raw(",\"terms\":{")
      for (index, term) in terms.enumerated() {
        if index > 0 { writer.byte(UInt8(ascii: ",")) }
        writer.string(term)
        writer.byte(UInt8(ascii: ":"))
        writer.value(.raw(entry(term)))
      }
      writer.byte(UInt8(ascii: "}"))
      if let tops {
        writer.raw(",\"tops\":")
        writer.deltas(tops)
      }
      writer.byte(UInt8(ascii: "}"))
      shardList.append((prefix, add("t", String(shardCounter), writer.bytes)))
      shardCounter += 1
    }
    func size(_ terms: ArraySlice<String>) -> Int {
      terms.reduce(0) { $0 + $1.utf8.count + 4 + (entrySizes[$1] ?? 0) }
    }
    func shard(prefix: String, terms: ArraySlice<String>) {
      let prefixLength = prefix.unicodeScalars.count
      if size(terms) <= options.targetShardBytes || prefixLength >= options.maxPrefixLength {
        writeShard(prefix: prefix, terms: terms, tops: nil)
        return
      }
      let exact = terms.filter { $0 == prefix }
      writeShard(prefix: prefix, terms: ArraySlice(exact), tops: tops(for: terms, postings: postings))
      for group in Self.groups(terms.filter { $0 != prefix }, length: prefixLength + 1) {
        shard(prefix: group.prefix, terms: group.terms)
      }
    }
    for group in Self.groups(terms[...], length: 1) {
      shard(prefix: group.prefix, terms: group.terms)
    }
    shardList.sort { $0.prefix.utf8.lexicographicallyPrecedes($1.prefix.utf8) }
    let termListing: (key: String, value: JSONValue)
    if shardList.count <= options.maxManifestShards {
      termListing = ("termShards", .array(shardList.map { .array([.string($0.prefix), .string($0.path)]) }))
    } else {
      var directories: [JSONValue] = []
      var start = shardList.startIndex
      while start < shardList.endIndex {
        let first = shardList[start].prefix.unicodeScalars.first.map { String($0) } ?? ""
        var end = start
        while end < shardList.endIndex && shardList[end].prefix.unicodeScalars.first.map({ String($0) }) == first { end += 1 }
        let listing: JSONValue = .object([
          "termShards": .array(shardList[start..<end].map { .array([.string($0.prefix), .string($0.path)]) })
        ])
        directories.append(.array([.string(first), .string(add("t", "dir-\(directories.count)", listing.encoded))]))
        start = end
      }
      termListing = ("termDirectories", .array(directories))
    }

    // Document shards, numbered in one content-hashed folder: the browser
    // computes a shard's name from its number, so the manifest does not grow
    // with the index (a list of 20,000 names was 190 KB gzip at 1M records).
    let kinds = site.collections.filter(\.config.searchable)
    var kindIndex: [Int: Int] = [:]
    for (index, collection) in site.collections.enumerated() where collection.config.searchable {
      kindIndex[index] = kindIndex.count
    }
    let shardCount = (order.count + options.docsPerShard - 1) / options.docsPerShard
    let docShardBytes = Parallel.map(count: shardCount) { shard -> [UInt8] in
      let start = shard * options.docsPerShard
      let end = min(start + options.docsPerShard, order.count)
      var writer = JSONWriter(capacity: 16 * 1024)
      writer.raw("{\"docs\":[")
      for number in start..<end {
        let document = site.documents[order[number]]
        if number > start { writer.byte(UInt8(ascii: ",")) }
        writer.byte(UInt8(ascii: "["))
        writer.int(kindIndex[document.collection] ?? 0)
        writer.byte(UInt8(ascii: ","))
        writer.string(document.title)
        writer.byte(UInt8(ascii: ","))
        writer.string(document.subtitle)
        writer.byte(UInt8(ascii: ","))
        writer.string(document.url)
        writer.byte(UInt8(ascii: ","))
        writer.int(document.hue)
        writer.byte(UInt8(ascii: "]"))
      }
      writer.raw("],\"first\":")
      writer.int(start)
      writer.byte(UInt8(ascii: "}"))
      return writer.bytes
    }
    var folderHash: [UInt8] = []
    for bytes in docShardBytes { folderHash += Array(ContentHash.hex(bytes, digits: 16).utf8) }
    let docShardFolder = "d/\(ContentHash.hex(folderHash))/"
    for (number, bytes) in docShardBytes.enumerated() {
      files.append(("idx/\(docShardFolder)\(number).json", bytes))
    }

    // Facet values (for tokens) and scopes.
    func idsFile(_ name: String, _ ids: [Int32]) -> String {
      var writer = JSONWriter()
      writer.raw("{\"ids\":")
      writer.deltas(ids)
      writer.byte(UInt8(ascii: "}"))
      return add("f", name, writer.bytes)
    }
    func documents(facet: Int, value: String) -> [Int32] {
      var ids: [Int32] = []
      for (number, documentIndex) in order.enumerated() where site.documents[documentIndex].facetValues[facet].contains(value) {
        ids.append(Int32(number))
      }
      return ids
    }
    var facetsJSON: [JSONValue] = []
    for (facetNumber, facet) in site.facets.enumerated() where facet.token {
      var counts: [String: [Int32]] = [:]
      for (number, documentIndex) in order.enumerated() {
        for value in site.documents[documentIndex].facetValues[facetNumber] {
          counts[value, default: []].append(Int32(number))
        }
      }
      let values = counts.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
      var valuesJSON: [JSONValue] = []
      for (offset, entry) in values.enumerated() {
        let file = idsFile("\(facet.id)-\(offset)", entry.value)
        valuesJSON.append(.array([.string(entry.key), .int(entry.value.count), .string(file)]))
      }
      facetsJSON.append(.object([
        "id": .string(facet.id), "label": .string(facet.label), "icon": .string(facet.icon), "values": .array(valuesJSON),
      ]))
    }
    var scopesJSON: [JSONValue] = []
    let facetNumber = Dictionary(uniqueKeysWithValues: site.facets.enumerated().map { ($0.element.id, $0.offset) })
    for scope in site.config.scopes {
      var object: [String: JSONValue] = ["id": .string(scope.id), "label": .string(scope.label)]
      if let facet = scope.facet, let value = scope.value, let number = facetNumber[facet] {
        let ids = documents(facet: number, value: value)
        object["file"] = .string(idsFile("scope-\(scope.id)", ids))
        object["count"] = .int(ids.count)
      } else {
        object["count"] = .int(order.count)
      }
      scopesJSON.append(.object(object))
    }

    // Per kind, the documents of that kind: chip totals and one-kind result
    // lists come from these, without opening document shards.
    var kindIDs = [[Int32]](repeating: [], count: kinds.count)
    for (number, documentIndex) in order.enumerated() {
      kindIDs[kindIndex[site.documents[documentIndex].collection] ?? 0].append(Int32(number))
    }
    let kindFiles = kinds.enumerated().map { offset, collection in idsFile("kind-\(collection.config.id)", kindIDs[offset]) }
    let manifest: JSONValue = .object([
      "version": .int(1),
      "docCount": .int(order.count),
      "docsPerShard": .int(options.docsPerShard),
      "docShardFolder": .string(docShardFolder),
      termListing.key: termListing.value,
      "kinds": .array(kinds.enumerated().map { offset, collection in
        .object([
          "id": .string(collection.config.id), "label": .string(collection.config.label),
          "singular": .string(collection.config.singular), "count": .int(kindIDs[offset].count),
          "file": .string(kindFiles[offset]),
        ])
      }),
      "topResults": .string(site.config.search.topResults),
      "scopes": .array(scopesJSON),
      "facets": .array(facetsJSON),
      "trending": .array(site.config.search.trending.map { .string($0) }),
      "options": .object([
        "slashFocuses": .bool(site.config.search.slashFocuses),
        "suggestions": .int(site.config.search.suggestions),
      ]),
    ])
    let manifestBytes = manifest.encoded
    let manifestPath = "idx/manifest.\(ContentHash.hex(manifestBytes)).json"
    files.append((manifestPath, manifestBytes))
    return SiteIndex(files: files, manifestPath: manifestPath)
  }

  /// Searchable documents in static-rank order: popularity, then collection
  /// order, then normalised title, then key.
  func rankedDocuments(_ site: PreparedSite) -> [Int] {
    // Sort keys gathered once: comparing documents directly would copy two
    // of them per comparison, twenty million times for a million records.
    struct Key {
      var popularity: Double
      var collection: Int
      var title: String
      var key: String
      var index: Int
    }
    let documents = site.documents
    let searchable = documents.indices.filter { site.collections[documents[$0].collection].config.searchable }
    var keys = Parallel.map(count: searchable.count) { offset -> Key in
      let index = searchable[offset]
      return Key(
        popularity: documents[index].popularity, collection: documents[index].collection,
        title: TextNormalizer.normalize(documents[index].title), key: documents[index].key, index: index)
    }
    keys.sort { x, y in
      if x.popularity != y.popularity { return x.popularity > y.popularity }
      if x.collection != y.collection { return x.collection < y.collection }
      if x.title != y.title { return x.title < y.title }
      if x.key != y.key { return x.key < y.key }
      return x.index < y.index
    }
    return keys.map(\.index)
  }

  /// How many bytes `JSONWriter.deltas` writes for these numbers, brackets
  /// included, without writing them.
  static func deltaBytes(_ values: ArraySlice<Int32>) -> Int {
    var bytes = 2 + max(0, values.count - 1)
    var previous: Int32 = 0
    for value in values {
      var delta = Int(value - previous)
      previous = value
      repeat {
        bytes += 1
        delta /= 10
      } while delta > 0
    }
    return bytes
  }

  /// Where to cut the two lists so the `keep` best (lowest) numbers stay inline.
  static func split(_ list: Postings, keep: Int) -> (Int, Int) {
    var t = 0
    var o = 0
    while t + o < keep {
      if t < list.title.count && (o >= list.other.count || list.title[t] < list.other[o]) {
        t += 1
      } else if o < list.other.count {
        o += 1
      } else {
        break
      }
    }
    return (t, o)
  }

  /// Consecutive runs of sorted terms sharing their first `length` scalars.
  static func groups(_ terms: ArraySlice<String>, length: Int) -> [(prefix: String, terms: ArraySlice<String>)] {
    var result: [(prefix: String, terms: ArraySlice<String>)] = []
    var start = terms.startIndex
    var current: String?
    for index in terms.indices {
      let prefix = String(String.UnicodeScalarView(terms[index].unicodeScalars.prefix(length)))
      if prefix != current {
        if let current { result.append((current, terms[start..<index])) }
        current = prefix
        start = index
      }
    }
    if let current { result.append((current, terms[start..<terms.endIndex])) }
    return result
  }

  /// The best documents under a split prefix: chosen from title matches
  /// first, then other matches, and listed in number order (delta-encoded).
  func tops(for terms: ArraySlice<String>, postings: [String: Postings]) -> [Int32] {
    var title = Set<Int32>()
    var other = Set<Int32>()
    for term in terms {
      guard let list = postings[term] else { continue }
      title.formUnion(list.title.prefix(options.tops))
      other.formUnion(list.other.prefix(options.tops))
    }
    var best = Array(title.sorted().prefix(options.tops))
    if best.count < options.tops {
      best += other.subtracting(title).sorted().prefix(options.tops - best.count)
    }
    return best.sorted()
  }
}
