import Foundation

/// The written index: its files (paths relative to the site root) and the
/// manifest's path, which the search page names.
public struct SiteIndex: Sendable {
  /// The files held in memory: every file of an index built without a
  /// spool, and the manifest always (the search page embeds it).
  public var files: [(path: String, bytes: [UInt8])]
  /// The files waiting in `spool` (a plain build's), in the order made.
  public var spooled: [(path: String, place: IndexSpool.Place)] = []
  public var spool: IndexSpool?
  public var manifestPath: String
  /// The `DeferredFields` file, relative to the manifest's folder (`f/deferred.<hash>.json`): what
  /// the search page's embedded manifest leaves out (`AssetIndexData`); nil for an index without one.
  public var deferredPath: String?
  /// Mistakes that still give a working index: trending terms that find nothing.
  public var warnings: [Diagnostic] = []

  public init(
    files: [(path: String, bytes: [UInt8])], manifestPath: String, warnings: [Diagnostic] = []
  ) {
    (self.files, self.manifestPath, self.warnings) = (files, manifestPath, warnings)
  }

  public var byteCount: Int {
    files.reduce(0) { $0 + $1.bytes.count } + spooled.reduce(0) { $0 + $1.place.count }
  }
  public var fileCount: Int { files.count + spooled.count }
  /// Every file's path, the spooled ones first.
  public var paths: [String] { spooled.map(\.path) + files.map(\.path) }

  /// The bytes of the file at `path`, read back from the spool if they
  /// wait there; nil for a path the index does not have. A search: for the
  /// few files read again (the directories the search page embeds).
  public func bytes(at path: String) throws -> [UInt8]? {
    if let file = files.first(where: { $0.path == path }) { return file.bytes }
    guard let spool, let file = spooled.first(where: { $0.path == path }) else { return nil }
    return try spool.read(file.place)
  }

  /// The spooled files, read back about `batchBytes` at a time, in order.
  public func forEachSpooledBatch(
    batchBytes: Int = 8 << 20, _ body: ([(path: String, bytes: [UInt8])]) throws -> Void
  ) throws {
    guard let spool else { return }
    var batch: [(path: String, bytes: [UInt8])] = []
    var size = 0
    for file in spooled {
      batch.append((file.path, try spool.read(file.place)))
      size += file.place.count
      if size >= batchBytes {
        try body(batch)
        (batch, size) = ([], 0)
      }
    }
    if !batch.isEmpty { try body(batch) }
  }
}

/// Builds the sharded index described in `FORMAT.md` from prepared documents,
/// in named stages around one accumulator (`IndexFiles`): rank the documents,
/// gather postings (and check the trending terms against them), write term shards, typo shards, document shards, filter
/// files, then the manifest that names them.
public struct IndexBuilder: Sendable {
  public struct Options: Sendable {
    // The tunable sizes and their defaults are the config's `index:` block.
    private static let tunable = SiteConfig.Index()
    /// A term shard is split by longer prefixes once it grows past this.
    public var targetShardBytes = tunable.termShardBytes
    public var docsPerShard = tunable.documentsPerShard
    /// Postings beyond this many per term go to a continuation file.
    public var inlinePostings = tunable.postingsPerTerm
    public var tops = tunable.topsPerPrefix
    /// Bytes of document rows a term shard may carry for the first answers
    /// to the words it serves (its `docs`); 0 writes none.
    public var leadBytes = tunable.rowBytesPerShard
    /// Up to this many documents the kinds' documents are one file.
    public var kindsInOneFile = tunable.kindsInOneFile
    /// Documents per file of a sort option's value order.
    public var sortChunk = tunable.documentsPerSortFile
    /// Rows a final search shows first (`FIRST` in ui/runs.js): a term shard
    /// carries them for its commonest words, within half of `leadBytes` more.
    public var enterRows = 12
    public var maxPrefixLength = 4
    /// Past this many term shards the manifest lists one directory file per
    /// first letter instead of every shard, so it stays small at any size.
    /// (A shard listed costs its prefix: the music catalogue's 171 are one
    /// run of 0.3 KB gzip in the page.)
    public var maxManifestShards = 256
    /// Terms listed per typo key: the most frequent ones.
    public var typoTermsPerKey = 24
    /// Term or document shards made at once, then handed to the spool before
    /// the next ones: the index's working memory, whatever the catalogue's size.
    public var shardsPerBlock = 1024
    public init() {}
  }

  public var options = Options()
  /// Where the files wait for publishing; nil keeps them in memory.
  public var spool: IndexSpool?
  /// The index this build replaces: its term shards' names are kept for
  /// the shards it holds byte for byte (FORMAT.md "Stable names").
  var previous: PreviousTermShards?
  public init() {}

  /// The builder a config's `index:` asks for.
  public init(_ config: SiteConfig.Index) {
    options.targetShardBytes = config.termShardBytes
    options.docsPerShard = config.documentsPerShard
    options.inlinePostings = config.postingsPerTerm
    options.tops = config.topsPerPrefix
    options.leadBytes = config.rowBytesPerShard
    options.kindsInOneFile = config.kindsInOneFile
    options.sortChunk = config.documentsPerSortFile
  }

