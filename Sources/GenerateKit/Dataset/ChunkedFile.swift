import Foundation

/// Reads a data file a chunk at a time, so a large CSV or JSON Lines file
/// is never held whole in memory next to the table made from it. The
/// parsers keep the unfinished tail of one chunk and ask for more; a record
/// longer than a chunk makes the next read larger, so even a single huge
/// line costs linear time.
final class ChunkedFile {
  static let chunkSize = 1 << 20

  private let handle: FileHandle?
  private var pending: [UInt8]?
  private(set) var atEnd = false

  /// Opens `path`; nil when it does not exist or cannot be read.
  init?(path: String) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
      let handle = FileHandle(forReadingAtPath: path)
    else { return nil }
    self.handle = handle
  }

  /// Serves bytes already in memory (tests, and short inputs).
  init(bytes: [UInt8]) {
    handle = nil
    pending = bytes
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
      buffer.append(contentsOf: data)
      appended += data.count
    }
    return appended > 0
  }
}
