/// The index builder's stages after postings (see `IndexBuilder.build`):
/// each reads what earlier stages made and adds its files to `IndexFiles`.
/// Over 400 lines on purpose: four short stages that share the encoders of
/// the format's big integer lists, read together with FORMAT.md.

/// Stage 3: term shards by prefix, split until each is small. A term's entry
/// is encoded when its shard is written, and its size for planning is the
/// length of that same encoding, so plan and file cannot disagree.
struct TermShardStage {
  let options: IndexBuilder.Options
  let postings: [String: Postings]
  let rows: DocumentRows
  /// Rows per query in a shard's `docs`: the page's suggestions.
  let suggestions: Int

  func run(into files: inout IndexFiles) -> ShardListing {
    let terms = postings.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let written = PrefixSharder.run(
      terms, targetBytes: options.targetShardBytes, maxPrefixLength: options.maxPrefixLength,
      size: { term in
        guard let list = postings[term] else { return 0 }
        var size = term.utf8.count + 4 + encode(term, list).entry.count
        for extra in [list.starts, list.whole] where !extra.isEmpty {
          var writer = JSONWriter()
          writer.deltas(extra)
          size += term.utf8.count + 4 + writer.bytes.count
        }
        return size
      },
      write: { prefix, terms, subtree in
        writeShard(prefix: prefix, terms: terms, tops: subtree.map(tops), files: &files)
      })
    return ShardListing.make(written, name: "term", maxListed: options.maxManifestShards, files: &files)
  }

  /// `[title, other]`, or for a long list `[title head, other head, total,
  /// continuation path]` with the continuation file's bytes.
  func encode(_ term: String, _ list: Postings) -> (entry: [UInt8], more: [UInt8]?) {
    var writer = JSONWriter()
    if list.count <= options.inlinePostings {
      writer.byte(UInt8(ascii: "["))
      writer.deltas(list.title)
      writer.byte(UInt8(ascii: ","))
      writer.deltas(list.other)
      writer.byte(UInt8(ascii: "]"))
      return (writer.bytes, nil)
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
    writer.byte(UInt8(ascii: "["))
    writer.deltas(list.title[..<titleCut])
    writer.byte(UInt8(ascii: ","))
    writer.deltas(list.other[..<otherCut])
    writer.byte(UInt8(ascii: ","))
    writer.int(list.count)
    writer.byte(UInt8(ascii: ","))
    writer.string(Self.morePath(term, more.bytes))
    writer.byte(UInt8(ascii: "]"))
    return (writer.bytes, more.bytes)
  }

  static func morePath(_ term: String, _ bytes: [UInt8]) -> String {
    "t/more-\(ContentHash.hex(Array(term.utf8), digits: 8)).\(ContentHash.hex(bytes)).json"
  }

  func writeShard(prefix: String, terms: ArraySlice<String>, tops: [[Int32]]?, files: inout IndexFiles)
    -> String
  {
    var writer = JSONWriter(capacity: options.targetShardBytes)
    var starts: [(String, [Int32])] = []
    var whole: [(String, [Int32])] = []
    var joined: [String] = []
    let lead = LeadDocuments(postings: postings, limit: suggestions, inline: options.inlinePostings)
    var leadRows: [Int32: [UInt8]] = [:]
    let leading = lead.select(prefix: prefix, terms: terms, tops: tops, budget: options.leadBytes) { number in
      if leadRows[number] == nil { leadRows[number] = rows.numbered(number) }
      return leadRows[number]?.count ?? 0
    }
    for term in terms {
      guard let list = postings[term] else { continue }
      if !list.starts.isEmpty { starts.append((term, list.starts)) }
      if !list.whole.isEmpty { whole.append((term, list.whole)) }
      if !list.plain { joined.append(term) }
    }
    // Keys in sorted order: docs, joined, prefix, starts, terms, tops, whole.
    writer.byte(UInt8(ascii: "{"))
    if !leading.isEmpty {
      writer.raw("\"docs\":[")
      for (index, number) in leading.enumerated() {
        if index > 0 { writer.byte(UInt8(ascii: ",")) }
        writer.value(.raw(leadRows[number] ?? rows.numbered(number)))
      }
      writer.raw("],")
    }
    if !joined.isEmpty {
      writer.raw("\"joined\":[")
      for (index, term) in joined.enumerated() {
        if index > 0 { writer.byte(UInt8(ascii: ",")) }
        writer.string(term)
      }
      writer.raw("],")
    }
    writer.raw("\"prefix\":")
    writer.string(prefix)
    if !starts.isEmpty {
      writer.raw(",\"starts\":")
      Self.writeLists(starts, into: &writer)
    }
    writer.raw(",\"terms\":{")
    for (index, term) in terms.enumerated() {
      guard let list = postings[term] else { continue }
      if index > 0 { writer.byte(UInt8(ascii: ",")) }
      writer.string(term)
      writer.byte(UInt8(ascii: ":"))
      let (entry, more) = encode(term, list)
      if let more { files.files.append(("idx/" + Self.morePath(term, more), more)) }
      writer.value(.raw(entry))
    }
    writer.byte(UInt8(ascii: "}"))
    if let tops {
      writer.raw(",\"tops\":[")
      writer.deltas(tops[0])
      writer.byte(UInt8(ascii: ","))
      writer.deltas(tops[1])
      writer.byte(UInt8(ascii: "]"))
    }
    if !whole.isEmpty {
      writer.raw(",\"whole\":")
      Self.writeLists(whole, into: &writer)
    }
    writer.byte(UInt8(ascii: "}"))
    return files.add("t", "\(prefix.isEmpty ? "_" : "s")", writer.bytes)
  }

  static func writeLists(_ lists: [(String, [Int32])], into writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "{"))
    for (index, (term, ids)) in lists.enumerated() {
      if index > 0 { writer.byte(UInt8(ascii: ",")) }
      writer.string(term)
      writer.byte(UInt8(ascii: ":"))
      writer.deltas(ids)
    }
    writer.byte(UInt8(ascii: "}"))
  }

  /// The best documents under a split prefix, as FORMAT.md says: the best
  /// title matches, then the best others, as two ascending lists.
  func tops(_ terms: ArraySlice<String>) -> [[Int32]] {
    var title = Set<Int32>()
    var other = Set<Int32>()
    for term in terms {
      guard let list = postings[term] else { continue }
      title.formUnion(list.title.prefix(options.tops))
      other.formUnion(list.other.prefix(options.tops))
    }
    let best = Array(title.sorted().prefix(options.tops))
    let rest = Array(other.subtracting(title).sorted().prefix(options.tops - best.count))
    return [best, rest]
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
}

