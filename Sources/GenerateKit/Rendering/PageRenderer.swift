import Foundation
import NIOConcurrencyHelpers

/// Two context layers: what this page adds, over what every page shares.
struct PageContext {
  var page: [String: Any]
  var shared: [String: Any]

  func child(named name: String) -> Any? { page[name] ?? shared[name] }
}

/// Renders every page and the versioned assets of a site, handing the
/// pages to a `PageSink`.
public struct PageRenderer {
  public struct Output {
    /// The files that are not pages (the pages went to the sink).
    public var files: [(path: String, bytes: [UInt8])]
    public var pageCount: Int
    /// Site-relative paths of the HTML pages, for validation and the sitemap.
    public var pages: [String]
    /// The template each page was rendered with, for errors found later.
    public var templateOfPage: [String: String] = [:]
    /// The folder every page links its assets from, and the modules it
    /// preloads: what pages share that an asset edit changes.
    var assetsFolder = ""
    var modulePreloads: [String] = []
    /// The policy's sources for the stylesheets pages hold inline
    /// (`InlineStyles.hashes`): the site's policy must list them.
    public var styleHashes: [String] = []
    /// How many A–Z list pages had their rows written without Mustache.
    var listPagesWritten = 0
  }

  /// Keeps the last bundle (esbuild takes a few hundred milliseconds) for
  /// a build that runs again, which reuses it when no asset changed.
  var bundleCache: AssetBundleCache?
  /// The assets bundled while the index was built (`EarlyAssets`).
  var earlyAssets: EarlyAssets?
  /// Writes the A–Z list pages' rows without Mustache when the `browse`
  /// template is the built-in one (`BrowsePages.ListRows`); off, every row
  /// goes through Mustache, as tests compare.
  var writesListRows = true
  /// Sites of this many documents or more render the A–Z pages only once
  /// the index is built: their lists' sort keys and orders (made when a
  /// list's first page is rendered) and the index's postings are then
  /// never in memory together, the largest two parts of a large build's
  /// peak. A smaller site renders them beside the index, which is faster
  /// on two cores. Either way the pages are the same.
  var browsePagesAfterIndexFrom = BuildOptions.browsePagesAfterIndexThreshold

  public init() {}

  /// Pages rendered (on all cores) before a batch goes to the sink: as
  /// many as make about `bytesPerBatch` at the average size of the pages
  /// so far, from 512 to 8,192. Small batches keep a million records' big
  /// pages under 2 GiB; 63,000 small pages in batches of 512 took half as
  /// long again as in batches of 8,192 (each batch waits for its slowest page).
  static let pagesPerBatch = 512...8192
  static let bytesPerBatch = 48 << 20

  /// Every file of the site but the index's, the pages among them.
  public func render(
    _ site: PreparedSite, index: SiteIndex, templates: TemplateSet, previewScript: String?
  ) throws -> Output {
    let pages = PagesInMemory()
    var output = try render(
      site,
      index: IndexStep(
        built: index, for: site, in: BuildRun(options: BuildOptions(), log: { _ in }, verbose: false)),
      templates: templates, previewScript: previewScript, into: pages)
    output.files += pages.pages
    return output
  }

