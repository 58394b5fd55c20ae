import Foundation

/// A sink that keeps every page in memory, in the render's order: for a
/// build that compares, serves or validates the whole site at once.
class PagesInMemory: PageSink {
  private var taken: [RenderedPage] = []

  /// The pages taken, in the render's order.
  var pages: [(path: String, bytes: [UInt8])] {
    taken.sorted { $0.position < $1.position }.map { ($0.path, $0.bytes) }
  }

  func begin(_ site: PageSinkSite) throws {}
  func add(paths: [String]) throws {}
  func takesFirst(_ path: String) -> Bool { false }
  func bytes(of path: String, template: String) -> [UInt8]? { nil }
  func check(_ path: String, _ bytes: [UInt8]) -> PageReport? { nil }

  func take(_ batch: [RenderedPage]) throws {
    taken += batch
  }
}