/// Stage 4: the typo dictionary. A word typed with one slip in its first
/// letters is not under its own prefix, so each word of six or more letters
/// is also listed under the three-letter pieces at offsets 2, 3 and 4; a
/// query looks up its own piece at offset 3 (a slip before it shifts the
/// piece by at most one), in one small shard named by the piece's prefix.
struct TypoShardStage {
  let options: IndexBuilder.Options
  let postings: [String: Postings]

  static func keys(of term: String) -> [String] {
    let scalars = Array(term.unicodeScalars)
    guard scalars.count >= 6 else { return [] }
    return (2...4).compactMap { offset in
      offset + 3 <= scalars.count ? String(String.UnicodeScalarView(scalars[offset..<offset + 3])) : nil
    }
  }

  func run(into files: inout IndexFiles) -> ShardListing {
    var table: [String: [String]] = [:]
    for (term, list) in postings where list.plain {
      for key in Set(Self.keys(of: term)) { table[key, default: []].append(term) }
    }
    for (key, terms) in table {
      table[key] = Array(
        terms.sorted { (postings[$0]?.count ?? 0, $1) > (postings[$1]?.count ?? 0, $0) }.prefix(
          options.typoTermsPerKey))
    }
    let keys = table.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let encoded = Dictionary(
      uniqueKeysWithValues: keys.map { key -> (String, [UInt8]) in
        var writer = JSONWriter()
        writer.value(.array((table[key] ?? []).map { .string($0) }))
        return (key, writer.bytes)
      })
    let shards = PrefixSharder.run(
      keys, targetBytes: options.targetShardBytes, maxPrefixLength: 3,
      size: { key in key.utf8.count + 4 + (encoded[key]?.count ?? 0) },
      write: { prefix, keys, _ in
        var writer = JSONWriter(capacity: options.targetShardBytes)
        writer.raw("{\"keys\":{")
        for (index, key) in keys.enumerated() {
          if index > 0 { writer.byte(UInt8(ascii: ",")) }
          writer.string(key)
          writer.byte(UInt8(ascii: ":"))
          writer.value(.raw(encoded[key] ?? []))
        }
        writer.raw("},\"prefix\":")
        writer.string(prefix)
        writer.byte(UInt8(ascii: "}"))
        return files.add("y", "s", writer.bytes)
      })
    // Listed in a file of its own, fetched with the first typo: most queries never need it,
    // so the manifest (in every first query) does not carry it.
    let sorted = shards.sorted { $0.prefix.utf8.lexicographicallyPrecedes($1.prefix.utf8) }
    let listing: JSONValue = .object([
      "typoShards": .array(sorted.map { .array([.string($0.prefix), .string($0.path)]) })
    ])
    return ShardListing(key: "typoList", value: .string(files.add("y", "list", listing.encoded)))
  }
}

