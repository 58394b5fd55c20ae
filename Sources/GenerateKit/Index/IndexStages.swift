/// The index builder's stages after postings (see `IndexBuilder.build`):
/// each reads what earlier stages made, fills in the shapes of
/// IndexFormat.swift, and adds their encoded files to `IndexFiles`.

/// Stage 3: term shards by prefix, split until each is small. A term's entry
/// is encoded when its shard is written, and its size for planning is the
/// length of that same encoding, so plan and file cannot disagree.
struct TermShardStage {
  let options: IndexBuilder.Options
  let postings: [String: Postings]
  /// The postings' terms in UTF-8 order.
  let terms: [String]
  let rows: DocumentRows
  /// Rows per query in a shard's `docs`: the page's suggestions.
  let suggestions: Int

  /// The index this build replaces, whose tags the shards it holds byte for byte keep.
  var previous: PreviousTermShards? = nil

  /// Writes the shards, numbered in the order written (which is by prefix),
  /// each named by its prefix and a tag (`tags`).
  /// On all cores, in three passes: every term's planned size, the plan
  /// (which prefixes, which terms), then the shards themselves; files are
  /// added in plan order, whatever finished first.
  func run(into files: inout IndexFiles) throws -> ShardListing {
    // A size is never negative: -1 marks a term whose entry could not be
    // encoded, and that term is encoded again here to throw its error.
    let sizes = Parallel.map(count: terms.count) { index in (try? plannedSize(terms[index])) ?? -1 }
    if let failed = sizes.firstIndex(of: -1) { _ = try plannedSize(terms[failed]) }
    var planned: [(prefix: String, terms: ArraySlice<String>, subtree: ArraySlice<String>?)] = []
    _ = try PrefixSharder.run(
      terms, targetBytes: options.targetShardBytes, maxPrefixLength: options.maxPrefixLength,
      size: { position in sizes[position] },
      write: { prefix, terms, subtree in
        planned.append((prefix, terms, subtree))
        return ""
      })
    // A block of shards at a time, each block's files handed to `files`
    // (the spool, in a plain build) before the next is made: at ten million
    // records every shard at once would be gigabytes. The shards' names
    // wait for the last block: the tag of a changed shard is a hash of them all.
    var made: [(stored: IndexFiles.Stored, hash: String, kept: String?)] = []
    made.reserveCapacity(planned.count)
    for blockStart in stride(from: 0, to: planned.count, by: options.shardsPerBlock) {
      let block = blockStart..<min(blockStart + options.shardsPerBlock, planned.count)
      let written = try Parallel.map(count: block.count) { offset in
        Result {
          var more = IndexFiles()
          let shard = planned[block.lowerBound + offset]
          let bytes = try shardBytes(
            prefix: shard.prefix, terms: shard.terms, tops: shard.subtree.map(tops), files: &more)
          return (bytes: bytes, more: more, kept: previous?.tag(of: shard.prefix, holding: bytes))
        }
      }.map { try $0.get() }
      for shard in written {
        for file in shard.more.entries {
          guard case .bytes(let bytes) = file.content else { continue }
          try files.append(file.path, bytes)
        }
        made.append((try files.store(shard.bytes), ContentHash.hex(shard.bytes, digits: 16), shard.kept))
      }
    }
    let tags = Self.tags(prefixes: planned.map(\.prefix), hashes: made.map(\.hash), kept: made.map(\.kept))
    for (number, shard) in made.enumerated() {
      files.append(
        "idx/\(Self.folder)\(TermShardRun.fileName(planned[number].prefix, hash: tags[number]))",
        stored: shard.stored)
    }
    let entries = planned.enumerated().map {
      (prefix: $0.element.prefix, number: $0.offset, hash: tags[$0.offset])
    }
    return try ShardListing.make(
      entries, folder: Self.folder, maxListed: options.maxManifestShards, previous: previous, files: &files)
  }

