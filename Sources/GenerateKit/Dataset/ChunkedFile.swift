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
  /// Bytes read are Windows-1252 and handed on as UTF-8.
  private var windows1252 = false

  /// Checks and opens the data file `path` (see `DataFile`); a
  /// Windows-1252 file is handed on as UTF-8.
  init(path: String, _ named: DataFile.Named, limit: Int, encoding: SiteConfig.TextEncoding = .utf8) throws {
    windows1252 = encoding == .windows1252
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
      if windows1252 {
        Windows1252.appendUTF8(of: data, to: &buffer)
      } else {
        buffer.append(contentsOf: data)
      }
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

/// Windows-1252, the encoding of spreadsheets' "CSV" on Windows in Western
/// Europe and the Americas, and a superset of Latin-1's letters: each byte
/// is one character, so a chunk converts on its own.
enum Windows1252 {
  /// The characters of bytes 0x80–0x9F (the five the encoding leaves
  /// undefined read as the C1 controls Latin-1 has there).
  static let high: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152, 0x8D,
    0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122, 0x161, 0x203A,
    0x153, 0x9D, 0x17E, 0x178,
  ]

  /// Appends `bytes` as UTF-8.
  static func appendUTF8(of bytes: some Sequence<UInt8>, to buffer: inout [UInt8]) {
    for byte in bytes {
      if byte < 0x80 {
        buffer.append(byte)
        continue
      }
      let scalar = byte < 0xA0 ? high[Int(byte - 0x80)] : UInt32(byte)
      if scalar < 0x800 {
        buffer.append(UInt8(0xC0 | (scalar >> 6)))
        buffer.append(UInt8(0x80 | (scalar & 0x3F)))
      } else {
        buffer.append(UInt8(0xE0 | (scalar >> 12)))
        buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        buffer.append(UInt8(0x80 | (scalar & 0x3F)))
      }
    }
  }

  /// Whether bytes that are not UTF-8 read as Windows-1252: none of the
  /// five bytes it leaves undefined, and no NUL (UTF-16 has them).
  static func fits(_ bytes: some Sequence<UInt8>) -> Bool {
    !bytes.contains { [0x00, 0x81, 0x8D, 0x8F, 0x90, 0x9D].contains($0) }
  }
}