  public func build(_ site: PreparedSite) throws -> SiteIndex {
    var files = IndexFiles(spool: spool)
    let order = rankedDocuments(site)
    // A box, so the postings can be dropped before the last stage while
    // the closure below still holds the box.
    let postings = Box(PostingsStage(site: site, order: order).run())
    let terms = postings.value.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let warnings = TrendingCheck(postings: postings.value, terms: terms).warnings(site.config.search)
    // The typo, document and filter stages run beside the term shards
    // (which use every core but while they plan); their files follow the
    // term shards' as if they had run after them.
    let (options, spool) = (options, spool)
    let others = Parallel.Background {
      var files = IndexFiles(spool: spool)
      let typoList = try TypoShardStage(options: options, postings: postings.value).run(into: &files)
      let documents = try DocumentShardStage(options: options, site: site, order: order).run(into: &files)
      let filters = try FilterStage(
        site: site, order: order, kindsInOneFile: options.kindsInOneFile, fielded: documents.fielded
      ).run(into: &files)
      return (
        files: files, typoList: typoList, documents: (documents.folder, documents.hashes), filters: filters
      )
    }
    let termListing: ShardListing
    do {
      termListing = try TermShardStage(
        options: options, postings: postings.value, terms: terms,
        rows: DocumentRows(site: site, order: order),
        suggestions: site.config.search.suggestions, previous: previous
      ).run(into: &files)
    } catch {
      _ = others.wait()
      throw error
    }
    let (otherFiles, typoList, documents, unkeyed) = try others.wait().get()
    files.append(contentsOf: otherFiles)
    // The sort and range files once the postings are gone: each option
    // reads every document's value and ranks them (at ten million records
    // about half a gigabyte an option), which beside the postings was the
    // index build's peak.
    postings.value = [:]
    // Their lists were small allocations, freed to the heap, which an
    // option's arrays (each one allocation of its own) would not reuse.
    IndexStep.trimMemory()
    var filters = unkeyed
    let keys = try ValueKeyStage(site: site, order: order, chunkSize: options.sortChunk).run(into: &files)
    (filters.sorts, filters.ranges) = (keys.sorts, keys.ranges)
    let manifest = ManifestStage(site: site, order: order, options: options).run(
      terms: termListing, typoList: typoList, documents: documents, filters: filters,
      endings: WordForms.endings(of: terms, rules: WordForms.rules(forLanguage: site.config.language)))
    let deferred = DeferredFields(of: manifest)
    let deferredPath = try deferred.map { try files.add("f", "deferred", try IndexEncoder.encode($0)) }
    let bytes = try IndexEncoder.encode(manifest)
    let manifestPath = "idx/manifest.\(ContentHash.hex(bytes)).json"
    var index = files.index(manifestPath: manifestPath, extra: [(manifestPath, bytes)], warnings: warnings)
    index.deferredPath = deferredPath
    return index
  }

  /// Searchable documents in static-rank order: popularity, then collection
  /// order, then the shorter title (fewer words), then normalised title,
  /// then key. Where nothing ranks two records the words match alike, the
  /// shorter title is more nearly what was asked for (`malibu`: "chevrolet
  /// malibu" before "chevrolet chevelle malibu"), as a search engine's
  /// field-length norm has it (Lucene's BM25); the alphabet says nothing.
  func rankedDocuments(_ site: PreparedSite) -> [Int] {
    // Sort keys gathered once: comparing documents directly would copy two
    // of them per comparison, twenty million times for a million records.
    // The numbers in a plain struct and the two texts packed: a String each
    // was retained and released as the sort moved its key, and compared as
    // a String — most comparisons reach the title, since a synthetic song's
    // popularity is one of a few small numbers (the ties grow with the
    // catalogue) — where two ASCII texts now compare by their bytes.
    struct Key {
      var popularity: Double
      var collection: Int32
      var words: Int32
      /// The document's index, and its place in `titles` and `keys`.
      var index: Int32
      var slot: Int32
      /// The normalised title's first 8 bytes, big-endian, zeros after a
      /// shorter one; `Key.none` unless the title is ASCII without a NUL
      /// among them. Two such prefixes that differ order their titles as
      /// the titles' bytes (and String) do, read here rather than from the
      /// packed titles: at ten million records each comparison that
      /// reached the titles was two cache misses, and the rank's sort took
      /// 1.5 times as long a record as at one million.
      var prefix: UInt64
      /// No prefix: an ASCII prefix's top bit is 0, so this is never one.
      /// (An Optional would pad the key from 32 to 40 bytes: 80 MB at 10M.)
      static let none = UInt64.max
    }
    let documents = site.documents
    let searchable = documents.indices.filter { site.collections[documents[$0].collection].config.searchable }
    let chunk = 65_536
    var keys: [Key] = []
    keys.reserveCapacity(searchable.count)
    var titles = PackedStrings()
    var names = PackedStrings()
    // A chunk of documents at a time on all cores, packed in order.
    for start in stride(from: 0, to: searchable.count, by: chunk) {
      let end = min(start + chunk, searchable.count)
      let made = Parallel.map(count: end - start) { offset -> (Int, String) in
        let title = documents[searchable[start + offset]].title
        return (Self.wordCount(title), TextNormalizer.normalize(title))
      }
      for (offset, (words, title)) in made.enumerated() {
        let index = searchable[start + offset]
        keys.append(
          Key(
            popularity: documents[index].popularity, collection: Int32(documents[index].collection),
            words: Int32(words), index: Int32(index), slot: Int32(titles.count),
            prefix: Self.orderPrefix(title) ?? Key.none))
        titles.append(title)
        names.append(documents[index].key)
      }
    }
    keys.sort { x, y in
      if x.popularity != y.popularity { return x.popularity > y.popularity }
      if x.collection != y.collection { return x.collection < y.collection }
      if x.words != y.words { return x.words < y.words }
      if x.prefix != y.prefix, x.prefix != Key.none, y.prefix != Key.none { return x.prefix < y.prefix }
      if let order = titles.stringOrder(Int(x.slot), Int(y.slot)) { return order }
      if let order = names.stringOrder(Int(x.slot), Int(y.slot)) { return order }
      return x.index < y.index
    }
    return keys.map { Int($0.index) }
  }

