import Foundation

/// What a render makes before its first page: the values every page
/// shares, the bundled assets (their hash names the folder every page links
/// to), the files every page shares and one job per page — the search page,
/// the 404 page, one per record with a page, the A–Z pages.
struct RenderPlan {
  /// One page to render.
  struct Job {
    var path: String
    var template: String
    /// Made when the page is rendered, not before: a million records'
    /// A–Z rows would otherwise all be in memory at once.
    var context: () -> [String: Any]
    /// An A–Z list page's rows, written without Mustache when the
    /// `browse` template is the built-in one.
    var rows: BrowsePages.ListRows? = nil
    /// An A–Z page (`BrowsePages`): a large build renders these once the
    /// index is built (`PageRenderer.browsePagesAfterIndexFrom`).
    var browses = false
  }

  let site: PreparedSite
  let templates: TemplateSet
  /// The index the pages name; nil while it is being built, when they
  /// name it by `PageRenderer.standIn` (see `name`).
  private(set) var index: SiteIndex?
  private(set) var shared: [String: Any]
  let assetFiles: [(path: String, bytes: [UInt8])]
  let assetsFolder: String
  let modulePreloads: [String]
  /// The policy's sources for the stylesheets pages hold inline
  /// (`InlineStyles.hashes`).
  let styleHashes: [String]
  /// The files every page shares: assets, local pictures, the preview's script.
  let files: [(path: String, bytes: [UInt8])]
  let jobs: [Job]
  /// Whether the A–Z list pages' rows are written without Mustache.
  let writesListRows: Bool
  /// How many A–Z list pages had their rows written without Mustache.
  let listPagesWritten = Counter()

  /// Waits for `index` only when an asset names it (it is built before
  /// the pages when it is not there yet).
  init(
    _ site: PreparedSite, index step: IndexStep, templates: TemplateSet, previewScript: String?,
    bundle: (_ sources: [AssetFile], _ bundler: AssetBundler) throws -> AssetBundler.Output,
    writesListRows: Bool
  ) throws {
    self.site = site
    self.templates = templates
    let base = site.baseURL
    // An index still being built is named by stand-ins (`PageRenderer.standIn`): a page
    // whose bytes hold one is rendered again once the index is there, and
    // assets that hold one wait for it.
    var index = step.index
    var shared = PageRenderer.sharedValues(
      site, templates: templates, manifestPath: index?.manifestPath ?? PageRenderer.standIn)
    // Assets first: their hash names the folder every page links to.
    var sources = try PageRenderer.assetSources(templates, shared: shared, strings: site.config.strings)
    if index == nil, sources.contains(where: { PageRenderer.holdsStandIn($0.bytes) }) {
      let built = try step.wait()
      index = built
      shared = PageRenderer.sharedValues(site, templates: templates, manifestPath: built.manifestPath)
      sources = try PageRenderer.assetSources(templates, shared: shared, strings: site.config.strings)
    }
    let bundle = try bundle(sources, AssetBundler(esbuild: AssetBundler.locateEsbuild()))
    var assetFiles = bundle.files
    assetFiles.sort { $0.path < $1.path }
    var content = ContentFolder()
    for asset in assetFiles { content.add(asset.bytes, before: asset.path + "\u{0}") }
    let assetsFolder = content.name("assets")
    shared["assets"] = base + assetsFolder
    shared["modulePreloads"] = bundle.modulePreloads
    let styles = InlineStyles(templates.inlineStyleNames, assets: assetFiles, folder: base + assetsFolder)
    shared["styles"] = styles.elements as [String: Any]
    styleHashes = styles.hashes
    shared["indexData"] = index.map { AssetIndexData.json(for: $0) } ?? PageRenderer.standIn
    var files = assetFiles.map { (path: assetsFolder + $0.path, bytes: $0.bytes) }
    // Local pictures (`image:`), named by their content like the assets.
    files += site.imageFiles
    if let previewScript {
      files.append(("__preview/reload.js", Array(previewScript.utf8)))
      shared["preview"] = base + "__preview/reload.js"
    }
    (self.index, self.shared, self.files) = (index, shared, files)
    (self.assetFiles, self.assetsFolder, self.modulePreloads) = (
      assetFiles, assetsFolder, bundle.modulePreloads
    )
    self.writesListRows = writesListRows && templates.isBuiltIn("browse")
    jobs = Self.jobs(site)
  }

