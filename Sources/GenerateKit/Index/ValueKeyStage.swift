/// Stage 6b: the sort and range options (`sort:`, `range:`), each one file
/// of one rank per document (`ValueKeyFile`, FORMAT.md "Sort and range
/// files"), so the browser orders and filters matches by number before it
/// fetches a single document. The files share one folder named by a hash of
/// them all, as the filter files do.
struct ValueKeyStage {
  let site: PreparedSite
  let order: [Int]

  /// Documents per file of a sort's value order (`chunks`), on an index of
  /// more than twice as many (`index: documentsPerSortFile`, 4,096: about
  /// 7 KB gzip, what a page's rows cost; the music catalogue has none).
  var chunkSize = 4096

  struct Keys {
    var sorts: [Manifest.Sort] = []
    var ranges: [Manifest.Range] = []
  }

  /// One option as the collections declare it, merged by id.
  private struct Option {
    var key: SiteConfig.ValueKey
    /// Collection index → its `by:`.
    var by: [Int: String] = [:]
    var kinds: [String] = []
  }

  func run(into files: inout IndexFiles) throws -> Keys {
    var sorts: [Option] = []
    var ranges: [Option] = []
    for (index, collection) in site.collections.enumerated() where collection.config.searchable {
      for key in collection.config.sorts { merge(key, collection: index, into: &sorts) }
      for key in collection.config.ranges { merge(key, collection: index, into: &ranges) }
    }
    var keys = Keys()
    guard !sorts.isEmpty || !ranges.isEmpty else { return keys }
    var diagnostics: [Diagnostic] = []
    var written: [(name: String, bytes: [UInt8])] = []
    func add(_ name: String, _ file: ValueKeyFile) throws -> String {
      let bytes = try IndexEncoder.encode(file, capacity: file.ranks.utf8.count + 64)
      // A sort and a range of the same values share their file.
      if let same = written.first(where: { $0.bytes == bytes }) { return same.name }
      written.append((name, bytes))
      return name
    }
    for option in sorts {
      let values = read(option, diagnostics: &diagnostics)
      let file = Self.file(values)
      var sort = Manifest.Sort(
        id: option.key.id, label: option.key.label, descending: option.key.descending ? true : nil,
        kinds: option.kinds, file: try add("sort-\(option.key.id)", file))
      if order.count > 2 * chunkSize {
        let chunks = Self.chunks(Self.denseRanks(values).ranks, size: chunkSize)
        var hashes = ""
        for (number, chunk) in chunks.enumerated() {
          let bytes = try IndexEncoder.encode(chunk, capacity: chunk.ranks.utf8.count * 3)
          hashes += IndexFiles.shardHash(bytes)
          // A sort sharing an earlier one's file shares its chunks too.
          let name = "\(sort.file)-\(number)"
          if !written.contains(where: { $0.name == name }) { written.append((name, bytes)) }
        }
        sort.chunks = chunks.count
        sort.chunkHashes = hashes
      }
      keys.sorts.append(sort)
    }
    for option in ranges {
      let values = read(option, isRange: true, diagnostics: &diagnostics)
      keys.ranges.append(
        Manifest.Range(
          id: option.key.id, label: option.key.label, format: option.key.format.rawValue,
          file: try add("range-\(option.key.id)", Self.file(values)),
          offers: Self.offers(values.numbers, option.key.format)))
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    // Each file named by its own bytes (`o/<name>.<hash>.json`), so a data
    // edit renames only the files it changed.
    var paths: [String: String] = [:]
    for file in written {
      let path = "o/\(file.name).\(IndexFiles.shardHash(file.bytes)).json"
      paths[file.name] = path
      try files.append("idx/" + path, file.bytes)
    }
    for s in keys.sorts.indices { keys.sorts[s].file = paths[keys.sorts[s].file] ?? keys.sorts[s].file }
    for r in keys.ranges.indices { keys.ranges[r].file = paths[keys.ranges[r].file] ?? keys.ranges[r].file }
    return keys
  }

  private func merge(_ key: SiteConfig.ValueKey, collection: Int, into options: inout [Option]) {
    let kind = site.collections[collection].config.id
    if let at = options.firstIndex(where: { $0.key.id == key.id }) {
      options[at].by[collection] = key.by.value
      options[at].kinds.append(kind)
    } else {
      options.append(Option(key: key, by: [collection: key.by.value], kinds: [kind]))
    }
  }

  /// Every document's value, by document number; a value the format cannot
  /// read is an error at the option's `by:` (the range's, for a range
  /// with a sort's id), naming the record.
  private func read(_ option: Option, isRange: Bool = false, diagnostics: inout [Diagnostic]) -> Readings {
    var reported = 0
    var readings = Readings()
    readings.reserveCapacity(order.count)
    for documentIndex in order {
      readings.append(
        reading(option, of: documentIndex, isRange: isRange, reported: &reported, diagnostics: &diagnostics))
    }
    return readings
  }

  private func reading(
    _ option: Option, of documentIndex: Int, isRange: Bool, reported: inout Int,
    diagnostics: inout [Diagnostic]
  ) -> ValueFormatting.Reading {
    let document = site.documents[documentIndex]
    guard let by = option.by[document.collection], let value = site.keyValue(by, of: documentIndex) else {
      return .missing
    }
    let reading = ValueFormatting.read(value, as: option.key.format)
    if reading == .unreadable, reported < 5 {
      reported += 1
      let collection = site.collections[document.collection].config
      let keys = isRange ? collection.ranges : collection.sorts
      let key = keys.first { $0.id == option.key.id }
      diagnostics.append(
        .error(
          at: (key ?? option.key).by.location,
          "record '\(document.key)' of collection '\(collection.id)': '\(by)' is '\(value.text)', which is not \(Self.expected(option.key.format)) (option '\(option.key.id)')"
        ))
    }
    return reading
  }

  /// The documents' readings of one option, by document number, a text's
  /// bytes packed end to end: a sort by title read every document's title
  /// as a String each (about 80 bytes a record), and at ten million
  /// records that was the index build's peak.
  struct Readings {
    enum Item {
      case missing
      case number(Double)
      /// Where the text is in `texts`.
      case text(Int32)
      case unreadable
    }
    private(set) var items: [Item] = []
    private(set) var texts = PackedStrings()

    init() {}

    init(_ readings: [ValueFormatting.Reading]) {
      for reading in readings { append(reading) }
    }

    var count: Int { items.count }

    /// The numbers read, in document order.
    var numbers: [Double] { items.compactMap { if case .number(let n) = $0 { n } else { nil } } }

    mutating func reserveCapacity(_ count: Int) { items.reserveCapacity(count) }

    mutating func append(_ reading: ValueFormatting.Reading) {
      switch reading {
      case .missing: items.append(.missing)
      case .number(let n): items.append(.number(n))
      case .unreadable: items.append(.unreadable)
      case .text(let text):
        items.append(.text(Int32(texts.count)))
        texts.append(text)
      }
    }
  }

  private static func expected(_ format: SiteConfig.ValueFormat) -> String {
    switch format {
    case .number, .text: "a number"
    case .year: "a year"
    case .duration: "a number of milliseconds"
    case .date: "a date (YYYY-MM-DD)"
    }
  }

  /// Dense ranks of the values (-1: none), numbers before text when a sort
  /// has both; the distinct numbers ascending, and whether there was text.
  static func denseRanks(_ values: [ValueFormatting.Reading]) -> (ranks: [Int], scale: [Double], text: Bool) {
    denseRanks(Readings(values))
  }

  static func denseRanks(_ values: Readings) -> (ranks: [Int], scale: [Double], text: Bool) {
    // The documents sorted by value, equal values one rank, rather than a
    // set and a dictionary of the distinct values: a sort by title at 300k
    // records held 30 MiB of them while the pages rendered beside it.
    var numbered: [Int32] = []
    var worded: [Int32] = []
    let items = values.items
    let texts = values.texts
    for (index, value) in items.enumerated() {
      switch value {
      case .number(let n) where !n.isNaN: numbered.append(Int32(index))
      case .text: worded.append(Int32(index))
      default: break
      }
    }
    func number(_ index: Int32) -> Double {
      if case .number(let n) = items[Int(index)] { return n }
      return 0
    }
    func text(_ index: Int32) -> Int {
      if case .text(let slot) = items[Int(index)] { return Int(slot) }
      return 0
    }
    var ranks = [Int](repeating: -1, count: values.count)
    // Equal numbers in document order, so the scale keeps the first of
    // them (0 or -0), as a set would.
    numbered.sort { number($0) < number($1) || (number($0) == number($1) && $0 < $1) }
    var scale: [Double] = []
    for index in numbered {
      let n = number(index)
      if scale.last != n { scale.append(n) }
      ranks[Int(index)] = scale.count - 1
    }
    // By UTF-8 bytes, compared where they are packed: a String made per
    // comparison would allocate for every title longer than 15 bytes.
    worded.sort { texts.utf8Precedes(text($0), text($1)) }
    var rank = scale.count - 1
    var last: Int?
    for index in worded {
      let t = text(index)
      // Equal as Strings are (canonically equivalent), as a set of them
      // counted distinct values; the same bytes, or two ASCII texts, need
      // no String (`PackedStrings.stringOrder`).
      if let last, texts.stringOrder(last, t) == nil {
        ranks[Int(index)] = rank
        continue
      }
      rank += 1
      last = t
      ranks[Int(index)] = rank
    }
    return (ranks, scale, !worded.isEmpty)
  }

  /// `ranks` in `width` digits each, the largest value of that width for none.
  static func encode(_ ranks: [Int], distinct: Int) -> (width: Int, text: String) {
    var width = 1
    var limit = 64
    while distinct >= limit {
      width += 1
      limit *= 64
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(ranks.count * width)
    for value in ranks {
      let rank = value < 0 ? limit - 1 : value
      for place in stride(from: width - 1, through: 0, by: -1) {
        var digit = rank
        for _ in 0..<place { digit /= 64 }
        bytes.append(ValueKeyFile.digits[digit % 64])
      }
    }
    return (width, String(decoding: bytes, as: UTF8.self))
  }

  static func file(_ values: [ValueFormatting.Reading]) -> ValueKeyFile {
    file(Readings(values))
  }

  static func file(_ values: Readings) -> ValueKeyFile {
    let dense = denseRanks(values)
    let encoded = encode(dense.ranks, distinct: (dense.ranks.max() ?? -1) + 1)
    return ValueKeyFile(
      width: encoded.width, ranks: encoded.text, scale: dense.text ? nil : NumberList(dense.scale))
  }

  /// Documents in value order, cut into files of about `size` (never inside
  /// a run of equal values), each listing its documents ascending with their
  /// ranks less the file's first: a sorted page of a broad query reads the
  /// first of them instead of every document's rank (FORMAT.md).
  static func chunks(_ ranks: [Int], size: Int) -> [ValueChunk] {
    // By rank, then by document, counted rather than compared: the ranks
    // are dense, and a comparison sort of ten million documents cost a
    // log n more a document than of one million.
    var starts = [Int](repeating: 0, count: (ranks.max() ?? -1) + 2)
    for rank in ranks where rank >= 0 { starts[rank + 1] += 1 }
    for rank in starts.indices.dropFirst() { starts[rank] += starts[rank - 1] }
    var ordered = [Int](repeating: 0, count: starts.last ?? 0)
    for (document, rank) in ranks.enumerated() where rank >= 0 {
      ordered[starts[rank]] = document
      starts[rank] += 1
    }
    var result: [ValueChunk] = []
    var start = 0
    while start < ordered.count {
      var end = min(start + size, ordered.count)
      while end < ordered.count && ranks[ordered[end]] == ranks[ordered[end - 1]] { end += 1 }
      let base = ranks[ordered[start]]
      let members = ordered[start..<end].sorted()
      let relative = members.map { ranks[$0] - base }
      let encoded = encode(relative, distinct: (relative.max() ?? 0) + 1)
      result.append(
        ValueChunk(
          base: base, ids: DeltaList(members.map { Int32($0) }), ranks: encoded.text, width: encoded.width))
      start = end
    }
    return result
  }

  /// Three spans from the quartiles, rounded to values that read well: below
  /// the first, between, above the third (`<3:00`, `3:00–6:00`, `>6:00`).
  static func offers(_ values: [Double], _ format: SiteConfig.ValueFormat) -> [Manifest.Range.Offer] {
    guard values.count >= 4 else { return [] }
    let sorted = values.sorted()
    let spread = sorted[sorted.count - 1] - sorted[0]
    let low = ValueFormatting.round(sorted[sorted.count / 4], spread: spread, as: format)
    let high = ValueFormatting.round(sorted[sorted.count * 3 / 4], spread: spread, as: format)
    let text = { (value: Double) in ValueFormatting.text(value, as: format) }
    var offers = [
      Manifest.Range.Offer(value: "<\(text(low))", count: sorted.count { $0 < low }),
      Manifest.Range.Offer(value: ">\(text(high))", count: sorted.count { $0 > high }),
    ]
    if low < high {
      offers.insert(
        .init(value: "\(text(low))–\(text(high))", count: sorted.count { $0 >= low && $0 <= high }), at: 1)
    }
    return offers.filter { $0.count > 0 }
  }
}