  /// `text`'s first 8 bytes as a big-endian number, zeros after a shorter
  /// text, when `text` is ASCII (where String order is byte order) with no
  /// NUL among them (a zero is the end of a shorter text); else nil.
  static func orderPrefix(_ text: String) -> UInt64? {
    var prefix: UInt64 = 0
    var length = 0
    for byte in text.utf8 {
      if byte >= 0x80 { return nil }
      if length < 8 {
        if byte == 0 { return nil }
        prefix |= UInt64(byte) << (8 * (7 - length))
        length += 1
      }
    }
    return prefix
  }

  /// A title's words: its chunks (between white space) that hold a letter or a digit.
  static func wordCount(_ title: String) -> Int {
    title.split(whereSeparator: \.isWhitespace).count { chunk in chunk.contains { $0.isLetter || $0.isNumber }
    }
  }
}

/// The accumulator every stage writes into: content-hashed files under
/// `idx/`, their bytes held, or written to the spool as they come.
struct IndexFiles {
  /// A file's bytes, or their place in the spool.
  enum Stored {
    case bytes([UInt8])
    case spooled(IndexSpool.Place)
  }

  let spool: IndexSpool?
  private(set) var entries: [(path: String, content: Stored)] = []

  init(spool: IndexSpool? = nil) { self.spool = spool }

  /// Keeps `bytes` (in the spool, if there is one) for a file named later.
  func store(_ bytes: [UInt8]) throws -> Stored {
    guard let spool else { return .bytes(bytes) }
    return .spooled(try spool.write(bytes))
  }

  mutating func append(_ path: String, _ bytes: [UInt8]) throws {
    entries.append((path, try store(bytes)))
  }

  mutating func append(_ path: String, stored: Stored) {
    entries.append((path, stored))
  }

  mutating func append(contentsOf other: IndexFiles) {
    entries += other.entries
  }

  /// The index of these files, `extra` (the manifest) held in memory.
  func index(manifestPath: String, extra: [(path: String, bytes: [UInt8])], warnings: [Diagnostic])
    -> SiteIndex
  {
    var index = SiteIndex(files: [], manifestPath: manifestPath, warnings: warnings)
    index.spool = spool
    for entry in entries {
      switch entry.content {
      case .bytes(let bytes): index.files.append((entry.path, bytes))
      case .spooled(let place): index.spooled.append((entry.path, place))
      }
    }
    index.files += extra
    return index
  }

  /// Hex digits of the hash that names each shard the manifest lists by
  /// number or prefix (`d/12.<hash>.json`, `t/slo.<hash>.json`): the
  /// manifest carries one per shard, and the search page embeds the
  /// manifest, so they are short, but not shorter than 32 bits: a shard's
  /// new bytes take the name of one of its own earlier versions about once
  /// in four billion changes (its number or prefix is in the name too, so
  /// no two files of one index can meet). 6 digits would save the music
  /// catalogue's first query 0.25 KB and serve a stale shard about once in
  /// 16.7 million changes (FORMAT.md). `HASH_DIGITS` in `engine/loader.js`.
  static let shardHashDigits = 8

  /// The short hash that names a shard whose bytes are `parts` together.
  static func shardHash(_ parts: [UInt8]...) -> String {
    ContentHash.hex(parts.joined(), digits: shardHashDigits)
  }

  /// The `n`-th short hash of a packed string of them (`hashAt` in `engine/loader.js`).
  static func hash(_ n: Int, in packed: String) -> String {
    let characters = Array(packed.utf8)
    let start = min(n * shardHashDigits, characters.count)
    return String(decoding: characters[start..<min(start + shardHashDigits, characters.count)], as: UTF8.self)
  }

  /// Adds `folder/name.<hash>.json` and returns its path relative to `idx/`.
  mutating func add(_ folder: String, _ name: String, _ bytes: [UInt8]) throws -> String {
    let path = "\(folder)/\(name).\(ContentHash.hex(bytes)).json"
    try append("idx/" + path, bytes)
    return path
  }
}