  /// Renders every page into `sink`, a batch at a time, and returns the
  /// other files. With the index being built, the pages that embed nothing
  /// from it go first; the render waits for it before those that do.
  func render(
    _ site: PreparedSite, index: IndexStep, templates: TemplateSet, previewScript: String?,
    into sink: some PageSink
  ) throws -> Output {
    // Preparing stops on any problem, so what is left is from an earlier
    // render of this site (a failed one): count only this one's.
    site.evaluator.problems.reset()
    var plan = try RenderPlan(
      site, index: index, templates: templates, previewScript: previewScript, bundle: bundle,
      writesListRows: writesListRows)
    try sink.begin(
      PageSinkSite(
        paths: plan.paths, pages: plan.jobs.map(\.path), shared: plan.files, assetsFolder: plan.assetsFolder,
        modulePreloads: plan.modulePreloads, styleHashes: plan.styleHashes))
    var pages = Pages()
    var early = Array(plan.jobs.indices)
    var late: [Int] = []
    if site.documents.count >= browsePagesAfterIndexFrom, plan.index == nil {
      late = early.filter { plan.jobs[$0].browses }
      early.removeAll { plan.jobs[$0].browses }
    }
    var waiting = try render(early, of: plan, into: sink, &pages)
    let built = try index.wait()
    if plan.index == nil {
      plan.name(built)
      try sink.add(paths: built.paths)
      waiting = try render(waiting, of: plan, into: sink, &pages)
    }
    _ = try render(late, of: plan, into: sink, &pages)
    // Fields are evaluated as templates ask for them: a count out of range
    // in a field only one page shows is found here.
    let problems = site.evaluator.problems.diagnostics
    if !problems.isEmpty { throw DiagnosticsError(problems) }
    return try output(plan, index: built, pages: pages)
  }

  /// The bundle of the asset sources: made while the index was built, kept
  /// from the last build, or made now.
  private func bundle(_ sources: [AssetFile], _ bundler: AssetBundler) throws -> AssetBundler.Output {
    try earlyAssets?.bundle(for: sources, with: bundler) ?? bundleCache?.bundle(sources, with: bundler)
      ?? bundler.bundle(sources)
  }

  /// The pages a render handed to its sink.
  private struct Pages {
    var paths: [(position: Int, path: String)] = []
    var templateOfPage: [String: String] = [:]
    var bytes = 0
    var taken = 0
    var searchPage: [UInt8] = []
    /// Pages of the size so far that make about `bytesPerBatch`.
    var batchSize: Int {
      let average = paths.isEmpty ? PageRenderer.bytesPerBatch : max(1, bytes / paths.count)
      return min(
        max(PageRenderer.bytesPerBatch / average, PageRenderer.pagesPerBatch.lowerBound),
        PageRenderer.pagesPerBatch.upperBound)
    }
  }

  /// Renders these jobs in batches, the sink's first pages in one of their
  /// own, and hands each batch to the sink. Returns the jobs whose pages
  /// name the index by its stand-in, to render again once it is built.
  private func render(
    _ numbers: [Int], of plan: RenderPlan, into sink: some PageSink, _ pages: inout Pages
  ) throws -> [Int] {
    let first = numbers.filter { sink.takesFirst(plan.jobs[$0].path) }
    let isFirst = Set(first)
    var rest = numbers.filter { !isFirst.contains($0) }[...]
    var waiting = first.isEmpty ? [] : try batch(first, of: plan, into: sink, &pages)
    while !rest.isEmpty {
      let size = pages.batchSize
      waiting += try batch(Array(rest.prefix(size)), of: plan, into: sink, &pages)
      rest = rest.dropFirst(size)
    }
    return waiting
  }

  /// Renders one batch over the cores, each page checked by the sink on the
  /// core that rendered it.
  private func batch(
    _ numbers: [Int], of plan: RenderPlan, into sink: some PageSink, _ pages: inout Pages
  ) throws -> [Int] {
    let namesIndex = plan.index != nil
    let results = Parallel.map(count: numbers.count) {
      offset -> (bytes: [UInt8], report: PageReport?, waits: Bool)? in
      let job = plan.jobs[numbers[offset]]
      guard let bytes = sink.bytes(of: job.path, template: job.template) ?? plan.render(job) else {
        return nil
      }
      if !namesIndex && Self.holdsStandIn(bytes) { return (bytes, nil, true) }
      return (bytes, sink.check(job.path, bytes), false)
    }
    var batch: [RenderedPage] = []
    var waiting: [Int] = []
    batch.reserveCapacity(numbers.count)
    for (offset, number) in numbers.enumerated() {
      let job = plan.jobs[number]
      guard let result = results[offset] else {
        throw DiagnosticsError(
          .error(at: SourceLocation(file: job.path), "template '\(job.template)' rendered nothing"))
      }
      if result.waits {
        waiting.append(number)
        continue
      }
      batch.append(RenderedPage(path: job.path, bytes: result.bytes, report: result.report, position: number))
      pages.paths.append((number, job.path))
      pages.templateOfPage[job.path] = job.template
      pages.bytes += result.bytes.count
      if job.path == "index.html" { pages.searchPage = result.bytes }
    }
    try sink.take(batch)
    return waiting
  }

