import Foundation
import NIOConcurrencyHelpers

/// Independent work spread over the cores (page rendering, validation,
/// shard encoding). The work items must not share mutable state; results
/// come back in input order so output stays deterministic.
enum Parallel {
  /// Work on a thread of its own, beside the caller's; `wait` gives its
  /// result (each caller that started one waits for it before returning).
  final class Background<T>: @unchecked Sendable {
    private let done = DispatchGroup()
    private var result: Result<T, any Error>?

    init(_ body: @escaping () throws -> T) {
      let work = Box(body)
      done.enter()
      Parallel.thread { [self] in
        result = Result { try work.value() }
        done.leave()
      }
    }

    func wait() -> Result<T, any Error> {
      done.wait()
      return result ?? .failure(CancellationError())
    }
  }

  /// Starts `body` on a new thread. Not on a dispatch queue: there a block
  /// waits for a free worker, and the pages' render (and esbuild, waited
  /// for) can hold every one of them.
  static func thread(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = 8 << 20
    thread.start()
  }

  static func map<T>(count: Int, _ body: (Int) -> T) -> [T] {
    if count == 0 { return [] }
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, count))
    if workers == 1 { return (0..<count).map(body) }
    let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
    results.initialize(repeating: nil)
    defer {
      _ = results.deinitialize()
      results.deallocate()
    }
    let output = Box(results)
    // Small batches taken in turn, not one fixed share per worker: items
    // differ in cost (a playlist page against an A–Z page) and other
    // processes take cores for a while, so fixed shares left one worker
    // finishing alone.
    let batch = max(1, min(64, count / (workers * 16)))
    let next = NIOLockedValueBox(0)
    withoutActuallyEscaping(body) { body in
      let work = Box(body)
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
          let start = next.withLockedValue { next in
            defer { next += batch }
            return next
          }
          guard start < count else { return }
          for index in start..<min(start + batch, count) { output.value[index] = work.value(index) }
        }
      }
    }
    return results.compactMap { $0 }
  }
}