  /// Each shard's tag: the one it `kept` from the previous index, whose
  /// shard of the same prefix had its bytes; else this build's, a hash of
  /// every shard's prefix and full hash (`hashes`, 64 bits each), the same
  /// for every shard it changed. A tag so stands for one whole index, in
  /// which a prefix has one content: a name is never given to two, across
  /// builds too (but for a collision of hashes), and a build that returns
  /// to an earlier index returns to its names. The page holds one tag per
  /// shard, and tags shared by most shards cost it next to nothing gzipped,
  /// where hashes of their own did not compress (FORMAT.md "Stable names").
  static func tags(prefixes: [String], hashes: [String], kept: [String?]) -> [String] {
    var whole: [UInt8] = []
    for (prefix, hash) in zip(prefixes, hashes) {
      whole += prefix.utf8
      whole.append(0)
      whole += hash.utf8
    }
    let fresh = ContentHash.hex(whole, digits: IndexFiles.shardHashDigits)
    return kept.map { $0 ?? fresh }
  }

  /// Term shards are `t/s<prefix>.<tag>.json`, each named by its prefix and
  /// the build that last changed its bytes (`tags`), so a data edit renames
  /// only the shards whose bytes it changed (and a prefix split, which
  /// renumbers the shards after it, renames none of them).
  static let folder = "t/"

  /// A term's size for planning shards: its entry's, name and separators
  /// included, and its `starts`, `ends`, `whole`, `parts` and `mentions` lists'.
  func plannedSize(_ term: String) throws -> Int {
    guard let list = postings[term] else { return 0 }
    var size = term.utf8.count + 4 + (try entry(term, list, sizeOnly: true).entry.jsonBytes.count)
    for extra in [list.starts, list.ends, list.whole, list.parts, list.compounds, list.mentions]
    where !extra.isEmpty {
      size += term.utf8.count + 4 + DeltaList(extra).jsonBytes.count
    }
    return size
  }

  /// A term's entry, and for a long list the continuation file holding the
  /// rest, with its bytes (whose hash names it in the entry). `sizeOnly`,
  /// for planning shards, names the file with a stand-in of the same
  /// length instead of encoding and hashing it (a common word's file at a
  /// million records is megabytes, and planning asks for it again at each
  /// longer prefix).
  func entry(_ term: String, _ list: Postings, sizeOnly: Bool = false) throws -> (
    entry: PostingsEntry, more: (path: String, bytes: [UInt8])?
  ) {
    if list.count <= options.inlinePostings {
      return (PostingsEntry(title: DeltaList(list.title), other: DeltaList(list.other)), nil)
    }
    let (titleCut, otherCut) = Self.split(list, keep: options.inlinePostings)
    if sizeOnly {
      let standIn = "t/more-\(ContentHash.hex([UInt8](), digits: 8)).\(ContentHash.hex([UInt8]())).json"
      let head = PostingsEntry(
        title: DeltaList(list.title[..<titleCut]), other: DeltaList(list.other[..<otherCut]),
        total: list.count, more: standIn)
      return (head, nil)
    }
    let rest = ContinuationFile(terms: [
      term: [DeltaList(list.title[titleCut...]), DeltaList(list.other[otherCut...])]
    ])
    let bytes = try IndexEncoder.encode(rest)
    let path = "t/more-\(ContentHash.hex(Array(term.utf8), digits: 8)).\(ContentHash.hex(bytes)).json"
    let head = PostingsEntry(
      title: DeltaList(list.title[..<titleCut]), other: DeltaList(list.other[..<otherCut]), total: list.count,
      more: path)
    return (head, (path, bytes))
  }