/// One term's documents, each list ascending by document number.
struct Postings {
  /// The title, or a search field weighing like it, holds the term.
  var title: [Int32] = []
  /// Only another searched field holds it.
  var other: [Int32] = []
  /// The title's first word (or its first chunk run together) is the term.
  var starts: [Int32] = []
  /// The title's last word (its last chunk, or its parts) is the term, in a
  /// title of several words: with `starts` and every word exact, a title that
  /// is the query's words (`LATIN SMALL LETTER A`, FORMAT.md "Ranking", rule 4).
  var ends: [Int32] = []
  /// The whole title, run together, is the term (`Queen`, `AC/DC`).
  var whole: [Int32] = []
  /// The title holds the term only as a part of a joined name: a run or a tail of a
  /// chunk with punctuation inside (`revision` in `simple-revision-control`), never as
  /// a word of its own (FORMAT.md "Parts of names"). A subset of `title`.
  var parts: [Int32] = []
  /// The `parts` whose title joins the term to another word in prose, by a
  /// hyphen (`Seattle-Tacoma Intl`) or a dash: in the title for rule 2, a
  /// part for the exact rules (FORMAT.md "Parts of names"). A subset of `parts`.
  var compounds: [Int32] = []
  /// Documents that hold the term only outside their title, of a kind none
  /// of whose titles holds it (FORMAT.md "Kinds the words name"). A subset
  /// of `other`.
  var mentions: [Int32] = []
  /// Whether the term occurs as a word of its own somewhere, not only as a
  /// run-together form such as `acdc`.
  var plain = false
  /// Whether the term is the Snowball stem of a word of the site, itself
  /// included (FORMAT.md "Word forms"; English stems are not marked).
  var stem = false

  var count: Int { title.count + other.count }

  mutating func add(title number: Int32, plain: Bool) {
    title.append(number)
    if plain { self.plain = true }
  }

  mutating func add(other number: Int32, plain: Bool) {
    other.append(number)
    if plain { self.plain = true }
  }

  /// `later`'s documents after these: all of its numbers are larger.
  mutating func append(_ later: Postings) {
    title.append(contentsOf: later.title)
    other.append(contentsOf: later.other)
    starts.append(contentsOf: later.starts)
    ends.append(contentsOf: later.ends)
    whole.append(contentsOf: later.whole)
    parts.append(contentsOf: later.parts)
    compounds.append(contentsOf: later.compounds)
    mentions.append(contentsOf: later.mentions)
    if later.plain { plain = true }
    if later.stem { stem = true }
  }

  /// Empty again, keeping the lists' room.
  mutating func clear() {
    title.removeAll(keepingCapacity: true)
    other.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    whole.removeAll(keepingCapacity: true)
    parts.removeAll(keepingCapacity: true)
    compounds.removeAll(keepingCapacity: true)
    mentions.removeAll(keepingCapacity: true)
    plain = false
    stem = false
  }
}

/// Stage 2: every term's postings, appended in document-number order so each
/// list is sorted. Terms are cut on all cores a block at a time (bounded
/// memory), then appended in order, each share of the terms on a core.
struct PostingsStage {
  let site: PreparedSite
  let order: [Int]
  /// The site language's word forms (`WordForms`), if it has any.
  let forms: String?

  /// Document index → the codes that name it (`CodeNames`).
  let codes: [Int: [String]]

  init(site: PreparedSite, order: [Int]) {
    self.site = site
    self.order = order
    forms = WordForms.rules(forLanguage: site.config.language)
    codes = CodeNames.of(site)
  }

  struct Cut {
    var title: [(String, Bool)] = []
    var other: [(String, Bool)] = []
    var starts: [String] = []
    var ends: [String] = []
    var whole: String?
    /// In a Snowball language, the stem of a title of one word (`арабский` → `арабск`): the
    /// title is wholly that word in any of its forms (FORMAT.md "Word forms").
    var wholeStem: String?
    var parts: [String] = []
    /// The `parts` that are words joined in prose (`seattle` in `Seattle-Tacoma Intl`).
    var compounds: [String] = []
    /// Codes that name the document as its whole title does (`CodeNames`).
    var codes: [String] = []
    /// The Snowball stems added beside the terms (none in English).
    var stems: [String] = []

    /// Empty again, keeping the lists' room for the next document.
    mutating func clear() {
      title.removeAll(keepingCapacity: true)
      other.removeAll(keepingCapacity: true)
      starts.removeAll(keepingCapacity: true)
      ends.removeAll(keepingCapacity: true)
      whole = nil
      wholeStem = nil
      parts.removeAll(keepingCapacity: true)
      compounds.removeAll(keepingCapacity: true)
      codes.removeAll(keepingCapacity: true)
      stems.removeAll(keepingCapacity: true)
    }
  }

  /// The cuts of a run of documents in three flat lists, each term beside
  /// what it is to its document and the share it belongs to, in the order
  /// `run` applies them. A few lists a run of documents, not ten a document
  /// made on one thread and freed on another (with the shortcuts in `cut`,
  /// 7–9 % of a record's user CPU at 1M and 3M: docs/scale.md, the eighth session).
  struct Cuts {
    enum Role: UInt8 { case title, titleJoined, other, otherJoined, start, end, whole, part, compound, stem }
    var terms: [String] = []
    var roles: [Role] = []
    var shares: [UInt8] = []
    /// Where each document's entries end in `terms`.
    var ends: [Int] = []

    /// Empty again, keeping the lists' room.
    mutating func clear() {
      terms.removeAll(keepingCapacity: true)
      roles.removeAll(keepingCapacity: true)
      shares.removeAll(keepingCapacity: true)
      ends.removeAll(keepingCapacity: true)
    }