  /// The index, built: pages rendered from now on name it.
  mutating func name(_ built: SiteIndex) {
    index = built
    shared["manifest"] = site.baseURL + built.manifestPath
    shared["indexData"] = AssetIndexData.json(for: built)
  }

  /// A page's bytes; nil when its template rendered nothing.
  func render(_ job: Job) -> [UInt8]? {
    if writesListRows, let rows = job.rows {
      let marked = PageContext(page: rows.markedContext(), shared: shared)
      if let text = templates.render(marked, withTemplate: job.template),
        let bytes = BrowsePages.ListRows.splice(rows.html(), into: text)
      {
        listPagesWritten.add()
        return bytes
      }
    }
    return templates.render(PageContext(page: job.context(), shared: shared), withTemplate: job.template)
  }

  /// Every path of the site the render knows of before its first page:
  /// the index's (once built), the shared files, the pages and the files
  /// made at the end (`PageRenderer.closingFiles`).
  var paths: [String] {
    var tail = [
      PageRenderer.workerPath, PageRenderer.stableManifestPath, "robots.txt", "sitemap.xml", ".nojekyll",
      PageRenderer.headersPath,
    ]
    if !templates.has(PageRenderer.workerTemplate) { tail.removeAll { $0 == PageRenderer.workerPath } }
    if let index, !index.files.contains(where: { $0.path == index.manifestPath }) {
      tail.removeAll { $0 == PageRenderer.stableManifestPath }
    }
    if site.config.siteURL == nil { tail.removeAll { $0 == "sitemap.xml" } }
    return (index?.paths ?? []) + files.map(\.path) + jobs.map(\.path) + tail
  }

  /// The pages: the search page, the 404 page, one per record with a page,
  /// the A–Z pages.
  private static func jobs(_ site: PreparedSite) -> [Job] {
    let config = site.config
    let base = site.baseURL
    let origin = config.siteURL.map { PageRenderer.join($0, "") } ?? ""
    func canonical(_ path: String) -> String { origin + base + path }
    func page(_ title: String, _ description: String, _ path: String) -> [String: Any] {
      ["title": title, "description": description, "canonical": canonical(path)]
    }
    var jobs: [Job] = [
      Job(
        path: "index.html", template: "search",
        context: {
          var search = page(config.title, config.description, "")
          search["isSearch"] = true
          return ["page": search]
        }),
      Job(
        path: "404.html", template: "404",
        context: {
          [
            "page": page(
              "\(config.strings.text("notFound")) · \(config.title)",
              config.strings.text("notFoundDescription"),
              "404.html")
          ]
        }),
    ]
    for (index, document) in site.documents.enumerated() {
      let collection = site.collections[document.collection]
      guard collection.writesPages, let template = collection.config.page?.template else { continue }
      // Read once: on disk for a large site (`DocumentStore`).
      let shown = document.shown
      let path = shown.url.hasSuffix("/") || shown.url.isEmpty ? shown.url + "index.html" : shown.url
      let description =
        shown.subtitle.isEmpty ? "\(collection.config.singular) · \(config.title)" : shown.subtitle
      jobs.append(
        Job(
          path: path, template: template,
          context: {
            var record = page("\(document.title) · \(config.title)", description, shown.url)
            record["kind"] = collection.config.singular
            record["collection"] = collection.config.id
            return [
              "page": record,
              "record": RecordContext(
                site: site, table: collection.table, row: document.row, document: index),
            ]
          }))
    }
    // No page to link to, no A–Z pages: a site whose records all lack pages.
    guard config.browse else { return jobs }
    var browse = BrowsePages(site: site, base: base)
    guard !browse.collections.isEmpty else { return jobs }
    browse.pagePaths = Set(jobs.map(\.path))
    for list in browse.pages() {
      func context(_ browse: [String: Any]) -> [String: Any] {
        [
          "page": page(
            "\(list.title) · \(config.title)", list.description,
            String(list.path.dropLast("index.html".count))),
          "browse": browse,
        ]
      }
      jobs.append(
        Job(
          path: list.path, template: "browse", context: { context(list.context()) },
          rows: list.rows.map { rows in
            BrowsePages.ListRows(markedContext: { context(rows.markedContext()) }, html: rows.html)
          }, browses: true))
    }
    return jobs
  }
}