  /// A shard's bytes; its continuation files go into `files`.
  func shardBytes(prefix: String, terms: ArraySlice<String>, tops: [[Int32]]?, files: inout IndexFiles)
    throws -> [UInt8]
  {
    var shard = TermShard(prefix: prefix, terms: [:])
    var starts: [String: DeltaList] = [:]
    var ends: [String: DeltaList] = [:]
    var whole: [String: DeltaList] = [:]
    var parts: [String: DeltaList] = [:]
    var compounds: [String: DeltaList] = [:]
    var mentions: [String: DeltaList] = [:]
    var joined: [String] = []
    var stems: [String] = []
    for term in terms {
      guard let list = postings[term] else { continue }
      let (entry, more) = try entry(term, list)
      if let more { try files.append("idx/" + more.path, more.bytes) }
      shard.terms[term] = entry
      if !list.starts.isEmpty { starts[term] = DeltaList(list.starts) }
      if !list.ends.isEmpty { ends[term] = DeltaList(list.ends) }
      if !list.whole.isEmpty { whole[term] = DeltaList(list.whole) }
      if !list.parts.isEmpty { parts[term] = DeltaList(list.parts) }
      if !list.compounds.isEmpty { compounds[term] = DeltaList(list.compounds) }
      if !list.mentions.isEmpty { mentions[term] = DeltaList(list.mentions) }
      if !list.plain { joined.append(term) }
      if list.plain && list.stem { stems.append(term) }
    }
    var lead = LeadDocuments(postings: postings, limit: suggestions, inline: options.inlinePostings)
    lead.tier = rows.tier
    var leadRows: [Int32: (row: DocumentRow, size: Int)] = [:]
    // Only a document the shard's words find outside its title, and none of them in it, needs
    // its searched fields' texts to say where (FORMAT.md "Term shard"); the others' rows stay as
    // short as before (Love Is Strong is found by `love` in its title, not by its album Voodoo Lounge).
    var outside = Set(tops?.last ?? [])
    var inside = Set(tops?.first ?? [])
    for term in terms {
      outside.formUnion(postings[term]?.other.prefix(options.inlinePostings) ?? [])
      inside.formUnion(postings[term]?.title.prefix(options.inlinePostings) ?? [])
    }
    outside.subtract(inside)
    func size(_ number: Int32) -> Int {
      if let known = leadRows[number] { return known.size }
      let row = rows.row(Int(number), numbered: true, fields: outside.contains(number))
      let size = row.jsonBytes.count
      leadRows[number] = (row, size)
      return size
    }
    var leading = lead.select(prefix: prefix, terms: terms, tops: tops, budget: options.leadBytes, size: size)
    // A final search (Top Results) waits only for its first rows' documents, never for the
    // kinds' files (the chips' totals come after): the shard's commonest words bring those rows too.
    if options.enterRows > 0 {
      var chosen = Set(leading)
      var used = 0
      let common = terms.filter { postings[$0]?.plain == true }
        .sorted { (postings[$0]?.count ?? 0, $1) > (postings[$1]?.count ?? 0, $0) }
      for term in common.prefix(8) {
        guard let list = postings[term] else { continue }
        let new = LeadDocuments.firstOnEnter(list, count: options.enterRows, tier: rows.tier).filter {
          !chosen.contains($0)
        }
        let bytes = new.reduce(0) { $0 + size($1) + 1 }
        if used + bytes > options.leadBytes / 2 { break }
        used += bytes
        chosen.formUnion(new)
      }
      leading = chosen.sorted()
    }
    shard.docs =
      leading.isEmpty
      ? nil
      : leading.map { leadRows[$0]?.row ?? rows.row(Int($0), numbered: true, fields: outside.contains($0)) }
    shard.joined = joined.isEmpty ? nil : joined
    shard.stems = stems.isEmpty ? nil : stems
    shard.starts = starts.isEmpty ? nil : starts
    shard.ends = ends.isEmpty ? nil : ends
    shard.whole = whole.isEmpty ? nil : whole
    shard.parts = parts.isEmpty ? nil : parts
    shard.compounds = compounds.isEmpty ? nil : compounds
    shard.mentions = mentions.isEmpty ? nil : mentions
    shard.tops = tops.map { $0.map(DeltaList.init) }
    return try IndexEncoder.encode(shard, capacity: options.targetShardBytes)
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

  /// Returns the path of the `TypoList`.
  func run(into files: inout IndexFiles) throws -> String {
    // Each term beside its count, so the sort below looks up no list.
    var counted: [String: [(term: String, count: Int)]] = [:]
    for (term, list) in postings where list.plain {
      for key in Set(Self.keys(of: term)) { counted[key, default: []].append((term, list.count)) }
    }
    var table: [String: [String]] = [:]
    table.reserveCapacity(counted.count)
    for (key, terms) in counted {
      // The most frequent first, then in String order (a key lists a term once).
      table[key] = terms.sorted { ($0.count, $1.term) > ($1.count, $0.term) }.prefix(options.typoTermsPerKey)
        .map(\.term)
    }
    counted = [:]
    let keys = table.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let shards = try PrefixSharder.run(
      keys, targetBytes: options.targetShardBytes, maxPrefixLength: 3,
      size: { position in
        let key = keys[position]
        return key.utf8.count + 4 + (try IndexEncoder.encode(table[key] ?? []).count)
      },
      write: { prefix, keys, _ in
        let shard = TypoShard(
          keys: Dictionary(uniqueKeysWithValues: keys.map { ($0, table[$0] ?? []) }), prefix: prefix)
        return try files.add("y", "s", try IndexEncoder.encode(shard, capacity: options.targetShardBytes))
      })
    // Listed in a file of its own, fetched with the first typo: most queries never need it,
    // so the manifest (in every first query) does not carry it.
    let sorted = shards.sorted { $0.prefix.utf8.lexicographicallyPrecedes($1.prefix.utf8) }
    return try files.add("y", "list", try IndexEncoder.encode(TypoList(typoShards: sorted)))
  }
}

/// Stage 5: document shards, numbered in one content-hashed folder: the
/// browser computes a shard's name from its number, so the manifest does not
/// grow with the index (a list of 20,000 names was 190 KB gzip at 1M records).
/// Beside each, its field shard: the searched fields' texts of its
/// documents, fetched only for a row found outside its title and subtitle.
struct DocumentShardStage {
  let options: IndexBuilder.Options
  let site: PreparedSite
  let order: [Int]