    mutating func append(_ cut: Cut, shareCount: Int) {
      func add(_ term: String, _ role: Role) {
        terms.append(term)
        roles.append(role)
        shares.append(UInt8(PostingsStage.share(of: term, count: shareCount)))
      }
      for (term, joined) in cut.title { add(term, joined ? .titleJoined : .title) }
      for (term, joined) in cut.other { add(term, joined ? .otherJoined : .other) }
      for term in cut.starts { add(term, .start) }
      for term in cut.ends { add(term, .end) }
      if let whole = cut.whole { add(whole, .whole) }
      if let stem = cut.wholeStem { add(stem, .whole) }
      for code in cut.codes where code != cut.wholeStem { add(code, .whole) }
      for term in cut.parts { add(term, .part) }
      for term in cut.compounds { add(term, .compound) }
      for term in cut.stems { add(term, .stem) }
      ends.append(terms.count)
    }
  }

  /// One share of the terms, filled by one worker at a time.
  private final class Share: @unchecked Sendable {
    var postings: [String: Postings] = [:]
    /// The current block's terms, each to its lists in `lists`: emptied
    /// after each block, its room and the lists' kept.
    var local: [String: Int] = [:]
    var lists: [Postings] = []
  }

  /// One run of a block's documents: its cuts, and the scratch they are cut
  /// with. Kept from block to block, emptied but not freed, so the lists a
  /// block fills are not made again for the next one among the postings.
  private final class Run: @unchecked Sendable {
    var cuts = Cuts()
    var cut = Cut()
    var seen = Set<String>(minimumCapacity: 64)
  }

  /// `block`: documents cut and appended at a time (bounds the cuts' memory; a test makes it small).
  func run(block: Int = 16_384) -> [String: Postings] {
    // Each term belongs to one share, and each share takes its terms from
    // every document of a block in document order: the shares fill on all
    // cores, each list is as a serial pass makes it, and whichever worker
    // runs first changes nothing.
    let shareCount = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    let shares = (0..<shareCount).map { _ in Share() }
    let runLength = min(256, block)
    let runs = (0..<((block + runLength - 1) / runLength)).map { _ in Run() }
    var blockStart = 0
    while blockStart < order.count {
      let start = blockStart
      let end = min(start + block, order.count)
      // Runs of documents, each cut by one worker into its `Run`'s lists.
      let parts = (end - start + runLength - 1) / runLength
      _ = Parallel.map(count: parts) { part in
        let run = runs[part]
        run.cuts.clear()
        for offset in (start + part * runLength)..<min(start + (part + 1) * runLength, end) {
          cut(order[offset], into: &run.cut, seen: &run.seen)
          run.cuts.append(run.cut, shareCount: shareCount)
        }
      }
      _ = Parallel.map(count: shareCount) { share in
        let mine = shares[share]
        var postings = mine.postings
        mine.postings = [:]
        // The block's own table first: a term a block holds is in about twelve of its
        // documents (docs/scale.md, the ninth session), and its table stays in the cache
        // while the share's, past it from 3M records on, is touched once a term a block.
        var local = mine.local
        var lists = mine.lists
        mine.local = [:]
        mine.lists = []
        var used = 0
        func entry(_ term: String, create: Bool) -> Int? {
          if let index = local[term] { return index }
          // A role that only marks a term (`start`, `part`, …) needs it listed already,
          // in this block or an earlier one.
          guard create || postings[term] != nil else { return nil }
          if used == lists.count { lists.append(Postings()) }
          local[term] = used
          used += 1
          return used - 1
        }
        var number = Int32(start)
        for run in runs.prefix(parts) {
          let cuts = run.cuts
          var position = 0
          for documentEnd in cuts.ends {
            while position < documentEnd {
              defer { position += 1 }
              guard cuts.shares[position] == share else { continue }
              let term = cuts.terms[position]
              let role = cuts.roles[position]
              let creates = role == .title || role == .titleJoined || role == .other || role == .otherJoined
              guard let index = entry(term, create: creates) else { continue }
              switch role {
              case .title: lists[index].add(title: number, plain: true)
              case .titleJoined: lists[index].add(title: number, plain: false)
              case .other: lists[index].add(other: number, plain: true)
              case .otherJoined: lists[index].add(other: number, plain: false)
              case .start: lists[index].starts.append(number)
              case .end: lists[index].ends.append(number)
              case .whole: lists[index].whole.append(number)
              case .part: lists[index].parts.append(number)
              case .compound: lists[index].compounds.append(number)
              case .stem: lists[index].stem = true
              }
            }
            number += 1
          }
        }
        // Each term's lists of the block after its earlier blocks': every number here is larger.
        for (term, index) in local {
          postings[term, default: Postings()].append(lists[index])
          lists[index].clear()
        }
        local.removeAll(keepingCapacity: true)
        mine.local = local
        mine.lists = lists
        mine.postings = postings
      }
      blockStart = end
    }
    for run in runs {
      run.cuts = Cuts()
      run.cut = Cut()
      run.seen = []
    }
    for share in shares {
      share.local = [:]
      share.lists = []
    }
    Self.markMentions(in: shares, kindOf: order.map { site.documents[$0].collection })
    var postings = shares[0].postings
    shares[0].postings = [:]
    postings.reserveCapacity(shares.reduce(0) { $0 + $1.postings.count })
    for share in shares.dropFirst() {
      for (term, list) in share.postings { postings[term] = list }
      share.postings = [:]
    }
    return postings
  }

