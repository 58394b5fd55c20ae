/// The index's files as types, one per shape in FORMAT.md, in its order.
/// `IndexEncoder` writes them (keys sorted by UTF-8, no white space); any
/// JSON decoder reads them back, which the tests do. An optional property
/// is left out of the file when it is `nil`.
///
/// The format's long integer lists (`DeltaList`, `PostingsEntry`,
/// `DocumentRow`) are `JSONFragment`s: they write their own bytes through
/// `JSONWriter` rather than boxing every number, and still encode and decode
/// through `Codable` as the same JSON.

/// `manifest.<hash>.json`: names every other file.
struct Manifest: Codable, Equatable {
  /// The format's version: an index of another is read as none (`PreviousTermShards`).
  static let formatVersion = 1
  var version = formatVersion
  var docCount: Int
  var docsPerShard: Int
  /// `d/`: document shard `n` is `<docShardFolder><n>.<hash>.json`, its
  /// field shard `<docShardFolder>f<n>.<hash>.json`, `hash` from a
  /// `DocumentHashes` file.
  var docShardFolder: String
  /// The `DocumentHashes` files, `<docShardFolder>h<k>.<hash>.json`: their
  /// short hashes packed in one string (`IndexFiles.hash(_:in:)`). The
  /// shards' own hashes are not in the manifest, which the page embeds and
  /// which must stay a few KB at any size; a search that needs a document
  /// shard reads them first, once.
  var docHashFiles: String
  /// Document shards per `DocumentHashes` file: shard `n`'s hash is in file
  /// `n / docHashesPerFile`, at `n % docHashesPerFile`.
  var docHashesPerFile: Int
  /// `t/`: a term shard is `<termShardFolder>s<prefix>.<tag>.json`
  /// (`TermShardRun.fileName`), its tag (`TermShardStage.tags`) in the run that lists it.
  var termShardFolder: String
  /// Every term shard, in runs sorted by prefix; past 256 of them, only the shards
  /// that are alone under their first letter, and `termDirectories` for
  /// the others.
  var termShards: [TermShardRun]?
  /// One `TermDirectory` per first letter.
  var termDirectories: [ShardEntry]?
  /// The `TypoList`.
  var typoList: String
  var kinds: [Kind]
  /// `AllKinds`: every kind's documents in one file, for an index small
  /// enough that a search counts every chip (`index: kindsInOneFile`).
  var kindsFile: String?
  var topResults: String
  var scopes: [Scope]
  var facets: [Facet]
  var trending: [String]
  var options: Options
  /// The first document number of each order of magnitude of popularity
  /// after the first (`PopularityTiers`); nil when every document has one.
  var popularityTiers: [Int]?
  /// Orders besides relevance, and spans results can be filtered to
  /// (`IndexFormat+ValueKeys.swift`); absent when no collection has any.
  var sorts: [Sort]?
  var ranges: [Range]?

  struct Kind: Codable, Equatable {
    var id: String
    var label: String
    var singular: String
    var count: Int
    /// An `IDList` of the kind's documents, where the index has no
    /// `kindsFile` (past `index: kindsInOneFile`: a chip loads its own).
    var file: String?
    /// `DistinctGroups`, for a kind with `distinct:`.
    var distinct: String?
    /// Labels of the searched fields a row may show (`DocumentRow.fields`):
    /// those its subtitle does not already name.
    var fields: [String]?
    /// Some of the kind's documents have artwork (an image or a symbol),
    /// which only their document shards carry: a row a term shard carried
    /// is completed from its document shard before it is shown.
    var artwork: Bool?
    /// A delta list of the numbers of the kind's first 12 documents, then
    /// of its 16th, 32nd, 64th… (positions 2^i − 1): where a document stands
    /// in its own kind, which the top hit compares across kinds (FORMAT.md
    /// "Top hit"); only on an index of several kinds.
    var standing: DeltaList?
  }

  struct Scope: Codable, Equatable {
    var id: String
    var label: String
    var count: Int
    /// An `IDList` of the documents it admits; nil for the whole index.
    var file: String?
  }

  /// A facet whose values can become search tokens.
  struct Facet: Codable, Equatable {
    var id: String
    var label: String
    var icon: String
    /// By count, descending, then by name.
    var values: [Value]

    /// `[name, count, file]`, the file an `IDList`.
    struct Value: Codable, Equatable {
      var name: String
      var count: Int
      var file: String

      init(name: String, count: Int, file: String) {
        self.name = name
        self.count = count
        self.file = file
      }

