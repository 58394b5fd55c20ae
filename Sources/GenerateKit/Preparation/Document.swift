import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One record of a collection, ready to index and to link to: a place in
/// the site's `DocumentStore`, whose fields it reads when asked.
public struct Document: Sendable {
  let store: DocumentStore
  /// Its number in `PreparedSite.documents`.
  public let index: Int

  /// Index into `PreparedSite.collections`.
  public var collection: Int { Int(store.collections[index]) }
  public var row: Int { Int(store.rows[index]) }
  public var key: String { store.keys[index] }
  public var title: String { store.titles[index] }
  /// 0, or the `n` of a slug that an earlier record had (`-2`, `-3`…).
  var slugSuffix: Int32 { store.slugSuffixes[index] }
  public var subtitle: String {
    get { store.shown(index, .subtitle) }
    nonmutating set { store.setShown(index, .subtitle, newValue) }
  }
  /// Relative to the base URL: `artists/1-ac-dc/`, or `albums/1-…/#track-1`;
  /// "" for a record linked to a search for it (`?q=…`), which
  /// `PreparedSite.url(of:)` makes from its title when read.
  public var url: String {
    get { store.shown(index, .url) }
    nonmutating set { store.setShown(index, .url, newValue) }
  }
  /// 0–11: which artwork gradient the page and the results use.
  public var hue: Int { Int(store.hues[index]) }
  public var popularity: Double { store.popularities[index] }
  /// The picture (`image:`): an `https:`/`http:` URL, or `images/<hash>.<ext>`
  /// relative to the base URL for a copied local file; "" for none.
  public var image: String {
    get { store.shown(index, .image) }
    nonmutating set { store.setShown(index, .image, newValue) }
  }
  /// One grapheme cluster (`symbol:`) shown in the tile instead of the initial.
  public var symbol: String {
    get { store.shown(index, .symbol) }
    nonmutating set { store.setShown(index, .symbol, newValue) }
  }
  // Its values per facet are the site's (`PreparedSite.facetValues(of:facet:)`),
  // kept flat for every document at once.

  /// The fields only pages and the index's document shards show (subtitle,
  /// url, image, symbol), read at once: one read of the store's file
  /// rather than four.
  public var shown: DocumentStore.Shown { store.shown(index) }

  /// The record's slug (`DocumentBuilder.slug(key:title:)`, then `-2`,
  /// `-3`… when an earlier record has it), made when read: only pages and
  /// their paths read it, and a String each was 48 bytes a record.
  public var slug: String {
    let base = DocumentBuilder.slug(key: key, title: title)
    return slugSuffix == 0 ? base : "\(base)-\(slugSuffix)"
  }
}

/// Every document of a site, kept by field rather than as a struct each.
///
/// At a million records the documents were about a quarter of the build's
/// peak: a 136-byte struct each, with a heap copy of every title, subtitle
/// and link longer than 15 bytes (`docs/scale.md`). Here the numbers are
/// arrays of their own size, the keys and titles (which the index, the
/// A–Z pages and every link read, often in sorts) are packed UTF-8 in
/// memory, and the fields only pages and document shards show — subtitle,
/// url, image, symbol — are written once, when preparing is done
/// (`seal(spillingTo:)`), to a temporary file read back a record at a time
/// (a site of `spillThreshold` documents or more; a smaller one packs them
/// in memory). The file is unlinked as soon as it is made, like the
/// index's spool, so a build that dies leaves nothing behind.
///
/// Documents are added and their shown fields set by one thread at a time
/// (the preparing phases assign in order after working on all cores); once
/// sealed the store is only read, from any thread.
public final class DocumentStore: RandomAccessCollection, @unchecked Sendable {
  /// The fields a page or a result shows, set while preparing.
  public struct Shown: Sendable, Equatable {
    public var subtitle = ""
    public var url = ""
    public var image = ""
    public var symbol = ""
  }

  enum ShownField: Int, CaseIterable { case subtitle, url, image, symbol }

  /// Sites of this many documents or more keep their shown fields on disk
  /// once prepared; fewer, packed in memory (`BuildOptions.documentsOnDiskFrom`).
  public static let spillThreshold = 50_000

  private(set) var collections: [Int32] = []
  private(set) var rows: [Int32] = []
  private(set) var slugSuffixes: [Int32] = []
  private(set) var hues: [UInt8] = []
  private(set) var popularities: [Double] = []
  private(set) var keys = PackedStrings()
  private(set) var titles = PackedStrings()