  /// Returns the folder, `d/`, the hashes of the `DocumentHashes` files
  /// (the manifest's `docHashFiles`), and the collections some of whose
  /// documents have field texts: only their kinds list `fields`.
  func run(into files: inout IndexFiles) throws -> (folder: String, hashes: String, fielded: Set<Int>) {
    let rows = DocumentRows(site: site, order: order)
    let showsFields = site.collections.contains { $0.config.searchable && !SearchedFields.shown($0).isEmpty }
    let shardCount = (order.count + options.docsPerShard - 1) / options.docsPerShard
    // A block of shards at a time, kept (in the spool, in a plain build) before the next is made.
    // A document shard and its field shard share one hash, of both — or of the rows alone when
    // no document has field texts, which is known only once all are made: both hashes are kept.
    var stored: [(rows: IndexFiles.Stored, fields: IndexFiles.Stored?, rowsHash: String, bothHash: String)] =
      []
    stored.reserveCapacity(shardCount)
    var fielded = Set<Int>()
    for blockStart in stride(from: 0, to: shardCount, by: options.shardsPerBlock) {
      let block = blockStart..<min(blockStart + options.shardsPerBlock, shardCount)
      let made = try Parallel.map(count: block.count) {
        offset -> Result<(rows: [UInt8], fields: [UInt8], fielded: Set<Int>), any Error> in
        let start = (block.lowerBound + offset) * options.docsPerShard
        let end = min(start + options.docsPerShard, order.count)
        let file = DocumentShard(
          docs: (start..<end).map { rows.row($0, fields: false, artwork: true) }, first: start)
        var fielded = Set<Int>()
        let texts = (start..<end).map { number -> [String] in
          guard showsFields, let texts = rows.searched.texts(of: order[number]) else { return [] }
          fielded.insert(site.documents[order[number]].collection)
          return texts
        }
        return Result {
          (
            try IndexEncoder.encode(file, capacity: 4 * 1024),
            showsFields
              ? try IndexEncoder.encode(FieldShard(fields: texts, first: start), capacity: 2 * 1024) : [],
            fielded
          )
        }
      }.map { try $0.get() }
      for shard in made {
        fielded.formUnion(shard.fielded)
        let rowsHash = IndexFiles.shardHash(shard.rows)
        stored.append(
          (
            try files.store(shard.rows), showsFields ? try files.store(shard.fields) : nil, rowsHash,
            showsFields ? IndexFiles.shardHash(shard.rows, shard.fields) : rowsHash
          ))
      }
    }
    // Without a document that has field texts, the browser never asks for field shards.
    var hashes: [String] = []
    for (number, shard) in stored.enumerated() {
      let hash = fielded.isEmpty ? shard.rowsHash : shard.bothHash
      hashes.append(hash)
      files.append("idx/\(Self.folder)\(number).\(hash).json", stored: shard.rows)
      if !fielded.isEmpty, let fields = shard.fields {
        files.append("idx/\(Self.folder)f\(number).\(hash).json", stored: fields)
      }
    }
    var hashFiles = ""
    for (k, start) in stride(from: 0, to: hashes.count, by: Self.hashesPerFile).enumerated() {
      let bytes = try IndexEncoder.encode(
        DocumentHashes(hashes: hashes[start..<min(start + Self.hashesPerFile, hashes.count)].joined()))
      let hash = IndexFiles.shardHash(bytes)
      hashFiles += hash
      try files.append("idx/\(Self.folder)h\(k).\(hash).json", bytes)
    }
    return (Self.folder, hashFiles, fielded)
  }