  /// Fills each term's `mentions`, on a site of more than one kind: the
  /// other postings of the kinds none of its title postings is of, for a
  /// term some title holds.
  private static func markMentions(in shares: [Share], kindOf: [Int]) {
    guard Set(kindOf).count > 1 else { return }
    _ = Parallel.map(count: shares.count) { share in
      var postings = shares[share].postings
      shares[share].postings = [:]
      for index in postings.indices where !postings.values[index].other.isEmpty {
        let list = postings.values[index]
        // A term no title holds names no kind: every document would be a mention, and none is.
        let naming = Set(list.title.map { kindOf[Int($0)] })
        if naming.isEmpty { continue }
        postings.values[index].mentions = list.other.filter { !naming.contains(kindOf[Int($0)]) }
      }
      shares[share].postings = postings
    }
  }

  /// Which of `count` shares a term belongs to (FNV-1a of its bytes).
  static func share(of term: String, count: Int) -> Int {
    guard count > 1 else { return 0 }
    return Int(ContentHash.value32(term.utf8) % UInt32(count))
  }

  /// An Arabic term without its article `ال` (`القاهره` → `قاهره`), when
  /// at least three letters remain; nil for any other term.
  static func withoutArticle(_ term: String) -> String? {
    // The first letter first: this runs for every term of every record.
    let scalars = term.unicodeScalars
    guard scalars.first == "\u{627}", scalars.dropFirst().first == "\u{644}" else { return nil }
    let rest = scalars.dropFirst(2)
    guard rest.count >= 3, rest.allSatisfy({ (0x620...0x64A).contains($0.value) }) else { return nil }
    return String(rest)
  }

  /// A document's cut into `result`, with `seen` for scratch: both emptied
  /// first, and their room kept from document to document.
  func cut(_ documentIndex: Int, into result: inout Cut, seen: inout Set<String>) {
    result.clear()
    seen.removeAll(keepingCapacity: true)
    let title = site.documents[documentIndex].title
    var titleTerms: [(String, Bool)] = []
    TextNormalizer.forEachTerm(in: title) { term, joined in titleTerms.append((term, joined)) }
    // Every term of the title's first word (up to the first space) starts the title: its parts
    // and the word run together, so `numpy` starts both `numpy-stl` and `python3-numpy`, whose
    // popularity then decides, while `Toquinho & Vinícius` does not start with `vinicius`.
    result.starts = Self.firstWordTerms(title)
    result.ends = Self.lastWordTerms(title)
    var runs = 0
    var whole = ""
    for (term, joined) in titleTerms where !joined {
      whole += term
      runs += 1
    }
    if runs > 0 { result.whole = whole }
    let (primary, other) = site.weightedSearchText(of: documentIndex)
    // A term's stem in the site's language (FORMAT.md "Word forms") goes beside it, never
    // offered as a completion: in English when the term does not begin with it (`loving` →
    // `love`, `country` → `countri`; `loves` → `love` is reached by the engine from the stem's
    // own shard, so it costs the index nothing), in a Snowball language always
    // (`WordForms.indexes`), since the browser cannot stem.
    var stems = result.stems
    result.stems = []
    func add(_ term: String, _ joined: Bool, to list: inout [(String, Bool)]) {
      if seen.insert(term).inserted { list.append((term, joined)) }
      // A Chinese term in the other script, found but never offered (`德國` finds 德国).
      for variant in HanVariants.variants(of: term) where seen.insert(variant).inserted {
        list.append((variant, true))
      }
      // An Arabic word without its article, found but never offered (`قاهرة` finds القاهرة).
      if let bare = Self.withoutArticle(term), seen.insert(bare).inserted { list.append((bare, true)) }
      guard forms != nil, !joined else { return }
      let stem = WordForms.stem(term, rules: forms)
      // In a Snowball language every stem is marked, a word that is its own stem too (`franc`),
      // so the engine can tell a typed word's stem from a word it begins (`franco`).
      if forms != "en" { stems.append(stem) }
      if WordForms.indexes(stem: stem, of: term, rules: forms), seen.insert(stem).inserted {
        list.append((stem, true))
      }
    }
    for (term, joined) in titleTerms { add(term, joined, to: &result.title) }
    TextNormalizer.forEachTerm(in: primary) { term, joined in add(term, joined, to: &result.title) }
    TextNormalizer.forEachTerm(in: other) { term, joined in add(term, joined, to: &result.other) }
    result.stems = stems
    // A whole title that is not itself a term (`Led Zeppelin` → `ledzeppelin`) has no list to join.
    if let whole = result.whole, !seen.contains(whole) { result.whole = nil }
    result.codes = (codes[documentIndex] ?? []).filter { $0 != result.whole && seen.contains($0) }
    if forms != "en", runs == 1, let whole = result.whole {
      let stem = WordForms.stem(whole, rules: forms)
      if stem != whole, seen.contains(stem) { result.wholeStem = stem }
    }
    let parts = Self.parts(of: [title, primary], forms: forms)
    if !parts.isEmpty {
      let titled = Set(result.title.map(\.0))
      result.parts = parts.filter { titled.contains($0) }.sorted()
    }
    // Parts only of words joined in prose: title words for rule 2, parts for the exact rules.
    // (Made once a document, not once a part.)
    if !result.parts.isEmpty {
      let partsOfNames = Self.parts(of: [title, primary], forms: forms, compoundsAsWords: true)
      result.compounds = result.parts.filter { !partsOfNames.contains($0) }
    }
  }