      init(from decoder: any Decoder) throws {
        var array = try decoder.unkeyedContainer()
        name = try array.decode(String.self)
        count = try array.decode(Int.self)
        file = try array.decode(String.self)
      }

      func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        try array.encode(name)
        try array.encode(count)
        try array.encode(file)
      }
    }
  }

  struct Options: Codable, Equatable {
    var slashFocuses: Bool
    var suggestions: Int
    /// The word-form rules the index was built with (`en`, or a Snowball
    /// language's code, `es`), which the engine applies to query words;
    /// absent for a language without rules.
    var forms: String?
    /// For a Snowball language, the endings Snowball took off the site's
    /// words, shortest first (`WordForms.endings`); absent for English.
    var endings: [String]?
  }
}

/// `f/deferred.<hash>.json`: the manifest's fields that only a search with a token or a top hit
/// needs, again, for the search page, whose embedded manifest leaves them out (FORMAT.md
/// "Deferred fields"): 0.37 KB of the default catalogue's first query. The manifest file itself
/// keeps them, so any other reader of it needs nothing more.
struct DeferredFields: Codable, Equatable {
  /// Each facet's value files (`Manifest.Facet.Value.file`), in the manifest's order.
  var facets: [[String]]
  /// Each kind's `standing`, in the manifest's order; nil when no kind has one.
  var standing: [DeltaList]?

  /// Nil when the manifest has nothing to defer (no facet values, no standing).
  init?(of manifest: Manifest) {
    facets = manifest.facets.map { $0.values.map(\.file) }
    let standing = manifest.kinds.compactMap(\.standing)
    self.standing = standing.count == manifest.kinds.count && !standing.isEmpty ? standing : nil
    if self.standing == nil && facets.allSatisfy(\.isEmpty) { return nil }
  }
}

/// `[prefix, path]`: a shard (or a directory of shards) and the prefix it serves.
struct ShardEntry: Codable, Equatable {
  var prefix: String
  var path: String

  init(prefix: String, path: String) {
    self.prefix = prefix
    self.path = path
  }

  init(from decoder: any Decoder) throws {
    var array = try decoder.unkeyedContainer()
    prefix = try array.decode(String.self)
    path = try array.decode(String.self)
  }

  func encode(to encoder: any Encoder) throws {
    var array = encoder.unkeyedContainer()
    try array.encode(prefix)
    try array.encode(path)
  }
}

/// `d/h<k>.<hash>.json`: the short hashes of document shards
/// `k × docHashesPerFile …`, packed in one string; each names its shard and
/// the field shard beside it.
struct DocumentHashes: Codable, Equatable {
  var hashes: String
}

/// `[first, "prefixes", "hashes"]`: term shards `first`, `first + 1`, …
/// (the file `<termShardFolder>s<prefix>.<hash>.json`), the prefixes they serve,
/// in order and front-coded in one string (`packed`), and their tags
/// (`IndexFiles.shardHashDigits` hex digits each, `TermShardStage.tags`) in one string. Shards are numbered by
/// prefix, so a letter's shards, or all of a small index's, are one run: the
/// page embeds the manifest and, for a small index, every directory, and a
/// full path per shard had been most of their gzip bytes.
struct TermShardRun: Codable, Equatable {
  var first: Int
  var prefixes: [String]
  var hashes: String

  init(first: Int, prefixes: [String], hashes: String) {
    self.first = first
    self.prefixes = prefixes
    self.hashes = hashes
  }

  init(from decoder: any Decoder) throws {
    var array = try decoder.unkeyedContainer()
    first = try array.decode(Int.self)
    guard let prefixes = Self.unpacked(try array.decode(String.self)) else {
      throw DecodingError.dataCorruptedError(
        in: array, debugDescription: "not a front-coded list of prefixes")
    }
    self.prefixes = prefixes
    hashes = try array.decode(String.self)
  }

  func encode(to encoder: any Encoder) throws {
    var array = encoder.unkeyedContainer()
    try array.encode(first)
    try array.encode(Self.packed(prefixes))
    try array.encode(hashes)
  }