  /// How the shown fields are kept: as set, while preparing; then packed
  /// in memory or in the file.
  private enum ShownStorage {
    case open([OpenField])
    case packed([PackedStrings])
    case spilled(ShownFile)
  }
  private var storage = ShownStorage.open(Array(repeating: OpenField(), count: ShownField.allCases.count))

  /// One shown field while preparing sets it: the values set, packed end
  /// to end in the order they were set, and per document the one that is
  /// its own (-1: empty). A String per document and field was 64 bytes a
  /// document before a subtitle's own bytes — about 1.1 GB of the 10M
  /// build's peak at the end of preparing (`docs/scale.md`).
  struct OpenField {
    var values = PackedStrings()
    var slots: [Int32] = []

    subscript(index: Int) -> String {
      let slot = slots[index]
      return slot < 0 ? "" : values[Int(slot)]
    }

    mutating func set(_ index: Int, _ value: String) {
      guard !value.isEmpty else {
        slots[index] = -1
        return
      }
      slots[index] = Int32(values.count)
      values.append(value)
    }
  }
  /// Once spilled, per document a bit per shown field that is not empty:
  /// an empty one (the url of a record linked to a search, most images
  /// and symbols) is known without reading the file.
  private var present: [UInt8] = []

  public init() {}

  public var startIndex: Int { 0 }
  public var endIndex: Int { collections.count }
  public subscript(index: Int) -> Document { Document(store: self, index: index) }

  /// Whether the shown fields went to a file (`seal(spillingTo:)`).
  public var isSpilled: Bool {
    if case .spilled = storage { return true }
    return false
  }

  func reserveCapacity(_ count: Int) {
    collections.reserveCapacity(count)
    rows.reserveCapacity(count)
    slugSuffixes.reserveCapacity(count)
    hues.reserveCapacity(count)
    popularities.reserveCapacity(count)
    guard case .open(var fields) = storage else { return }
    storage = .open([])
    for field in fields.indices { fields[field].slots.reserveCapacity(count) }
    storage = .open(fields)
  }

  func append(
    collection: Int, row: Int, key: String, title: String, slugSuffix: Int32, hue: Int, popularity: Double
  ) {
    collections.append(Int32(collection))
    rows.append(Int32(row))
    keys.append(key)
    titles.append(title)
    slugSuffixes.append(slugSuffix)
    hues.append(UInt8(hue))
    popularities.append(popularity)
    guard case .open(var fields) = storage else { preconditionFailure("a document added to a sealed store") }
    storage = .open([])
    for field in fields.indices { fields[field].slots.append(-1) }
    storage = .open(fields)
  }

  /// Gives back what growing by doubling reserved.
  func finishAdding() {
    keys.trimCapacity()
    titles.trimCapacity()
    if collections.capacity > count { collections = collections.withUnsafeBufferPointer { Array($0) } }
    if rows.capacity > count { rows = rows.withUnsafeBufferPointer { Array($0) } }
    if slugSuffixes.capacity > count { slugSuffixes = slugSuffixes.withUnsafeBufferPointer { Array($0) } }
    if hues.capacity > count { hues = hues.withUnsafeBufferPointer { Array($0) } }
    if popularities.capacity > count { popularities = popularities.withUnsafeBufferPointer { Array($0) } }
    guard case .open(var fields) = storage else { return }
    storage = .open([])
    for field in fields.indices where fields[field].slots.capacity > count {
      fields[field].slots = fields[field].slots.withUnsafeBufferPointer { Array($0) }
    }
    storage = .open(fields)
  }

  /// Whether document `i`'s title comes before document `j`'s as Strings
  /// order them (`<`); nil for titles equal as Strings. Two ASCII titles by
  /// their bytes, without a String made for either (`PackedStrings.stringOrder`).
  func titleOrder(_ i: Int, _ j: Int) -> Bool? { titles.stringOrder(i, j) }

  func shown(_ index: Int, _ field: ShownField) -> String {
    switch storage {
    case .open(let fields): fields[field.rawValue][index]
    case .packed(let fields): fields[field.rawValue][index]
    case .spilled(let file):
      present[index] & 1 << field.rawValue == 0 ? "" : file.record(index)[field.rawValue]
    }
  }

  func shown(_ index: Int) -> Shown {
    let values: [String]
    switch storage {
    case .open(let fields): values = fields.map { $0[index] }
    case .packed(let fields): values = fields.map { $0[index] }
    case .spilled(let file):
      guard present[index] != 0 else { return Shown() }
      values = file.record(index)
    }
    return Shown(subtitle: values[0], url: values[1], image: values[2], symbol: values[3])
  }

