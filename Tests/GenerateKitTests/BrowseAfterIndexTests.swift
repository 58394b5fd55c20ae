import Foundation
import Testing

@testable import GenerateKit

/// A large build renders the A–Z pages once the index is built, with each
/// list sorted when its first page is rendered
/// (`BuildOptions.browsePagesAfterIndexFrom`); the site is the same as when
/// they are rendered beside the index.
@Suite struct BrowseAfterIndexTests {
  @Test func aSiteIsTheSameWithItsBrowsePagesAfterTheIndex() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    var options = project.options()
    options.usesBuildRecord = false
    options.browsePagesAfterIndexFrom = Int.max
    let beside = try SiteBuilder(options: options, log: { _ in }).build()
    let besideSite = try project.snapshot()
    options.browsePagesAfterIndexFrom = 0
    let after = try SiteBuilder(options: options, log: { _ in }).build()
    let afterSite = try project.snapshot()
    let browsePages = besideSite.keys.filter { $0.hasPrefix(BrowsePages.folder) && $0.hasSuffix(".html") }
    // The hub, each collection's list and more than one page of a list.
    #expect(browsePages.count > 3 && browsePages.contains { $0.contains("/page-2/") })
    #expect(after.pages == beside.pages && after.records == beside.records)
    let differing = Set(besideSite.keys).union(afterSite.keys).filter { besideSite[$0] != afterSite[$0] }
    #expect(differing.isEmpty, "differ with the A–Z pages after the index: \(differing.sorted().prefix(10))")
  }
}