  /// Sorted prefixes front-coded in one string (`unpackPrefixes` in
  /// `engine/loader.js`): the first as it is, then each as the previous one
  /// less its last `k` characters (Unicode scalars), written as `k` dots, or
  /// a comma when `k` is 0, and the characters it adds: `a`, `aa`, `ab`, `b`
  /// is `a,a.b..b`. Prefixes are letters and digits only (FORMAT.md,
  /// "Normalisation"), so a dot or a comma never belongs to one. On the music
  /// catalogue the 191 prefixes take 0.3 KB gzip less in the page than as a
  /// JSON list.
  static func packed(_ prefixes: [String]) -> String {
    var out = String.UnicodeScalarView()
    var previous: [Unicode.Scalar] = []
    for (index, prefix) in prefixes.enumerated() {
      let scalars = Array(prefix.unicodeScalars)
      var shared = 0
      if index > 0 {
        while shared < min(previous.count, scalars.count) && previous[shared] == scalars[shared] {
          shared += 1
        }
        let cut = previous.count - shared
        out.append(contentsOf: cut == 0 ? [","] : Array(repeating: ".", count: cut))
      }
      out.append(contentsOf: scalars[shared...])
      previous = scalars
    }
    return String(out)
  }

  /// The prefixes of a `packed` string; nil when a mark cuts more than the previous prefix holds.
  static func unpacked(_ text: String) -> [String]? {
    var prefixes: [String] = []
    var current: [Unicode.Scalar] = []
    // The dots (or comma) just read, before the characters they apply to.
    var cut: Int?
    for scalar in text.unicodeScalars {
      if scalar == "." || scalar == "," {
        if cut == nil { prefixes.append(String(String.UnicodeScalarView(current))) }
        cut = (cut ?? 0) + (scalar == "." ? 1 : 0)
        continue
      }
      if let count = cut {
        guard count <= current.count else { return nil }
        current.removeLast(count)
        cut = nil
      }
      current.append(scalar)
    }
    if let count = cut {
      guard count <= current.count else { return nil }
      current.removeLast(count)
    }
    prefixes.append(String(String.UnicodeScalarView(current)))
    return prefixes
  }

  /// Each shard as (prefix, number, hash).
  var shards: [(prefix: String, number: Int, hash: String)] {
    prefixes.enumerated().map { offset, prefix in
      (prefix, first + offset, IndexFiles.hash(offset, in: hashes))
    }
  }

  /// The path of each shard, relative to `idx/`.
  func paths(in folder: String) -> [(prefix: String, path: String)] {
    shards.map { ($0.prefix, folder + Self.fileName($0.prefix, hash: $0.hash)) }
  }

  /// A term shard's file name: `s`, its prefix when that is only `a`–`z`
  /// and `0`–`9` (else `-` and the prefix's UTF-8 bytes in hex), its hash
  /// (`shardName` in `engine/loader.js`). By prefix rather than number, so
  /// that a shard keeps its name when a split elsewhere renumbers it.
  static func fileName(_ prefix: String, hash: String) -> String {
    let bytes = Array(prefix.utf8)
    let plain = bytes.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
    }
    let digits = Array("0123456789abcdef".utf8)
    let name =
      plain
      ? prefix
      : "-" + String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    return "s\(name).\(hash).json"
  }

  /// Consecutive numbers joined into runs, in the order given.
  static func runs(_ shards: [(prefix: String, number: Int, hash: String)]) -> [TermShardRun] {
    var runs: [TermShardRun] = []
    for shard in shards {
      if let last = runs.last, last.first + last.prefixes.count == shard.number {
        runs[runs.count - 1].prefixes.append(shard.prefix)
        runs[runs.count - 1].hashes += shard.hash
      } else {
        runs.append(TermShardRun(first: shard.number, prefixes: [shard.prefix], hashes: shard.hash))
      }
    }
    return runs
  }
}

/// `t/dir-<n>.<hash>.json`: the term shards of one first letter.
struct TermDirectory: Codable, Equatable {
  var termShards: [TermShardRun]
}

/// `y/list.<hash>.json`: every typo shard.
struct TypoList: Codable, Equatable {
  var typoShards: [ShardEntry]
}