/// Stage 5: document shards, numbered in one content-hashed folder: the
/// browser computes a shard's name from its number, so the manifest does not
/// grow with the index (a list of 20,000 names was 190 KB gzip at 1M records).
struct DocumentShardStage {
  let options: IndexBuilder.Options
  let site: PreparedSite
  let order: [Int]

  /// Returns the folder, `d/<hash>/`.
  func run(into files: inout IndexFiles) -> String {
    let rows = DocumentRows(site: site, order: order)
    let shardCount = (order.count + options.docsPerShard - 1) / options.docsPerShard
    let docShardBytes = Parallel.map(count: shardCount) { shard -> [UInt8] in
      let start = shard * options.docsPerShard
      let end = min(start + options.docsPerShard, order.count)
      var writer = JSONWriter(capacity: 16 * 1024)
      writer.raw("{\"docs\":[")
      for number in start..<end {
        if number > start { writer.byte(UInt8(ascii: ",")) }
        rows.write(number, into: &writer)
      }
      writer.raw("],\"first\":")
      writer.int(start)
      writer.byte(UInt8(ascii: "}"))
      return writer.bytes
    }
    var folderHash: [UInt8] = []
    for bytes in docShardBytes { folderHash += Array(ContentHash.hex(bytes, digits: 16).utf8) }
    let folder = "d/\(ContentHash.hex(folderHash))/"
    for (number, bytes) in docShardBytes.enumerated() {
      files.files.append(("idx/\(folder)\(number).json", bytes))
    }
    return folder
  }
}

extension PreparedSite {
  /// Collection index → kind number (searchable collections, in order).
  var kindIndex: [Int: Int] {
    var result: [Int: Int] = [:]
    for (index, collection) in collections.enumerated() where collection.config.searchable {
      result[index] = result.count
    }
    return result
  }
}

/// Stage 6: facet values (for tokens), scopes, the documents of each kind,
/// and each distinct kind's groups.
struct FilterStage {
  let site: PreparedSite
  let order: [Int]

  struct Result {
    var facets: [JSONValue] = []
    var scopes: [JSONValue] = []
    var kindIDs: [[Int32]] = []
    var kindFiles: [String] = []
    var distinctFiles: [Int: String] = [:]
  }

