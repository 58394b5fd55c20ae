import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a plain build's index files wait for publishing: one temporary
/// file, appended to as each stage makes them, with a place (offset and
/// length) kept per file instead of its bytes. At a million records the
/// index is 250 MiB of files, built beside the first pages and published
/// after the last: held in memory, they were part of the build's peak, and
/// a tenth of it (`docs/scale.md`). The file is unlinked as soon as it is
/// made, so a build that dies leaves nothing behind; the kernel keeps it
/// while the descriptor is open. Written from several threads at once:
/// each write takes its place under a lock, then writes there.
public final class IndexSpool: @unchecked Sendable {
  /// A file's place in the spool.
  public struct Place: Sendable {
    public var offset: Int
    public var count: Int
  }

  private let descriptor: Int32
  private let lock = NSLock()
  private var end = 0

  /// Makes the temporary file in `folder` (the system's, `TMPDIR`, unless
  /// given: a plain build gives the output's parent, on the disk the site
  /// is written to, where `/tmp` may be memory), unlinked at once.
  public init(in folder: String = NSTemporaryDirectory()) throws {
    let descriptor = makeUnlinkedFile(in: folder, named: ".generate-index")
    guard descriptor >= 0 else { throw Self.failure("cannot make a temporary file in '\(folder)'") }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Bytes written so far.
  public var byteCount: Int { lock.withLock { end } }

  /// Appends `bytes` and returns their place.
  public func write(_ bytes: [UInt8]) throws -> Place {
    let offset = lock.withLock {
      let offset = end
      end += bytes.count
      return offset
    }
    try bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var done = 0
      while done < buffer.count {
        let written = pwrite(
          descriptor, base + done, buffer.count - done, off_t(offset + done))
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { throw Self.failure("cannot write the index's temporary file") }
        done += written
      }
    }
    return Place(offset: offset, count: bytes.count)
  }

  /// The bytes at `place`.
  public func read(_ place: Place) throws -> [UInt8] {
    guard place.count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: place.count)
    try bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var done = 0
      while done < buffer.count {
        let read = pread(
          descriptor, base + done, buffer.count - done, off_t(place.offset + done))
        if read < 0 && errno == EINTR { continue }
        guard read > 0 else { throw Self.failure("cannot read the index's temporary file back") }
        done += read
      }
    }
    return bytes
  }

  private static func failure(_ what: String) -> DiagnosticsError {
    DiagnosticsError(.error(at: nil, "\(what): \(String(cString: strerror(errno)))"))
  }
}
