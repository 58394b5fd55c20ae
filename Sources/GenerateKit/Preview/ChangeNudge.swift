import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Says "look now" when something may have changed in the watched
/// folders, so that a save is noticed at once rather than at the next poll.
///
/// It decides nothing: `FileWatcher`'s snapshots stay the truth, and the
/// poll goes on as before (a file system without notifications, a Docker
/// volume, a queue that overflowed — the next poll still sees the change).
/// On Linux it is inotify on each watched folder and on the folder of each
/// watched file; elsewhere there is no nudge and the poll alone notices.
final class ChangeNudge: @unchecked Sendable {
  private let lock = NSLock()
  private var nudged = false
  #if canImport(Glibc)
    private let descriptor: Int32
    private var watched = Set<String>()
  #endif

  /// Nil where the system offers no notifications (or refuses more).
  init?() {
    #if canImport(Glibc)
      descriptor = inotify_init1(Int32(IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      let thread = Thread { [self] in self.read() }
      thread.name = "generate preview change nudge"
      thread.start()
    #else
      return nil
    #endif
  }

  /// Watches these folders too (each once; a folder that is gone or cannot
  /// be watched is left to the poll).
  func watch(_ folders: some Sequence<String>) {
    #if canImport(Glibc)
      let mask = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
          | IN_DELETE_SELF | IN_MOVE_SELF)
      let new = lock.withLock { folders.filter { !watched.contains($0) } }
      for folder in new where inotify_add_watch(descriptor, folder, mask) >= 0 {
        lock.withLock { _ = watched.insert(folder) }
      }
    #endif
  }

  /// Whether something happened since the last call.
  func take() -> Bool {
    lock.withLock {
      defer { nudged = false }
      return nudged
    }
  }

  #if canImport(Glibc)
    /// Runs for the life of the process: the preview's server does.
    private func read() {
      var buffer = [UInt8](repeating: 0, count: 16 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        // What changed is the snapshot's to say; any event is a nudge.
        // A folder deleted and made again is watched anew by `watch`.
        lock.withLock {
          nudged = true
          if count >= MemoryLayout<inotify_event>.size {
            buffer.withUnsafeBytes { raw in
              var offset = 0
              while offset + MemoryLayout<inotify_event>.size <= count {
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                if event.mask & UInt32(IN_IGNORED) != 0 { watched.removeAll() }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
              }
            }
          }
        }
      }
    }
  #endif
}