  func run(into files: inout IndexFiles) -> Result {
    var result = Result()
    func idsFile(_ name: String, _ ids: [Int32]) -> String {
      var writer = JSONWriter()
      writer.raw("{\"ids\":")
      writer.deltas(ids)
      writer.byte(UInt8(ascii: "}"))
      return files.add("f", name, writer.bytes)
    }
    for (facetNumber, facet) in site.facets.enumerated() where facet.token {
      var counts: [String: [Int32]] = [:]
      for (number, documentIndex) in order.enumerated() {
        for value in site.documents[documentIndex].facetValues[facetNumber] {
          counts[value, default: []].append(Int32(number))
        }
      }
      let values = counts.sorted {
        $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
      }
      var valuesJSON: [JSONValue] = []
      for (offset, entry) in values.enumerated() {
        let file = idsFile("\(facet.id)-\(offset)", entry.value)
        valuesJSON.append(.array([.string(entry.key), .int(entry.value.count), .string(file)]))
      }
      result.facets.append(
        .object([
          "id": .string(facet.id), "label": .string(facet.label), "icon": .string(facet.icon),
          "values": .array(valuesJSON),
        ]))
    }
    let facetNumber = Dictionary(
      uniqueKeysWithValues: site.facets.enumerated().map { ($0.element.id, $0.offset) })
    for scope in site.config.scopes {
      var object: [String: JSONValue] = ["id": .string(scope.id), "label": .string(scope.label)]
      if let facet = scope.facet, let value = scope.value, let number = facetNumber[facet] {
        var ids: [Int32] = []
        for (position, documentIndex) in order.enumerated()
        where site.documents[documentIndex].facetValues[number].contains(value) {
          ids.append(Int32(position))
        }
        object["file"] = .string(idsFile("scope-\(scope.id)", ids))
        object["count"] = .int(ids.count)
      } else {
        object["count"] = .int(order.count)
      }
      result.scopes.append(.object(object))
    }
    // Per kind, its documents: chip totals and one-kind lists come from these
    // without opening document shards. A distinct kind also lists, aligned
    // with them, each document's group (numbered by first appearance).
    let kinds = site.collections.filter(\.config.searchable)
    let kindIndex = site.kindIndex
    var kindIDs = [[Int32]](repeating: [], count: kinds.count)
    var groups = [[Int]](repeating: [], count: kinds.count)
    var groupNumbers = [[String: Int]](repeating: [:], count: kinds.count)
    for (number, documentIndex) in order.enumerated() {
      let kind = kindIndex[site.documents[documentIndex].collection] ?? 0
      kindIDs[kind].append(Int32(number))
      if let value = site.distinctValue(of: documentIndex) {
        let next = groupNumbers[kind].count
        let group = groupNumbers[kind][value] ?? next
        groupNumbers[kind][value] = group
        groups[kind].append(group)
      }
    }
    result.kindIDs = kindIDs
    result.kindFiles = kinds.enumerated().map { offset, collection in
      idsFile("kind-\(collection.config.id)", kindIDs[offset])
    }
    for (offset, collection) in kinds.enumerated() where collection.distinct != nil {
      var writer = JSONWriter()
      writer.value(.object(["groups": .array(groups[offset].map { .int($0) })]))
      result.distinctFiles[offset] = files.add("f", "distinct-\(collection.config.id)", writer.bytes)
    }
    return result
  }
}

/// Stage 7: the manifest, which names everything else.
struct ManifestStage {
  let site: PreparedSite
  let order: [Int]
  let options: IndexBuilder.Options

  func run(terms: ShardListing, typos: ShardListing, docShardFolder: String, filters: FilterStage.Result)
    -> [UInt8]
  {
    let kinds = site.collections.filter(\.config.searchable)
    let manifest: JSONValue = .object([
      "version": .int(1),
      "docCount": .int(order.count),
      "docsPerShard": .int(options.docsPerShard),
      "docShardFolder": .string(docShardFolder),
      terms.key: terms.value,
      typos.key: typos.value,
      "kinds": .array(
        kinds.enumerated().map { offset, collection in
          var kind: [String: JSONValue] = [
            "id": .string(collection.config.id), "label": .string(collection.config.label),
            "singular": .string(collection.config.singular), "count": .int(filters.kindIDs[offset].count),
            "file": .string(filters.kindFiles[offset]),
          ]
          if let distinct = filters.distinctFiles[offset] { kind["distinct"] = .string(distinct) }
          return .object(kind)
        }),
      "topResults": .string(site.config.search.topResults),
      "scopes": .array(filters.scopes),
      "facets": .array(filters.facets),
      "trending": .array(site.config.search.trending.map { .string($0) }),
      "options": .object([
        "slashFocuses": .bool(site.config.search.slashFocuses),
        "suggestions": .int(site.config.search.suggestions),
      ]),
    ])
    return manifest.encoded
  }
}