  /// The terms `texts` (a title and the fields weighing like it) hold only as parts of joined
  /// names (FORMAT.md "Parts of names"): the runs and tails of a chunk with punctuation inside,
  /// and their stems, less every term that is also a word of its own there (a chunk of one run,
  /// a chunk run together, a CJK piece, and their stems).
  static func parts(of texts: [String], forms: String?, compoundsAsWords: Bool = false) -> Set<String> {
    // Most titles have no chunk of two runs, and so no parts: told on their bytes, without
    // cutting each chunk into terms (a few allocations a chunk, every document).
    guard texts.contains(where: mayJoinRuns) else { return [] }
    var words = Set<String>()
    var parts = Set<String>()
    for text in texts {
      let chunks = text.split(whereSeparator: \.isWhitespace)
      for chunk in chunks {
        // Words joined by a hyphen in a text of several words (`Seattle-Tacoma Intl`,
        // `William B Hartsfield-Atlanta Intl`), or by a dash anywhere, are words of the title
        // that belong together, not the parts of a name (`python3-numpy`): `compounds`.
        let compound = compoundsAsWords && isCompound(chunk, prose: chunks.count > 1)
        // forEachTerm gives a chunk's runs, then (when there are two or more) the chunk run
        // together and its tails, then the runs' CJK pieces.
        var runs: [String] = []
        var joinedForms = 0
        TextNormalizer.forEachTerm(in: String(chunk)) { term, joined in
          if joined {
            joinedForms += 1
            if joinedForms == 1 { words.insert(term) } else { parts.insert(term) }
          } else if joinedForms == 0 {
            runs.append(term)
          } else {
            words.insert(term)
          }
        }
        if joinedForms == 0 || compound { words.formUnion(runs) } else { parts.formUnion(runs) }
      }
    }
    func withStems(_ terms: Set<String>) -> Set<String> {
      guard forms != nil else { return terms }
      return terms.union(terms.map { WordForms.stem($0, rules: forms) })
    }
    return withStems(parts).subtracting(withStems(words))
  }

  /// Whether a chunk of `text` may hold two runs of term characters (`AC/DC`,
  /// `python3-numpy`), which only such a chunk makes parts of. Exact for ASCII
  /// text (cut on its bytes as `TextNormalizer.forEachASCIITerm` cuts it);
  /// other text may, as far as this tells.
  static func mayJoinRuns(_ text: String) -> Bool {
    // 0: no run yet in this chunk, 1: in a run, 2: after a run and a separator.
    var state = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "A")...UInt8(ascii: "Z"):
        if state == 2 { return true }
        state = 1
      case 0x09...0x0D, 0x20:
        state = 0
      case 0x80...:
        return true
      default:
        if state == 1 { state = 2 }
      }
    }
    return false
  }

  /// The terms of the title's last word (its last chunk that has any), in a
  /// title of several words; none in a title of one, whose `whole` says more.
  /// Cut from the end: only the last two chunks with terms are cut, not every word.
  static func lastWordTerms(_ title: String) -> [String] {
    var last: [String]?
    for chunk in title.split(whereSeparator: \.isWhitespace).reversed() {
      let terms = TextNormalizer.terms(String(chunk))
      if terms.isEmpty { continue }
      guard let last else {
        last = terms
        continue
      }
      var ends: [String] = []
      for term in last where !ends.contains(term) { ends.append(term) }
      return ends
    }
    return []
  }

  /// Whether a chunk joins words with hyphens or dashes only (`Seattle-Tacoma`,
  /// `Zeta-Jones`; punctuation around it aside): in prose (a text of several words)
  /// by any of them, in a text of one word only by a dash no name of a package or a
  /// file holds (`Seattle–Tacoma`, U+2010–U+2015), since `simple-revision-control` and
  /// `python3-numpy` are names made of parts (FORMAT.md "Parts of names").
  static func isCompound(_ chunk: Substring, prose: Bool) -> Bool {
    let alphanumeric = { (c: Character) in c.isLetter || c.isNumber }
    guard let first = chunk.firstIndex(where: alphanumeric), let last = chunk.lastIndex(where: alphanumeric)
    else { return false }
    var joined = false
    for character in chunk[first...last] where !alphanumeric(character) {
      guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else {
        return false
      }
      if (0x2010...0x2015).contains(scalar.value) {
        joined = true
      } else if scalar == "-" && prose {
        joined = true
      } else {
        return false
      }
    }
    return joined
  }

  /// The terms of the title's first word (up to the first whitespace) that
  /// has any, each once. An ASCII title is cut on its bytes: its
  /// whitespace characters are single bytes (and `\r\n`, a pair of them).
  static func firstWordTerms(_ title: String) -> [String] {
    var starts: [String] = []
    func take(_ chunk: String) -> Bool {
      let terms = TextNormalizer.terms(chunk)
      guard !terms.isEmpty else { return false }
      for term in terms where !starts.contains(term) { starts.append(term) }
      return true
    }
    if title.utf8.allSatisfy({ $0 < 0x80 }) {
      // Chunk by chunk up to the first that has terms, without an array of every chunk.
      let bytes = title.utf8
      var chunkStart: String.Index?
      for index in bytes.indices {
        let byte = bytes[index]
        if byte == 0x20 || (0x09...0x0D).contains(byte) {
          if let start = chunkStart, take(String(decoding: bytes[start..<index], as: UTF8.self)) {
            return starts
          }
          chunkStart = nil
        } else if chunkStart == nil {
          chunkStart = index
        }
      }
      if let start = chunkStart { _ = take(String(decoding: bytes[start...], as: UTF8.self)) }
    } else {
      for chunk in title.split(whereSeparator: \.isWhitespace) where take(String(chunk)) { break }
    }
    return starts
  }
}