  /// Document shard `n` is `d/<n>.<hash>.json`, its field shard `d/f<n>.<hash>.json`.
  static let folder = "d/"
  /// Document shards whose hashes one `DocumentHashes` file holds (2 KB; 12,800
  /// documents at 50 a shard).
  static let hashesPerFile = 256
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
  /// Up to this many documents a search counts every chip, so it needs every
  /// kind's documents: one file holds them all (`index: kindsInOneFile`).
  let kindsInOneFile: Int
  /// Collections some of whose documents have field texts (`DocumentShardStage`).
  var fielded: Set<Int> = []

  /// The manifest's `kinds`, `kindsFile`, `scopes` and `facets`.
  struct Filters {
    var kinds: [Manifest.Kind] = []
    var kindsFile: String?
    var scopes: [Manifest.Scope] = []
    var facets: [Manifest.Facet] = []
    /// The sort and range options (`ValueKeyStage`).
    var sorts: [Manifest.Sort] = []
    var ranges: [Manifest.Range] = []
  }

  /// Writes the files as `f/<name>.<hash>.json`, each named by its own
  /// bytes, so a data edit renames only the files it changed.
  func run(into files: inout IndexFiles) throws -> Filters {
    try filters { name, bytes in
      let path = "f/\(name).\(IndexFiles.shardHash(bytes)).json"
      try files.append("idx/" + path, bytes)
      return path
    }
  }

  /// The filters, each file named by `add(name, bytes)`: `facet-<id>-<n>`,
  /// `scope-<id>`, `kind-<id>`, `distinct-<id>`, `kinds`.
  private func filters(_ add: (String, [UInt8]) throws -> String) throws -> Filters {
    var result = Filters()
    func idsFile(_ name: String, _ ids: [Int32]) throws -> String {
      try add(name, try IndexEncoder.encode(IDList(ids: DeltaList(ids))))
    }
    for (facetNumber, facet) in site.facets.enumerated() where facet.token {
      var counts: [String: [Int32]] = [:]
      for (number, documentIndex) in order.enumerated() {
        for value in site.facetValues(of: documentIndex, facet: facetNumber) {
          counts[value, default: []].append(Int32(number))
        }
      }
      let values = counts.sorted {
        $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
      }
      result.facets.append(
        Manifest.Facet(
          id: facet.id, label: facet.label, icon: facet.icon,
          values: try values.enumerated().map { offset, entry in
            Manifest.Facet.Value(
              name: entry.key, count: entry.value.count,
              file: try idsFile("facet-\(facet.id)-\(offset)", entry.value))
          }))
    }
    let facetNumber = Dictionary(
      uniqueKeysWithValues: site.facets.enumerated().map { ($0.element.id, $0.offset) })
    for scope in site.config.scopes {
      var entry = Manifest.Scope(id: scope.id, label: scope.label, count: order.count)
      if let facet = scope.facet, let written = scope.value, let number = facetNumber[facet] {
        let value = site.scopeValue(written, facet: number)
        var ids: [Int32] = []
        for (position, documentIndex) in order.enumerated()
        where site.facetValues(of: documentIndex, facet: number).contains(value) {
          ids.append(Int32(position))
        }
        entry.file = try idsFile("scope-\(scope.id)", ids)
        entry.count = ids.count
      }
      result.scopes.append(entry)
    }
    // Per kind, its documents: chip totals and one-kind lists come from these
    // without opening document shards. A distinct kind also lists, aligned
    // with them, each document's group (numbered by first appearance).
    // Positions among all collections, kept beside the kinds: looking each
    // kind up again was a pass over the collections per kind.
    let kindPositions = site.collections.indices.filter { site.collections[$0].config.searchable }
    let kinds = kindPositions.map { site.collections[$0] }
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
    let together = order.count <= kindsInOneFile
    for (offset, collection) in kinds.enumerated() {
      let id = collection.config.id
      var kind = Manifest.Kind(
        id: id, label: collection.config.label, singular: collection.config.singular,
        count: kindIDs[offset].count, file: together ? nil : try idsFile("kind-\(id)", kindIDs[offset]),
        fields: fielded.contains(kindPositions[offset]) ? SearchedFields.labels(of: collection) : nil)
      if site.collectionsWithArtwork.contains(kindPositions[offset]) { kind.artwork = true }
      if kinds.count > 1 { kind.standing = Self.standing(kindIDs[offset]) }
      if collection.distinct != nil {
        kind.distinct = try add(
          "distinct-\(id)", try IndexEncoder.encode(DistinctGroups(groups: groups[offset])))
      }
      result.kinds.append(kind)
    }
    if together {
      result.kindsFile = try add(
        "kinds", try IndexEncoder.encode(AllKinds(kinds: kindIDs.map { DeltaList($0) })))
    }
    return result
  }

