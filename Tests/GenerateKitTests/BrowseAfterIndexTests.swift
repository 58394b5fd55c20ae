import Foundation
import Testing

@testable import GenerateKit

/// A large build renders the A–Z pages once the index is built, with each
/// list sorted when its first page is rendered
/// (`BuildOptions.browsePagesAfterIndexFrom`); the site is the same as when
/// they are rendered beside the index.
@Suite struct BrowseAfterIndexTests {
  /// The music site (Chinook, 3,503 songs): lists of many pages.
  @Test func aSiteIsTheSameWithItsBrowsePagesAfterTheIndex() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = BuildOptions()
    options.configPath = packageRoot.appendingPathComponent("Data/site.yml").path
    options.usesBuildRecord = false
    options.browsePagesAfterIndexFrom = Int.max
    options.outputPath = folder.appendingPathComponent("beside").path
    let beside = try SiteBuilder(options: options, log: { _ in }).build()
    let besideSite = try snapshotFolder(options.outputPath)
    options.browsePagesAfterIndexFrom = 0
    options.outputPath = folder.appendingPathComponent("after").path
    let after = try SiteBuilder(options: options, log: { _ in }).build()
    let afterSite = try snapshotFolder(options.outputPath)
    let browsePages = besideSite.keys.filter { $0.hasPrefix(BrowsePages.folder) && $0.hasSuffix(".html") }
    // The hub, each collection's and facet value's lists, lists of many pages.
    #expect(browsePages.count > 3 && browsePages.contains { $0.contains("/page-2/") })
    #expect(after.pages == beside.pages && after.records == beside.records)
    let differing = Set(besideSite.keys).union(afterSite.keys).filter { besideSite[$0] != afterSite[$0] }
    #expect(differing.isEmpty, "differ with the A–Z pages after the index: \(differing.sorted().prefix(10))")
  }
}