/// `t/s<prefix>.<hash>.json`.
struct TermShard: Codable, Equatable {
  /// Display rows, ascending by number, of the first answers to the
  /// one-word queries the shard serves.
  var docs: [DocumentRow]?
  /// The `parts` whose title joins the term to another word in prose
  /// (`Seattle-Tacoma Intl`): FORMAT.md "Parts of names".
  var compounds: [String: DeltaList]?
  /// Documents whose title's last chunk holds the term, for a title of
  /// several words: FORMAT.md "Term shard".
  var ends: [String: DeltaList]?
  /// Terms that occur only as run-together forms.
  var joined: [String]?
  /// Documents whose title holds the term only as a part of a joined name
  /// (`revision` in `simple-revision-control`): FORMAT.md "Parts of names".
  var parts: [String: DeltaList]?
  /// Documents that hold the term only outside their title, of a kind none
  /// of whose titles holds it: FORMAT.md "Kinds the words name".
  var mentions: [String: DeltaList]?
  var prefix: String
  /// Documents whose title's first chunk begins with the term.
  var starts: [String: DeltaList]?
  /// Words of the site that are Snowball stems — their own (`franc`) or
  /// another word's: FORMAT.md "Word forms". A stem that is no word of the
  /// site is in `joined`. Absent in English and in a language without rules.
  var stems: [String]?
  var terms: [String: PostingsEntry]
  /// Internal shards only: `[title, other]`, the best documents under the prefix.
  var tops: [DeltaList]?
  /// Documents whose whole title, run together, is the term.
  var whole: [String: DeltaList]?
}

/// A term's postings: `[title, other]`, or for a long list `[title head,
/// other head, total, continuation path]`.
struct PostingsEntry: Codable, Equatable, JSONFragment {
  var title: DeltaList
  var other: DeltaList
  /// Set with `more` when the lists continue in a `ContinuationFile`.
  var total: Int?
  var more: String?

  init(title: DeltaList, other: DeltaList, total: Int? = nil, more: String? = nil) {
    self.title = title
    self.other = other
    self.total = total
    self.more = more
  }

  func write(into writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    title.write(into: &writer)
    writer.byte(UInt8(ascii: ","))
    other.write(into: &writer)
    if let total, let more {
      writer.byte(UInt8(ascii: ","))
      writer.int(total)
      writer.byte(UInt8(ascii: ","))
      writer.string(more)
    }
    writer.byte(UInt8(ascii: "]"))
  }

  init(from decoder: any Decoder) throws {
    var array = try decoder.unkeyedContainer()
    title = try array.decode(DeltaList.self)
    other = try array.decode(DeltaList.self)
    if !array.isAtEnd {
      total = try array.decode(Int.self)
      more = try array.decode(String.self)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var array = encoder.unkeyedContainer()
    try array.encode(title)
    try array.encode(other)
    if let total, let more {
      try array.encode(total)
      try array.encode(more)
    }
  }
}

/// `t/more-<term hash>.<hash>.json`: the rest of one long term's postings,
/// its deltas starting again from 0.
struct ContinuationFile: Codable, Equatable {
  /// One term, to `[title, other]`.
  var terms: [String: [DeltaList]]
}

/// `y/s.<hash>.json`: three-letter pieces to the longer words holding them.
struct TypoShard: Codable, Equatable {
  var keys: [String: [String]]
  var prefix: String
}

/// `d/<n>.<hash>.json`: the display rows of documents `first…`.
struct DocumentShard: Codable, Equatable {
  var docs: [DocumentRow]
  var first: Int
}

/// `d/f<n>.<hash>.json`: the searched fields' texts of document shard `n`'s
/// documents, entry `i` for document `first + i` (`DocumentRow.fields`).
struct FieldShard: Codable, Equatable {
  var fields: [[String]]
  var first: Int
}

/// `[kind, title, subtitle, url, hue]`, or in a term shard's `docs`
/// `[number, kind, title, subtitle, url, hue]`, followed by `fields` for a
/// document its shard's words find outside the title, whose searched text
/// the title and subtitle do not show. A document shard's row of a document
/// with artwork ends with `image` (`""` when it has only a symbol) and
/// `symbol`, trailing `""` left out; term shards never carry them, so the
/// first query's bytes do not grow with the URLs.
struct DocumentRow: Codable, Equatable, JSONFragment {
  var number: Int?
  var kind: Int
  var title: String
  var subtitle: String
  var url: String
  var hue: Int
  /// The texts of the kind's `fields` (`Manifest.Kind.fields`), in order,
  /// `""` for a field with nothing to add; no trailing `""`.
  var fields: [String]?
  /// The picture's URL, relative to the base URL when the site holds it.
  var image: String?
  /// One grapheme cluster shown instead of the initial.
  var symbol: String?

  init(
    number: Int? = nil, kind: Int, title: String, subtitle: String, url: String, hue: Int,
    fields: [String]? = nil, image: String? = nil, symbol: String? = nil
  ) {
    self.image = image
    self.symbol = symbol
    self.number = number
    self.kind = kind
    self.title = title
    self.subtitle = subtitle
    self.url = url
    self.hue = hue
    self.fields = fields
  }