  /// The files made once every page is: the service worker, the manifest
  /// under its stable name, robots.txt, the sitemap, `_headers`.
  private func output(_ plan: RenderPlan, index: SiteIndex, pages: Pages) throws -> Output {
    let config = plan.site.config
    let base = plan.site.baseURL
    var files = plan.files
    let paths = pages.paths.sorted { $0.position < $1.position }.map(\.path)
    // Kept at install: the search page, the assets it names, which the
    // visit that installs the worker has just loaded (the worker takes them
    // from the HTTP cache), and the modules its scripts import on demand.
    // The manifest is in the page. What else a visit fetches — index files,
    // record pages and their look — is kept as it is fetched.
    let named = String(decoding: pages.searchPage, as: UTF8.self)
    let precache = AssetBundler.withModulesNamedInside(
      plan.assetFiles.map(\.path).filter { named.contains("\"\(base + plan.assetsFolder + $0)\"") },
      among: plan.assetFiles
    ).map { base + plan.assetsFolder + $0 }
    if let worker = try worker(
      templates: plan.templates, offline: config.offline, base: base, searchPage: pages.searchPage,
      precache: [base] + precache)
    {
      files.append((Self.workerPath, worker))
    }
    if let manifest = index.files.first(where: { $0.path == index.manifestPath }) {
      files.append((Self.stableManifestPath, manifest.bytes))
    }
    files.append(("robots.txt", Array(robots(config: config, base: base).utf8)))
    let policy = PreparedSite.contentSecurityPolicy(
      imageOrigins: plan.site.imageOrigins, styleHashes: plan.styleHashes)
    files.append((Self.headersPath, Array(Self.headers(policy: policy, base: base).utf8)))
    if let siteURL = config.siteURL {
      files.append(("sitemap.xml", Array(sitemap(siteURL: siteURL, base: base, pages: paths).utf8)))
    }
    files.append((".nojekyll", []))
    var output = Output(
      files: files, pageCount: paths.count, pages: paths, templateOfPage: pages.templateOfPage)
    output.assetsFolder = plan.assetsFolder
    output.modulePreloads = plan.modulePreloads
    output.styleHashes = plan.styleHashes
    output.listPagesWritten = plan.listPagesWritten.value
    return output
  }

  /// What every page and asset template shares, but the assets' folder and
  /// what follows from it.
  static func sharedValues(_ site: PreparedSite, templates: TemplateSet, manifestPath: String) -> [String:
    Any]
  {
    let config = site.config
    let base = site.baseURL
    let browse = config.browse ? BrowsePages(site: site, base: base) : nil
    let browses = !(browse?.collections.isEmpty ?? true)
    return [
      "site": [
        "title": config.title, "description": config.description, "language": config.language,
        "tint": config.tint, "rtl": config.strings.isRightToLeft,
      ] as [String: Any],
      "strings": config.strings.templateValues(site: config.title, search: config.search.title),
      "base": base,
      "manifest": base + manifestPath,
      // What pages other than the search page name: a data edit then
      // changes only the pages whose own content changed.
      "stableManifest": base + Self.stableManifestPath,
      "search": [
        "title": config.search.title, "placeholder": config.search.placeholder,
        "topResults": config.search.topResults, "slashFocuses": config.search.slashFocuses,
      ] as [String: Any],
      "scopes": config.scopes.enumerated().map { offset, scope in
        var entry: [String: Any] = ["id": scope.id, "label": scope.label, "first": offset == 0]
        if let description = scope.description { entry["description"] = description }
        return entry
      },
      // `[String: Any]`, the type `CompiledRenderer` reads without
      // swift-mustache's protocols (`GenericReads`), as for every list here.
      "chips": [["id": "top", "label": config.search.topResults] as [String: Any]]
        + site.collections.filter(\.config.searchable).map {
          ["id": $0.config.id, "label": $0.config.label] as [String: Any]
        },
      // The idle page's trending terms and kinds, each a link that works
      // without JavaScript.
      "trending": IdleLinks.trending(site, fallback: browses ? base + BrowsePages.folder : nil),
      "kinds": IdleLinks.kinds(site, browse: browse),
      "facets": site.facets.filter(\.token).map { ["id": $0.id, "label": $0.label] as [String: Any] },
      "collections": site.collections.filter(\.writesHTMLPages).map { collection in
        ["id": collection.config.id, "label": collection.config.label] as [String: Any]
      },
      // The A–Z pages' hub, linked from the footer and the search page's
      // <noscript>; the service worker the search page registers.
      "browseURL": browses ? base + BrowsePages.folder : false,
      "serviceWorker": config.offline && templates.has(Self.workerTemplate) ? base + Self.workerPath : false,
    ]

  }

