import Foundation

/// Independent work spread over the cores (page rendering, validation,
/// shard encoding). The work items must not share mutable state; results
/// come back in input order so output stays deterministic.
enum Parallel {
  private final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
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
    withoutActuallyEscaping(body) { body in
      let work = Box(body)
      let chunk = (count + workers - 1) / workers
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let start = worker * chunk
        let end = min(start + chunk, count)
        guard start < end else { return }
        for index in start..<end { output.value[index] = work.value(index) }
      }
    }
    return results.compactMap { $0 }
  }
}
