import Foundation

/// A plain build's pages on their way out (`SiteBuilder`), the sink that
/// stages and writes: the renderer names every path of the site before it
/// renders a page (`begin`), which
/// claims the staging folder (`SiteWriter.Update`: the previous site,
/// brought up to date); each page is checked by libxml2 right after it is
/// rendered, on the same core (`check`); each batch is written as it comes
/// (`take`) — only files whose bytes changed — so the site's pages are
/// never all in memory. Each page's links are checked as it comes, against
/// every path of the site (`SiteLinkChecker.Pass`); what stays of a page is
/// its problems, its ids, and its links to ids on other pages. Those and
/// the sitemap are checked once every page is in (`validate`); the other
/// files (index, assets) are written and the folder swapped in by
/// `publish`. Until then
/// the output is untouched; a build that fails keeps what was staged as
/// the next previous site (`abandon`).
final class StagingPageSink: PageSink {
  let writer: SiteWriter
  private var update: SiteWriter.Update?
  private var pages: [String] = []
  /// Each page's problems, with the page's place in the render's order.
  private var diagnostics: [(position: Int, diagnostic: Diagnostic)] = []
  private var ids: [String: Set<String>] = [:]
  private var links: SiteLinkChecker.Pass?
  private var validator: HTMLValidator
  private let baseURL: String
  /// What `publish` did.
  private(set) var report = SiteWriter.Report()

  init(writer: SiteWriter, baseURL: String, imageOrigins: [String] = []) {
    self.validator = HTMLValidator(imageOrigins: imageOrigins)
    self.writer = writer
    self.baseURL = baseURL
  }

  /// Claims the staging folder for a site of exactly these paths.
  func begin(_ site: PageSinkSite) throws {
    let paths = site.paths
    validator.styleHashes = Set(site.styleHashes)
    update = try SiteWriter.Update(writer, paths: paths)
    // A base URL that is not one is reported by `validate`.
    links = (try? BasePath(baseURL)).map {
      SiteLinkChecker.Pass(SiteLinkChecker(files: Set(paths), basePath: $0))
    }
  }

  /// Adds paths to the site begun: the index's, built while the first
  /// pages were written. Before the pages that link to them are taken.
  func add(paths: [String]) throws {
    guard let update else { preconditionFailure("StagingPageSink.add before begin") }
    try update.plan(paths)
    links?.add(files: paths)
  }

  /// A page's report, made right after it is rendered. Called on several
  /// threads at once.
  func check(_ path: String, _ bytes: [UInt8]) -> PageReport? {
    validator.check(bytes, path: path)
  }

  /// Keeps what the site-wide checks need of a batch of pages' reports,
  /// and writes the pages. The pages' places in the render's order order
  /// their problems (a page rendered once the index is built is reported
  /// where it would have been).
  func take(_ batch: [RenderedPage]) throws {
    guard let update else { preconditionFailure("StagingPageSink.take before begin") }
    for page in batch {
      let report = page.report ?? validator.check(page.bytes, path: page.path)
      pages.append(page.path)
      diagnostics += report.diagnostics.map { (page.position, $0) }
      ids[page.path] = report.ids
      links?.check(page: page.path, links: report.links, ids: report.ids, bytes: page.bytes)
    }
    try update.write(batch.map { ($0.path, $0.bytes) })
  }

  /// The pages' problems, the sitemap and the links, as
  /// `SiteValidator.validate` finds them; `otherFiles` are the site's files
  /// that are not pages (not yet written). A page with a broken link is
  /// read back from the staging folder to place it.
  func validate(index: SiteIndex, otherFiles: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
    var others: [String: [UInt8]] = [:]
    for file in otherFiles + index.files { others[file.path] = file.bytes }
    let spooled = Set(index.spooled.map(\.path))
    let files = Set(pages).union(others.keys).union(spooled)
    func source(_ path: String) -> [UInt8]? {
      others[path] ?? (spooled.contains(path) ? try? index.bytes(at: path) : update?.read(path))
    }
    // Stable: a page's own problems stay in the order found.
    let ordered = diagnostics.enumerated().sorted {
      ($0.element.position, $0.offset) < ($1.element.position, $1.offset)
    }.map(\.element.diagnostic)
    return try SiteValidator().finish(
      diagnostics: ordered, files: files, baseURL: baseURL, source: source
    ) { _ in links?.finish(ids: { self.ids[$0] }, source: source) ?? [] }
  }

  /// Writes the index (its spooled files read back a batch at a time,
  /// its manifest last) and the other files, and swaps the staging folder in.
  func publish(index: SiteIndex, otherFiles: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
    guard let update else { preconditionFailure("StagingPageSink.publish before begin") }
    try index.forEachSpooledBatch { try update.write($0) }
    let warnings = try update.finish(index.files + otherFiles)
    report = update.report
    return warnings
  }

  /// After a failure (the build stopped before publishing): the output
  /// stays as it was. Nothing once published.
  func abandon() {
    update?.abandon()
  }
}
