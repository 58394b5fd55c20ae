import Foundation

/// Tells requests whether a build is running, and lets one wait for it.
///
/// The builder publishes with renames, so for an instant during a build the
/// site folder is missing or half-swapped. A request that finds nothing
/// while a build runs waits for it to finish and looks again, instead of
/// answering 503 or 404 for a file the last good site (or the next one) has.
final class BuildGate: @unchecked Sendable {
  private let lock = NSLock()
  private var running = false
  private var started = 0
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Taken before a request looks at the folder; `mayHaveMoved(since:)`
  /// then says whether a build ran at any moment in between.
  struct Mark: Sendable {
    fileprivate var started: Int
    fileprivate var running: Bool
  }

  func mark() -> Mark { lock.withLock { Mark(started: started, running: running) } }

  func mayHaveMoved(since mark: Mark) -> Bool {
    lock.withLock { mark.running || running || started != mark.started }
  }

  func buildStarted() {
    lock.withLock {
      running = true
      started += 1
    }
  }

  func buildFinished() {
    let waiting = lock.withLock {
      running = false
      defer { waiters.removeAll() }
      return waiters
    }
    for waiter in waiting { waiter.resume() }
  }

  /// Returns at once when no build runs, else when it finishes (a stopped
  /// server finishes its last build too, so this cannot hang forever).
  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = lock.withLock {
        guard running else { return true }
        waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }
}
