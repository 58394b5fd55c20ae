import Foundation

/// A plain build's pages on their way out (`SiteBuilder`): the renderer
/// names every path of the site before it renders a page (`begin`), which
/// claims the staging folder (`SiteWriter.Update`: the previous site,
/// brought up to date); each page is checked by libxml2 right after it is
/// rendered, on the same core (`check`); each batch is written as it comes
/// (`take`) — only files whose bytes changed — so the site's pages are
/// never all in memory. What the site-wide checks need of each page stays:
/// its problems, its ids and its links, packed. The links and the sitemap
/// are checked once every page is in (`validate`); the other files (index,
/// assets) are written and the folder swapped in by `publish`. Until then
/// the output is untouched; a build that fails keeps what was staged as
/// the next previous site (`abandon`).
final class PageStream {
  let writer: SiteWriter
  private var update: SiteWriter.Update?
  private var pages: [String] = []
  private var diagnostics: [Diagnostic] = []
  private var ids: [String: Set<String>] = [:]
  private var links: [String: PackedLinks] = [:]
  private let validator = HTMLValidator()
  /// What `publish` did.
  private(set) var report = SiteWriter.Report()

  init(writer: SiteWriter) {
    self.writer = writer
  }

  /// Claims the staging folder for a site of exactly these paths.
  func begin(paths: [String]) throws {
    update = try SiteWriter.Update(writer, paths: paths)
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
      links[page.path] = PackedLinks(report.links)
    }
    try update.write(batch)
  }

  /// The pages' problems, the sitemap and the links, as
  /// `SiteValidator.validate` finds them; `otherFiles` are the site's files
  /// that are not pages (not yet written). A page with a broken link is
  /// read back from the staging folder to place it.
  func validate(otherFiles: [(path: String, bytes: [UInt8])], baseURL: String) throws -> [Diagnostic] {
    var others: [String: [UInt8]] = [:]
    for file in otherFiles { others[file.path] = file.bytes }
    let files = Set(pages).union(others.keys)
    return try SiteValidator().finish(
      diagnostics: diagnostics, pages: pages, ids: { self.ids[$0] }, links: { self.links[$0]?.links ?? [] },
      files: files, baseURL: baseURL
    ) { path in others[path] ?? self.update?.read(path) }
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

/// A page's links in flat arrays: their targets' bytes end to end, and per
/// link where its target ends, its offset and its attribute (numbered: a
/// page uses a few attribute names). ~45 bytes a link instead of ~120 as
/// `PageLink`s, and a million records' pages hold tens of millions.
struct PackedLinks {
  private var text: [UInt8] = []
  private var ends: [Int32] = []
  private var offsets: [Int32] = []
  private var attributes: [UInt8] = []
  private var attributeNames: [String] = []

  init(_ links: [PageLink]) {
    text.reserveCapacity(links.reduce(0) { $0 + $1.target.utf8.count })
    ends.reserveCapacity(links.count)
    offsets.reserveCapacity(links.count)
    attributes.reserveCapacity(links.count)
    for link in links {
      text += link.target.utf8
      ends.append(Int32(clamping: text.count))
      offsets.append(Int32(clamping: link.offset))
      let number = attributeNames.firstIndex(of: link.attribute) ?? attributeNames.count
      if number == attributeNames.count { attributeNames.append(link.attribute) }
      attributes.append(UInt8(clamping: number))
    }
  }

  var links: [PageLink] {
    var start = 0
    return ends.indices.map { index in
      let end = Int(ends[index])
      defer { start = end }
      return PageLink(
        target: String(decoding: text[start..<end], as: UTF8.self),
        attribute: attributeNames[Int(attributes[index])], offset: Int(offsets[index]))
    }
  }
}
