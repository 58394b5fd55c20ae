import Foundation
import NIOConcurrencyHelpers

/// Two context layers: what this page adds, over what every page shares.
struct PageContext {
  var page: [String: Any]
  var shared: [String: Any]

  func child(named name: String) -> Any? { page[name] ?? shared[name] }
}

/// Renders every page and the versioned assets of a site.
public struct PageRenderer {
  public struct Output {
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
    /// How many pages were rendered rather than taken from `Reuse`.
    var renderedCount = 0
    /// How many A–Z list pages had their rows written without Mustache.
    var listPagesWritten = 0
  }

  /// A preview's last good render, to render again only the pages an edit
  /// may change. Only for the same prepared site and index: the pages then
  /// differ only through their templates and the shared assets.
  struct Reuse {
    var assetsFolder: String
    var modulePreloads: [String]
    /// The bytes of each page, by site-relative path.
    var pages: [String: [UInt8]]
    /// Whether a page rendered with this template may come out different.
    var mayChange: (_ template: String) -> Bool
  }

  /// Pages to render before the others — those open in a browser during a
  /// preview — and what to do with them before the rest is rendered.
  struct FirstPages {
    var paths: Set<String>
    /// Given the first pages, the files every page shares (the assets and
    /// the reload script) and the path of every page this render writes.
    var ready:
      (_ pages: [(path: String, bytes: [UInt8])], _ shared: [(path: String, bytes: [UInt8])], _ all: [String])
        -> Void
    /// Asked between batches of the other pages: true stops the render
    /// with `SiteBuilder.Superseded`.
    var shouldStop: () -> Bool = { false }
    /// Render only these pages and return no output: a preview of them
    /// against an index that is not this site's (see `SiteBuilder`).
    var only = false
  }

  /// Keeps the last bundle (esbuild takes a few hundred milliseconds) for
  /// the next preview build, which reuses it when no asset changed.
  var bundleCache: AssetBundleCache?
  /// The assets bundled while the index was built (`EarlyAssets`).
  var earlyAssets: EarlyAssets?
  /// Writes the A–Z list pages' rows without Mustache when the `browse`
  /// template is the built-in one (`BrowsePages.ListRows`); off, every row
  /// goes through Mustache, as tests compare.
  var writesListRows = true

  public init() {}

  /// Pages rendered (on all cores) before a batch goes to a `PageStream`:
  /// as many as make about `bytesPerBatch` at the average size of the pages
  /// so far, from 512 to 8,192. Small batches keep a million records' big
  /// pages under 2 GiB; 63,000 small pages in batches of 512 took half as
  /// long again as in batches of 8,192 (each batch waits for its slowest page).
  static let pagesPerBatch = 512...8192
  static let bytesPerBatch = 48 << 20

  public func render(
    _ site: PreparedSite, index: SiteIndex, templates: TemplateSet, previewScript: String?
  ) throws -> Output {
    try render(site, index: index, templates: templates, previewScript: previewScript, reusing: nil)
  }

  func render(
    _ site: PreparedSite, index: SiteIndex, templates: TemplateSet, previewScript: String?,
    reusing reuse: Reuse?, first: FirstPages? = nil, stream: PageStream? = nil
  ) throws -> Output {
    try render(
      site, index: .built(index), templates: templates, previewScript: previewScript, reusing: reuse,
      first: first, stream: stream)
  }

  /// The index a render names: built, or being built beside it.
  enum IndexSource {
    case built(SiteIndex)
    /// Waited for (with a `stream`) only once every page that embeds
    /// nothing from the index has been rendered and written; without a
    /// stream, at once.
    case building(() throws -> SiteIndex)
  }