  /// The assets as the bundler takes them: `*.mustache` ones rendered.
  static func assetSources(_ templates: TemplateSet, shared: [String: Any], strings: UIStrings) throws
    -> [AssetFile]
  {
    var sources: [AssetFile] = []
    for var asset in templates.assets {
      guard asset.path.hasSuffix(".mustache") else {
        // The page's script speaks the site's language (`ScriptStrings`).
        if asset.path.hasSuffix(".js") { asset.bytes = ScriptStrings.apply(strings, to: asset.bytes) }
        sources.append(asset)
        continue
      }
      let text = String(decoding: asset.bytes, as: UTF8.self)
      do {
        let template = try MustacheParser.parse(text)
        let rendered = templates.render(template, object: PageContext(page: [:], shared: shared))
        sources.append(
          AssetFile(
            path: String(asset.path.dropLast(".mustache".count)), bytes: rendered,
            source: asset.source))
      } catch {
        // The file's own folder: with layered template folders it need not be the first.
        throw DiagnosticsError(
          .error(
            at: SourceLocation(file: asset.source, line: error.line, column: error.column),
            "template syntax: \(error.message)"))
      }
    }
    return sources
  }

  /// The assets bundled while the index is built (esbuild takes a few
  /// hundred milliseconds, most of a small site's render). The manifest's
  /// name is not known yet, so the asset templates are rendered with a
  /// stand-in: the render uses this bundle only if its own sources come
  /// out the same (no asset names the manifest), and bundles them itself
  /// otherwise, or when this one failed (to report the error).
  final class EarlyAssets: @unchecked Sendable {
    private let done = DispatchGroup()
    private var made: (sources: [AssetFile], esbuild: String?, output: AssetBundler.Output)?

    init(_ site: PreparedSite, templates: TemplateSet) {
      let shared = PageRenderer.sharedValues(site, templates: templates, manifestPath: PageRenderer.standIn)
      guard
        let sources = try? PageRenderer.assetSources(templates, shared: shared, strings: site.config.strings)
      else { return }
      done.enter()
      // A thread of its own: waiting for esbuild, it would hold a worker
      // the index and the pages render on.
      Parallel.thread { [self] in
        defer { done.leave() }
        let bundler = AssetBundler(esbuild: AssetBundler.locateEsbuild())
        if let output = try? bundler.bundle(sources) { made = (sources, bundler.esbuild, output) }
      }
    }

    /// Waits for the bundle; nil unless it was made from these sources.
    func bundle(for sources: [AssetFile], with bundler: AssetBundler) -> AssetBundler.Output? {
      wait()
      guard let made, made.esbuild == bundler.esbuild, made.sources.count == sources.count,
        zip(made.sources, sources).allSatisfy({ $0.path == $1.path && $0.bytes == $1.bytes })
      else { return nil }
      return made.output
    }

    /// Until the bundling is over (its scratch folder removed).
    func wait() { done.wait() }
  }