  /// The numbers at positions 0…11, then 15, 31, … 2^i − 1 of a kind's documents (in number
  /// order): the place of each of its first 12 documents, where top hits are contested, and of any
  /// other to within a factor of two; 20 numbers for 4,000 documents, 28 for a million.
  static func standing(_ ids: [Int32]) -> DeltaList {
    var out = Array(ids.prefix(12))
    var position = 15
    while position < ids.count {
      out.append(ids[position])
      position = position * 2 + 1
    }
    return DeltaList(out)
  }
}

/// Stage 7: the manifest, which names everything else.
struct ManifestStage {
  let site: PreparedSite
  let order: [Int]
  let options: IndexBuilder.Options

  func run(
    terms: ShardListing, typoList: String, documents: (folder: String, hashes: String),
    filters: FilterStage.Filters, endings: [String]? = nil
  ) -> Manifest {
    let search = site.config.search
    return Manifest(
      docCount: order.count, docsPerShard: options.docsPerShard, docShardFolder: documents.folder,
      docHashFiles: documents.hashes, docHashesPerFile: DocumentShardStage.hashesPerFile,
      termShardFolder: terms.folder, termShards: terms.shards, termDirectories: terms.directories,
      typoList: typoList, kinds: filters.kinds,
      kindsFile: filters.kindsFile,
      topResults: search.topResults, scopes: filters.scopes, facets: filters.facets,
      trending: search.trending,
      options: Manifest.Options(
        slashFocuses: search.slashFocuses, suggestions: search.suggestions,
        forms: WordForms.rules(forLanguage: site.config.language), endings: endings),
      popularityTiers: PopularityTiers.boundaries(order.map { site.documents[$0].popularity }),
      sorts: filters.sorts.isEmpty ? nil : filters.sorts,
      ranges: filters.ranges.isEmpty ? nil : filters.ranges)
  }
}

/// Orders of magnitude of popularity, by document number: the engine lets a
/// title's first word decide between two records only when their popularity
/// is of one order (FORMAT.md "Ranking", rule 6), so a private strip titled
/// Heathrow Airport does not pass London Heathrow Airport.
enum PopularityTiers {
  /// A popularity's order of magnitude: 0 for 1–9, 1 for 10–99, …; -1 under 1.
  static func tier(_ popularity: Double) -> Int {
    guard popularity.isFinite else { return popularity > 0 ? Int.max : -1 }
    var tier = -1
    var rest = popularity
    while rest >= 1 {
      tier += 1
      rest /= 10
    }
    return tier
  }

  /// The numbers where a new tier starts, for popularities in document
  /// order (descending); nil when there is only one.
  static func boundaries(_ popularities: [Double]) -> [Int]? {
    let starts = popularities.indices.dropFirst().filter {
      tier(popularities[$0]) != tier(popularities[$0 - 1])
    }
    return starts.isEmpty ? nil : Array(starts)
  }
}