  /// With a `stream` (a command-line build, never with `first`), the
  /// pages go to it a batch at a time, checked as they are rendered, and
  /// `Output.files` holds only the files that are not pages.
  func render(
    _ site: PreparedSite, index source: IndexSource, templates: TemplateSet, previewScript: String?,
    reusing reuse: Reuse?, first: FirstPages? = nil, stream: PageStream? = nil
  ) throws -> Output {
    // Preparing stops on any problem, so what is left is from an earlier
    // render of this site (a preview's failed one): count only this one's.
    site.evaluator.problems.reset()
    let config = site.config
    let base = site.baseURL
    // Required and page templates were checked at load (`ConfigChecker`).
    // No page to link to, no A–Z pages: a site whose records all lack pages.
    let browsePages = config.browse ? BrowsePages(site: site, base: base) : nil
    let browse = browsePages.flatMap { $0.collections.isEmpty ? nil : $0 }
    // An index still being built is named by stand-ins (`pending`): a page
    // whose bytes hold one is rendered again once the index is there, and
    // assets that hold one wait for it.
    var index: SiteIndex?
    var waitForIndex: (() throws -> SiteIndex)?
    switch source {
    case .built(let built): index = built
    case .building(let wait) where stream != nil: waitForIndex = wait
    case .building(let wait): index = try wait()
    }
    let manifestPath = { index?.manifestPath ?? Self.pending }
    var shared = Self.sharedValues(site, templates: templates, manifestPath: manifestPath())

    // Assets first: their hash names the folder every page links to.
    var sources = try Self.assetSources(templates, shared: shared, strings: site.config.strings)
    if let wait = waitForIndex, sources.contains(where: { Self.holdsPending($0.bytes) }) {
      index = try wait()
      waitForIndex = nil
      shared = Self.sharedValues(site, templates: templates, manifestPath: manifestPath())
      sources = try Self.assetSources(templates, shared: shared, strings: site.config.strings)
    }
    let bundler = AssetBundler(esbuild: AssetBundler.locateEsbuild())
    let bundle =
      try earlyAssets?.bundle(for: sources, with: bundler) ?? bundleCache?.bundle(sources, with: bundler)
      ?? bundler.bundle(sources)
    var assetFiles = bundle.files
    assetFiles.sort { $0.path < $1.path }
    var content = ContentFolder()
    for asset in assetFiles { content.add(asset.bytes, before: asset.path + "\u{0}") }
    let assetsFolder = content.name("assets")
    shared["assets"] = base + assetsFolder
    shared["modulePreloads"] = bundle.modulePreloads
    shared["indexData"] = index.map { AssetIndexData.json(for: $0) } ?? Self.pending
    var files = assetFiles.map { (path: assetsFolder + $0.path, bytes: $0.bytes) }
    // Local pictures (`image:`), named by their content like the assets.
    files += site.imageFiles
    if let previewScript {
      files.append(("__preview/reload.js", Array(previewScript.utf8)))
      shared["preview"] = base + "__preview/reload.js"
    }

    // The pages: the search page, the 404 page, one per record with a page.
    struct Job {
      var path: String
      var template: String
      /// Made when the page is rendered, not before: a million records'
      /// A–Z rows would otherwise all be in memory at once.
      var context: () -> [String: Any]
      /// An A–Z list page's rows, written without Mustache when the
      /// `browse` template is the built-in one.
      var rows: BrowsePages.ListRows? = nil
    }
    let origin = config.siteURL.map { Self.join($0, "") } ?? ""
    func canonical(_ path: String) -> String { origin + base + path }
    var jobs: [Job] = [
      Job(
        path: "index.html", template: "search",
        context: {
          [
            "page": [
              "title": config.title, "description": config.description, "canonical": canonical(""),
              "isSearch": true,
            ] as [String: Any]
          ]
        }),
      Job(
        path: "404.html", template: "404",
        context: {
          [
            "page": [
              "title": "\(config.strings.text("notFound")) · \(config.title)",
              "description": config.strings.text("notFoundDescription"),
              "canonical": canonical("404.html"),
            ] as [String: Any]
          ]
        }),
    ]
    for document in site.documents {
      let collection = site.collections[document.collection]
      guard collection.writesPages, let page = collection.config.page else { continue }
      let path =
        document.url.hasSuffix("/") || document.url.isEmpty ? document.url + "index.html" : document.url
      let description =
        document.subtitle.isEmpty ? "\(collection.config.singular) · \(config.title)" : document.subtitle
      jobs.append(
        Job(
          path: path, template: page.template,
          context: {
            [
              "page": [
                "title": "\(document.title) · \(config.title)", "description": description,
                "canonical": canonical(document.url), "kind": collection.config.singular,
                "collection": collection.config.id,
              ] as [String: Any],
              "record": RecordContext(site: site, table: collection.table, row: document.row),
            ]
          }))
    }

    if var browse {
      browse.pagePaths = Set(jobs.map(\.path))
      for page in browse.pages() {
        func context(_ browse: [String: Any]) -> [String: Any] {
          [
            "page": [
              "title": "\(page.title) · \(config.title)", "description": page.description,
              "canonical": canonical(String(page.path.dropLast("index.html".count))),
            ] as [String: Any],
            "browse": browse,
          ]
        }
        jobs.append(
          Job(
            path: page.path, template: "browse", context: { context(page.context()) },
            rows: page.rows.map { rows in
              BrowsePages.ListRows(markedContext: { context(rows.markedContext()) }, html: rows.html)
            }))
      }
    }

    // A page is taken from the last render when nothing it shares with
    // other pages changed and no template it can reach did.
    let reuse = reuse.flatMap {
      $0.assetsFolder == assetsFolder && $0.modulePreloads == bundle.modulePreloads ? $0 : nil
    }
    let builtInBrowse = writesListRows && templates.isBuiltIn("browse")
    let written = Counter()
    func render(_ job: Job) -> [UInt8]? {
      if let reuse, !reuse.mayChange(job.template), let bytes = reuse.pages[job.path] { return bytes }
      if builtInBrowse, let rows = job.rows {
        let marked = PageContext(page: rows.markedContext(), shared: shared)
        if let text = templates.render(marked, withTemplate: job.template),
          let bytes = BrowsePages.ListRows.splice(rows.html(), into: text)
        {
          written.add()
          return bytes
        }
      }
      let context = PageContext(page: job.context(), shared: shared)
      return templates.render(context, withTemplate: job.template)
    }
    var pages: [String] = []
    var templateOfPage: [String: String] = [:]
    func rendered(_ job: Job, _ bytes: [UInt8]?, waits: Bool = false) throws -> [UInt8] {
      guard let bytes else {
        throw DiagnosticsError(
          .error(at: SourceLocation(file: job.path), "template '\(job.template)' rendered nothing"))
      }
      // Counted when it is rendered with the index.
      if waits { return bytes }
      pages.append(job.path)
      templateOfPage[job.path] = job.template
      return bytes
    }
    var searchPage: [UInt8] = []
    precondition(stream == nil || first == nil, "a preview's open pages need every page in memory")
    if let stream {
      // Every path is known before a page is rendered: the staging folder
      // is made ready for exactly this site, then takes the pages a batch
      // at a time, each checked on the core that rendered it.
      // The index being built has a manifest; its other paths are added
      // once it is there.
      var tail = [Self.workerPath, Self.stableManifestPath, "robots.txt", "sitemap.xml", ".nojekyll"]
      if !templates.has(Self.workerTemplate) { tail.removeAll { $0 == Self.workerPath } }
      if let index, !index.files.contains(where: { $0.path == index.manifestPath }) {
        tail.removeAll { $0 == Self.stableManifestPath }
      }
      if config.siteURL == nil { tail.removeAll { $0 == "sitemap.xml" } }
      try stream.begin(paths: (index?.files.map(\.path) ?? []) + files.map(\.path) + jobs.map(\.path) + tail)
      var (pagesSoFar, bytesSoFar) = (0, 0)
      // Renders, checks and writes these pages; returns those that hold a
      // stand-in for the index while it is being built (`pending`), to be
      // rendered again once it is there.
      func write(_ numbers: [Int], pending: Bool) throws -> [Int] {
        let results = Parallel.map(count: numbers.count) { offset -> (bytes: [UInt8], report: PageReport?)? in
          let job = jobs[numbers[offset]]
          return render(job).map { bytes in
            (bytes, pending && Self.holdsPending(bytes) ? nil : stream.check(job.path, bytes))
          }
        }
        var written: [(path: String, bytes: [UInt8])] = []
        var reports: [PageReport] = []
        var positions: [Int] = []
        var waiting: [Int] = []
        written.reserveCapacity(numbers.count)
        for (offset, number) in numbers.enumerated() {
          let job = jobs[number]
          let bytes = try rendered(job, results[offset]?.bytes, waits: results[offset]?.report == nil)
          guard let report = results[offset]?.report else {
            waiting.append(number)
            continue
          }
          if job.path == "index.html" { searchPage = bytes }
          written.append((job.path, bytes))
          reports.append(report)
          positions.append(number)
          bytesSoFar += bytes.count
        }
        try stream.take(written, reports: reports, positions: positions)
        return waiting
      }
      var waiting: [Int] = []
      var start = 0
      while start < jobs.count {
        let average = pagesSoFar == 0 ? Self.bytesPerBatch : max(1, bytesSoFar / pagesSoFar)
        let size = min(
          max(Self.bytesPerBatch / average, Self.pagesPerBatch.lowerBound), Self.pagesPerBatch.upperBound)
        let batch = start..<min(start + size, jobs.count)
        waiting += try write(Array(batch), pending: waitForIndex != nil)
        pagesSoFar += batch.count
        start = batch.upperBound
      }
      if let wait = waitForIndex {
        let built = try wait()
        index = built
        shared["manifest"] = base + built.manifestPath
        shared["indexData"] = AssetIndexData.json(for: built)
        try stream.add(paths: built.files.map(\.path))
        _ = try write(waiting, pending: false)
      }
    }
    guard let index else { preconditionFailure("the index is waited for by the end of the render") }
    var results = [[UInt8]?](repeating: nil, count: stream == nil ? jobs.count : 0)
    var rest = stream == nil ? Array(jobs.indices) : []
    if let first {
      let early = jobs.indices.filter { first.paths.contains(jobs[$0].path) }
      let pages = Parallel.map(count: early.count) { render(jobs[early[$0]]) }
      for (index, bytes) in zip(early, pages) { results[index] = bytes }
      // A page that rendered nothing, or a field out of range, fails the
      // whole render below; nothing is shown before then.
      if !early.isEmpty, pages.allSatisfy({ $0 != nil }), site.evaluator.problems.diagnostics.isEmpty {
        first.ready(
          zip(early, pages).map { (jobs[$0].path, $1 ?? []) }, files, jobs.map(\.path))
      }
      if first.only { return Output(files: [], pageCount: 0, pages: []) }
      let isEarly = Set(early)
      rest = rest.filter { !isEarly.contains($0) }
    }
    // In batches, so that a newer edit can stop a render it makes stale.
    let batch = first == nil ? max(rest.count, 1) : 4096
    for start in stride(from: 0, to: rest.count, by: batch) {
      if let first, first.shouldStop() { throw SiteBuilder.Superseded() }
      let indices = rest[start..<min(start + batch, rest.count)]
      let pages = Parallel.map(count: indices.count) { render(jobs[indices[indices.startIndex + $0]]) }
      for (index, bytes) in zip(indices, pages) { results[index] = bytes }
    }
    for (index, bytes) in results.enumerated() {
      files.append((jobs[index].path, try rendered(jobs[index], bytes)))
    }

    // Fields are evaluated as templates ask for them: a count out of range
    // in a field only one page shows is found here.
    let problems = site.evaluator.problems.diagnostics
    if !problems.isEmpty { throw DiagnosticsError(problems) }

    // Kept at install: the search page, the assets it names, which the
    // visit that installs the worker has just loaded (the worker takes them
    // from the HTTP cache), and the modules its scripts import on demand.
    // The manifest is in the page. What else a visit fetches — index files,
    // record pages and their look — is kept as it is fetched.
    if stream == nil { searchPage = files.first { $0.path == "index.html" }?.bytes ?? [] }
    let named = String(decoding: searchPage, as: UTF8.self)
    let precache = AssetBundler.withModulesNamedInside(
      assetFiles.map(\.path).filter { named.contains("\"\(base + assetsFolder + $0)\"") }, among: assetFiles
    ).map { base + assetsFolder + $0 }
    if let worker = try worker(
      templates: templates, offline: config.offline, base: base, searchPage: searchPage,
      precache: [base] + precache)
    {
      files.append((Self.workerPath, worker))
    }
    if let manifest = index.files.first(where: { $0.path == index.manifestPath }) {
      files.append((Self.stableManifestPath, manifest.bytes))
    }
    files.append(("robots.txt", Array(robots(config: config, base: base).utf8)))
    if let siteURL = config.siteURL {
      files.append(("sitemap.xml", Array(sitemap(siteURL: siteURL, base: base, pages: pages).utf8)))
    }
    files.append((".nojekyll", []))
    var output = Output(files: files, pageCount: pages.count, pages: pages, templateOfPage: templateOfPage)
    output.assetsFolder = assetsFolder
    output.modulePreloads = bundle.modulePreloads
    output.listPagesWritten = written.value
    output.renderedCount =
      reuse.map { reuse in jobs.count(where: { reuse.mayChange($0.template) || reuse.pages[$0.path] == nil })
      }
      ?? jobs.count
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
      "chips": [["id": "top", "label": config.search.topResults]]
        + site.collections.filter(\.config.searchable).map { ["id": $0.config.id, "label": $0.config.label] },
      "trending": config.search.trending,
      // The idle page lists each kind, to browse it without a query.
      "kinds": site.collections.filter(\.config.searchable).map {
        [
          "id": $0.config.id, "label": $0.config.label,
          "all": config.strings.text("allOf", ["label": $0.config.label]),
        ]
      },
      "facets": site.facets.filter(\.token).map { ["id": $0.id, "label": $0.label] },
      "collections": site.collections.filter(\.writesPages).map { collection in
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
      let shared = PageRenderer.sharedValues(site, templates: templates, manifestPath: PageRenderer.pending)
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
  static let pending = "\u{E000}index"

  static func holdsPending(_ bytes: [UInt8]) -> Bool {
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

  func robots(config: SiteConfig, base: String) -> String {
    var text = "User-agent: *\nAllow: /\n"
    if let siteURL = config.siteURL { text += "Sitemap: \(Self.join(siteURL, base))sitemap.xml\n" }
    return text
  }

  func sitemap(siteURL: String, base: String, pages: [String]) -> String {
    var xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    let root = Self.join(siteURL, base)
    for page in pages.sorted() where page != "404.html" {
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