  func setShown(_ index: Int, _ field: ShownField, _ value: String) {
    guard case .open(var fields) = storage else {
      preconditionFailure("a document changed in a sealed store")
    }
    // Out of `storage` while it changes, so the array is not copied.
    storage = .open([])
    fields[field.rawValue].set(index, value)
    storage = .open(fields)
  }

  /// Fails if a read of the documents' file failed (a failing disk): the
  /// pages made since may lack a subtitle or a link, so none is published.
  public func checkReads() throws {
    if case .spilled(let file) = storage { try file.checkReads() }
  }

  /// Ends preparing: the shown fields are written, in record order, to a
  /// temporary file in `folder` when there are `threshold` documents or
  /// more (else, or when the file cannot be made, packed in memory).
  func seal(spillingTo folder: String, from threshold: Int = spillThreshold) {
    guard case .open(let fields) = storage else { return }
    if count >= threshold, let file = try? ShownFile(in: folder, fields: fields, count: count) {
      present = indices.map { index in
        fields.indices.reduce(UInt8(0)) { bits, field in
          fields[field].slots[index] < 0 ? bits : bits | UInt8(1) << field
        }
      }
      storage = .spilled(file)
      return
    }
    let count = count
    storage = .packed(
      fields.map { field in
        var packed = PackedStrings((0..<count).lazy.map { field[$0] })
        packed.trimCapacity()
        return packed
      })
  }
}

/// The shown fields of every document in one unlinked temporary file,
/// a record's four together (each a 32-bit length, then its UTF-8), with
/// where each record starts kept in memory.
final class ShownFile: @unchecked Sendable {
  private let descriptor: Int32
  /// Where record `i` starts; it ends where `i + 1` starts.
  private var starts: [Int] = []
  private let lock = NSLock()
  /// Why a read failed, if one did.
  private var failure: String?

  /// The build's error if a read failed.
  func checkReads() throws {
    if let failure = lock.withLock({ failure }) {
      throw DiagnosticsError(.error(at: nil, "cannot read the documents' temporary file back: \(failure)"))
    }
  }

  init(in folder: String, fields: [DocumentStore.OpenField], count: Int) throws {
    let descriptor = makeUnlinkedFile(in: folder, named: ".generate-documents")
    guard descriptor >= 0 else { throw Self.failure("cannot make a temporary file in '\(folder)'") }
    self.descriptor = descriptor
    starts.reserveCapacity(count + 1)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20)
    var written = 0
    for index in 0..<count {
      starts.append(written + buffer.count)
      for field in fields {
        var value = field[index]
        value.withUTF8 { bytes in
          withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { buffer.append(contentsOf: $0) }
          buffer.append(contentsOf: bytes)
        }
      }
      if buffer.count >= 1 << 20 {
        try write(buffer, at: written)
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try write(buffer, at: written)
    starts.append(written + buffer.count)
  }

  deinit { close(descriptor) }

  /// Record `index`'s four fields.
  func record(_ index: Int) -> [String] {
    let start = starts[index]
    let count = starts[index + 1] - start
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
      guard let base = buffer.baseAddress else { return [] }
      var done = 0
      while done < count {
        let read = pread(descriptor, base + done, count - done, off_t(start + done))
        if read < 0 && errno == EINTR { continue }
        // The file was written by this build and is still open: a failed
        // read is a failing disk. The page gets empty fields, and the
        // build fails before publishing (`DocumentStore.checkReads`).
        guard read > 0 else {
          let reason = String(cString: strerror(errno))
          lock.withLock { if failure == nil { failure = reason } }
          return Array(repeating: "", count: DocumentStore.ShownField.allCases.count)
        }
        done += read
      }
      var values: [String] = []
      values.reserveCapacity(DocumentStore.ShownField.allCases.count)
      var at = 0
      while at < count {
        let size = (0..<4).reduce(0) { $0 | Int(buffer[at + $1]) << (8 * $1) }
        values.append(
          String(decoding: UnsafeBufferPointer(rebasing: buffer[at + 4..<at + 4 + size]), as: UTF8.self))
        at += 4 + size
      }
      return values
    }
  }

  private func write(_ bytes: [UInt8], at offset: Int) throws {
    try bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var done = 0
      while done < buffer.count {
        let written = pwrite(descriptor, base + done, buffer.count - done, off_t(offset + done))
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { throw Self.failure("cannot write the documents' temporary file") }
        done += written
      }
    }
  }

  private static func failure(_ what: String) -> DiagnosticsError {
    DiagnosticsError(.error(at: nil, "\(what): \(String(cString: strerror(errno)))"))
  }
}
