import Foundation

/// Where the renderer hands the pages it renders, a batch at a time: one
/// that checks and stages them on their way to the output
/// (`Pipeline/StagingPageSink`), or one that keeps them in memory
/// (`PagesInMemory`). The renderer knows nothing of what becomes of them.
protocol PageSink: AnyObject {
  /// Called once, before any page is rendered: every path the site will
  /// have (but the index's while it is being built, see `add`), and the
  /// files every page shares (assets, pictures).
  func begin(_ site: PageSinkSite) throws
  /// The index's paths, added once it is built, before the pages that
  /// link to it are taken.
  func add(paths: [String]) throws
  /// Whether the page at this path goes in a first batch of its own.
  func takesFirst(_ path: String) -> Bool
  /// The bytes the sink holds already for this page, rendered with this
  /// template from the same shared files: the page is not rendered again.
  func bytes(of path: String, template: String) -> [UInt8]?
  /// A page's report, made right after it is rendered on the core that
  /// rendered it (several threads at once); nil when the sink checks later.
  func check(_ path: String, _ bytes: [UInt8]) -> PageReport?
  /// A batch of rendered pages.
  func take(_ batch: [RenderedPage]) throws
}

extension PageSink {
  func takesFirst(_ path: String) -> Bool { false }
  func bytes(of path: String, template: String) -> [UInt8]? { nil }
}

/// What a sink is told before the first page.
struct PageSinkSite {
  /// Every path of the site the render knows of.
  var paths: [String]
  /// Every page's path, in the render's order.
  var pages: [String]
  /// The files every page shares: the assets, local pictures, the preview's script.
  var shared: [(path: String, bytes: [UInt8])]
  /// The assets' folder and the modules pages preload: what every page
  /// names of the shared files.
  var assetsFolder: String
  var modulePreloads: [String]
  /// The policy's sources for the stylesheets pages hold inline
  /// (`InlineStyles.hashes`): what the pages are checked against.
  var styleHashes: [String] = []
}

/// One rendered page on its way to a sink.
struct RenderedPage {
  var path: String
  var bytes: [UInt8]
  /// The sink's report (`PageSink.check`).
  var report: PageReport?
  /// The page's place in the render's order, whatever batch it came in.
  var position: Int
}
