import Foundation

/// The index of a plain build, built on a thread of its own while the
/// pages that embed nothing from it are rendered (`SiteBuilder`): the
/// renderer waits for it only before the pages that do (the search page).
final class PendingIndex: Sendable {
  private let work: Parallel.Background<(index: SiteIndex, milliseconds: Int)>

  init(_ build: @escaping @Sendable () throws -> SiteIndex) {
    work = Parallel.Background {
      // The index's working memory (postings, plans) is free once it is
      // built, spread over the arenas of the threads that built it while
      // others rendered pages: handed back, it no longer adds to the peak.
      defer { Self.trimMemory() }
      let started = Date()
      let index = try build()
      return (index, Int(Date().timeIntervalSince(started) * 1000))
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
    work.wait().map(\.index)
  }

  /// How long the index took, from its start to its end (after `wait`).
  var milliseconds: Int {
    (try? work.wait().get())?.milliseconds ?? 0
  }
}
