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
    DispatchQueue.global().async { [self] in
      let started = Date()
      result = Result { try build() }
      milliseconds = Int(Date().timeIntervalSince(started) * 1000)
      done.leave()
    }
  }

  /// Waits for the index, or for the error that stopped it.
  func wait() -> Result<SiteIndex, any Error> {
    done.wait()
    return result ?? .failure(DiagnosticsError([]))
  }
}