  func write(into writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    if let number {
      writer.int(number)
      writer.byte(UInt8(ascii: ","))
    }
    writer.int(kind)
    writer.byte(UInt8(ascii: ","))
    writer.string(title)
    writer.byte(UInt8(ascii: ","))
    writer.string(subtitle)
    writer.byte(UInt8(ascii: ","))
    writer.string(url)
    writer.byte(UInt8(ascii: ","))
    writer.int(hue)
    if let fields {
      writer.raw(",[")
      for (index, text) in fields.enumerated() {
        if index > 0 { writer.byte(UInt8(ascii: ",")) }
        writer.string(text)
      }
      writer.byte(UInt8(ascii: "]"))
    }
    if image != nil || symbol != nil {
      writer.byte(UInt8(ascii: ","))
      writer.string(image ?? "")
    }
    if let symbol {
      writer.byte(UInt8(ascii: ","))
      writer.string(symbol)
    }
    writer.byte(UInt8(ascii: "]"))
  }

  /// One element of a row: a number, a text or the field texts. A row is
  /// numbered when its second element is a number (the kind), not a title.
  private enum Item: Decodable {
    case number(Int)
    case text(String)
    case texts([String])

    init(from decoder: any Decoder) throws {
      let value = try decoder.singleValueContainer()
      if let number = try? value.decode(Int.self) {
        self = .number(number)
      } else if let text = try? value.decode(String.self) {
        self = .text(text)
      } else {
        self = .texts(try value.decode([String].self))
      }
    }
  }

  init(from decoder: any Decoder) throws {
    var items = try decoder.singleValueContainer().decode([Item].self)[...]
    func next<T>(_ pick: (Item) -> T?) throws -> T {
      guard let item = items.popFirst(), let value = pick(item) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "not a row"))
      }
      return value
    }
    let number = { (item: Item) -> Int? in if case .number(let n) = item { n } else { nil } }
    let text = { (item: Item) -> String? in if case .text(let t) = item { t } else { nil } }
    if items.count > 1, case .number = items[items.startIndex + 1] { self.number = try next(number) }
    kind = try next(number)
    title = try next(text)
    subtitle = try next(text)
    url = try next(text)
    hue = try next(number)
    if let item = items.first, case .texts = item {
      fields = try next { if case .texts(let t) = $0 { t } else { nil } }
    }
    if !items.isEmpty { image = try next(text) }
    if !items.isEmpty { symbol = try next(text) }
    guard items.isEmpty else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "row too long"))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var array = encoder.unkeyedContainer()
    if let number { try array.encode(number) }
    try array.encode(kind)
    try array.encode(title)
    try array.encode(subtitle)
    try array.encode(url)
    try array.encode(hue)
    if let fields { try array.encode(fields) }
    if image != nil || symbol != nil { try array.encode(image ?? "") }
    if let symbol { try array.encode(symbol) }
  }
}

/// `f/<name>.<hash>.json`: the documents of a kind, a scope or a facet value.
struct IDList: Codable, Equatable {
  var ids: DeltaList
}

/// `f/kinds.<hash>.json`: entry `i` lists the documents of `manifest.kinds[i]`,
/// as its own `file` does; one request where a search needs them all.
struct AllKinds: Codable, Equatable {
  var kinds: [DeltaList]
}

/// `f/distinct-<kind>.<hash>.json`: entry `j` is the group of the kind's
/// `j`-th document, groups numbered by first appearance.
struct DistinctGroups: Codable, Equatable {
  var groups: [Int]
}

/// Ascending document numbers, written as differences (the first absolute).
struct DeltaList: Codable, Equatable, JSONFragment {
  var numbers: ArraySlice<Int32>

  init<C: Collection<Int32>>(_ numbers: C) { self.numbers = ArraySlice(numbers) }

  func write(into writer: inout JSONWriter) { writer.deltas(numbers) }

  init(from decoder: any Decoder) throws {
    var array = try decoder.unkeyedContainer()
    var numbers: [Int32] = []
    var total: Int32 = 0
    while !array.isAtEnd {
      total &+= try array.decode(Int32.self)
      numbers.append(total)
    }
    self.numbers = numbers[...]
  }

  func encode(to encoder: any Encoder) throws {
    var array = encoder.unkeyedContainer()
    var previous: Int32 = 0
    for number in numbers {
      try array.encode(number &- previous)
      previous = number
    }
  }

  static func == (x: DeltaList, y: DeltaList) -> Bool { x.numbers.elementsEqual(y.numbers) }
}