/// How the term shards appear in the manifest: every shard, or, once there
/// are many, one `TermDirectory` per first letter — except a letter with a
/// single shard, which the manifest lists itself (a directory naming one
/// file would cost a request, or the page's embedded bytes, for nothing).
/// Directories go in the shards' folder, `dir-<n>.<tag>.json`, named like
/// the term shards (FORMAT.md "Stable names"): a directory whose bytes are
/// those of the previous index's directory of its letter keeps that name;
/// the others take a hash of every directory of this index, the same for
/// all (so a name stands for one content: the whole listing's).
struct ShardListing {
  var folder: String
  var shards: [TermShardRun]?
  var directories: [ShardEntry]?

  static func make(
    _ shards: [(prefix: String, number: Int, hash: String)], folder: String, maxListed: Int,
    previous: PreviousTermShards? = nil, files: inout IndexFiles
  ) throws -> ShardListing {
    let shards = shards.sorted { $0.prefix.utf8.lexicographicallyPrecedes($1.prefix.utf8) }
    if shards.count <= maxListed { return ShardListing(folder: folder, shards: TermShardRun.runs(shards)) }
    var made: [(letter: String, bytes: [UInt8])] = []
    var single: [(prefix: String, number: Int, hash: String)] = []
    var start = shards.startIndex
    let firstLetter = { (prefix: String) in prefix.unicodeScalars.first.map { String($0) } ?? "" }
    while start < shards.endIndex {
      let first = firstLetter(shards[start].prefix)
      var end = start
      while end < shards.endIndex && firstLetter(shards[end].prefix) == first { end += 1 }
      if end - start == 1 {
        single.append(shards[start])
      } else {
        made.append(
          (
            first,
            try IndexEncoder.encode(TermDirectory(termShards: TermShardRun.runs(Array(shards[start..<end]))))
          ))
      }
      start = end
    }
    var whole: [UInt8] = []
    for directory in made { whole += Array(directory.letter.utf8) + [0] + directory.bytes + [0] }
    let fresh = IndexFiles.shardHash(whole)
    var directories: [ShardEntry] = []
    for (number, directory) in made.enumerated() {
      let path =
        previous?.directory(of: directory.letter, holding: directory.bytes)
        ?? "\(folder)dir-\(number).\(fresh).json"
      try files.append("idx/" + path, directory.bytes)
      directories.append(ShardEntry(prefix: directory.letter, path: path))
    }
    return ShardListing(
      folder: folder, shards: single.isEmpty ? nil : TermShardRun.runs(single), directories: directories)
  }
}

/// Splits sorted keys by longer and longer prefixes until each group's
/// encoded size (measured by the encoder itself) is under the target.
enum PrefixSharder {
  /// `size` is the encoded size of one key's entry, name and separators
  /// included, the key named by its place in `keys`; `write` writes a shard
  /// (its prefix, its keys, and for an internal shard the keys that went to
  /// longer prefixes) and returns its path.
  static func run(
    _ keys: [String], targetBytes: Int, maxPrefixLength: Int, size: (_ position: Int) throws -> Int,
    write: (_ prefix: String, _ keys: ArraySlice<String>, _ subtree: ArraySlice<String>?) throws -> String
  ) throws -> [ShardEntry] {
    var shards: [ShardEntry] = []
    // `position` gives a key's place in `keys` from its index in the slice
    // at hand: the same index while the slices are of `keys` itself.
    func shard(prefix: String, keys: ArraySlice<String>, position: @escaping (Int) -> Int) throws {
      let prefixLength = prefix.unicodeScalars.count
      var total = 0
      for index in keys.indices where total <= targetBytes { total += try size(position(index)) }
      if total <= targetBytes || prefixLength >= maxPrefixLength {
        shards.append(ShardEntry(prefix: prefix, path: try write(prefix, keys, nil)))
        return
      }
      // The keys are distinct, so at most one is the prefix, and in UTF-8
      // order it comes first: the rest stay a slice of the same keys.
      var exact = keys.prefix(0)
      var rest = keys
      var restPosition = position
      if keys.first == prefix {
        exact = keys.prefix(1)
        rest = keys.dropFirst()
      } else if let at = keys.firstIndex(of: prefix) {
        let kept = keys.indices.filter { $0 != at }
        exact = keys[at...at]
        rest = ArraySlice(kept.map { keys[$0] })
        restPosition = { position(kept[$0]) }
      }
      shards.append(ShardEntry(prefix: prefix, path: try write(prefix, exact, keys)))
      for group in groups(rest, length: prefixLength + 1) {
        try shard(prefix: group.prefix, keys: group.terms, position: restPosition)
      }
    }
    for group in groups(keys[...], length: 1) {
      try shard(prefix: group.prefix, keys: group.terms, position: { $0 })
    }
    return shards
  }

  /// Consecutive runs of sorted terms sharing their first `length` scalars.
  static func groups(_ terms: ArraySlice<String>, length: Int) -> [(
    prefix: String, terms: ArraySlice<String>
  )] {
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
}
