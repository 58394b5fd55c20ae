import Foundation

/// A plain build's pages on their way out (`SiteBuilder`): the renderer
/// names every path of the site before it renders a page (`begin`), which
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
final class PageStream {
  let writer: SiteWriter
  private var update: SiteWriter.Update?
  private var pages: [String] = []
  private var diagnostics: [Diagnostic] = []
  private var ids: [String: Set<String>] = [:]
  private var links: SiteLinkChecker.Pass?
  private let validator = HTMLValidator()
  private let baseURL: String
  /// What `publish` did.
  private(set) var report = SiteWriter.Report()

  init(writer: SiteWriter, baseURL: String) {
    self.writer = writer
    self.baseURL = baseURL
  }

  /// Claims the staging folder for a site of exactly these paths.
  func begin(paths: [String]) throws {
    update = try SiteWriter.Update(writer, paths: paths)
    // A base URL that is not one is reported by `validate`.
    links = (try? BasePath(baseURL)).map {
      SiteLinkChecker.Pass(SiteLinkChecker(files: Set(paths), basePath: $0))
    }
  }

  /// A page's report, made right after it is rendered. Called on several
  /// threads at once.
  func check(_ path: String, _ bytes: [UInt8]) -> PageReport {
    validator.check(bytes, path: path)
  }

  /// Keeps what the site-wide checks need of a batch of pages' reports,
  /// and writes the pages.
  func take(_ batch: [(path: String, bytes: [UInt8])], reports: [PageReport]) throws {
    guard let update else { preconditionFailure("PageStream.take before begin") }
    for (page, report) in zip(batch, reports) {
      pages.append(page.path)
      diagnostics += report.diagnostics
      ids[page.path] = report.ids
      links?.check(page: page.path, links: report.links, ids: report.ids, bytes: page.bytes)
    }
    try update.write(batch)
  }

  /// The pages' problems, the sitemap and the links, as
  /// `SiteValidator.validate` finds them; `otherFiles` are the site's files
  /// that are not pages (not yet written). A page with a broken link is
  /// read back from the staging folder to place it.
  func validate(otherFiles: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
    var others: [String: [UInt8]] = [:]
    for file in otherFiles { others[file.path] = file.bytes }
    let files = Set(pages).union(others.keys)
    func source(_ path: String) -> [UInt8]? { others[path] ?? update?.read(path) }
    return try SiteValidator().finish(
      diagnostics: diagnostics, files: files, baseURL: baseURL, source: source
    ) { _ in links?.finish(ids: { self.ids[$0] }, source: source) ?? [] }
  }

  /// Writes the other files and swaps the staging folder in.
  func publish(otherFiles: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
    guard let update else { preconditionFailure("PageStream.publish before begin") }
    let warnings = try update.finish(otherFiles)
    report = update.report
    return warnings
  }

  /// After a failure (the build stopped before publishing): the output
  /// stays as it was. Nothing once published.
  func abandon() {
    update?.abandon()
  }
}
