import Foundation

/// Reads a data file a chunk at a time, so a large CSV or JSON Lines file
/// is never held whole in memory next to the table made from it. The
/// parsers keep the unfinished tail of one chunk and ask for more; a record
/// longer than a chunk makes the next read larger, so even a single huge
/// line costs linear time. It never reads more than `limit` bytes: a file
/// that grows while it is read stops at the limit `DataFile.check` applied.
final class ChunkedFile {
  static let chunkSize = 1 << 20

  private let handle: FileHandle?
  private var pending: [UInt8]?
  private let limit: Int
  private let shownPath: String
  private var total = 0
  /// The size `DataFile.check` found, to read a whole file in one allocation.
  private let expectedSize: Int
  private(set) var atEnd = false

  /// Checks and opens the data file `path` (see `DataFile`).
  init(path: String, _ named: DataFile.Named, limit: Int) throws {
    expectedSize = try DataFile.check(path, named, limit: limit)
    self.handle = try DataFile.open(path, named)
    self.limit = limit
    self.shownPath = named.shownPath
  }

  /// Serves bytes already in memory (tests, and short inputs).
  init(bytes: [UInt8]) {
    handle = nil
    pending = bytes
    limit = Int.max
    shownPath = ""
    expectedSize = bytes.count
  }

  deinit { try? handle?.close() }

  /// Appends the next chunk (at least `minimum` bytes unless the file ends
  /// first) to `buffer`; false once the file has no more.
  func read(into buffer: inout [UInt8], minimum: Int = ChunkedFile.chunkSize) throws -> Bool {
    if atEnd { return false }
    guard let handle else {
      atEnd = true
      guard let bytes = pending, !bytes.isEmpty else { return false }
      pending = nil
      if buffer.isEmpty { buffer = bytes } else { buffer += bytes }
      return true
    }
    var appended = 0
    while appended < minimum {
      guard let data = try handle.read(upToCount: max(minimum - appended, Self.chunkSize)), !data.isEmpty
      else {
        atEnd = true
        break
      }
      total += data.count
      if total > limit {
        throw DiagnosticsError(
          .error(
            at: SourceLocation(file: shownPath),
            "the data file grew past the limit of \(limit) bytes while it was read (limits.fileBytes in the config)"
          ))
      }
      buffer.append(contentsOf: data)
      appended += data.count
    }
    return appended > 0
  }

  /// The rest of the file.
  func readAll() throws -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(expectedSize + 1)
    while try read(into: &bytes) {}
    return bytes
  }
}
