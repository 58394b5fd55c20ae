import Foundation
import Testing

@testable import GenerateKit

/// Page rendering alone, timed: every page of a site rendered on one
/// thread by `CompiledRenderer` and by swift-mustache (which rendered
/// the pages the compiled path did not cover before it covered them all),
/// with the bytes compared. Off unless `GENERATE_RENDER_BENCH` names a
/// site config:
///
///     GENERATE_RENDER_BENCH=Data/site.yml swift test --filter RenderBenchmarkTests
@Suite struct RenderBenchmarkTests {
  static let config = ProcessInfo.processInfo.environment["GENERATE_RENDER_BENCH"]

  /// CPU seconds this thread spends in `body`.
  static func cpuTime(_ body: () throws -> Void) rethrows -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    try body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
  }

  @Test(.enabled(if: config != nil)) func renderPages() throws {
    let path = try #require(Self.config)
    let config = try ConfigLoader().load(path: path)
    let site = try preparedSite(config: path)
    let set = try TemplateSet.load(
      directories: config.templates.map(config.resolve), builtIn: config.builtInTheme)
    let library = try MustacheOracle.library(set)
    // Fresh contexts for each renderer: a record caches what it evaluated.
    let ours = CompiledRendererTests.pageContexts(site, set)
    let theirs = CompiledRendererTests.pageContexts(site, set)
    var ourPages: [[UInt8]] = []
    var theirPages: [[UInt8]] = []
    ourPages.reserveCapacity(ours.count)
    theirPages.reserveCapacity(theirs.count)
    let ourTime = Self.cpuTime {
      for (template, context) in ours { ourPages.append(set.render(context, withTemplate: template) ?? []) }
    }
    let theirTime = Self.cpuTime {
      for (template, context) in theirs {
        theirPages.append(library.render(context, withTemplate: template).map { Array($0.utf8) } ?? [])
      }
    }
    // The first page that differs, by its template and first differing byte.
    if let index = ourPages.indices.first(where: { ourPages[$0] != theirPages[$0] }) {
      let (a, b) = (ourPages[index], theirPages[index])
      let at = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
      let show = { (bytes: [UInt8]) in
        String(decoding: bytes[max(0, at - 80)..<min(bytes.count, at + 80)], as: UTF8.self)
      }
      Issue.record("page \(index) (\(ours[index].0)) differs at byte \(at):\n\(show(a))\n---\n\(show(b))")
    }
    let bytes = ourPages.reduce(0) { $0 + $1.count }
    let perPage = { (seconds: Double) in String(format: "%.1f µs", seconds / Double(ours.count) * 1e6) }
    print(
      "render bench \(path): \(ours.count) pages, \(bytes / 1024) KiB; CompiledRenderer \(String(format: "%.3f", ourTime)) s CPU (\(perPage(ourTime))/page), swift-mustache \(String(format: "%.3f", theirTime)) s CPU (\(perPage(theirTime))/page)"
    )
  }
}
