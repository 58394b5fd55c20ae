import Foundation

/// A preview build's pages, kept in memory: the pages open in a browser
/// are rendered first, in a batch of their own, and handed over
/// (`handOver`) before the rest; a page whose template cannot have changed
/// since the last build is taken from it (`TemplateReuse`); after each
/// batch a newer edit stops the build (`PreviewBuild.Superseded`).
final class OpenPagesSink: PagesInMemory {
  /// What a render after a template edit takes from the last one.
  struct TemplateReuse {
    var assetsFolder: String
    var modulePreloads: [String]
    /// The bytes of each page, by site-relative path.
    var pages: [String: [UInt8]]
    /// Whether a page rendered with this template may come out different.
    var mayChange: (_ template: String) -> Bool
  }

  /// Given the open pages, the files every page shares, every page's path
  /// and the policy's sources for the inline stylesheets (`InlineStyles`).
  typealias HandOver = (
    _ pages: [(path: String, bytes: [UInt8])], _ shared: [(path: String, bytes: [UInt8])], _ all: [String],
    _ styleHashes: [String]
  ) -> Void

  /// Thrown after the open pages by a sink that renders only those.
  struct Shown: Error {}

  private let open: Set<String>
  private let site: PreparedSite
  private let reuse: TemplateReuse?
  private let handOver: HandOver
  private let isSuperseded: () -> Bool
  private let onlyOpenPages: Bool
  private var begun: PageSinkSite?
  private var reuses = false
  private var tookFirst = false
  /// How many pages came from the last build rather than the render.
  let reused = Counter()

  init(
    open: Set<String>, site: PreparedSite, reuse: TemplateReuse? = nil, onlyOpenPages: Bool = false,
    isSuperseded: @escaping () -> Bool = { false }, handOver: @escaping HandOver
  ) {
    self.open = open
    self.site = site
    self.reuse = reuse
    self.onlyOpenPages = onlyOpenPages
    self.isSuperseded = isSuperseded
    self.handOver = handOver
  }

  override func begin(_ site: PageSinkSite) throws {
    begun = site
    // A page is taken from the last render when nothing it shares with
    // other pages changed and no template it can reach did.
    reuses =
      reuse.map { $0.assetsFolder == site.assetsFolder && $0.modulePreloads == site.modulePreloads } ?? false
    if onlyOpenPages && !site.pages.contains(where: open.contains) { throw Shown() }
  }

  override func takesFirst(_ path: String) -> Bool { open.contains(path) }

  override func bytes(of path: String, template: String) -> [UInt8]? {
    guard reuses, let reuse, !reuse.mayChange(template), let bytes = reuse.pages[path] else { return nil }
    reused.add()
    return bytes
  }

  override func take(_ batch: [RenderedPage]) throws {
    try super.take(batch)
    if !tookFirst {
      tookFirst = true
      // A page that rendered nothing, or a field out of range, fails the
      // whole render; nothing is shown before then.
      if let begun, !batch.isEmpty, batch.allSatisfy({ open.contains($0.path) }),
        site.evaluator.problems.diagnostics.isEmpty
      {
        handOver(batch.map { ($0.path, $0.bytes) }, begun.shared, begun.pages, begun.styleHashes)
      }
      if onlyOpenPages { throw Shown() }
    }
    if isSuperseded() { throw PreviewBuild.Superseded() }
  }
}