  /// What a render names the index by while it is being built: the
  /// manifest's path and the embedded index data. A private-use character
  /// that a page holds only where it names the index (or where its record
  /// does; that page is then only rendered twice).
  static let standIn = "\u{E000}index"

  static func holdsStandIn(_ bytes: [UInt8]) -> Bool {
    // U+E000 in UTF-8: EE 80 80, each lead byte EE found by memchr.
    bytes.withUnsafeBufferPointer { page in
      guard let base = page.baseAddress else { return false }
      var at = 0
      while at + 2 < page.count, let found = memchr(base + at, 0xEE, page.count - at - 2) {
        let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        if page[offset + 1] == 0x80 && page[offset + 2] == 0x80 { return true }
        at = offset + 1
      }
      return false
    }
  }

  /// The manifest again under a name that stays the same from build to
  /// build (`{{stableManifest}}`): to be revalidated, never cached as
  /// immutable like the content-hashed files beside it.
  static let stableManifestPath = "idx/manifest.json"
  static let workerTemplate = "sw.js"
  static let workerPath = "sw.js"

  /// The service worker, at the site's root so its scope is the whole
  /// site (a worker controls only the folder it is served from). Its cache
  /// is named by the search page's hash: any change to the page, its assets
  /// or the index makes a new worker, whose activation deletes the old
  /// cache. With `offline: false` it is the worker that removes itself and
  /// its caches, for visitors an earlier build installed one for. Nil when
  /// the templates have no `sw.js.mustache`.
  func worker(templates: TemplateSet, offline: Bool, base: String, searchPage: [UInt8], precache: [String])
    throws -> [UInt8]?
  {
    guard templates.has(Self.workerTemplate) else { return nil }
    // One JSON object, so nothing from the config reaches the script unquoted.
    let settings: [String: Any] = [
      "cache": "generate:\(base):\(ContentHash.hex(searchPage))", "base": base, "precache": precache,
    ]
    let json = try JSONSerialization.data(
      withJSONObject: settings, options: [.sortedKeys, .withoutEscapingSlashes])
    let context: [String: Any] = ["offline": offline, "settings": String(decoding: json, as: UTF8.self)]
    return templates.render(context, withTemplate: Self.workerTemplate)
  }

  /// The headers file Netlify and Cloudflare Pages read at the site's root.
  static let headersPath = "_headers"

  /// The site's Content-Security-Policy as a `_headers` file: hosts that
  /// read one send it, and for any other it is the exact line to copy —
  /// the inline stylesheet's hash in it changes with the theme.
  static func headers(policy: String, base: String) -> String {
    """
    # The Content-Security-Policy this site needs, for hosts that read this file
    # (Netlify, Cloudflare Pages); send the same header from any other host.
    # Rewritten by every build: a theme edit changes the stylesheet hash in it.
    \(base)*
      Content-Security-Policy: \(policy)

    """
  }

  func robots(config: SiteConfig, base: String) -> String {
    var text = "User-agent: *\nAllow: /\n"
    if let siteURL = config.siteURL { text += "Sitemap: \(Self.join(siteURL, base))sitemap.xml\n" }
    return text
  }

  func sitemap(siteURL: String, base: String, pages: [String]) -> String {
    var xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    let root = Self.join(siteURL, base)
    // Pages only: not the 404 page, nor a feed.
    for page in pages.sorted() where page != "404.html" && !HTMLValidator.isXML(page) {
      let path = page.hasSuffix("index.html") ? String(page.dropLast("index.html".count)) : page
      xml += "  <url><loc>\(Escaping.html(root + path))</loc></url>\n"
    }
    return xml + "</urlset>\n"
  }

  static func join(_ siteURL: String, _ base: String) -> String {
    var url = siteURL
    while url.hasSuffix("/") { url.removeLast() }
    return url + base
  }
}

/// A count shared by the render's workers.
final class Counter: Sendable {
  private let count = NIOLockedValueBox(0)
  var value: Int { count.withLockedValue { $0 } }
  func add() { count.withLockedValue { $0 += 1 } }
}
