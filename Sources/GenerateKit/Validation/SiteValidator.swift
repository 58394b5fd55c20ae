import Foundation
import NIOConcurrencyHelpers

/// The validation step: every page goes through libxml2 (well-formed
/// polyglot HTML5, ids, ARIA references, alt text, no inline script or
/// style), the sitemap through the XML parser, then links are checked
/// across the whole site. Pages are checked on all cores.
struct SiteValidator {
  /// Enough to see a pattern; a broken layout would otherwise repeat the
  /// same fault on every page.
  static let maximumDiagnostics = 50
  /// Origins the site's `img-src` allows besides its own.
  var imageOrigins: [String] = []
  /// The inline stylesheets' sources the site's `style-src` allows.
  var styleHashes: [String] = []

  /// Checks every page, then — when no page has an error — the links
  /// between them. Throws the errors (with any warnings); returns the
  /// warnings of a site that may be published.
  func validate(
    files: [(path: String, bytes: [UInt8])], pages: [String], baseURL: String,
    reusing cache: PageReportCache? = nil
  ) throws -> [Diagnostic] {
    var bytesByPath: [String: [UInt8]] = [:]
    for file in files { bytesByPath[file.path] = file.bytes }
    let validator = HTMLValidator(imageOrigins: imageOrigins, styleHashes: styleHashes)
    let reports = Parallel.map(count: pages.count) { index in
      let bytes = bytesByPath[pages[index]] ?? []
      if let report = cache?.report(for: pages[index], bytes: bytes) { return report }
      return validator.check(bytes, path: pages[index])
    }
    cache?.keep(zip(pages, reports).map { ($0, bytesByPath[$0] ?? [], $1) })
    var byPage: [String: PageReport] = [:]
    for (page, report) in zip(pages, reports) { byPage[page] = report }
    return try finish(
      diagnostics: reports.flatMap(\.diagnostics), files: Set(bytesByPath.keys), baseURL: baseURL,
      source: { bytesByPath[$0] }, links: { $0.check(pages: byPage) { bytesByPath[$0] } })
  }

  /// The site-wide part, once every page is checked (by `validate`, or by
  /// `HTMLValidator` as each page was rendered: `StagingPageSink`): the pages'
  /// problems (`diagnostics`, in page order), the sitemap (from `source`),
  /// then — when no page has an error — the links between `files` (every
  /// path of the site), as `links` checks them with a checker for those
  /// files. Throws the errors (with any warnings); returns the warnings.
  func finish(
    diagnostics pageDiagnostics: [Diagnostic], files: Set<String>, baseURL: String,
    source: (String) -> [UInt8]?, links: (SiteLinkChecker) -> [Diagnostic]
  ) throws -> [Diagnostic] {
    var diagnostics = pageDiagnostics
    for xml in ["sitemap.xml"] {
      if let bytes = source(xml) { diagnostics += HTMLValidator().checkXML(bytes, path: xml) }
    }
    // A warning (libxml2 has a few) does not keep the links from being
    // checked: only an error can leave a page without its links read.
    if !diagnostics.contains(where: { $0.severity == .error }) {
      do {
        let checker = SiteLinkChecker(files: files, basePath: try BasePath(baseURL))
        diagnostics += links(checker)
      } catch {
        diagnostics.append(.error(at: nil, "base URL \"\(baseURL)\": \(error)"))
      }
    }
    guard diagnostics.contains(where: { $0.severity == .error }) else { return diagnostics }
    if diagnostics.count > Self.maximumDiagnostics {
      let more = diagnostics.count - Self.maximumDiagnostics
      diagnostics = Array(diagnostics.prefix(Self.maximumDiagnostics))
      diagnostics.append(.error(at: nil, "\(more) more problems not shown"))
    }
    throw DiagnosticsError(diagnostics)
  }
}

/// The reports of the last validation, for a process that builds the same
/// site again: a page whose bytes did not
/// change gets the same report, so only the pages an edit changed go
/// through libxml2 again. The links are still checked across every page.
final class PageReportCache: Sendable {
  private let reports = NIOLockedValueBox<[String: (bytes: [UInt8], report: PageReport)]>([:])

  func report(for page: String, bytes: [UInt8]) -> PageReport? {
    guard let kept = reports.withLockedValue({ $0[page] }), kept.bytes == bytes else { return nil }
    return kept.report
  }

  /// Replaces what was kept with these pages' reports.
  func keep(_ pages: [(page: String, bytes: [UInt8], report: PageReport)]) {
    var next: [String: (bytes: [UInt8], report: PageReport)] = [:]
    for page in pages { next[page.page] = (page.bytes, page.report) }
    reports.withLockedValue { $0 = next }
  }
}
