import Foundation

/// The index of a plain build, built on a thread of its own while the
/// pages that embed nothing from it are rendered (`SiteBuilder`): the
/// renderer waits for it only before the pages that do (the search page).
final class PendingIndex: @unchecked Sendable {
  private let done = DispatchGroup()
  private var result: Result<SiteIndex, any Error>?
  /// How long the index took, from its start to its end.
  private(set) var milliseconds = 0

  init(_ build: @escaping @Sendable () throws -> SiteIndex) {
    done.enter()
    Parallel.thread { [self] in
      let started = Date()
      result = Result { try build() }
      milliseconds = Int(Date().timeIntervalSince(started) * 1000)
      // The index's working memory (postings, plans) is free now, spread
      // over the arenas of the threads that built it while others rendered
      // pages: handed back, it no longer adds to the peak.
      Self.trimMemory()
      done.leave()
    }
  }

  /// glibc's `malloc_trim(0)`, where there is one (Swift's Glibc module
  /// leaves malloc.h out).
  private static let trimMemory: @Sendable () -> Void = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return {} }
    let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    return { _ = trim(0) }
  }()

  /// Waits for the index, or for the error that stopped it.
  func wait() -> Result<SiteIndex, any Error> {
    done.wait()
    return result ?? .failure(DiagnosticsError([]))
  }
}
