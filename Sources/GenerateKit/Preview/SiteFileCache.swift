import Foundation
import NIOCore

/// File bodies kept in memory between requests, keyed by real path and
/// checked against `stat` on every use, so an edited or rebuilt file is
/// never served stale. The entity tag is a hash of the content: a rebuild
/// that writes identical bytes keeps its tags and browsers get 304s.
final class SiteFileCache: @unchecked Sendable {
  struct Entry: Sendable {
    var status: FileStatus
    var body: ByteBuffer
    /// Strong tag from the content; the gzip representation adds `-gz`.
    var etag: String
    var gzipped: ByteBuffer?
  }

  private let lock = NSLock()
  private var entries: [String: Entry] = [:]
  private var storedBytes = 0
  /// Enough for any preview site; beyond it the cache simply starts over.
  private let capacity: Int

  init(capacity: Int = 64 << 20) {
    self.capacity = capacity
  }

  /// The file's bytes, read from disk unless the cached copy is current.
  func entry(path: String, status: FileStatus) -> Entry? {
    if let cached = lock.withLock({ entries[path] }), cached.status == status { return cached }
    guard let data = readPlainFile(atPath: path, followingLinks: true) else { return nil }
    let bytes = [UInt8](data)
    // The file may have changed between `stat` and the read; tag what was read.
    var entry = Entry(
      status: status, body: ByteBuffer(bytes: bytes), etag: Self.tag(for: bytes), gzipped: nil)
    entry.status.size = bytes.count
    store(entry, at: path)
    return entry
  }

  /// The gzip body for an entry, compressed once per file version; nil
  /// when zlib fails, and the identity body goes out instead.
  func gzipped(path: String, entry: Entry) -> ByteBuffer? {
    if let gzipped = entry.gzipped { return gzipped }
    guard let bytes = Gzip.compress(Array(entry.body.readableBytesView)) else { return nil }
    let compressed = ByteBuffer(bytes: bytes)
    var updated = entry
    updated.gzipped = compressed
    store(updated, at: path)
    return compressed
  }

  private func store(_ entry: Entry, at path: String) {
    let size = entry.body.readableBytes + (entry.gzipped?.readableBytes ?? 0)
    lock.withLock {
      if let old = entries[path] {
        storedBytes -= old.body.readableBytes + (old.gzipped?.readableBytes ?? 0)
      }
      if storedBytes + size > capacity {
        entries.removeAll()
        storedBytes = 0
      }
      guard size <= capacity else { return }
      entries[path] = entry
      storedBytes += size
    }
  }

  /// An entity tag only has to change when the bytes do.
  static func tag(for bytes: [UInt8]) -> String {
    "\"" + ContentHash.hex(bytes, digits: 16) + "\""
  }
}
