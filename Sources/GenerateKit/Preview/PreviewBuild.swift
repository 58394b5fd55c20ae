import Foundation
import NIOConcurrencyHelpers

/// A `generate preview` build: the plain build's steps (`SiteBuilder`)
/// with all that only a preview does, told to and asked of the server
/// through one observer, `PreviewServer.BuildProgress`:
///
/// - the last good build is kept (`BuildMemory`): with the config and
///   data unchanged, steps 2 and 3 are skipped and only the pages whose
///   template reaches an edited template are rendered again;
/// - the pages open in a browser are rendered, checked and handed over
///   first (`openPagesReady`); after a data edit, before the index too;
/// - between batches, and before validating and publishing, a newer edit
///   stops the build (`Superseded`) with the folder and the memory untouched;
/// - every file is kept in memory and handed over (`filesReady`) before
///   it is written.
struct PreviewBuild {
  let builder: SiteBuilder
  let memory: BuildMemory
  let progress: PreviewServer.BuildProgress?

  /// A preview build stopped because its inputs changed again: the next
  /// build starts from them. The folder and the memory keep the last good
  /// build.
  struct Superseded: Error, Equatable {}

  /// Builds like `SiteBuilder.build()`, redoing only what changed since
  /// the last good build, and says which files changed. On failure the
  /// memory keeps the last good build.
  func build() throws -> IncrementalBuild {
    let run = BuildRun(options: builder.options, log: builder.log, verbose: builder.verbose)
    let last = memory.last
    let (loaded, inputs) = try load(run, last: last)
    let kind = Self.kind(of: inputs, since: last)
    let shown = ShownFirst()
    let indexed = try prepareAndIndex(loaded, kind: kind, last: last, shown: shown, run)
    let (rendered, files) = try render(indexed, loaded.templates, kind: kind, last: last, shown: shown, run)
    try stopIfSuperseded(last)
    try validate(indexed.site, loaded.templates, rendered, files: files, run)
    let filesByPath = Self.byPath(files)
    let changed = last.map { BuildMemory.changes(from: $0.files, to: filesByPath) }
    try stopIfSuperseded(last)
    // Sent before the new pages are: a theme edit changes the inline stylesheet's hash.
    progress?.contentSecurityPolicy(
      PreparedSite.contentSecurityPolicy(
        imageOrigins: indexed.site.imageOrigins, styleHashes: rendered.styleHashes))
    try publish(
      files, filesByPath, changed: changed, shown: shown.pages, to: SiteWriter(output: loaded.output), run)
    memory.last = BuildMemory.LastBuild(
      inputs: inputs, dataset: loaded.dataset, site: indexed.site, index: indexed.built,
      templates: loaded.templates, rendered: rendered, files: filesByPath)
    return IncrementalBuild(
      summary: run.summary(indexed.site, rendered, indexed.built), kind: kind, changedFiles: changed)
  }

  /// Step 1, with the last build's dataset when the config and data are
  /// unchanged; also the inputs' stamps, to compare with the next build's.
  private func load(_ run: BuildRun, last: BuildMemory.LastBuild?) throws
    -> (loaded: SiteBuilder.Loaded, inputs: BuildMemory.Inputs)
  {
    // Read before the loaders: an edit saved in between then shows as a
    // change to the next build, never as a stale copy taken for current.
    var inputs = BuildMemory.Inputs(config: BuildMemory.read(builder.options.configPath), data: [:])
    let loaded = try run.step(.loading) {
      try builder.load(run, output: builder.resolvedOutput()) { config in
        inputs.data = BuildMemory.stamps(of: config, previous: last?.inputs.data ?? [:])
        return last?.inputs == inputs ? last?.dataset : nil
      }
    }
    return (loaded, inputs)
  }

  /// What changed since the last build: only templates (the config and
  /// data files are as they were), the data, or the config.
  private static func kind(of inputs: BuildMemory.Inputs, since last: BuildMemory.LastBuild?)
    -> IncrementalBuild.Kind
  {
    guard let last else { return .full }
    return last.inputs == inputs ? .templates : last.inputs.config == inputs.config ? .data : .full
  }

  /// The prepared site and its index, built (steps 2 and 3).
  private struct Indexed {
    var site: PreparedSite
    var index: IndexStep
    var built: SiteIndex
  }

  /// Steps 2 and 3: kept from the last build after a template edit; else
  /// run, after a data edit with the open pages shown before the index.
  private func prepareAndIndex(
    _ loaded: SiteBuilder.Loaded, kind: IncrementalBuild.Kind, last: BuildMemory.LastBuild?,
    shown: ShownFirst, _ run: BuildRun
  ) throws -> Indexed {
    if kind == .templates, let last {
      let index = IndexStep(built: last.index, for: last.site, in: run)
      for step in [BuildStep.preparing, .indexing] {
        run.log(
          "[\(step.number)/\(BuildStep.count)] \(step.name): kept from the last build (config and data unchanged)"
        )
      }
      run.engine.emit(contentsOf: last.site.warnings + last.index.warnings)
      index.reportCounts()
      return Indexed(site: last.site, index: index, built: last.index)
    }
    let site = try builder.prepare(loaded, run)
    // Not after a config edit: the last index may not fit the new config.
    if kind == .data, let last { showBeforeIndexing(site, loaded.templates, last: last, shown: shown, run) }
    let index = try IndexStep(building: site, config: loaded.config, in: run)
    return Indexed(site: site, index: index, built: try index.wait())
  }

  /// Step 4, the open pages first; after a template edit, only the pages
  /// whose template reaches an edited template (or partial, or parent).
  /// Every file of the site but the index's, in memory.
  private func render(
    _ indexed: Indexed, _ templates: TemplateSet, kind: IncrementalBuild.Kind, last: BuildMemory.LastBuild?,
    shown: ShownFirst, _ run: BuildRun
  ) throws -> (PageRenderer.Output, [(path: String, bytes: [UInt8])]) {
    var renderer = PageRenderer()
    renderer.bundleCache = memory.bundles
    let reuse = kind == .templates ? last.map { templateReuse(last: $0, templates: templates) } : nil
    let pages = openPagesFirst(
      indexed.site, index: indexed.built, last: last, reuse: reuse, shown: shown, run)
    let rendered = try builder.render(
      indexed.site, templates, index: indexed.index, with: renderer, into: pages, run,
      detail: reuse == nil ? "" : "(changed templates only)")
    if reuse != nil {
      run.log("      \(rendered.pageCount - pages.reused.value) of \(rendered.pageCount) pages rendered")
    }
    return (rendered, indexed.built.files + rendered.files + pages.pages)
  }

  /// Step 5 over every file in memory, reusing the last build's reports
  /// of pages whose bytes did not change.
  private func validate(
    _ site: PreparedSite, _ templates: TemplateSet, _ rendered: PageRenderer.Output,
    files: [(path: String, bytes: [UInt8])], _ run: BuildRun
  ) throws {
    try builder.validate(templates, rendered, run) {
      try SiteValidator(imageOrigins: site.imageOrigins, styleHashes: rendered.styleHashes).validate(
        files: files, pages: rendered.pages, baseURL: site.baseURL, reusing: memory.reports)
    }
  }

  /// The files by path (a later file of the same path wins).
  private static func byPath(_ files: [(path: String, bytes: [UInt8])]) -> [String: [UInt8]] {
    var filesByPath: [String: [UInt8]] = [:]
    for file in files { filesByPath[file.path] = file.bytes }
    return filesByPath
  }

  /// Step 6, after handing every file to the server; nothing when no file
  /// changed and the folder is there.
  private func publish(
    _ files: [(path: String, bytes: [UInt8])], _ filesByPath: [String: [UInt8]], changed: [String]?,
    shown: [String: [UInt8]], to writer: SiteWriter, _ run: BuildRun
  ) throws {
    if let changed, changed.isEmpty, FileManager.default.fileExists(atPath: writer.outputPath) {
      run.log(
        "[\(BuildStep.publishing.number)/\(BuildStep.count)] \(BuildStep.publishing.name): no file changed")
      return
    }
    // Less the open pages already handed over with the same bytes.
    progress?.filesReady(filesByPath, changed: changed?.filter { shown[$0] != filesByPath[$0] })
    var published = SiteWriter.Report()
    try run.step(.publishing, "to \(builder.options.outputPath)") {
      run.engine.emit(contentsOf: try writer.publish(files, report: &published))
    }
    run.detail(published.description)
  }

  /// Not the first build: its folder may not be there yet.
  private func stopIfSuperseded(_ last: BuildMemory.LastBuild?) throws {
    if last != nil, progress?.isSuperseded == true { throw Superseded() }
  }

  /// The sink of the render: the open pages first (not in a first build),
  /// checked and shown over the last good site.
  private func openPagesFirst(
    _ site: PreparedSite, index: SiteIndex, last: BuildMemory.LastBuild?, reuse: OpenPagesSink.TemplateReuse?,
    shown: ShownFirst, _ run: BuildRun
  ) -> OpenPagesSink {
    guard let progress, let last else {
      return OpenPagesSink(open: [], site: site, reuse: reuse) { _, _, _, _ in }
    }
    return OpenPagesSink(
      open: progress.openPages, site: site, reuse: reuse, isSuperseded: { progress.isSuperseded },
      handOver: handOver(to: progress, site, index: index, last: last, shown: shown, since: nil, run) {
        "open pages first: \($0) reloaded (checked in \($1) ms)"
      })
  }

  /// After a data edit, building the index takes longest: the open pages
  /// are rendered from the new records before it, naming the last build's
  /// index (whose files the server still has), and shown at once. They
  /// reload again once the index is built, with the bytes a cold build
  /// writes. Any problem here is left to the full render to report.
  private func showBeforeIndexing(
    _ site: PreparedSite, _ templates: TemplateSet, last: BuildMemory.LastBuild, shown: ShownFirst,
    _ run: BuildRun
  ) {
    guard let progress, !progress.openPages.isEmpty else { return }
    var renderer = PageRenderer()
    renderer.bundleCache = memory.bundles
    let pages = OpenPagesSink(
      open: progress.openPages, site: site, onlyOpenPages: true,
      handOver: handOver(to: progress, site, index: last.index, last: last, shown: shown, since: Date(), run)
      {
        "open pages before the index: \($0) reloaded (\($1) ms)"
      })
    _ = try? renderer.render(
      site, index: IndexStep(built: last.index, for: site, in: run), templates: templates,
      previewScript: builder.options.previewScript, into: pages)
  }

  /// Shows the open pages that changed (`openPagesReady`) and adds them to
  /// `shown`. Before the index (`since` the render began) nothing was
  /// shown yet; after it, a page is compared with what was shown before
  /// the index too, and the check is timed from the hand-over.
  private func handOver(
    to progress: PreviewServer.BuildProgress, _ site: PreparedSite, index: SiteIndex,
    last: BuildMemory.LastBuild,
    shown: ShownFirst, since started: Date?, _ run: BuildRun,
    line: @escaping (_ reloaded: Int, _ milliseconds: Int) -> String
  ) -> OpenPagesSink.HandOver {
    { pages, shared, all, styleHashes in
      let from = started ?? Date()
      guard
        let ready = Self.openPagesReady(
          pages, shared: shared, index: index, allPages: all, last: last,
          shown: started == nil ? shown.pages : [:],
          baseURL: site.baseURL, imageOrigins: site.imageOrigins, styleHashes: styleHashes)
      else { return }
      shown.add(ready)
      // The open pages are new and the others as the last build left them:
      // the policy allows what either holds until the whole site is ready.
      progress.contentSecurityPolicy(
        PreparedSite.contentSecurityPolicy(
          imageOrigins: Array(Set(site.imageOrigins + last.site.imageOrigins)).sorted(),
          styleHashes: Array(Set(styleHashes + last.rendered.styleHashes)).sorted()))
      progress.openPagesReady(ready.files, changed: ready.changed)
      run.log("      " + line(ready.changed.count, Int(Date().timeIntervalSince(from) * 1000)))
    }
  }

  /// The site to show while the rest of it renders: the last good site
  /// with the open pages that changed, the shared files and the index
  /// replaced. Nil when no open page changed (from the last build, and
  /// from what was `shown` of it already), or one fails its own checks
  /// (libxml2, and its links against the files this build will write):
  /// the whole site's validation then reports it as usual.
  static func openPagesReady(
    _ pages: [(path: String, bytes: [UInt8])], shared: [(path: String, bytes: [UInt8])], index: SiteIndex,
    allPages: [String], last: BuildMemory.LastBuild, shown: [String: [UInt8]], baseURL: String,
    imageOrigins: [String] = [], styleHashes: [String] = []
  ) -> (files: [String: [UInt8]], changed: [String])? {
    let changed = pages.filter { last.files[$0.path] != $0.bytes && shown[$0.path] != $0.bytes }
    guard !changed.isEmpty, let basePath = try? BasePath(baseURL) else { return nil }
    let validator = HTMLValidator(imageOrigins: imageOrigins, styleHashes: styleHashes)
    var reports: [String: PageReport] = [:]
    for page in changed {
      let report = validator.check(page.bytes, path: page.path)
      if report.diagnostics.contains(where: { $0.severity == .error }) { return nil }
      reports[page.path] = report
    }
    var files = last.files
    for file in index.files + shared + changed { files[file.path] = file.bytes }
    // Pages and assets as this build writes them; other files (robots.txt,
    // sw.js) as the last build did.
    var planned = Set(allPages)
    for path in files.keys where !path.hasSuffix(".html") { planned.insert(path) }
    let checker = SiteLinkChecker(files: planned, basePath: basePath)
    let problems = checker.check(pages: reports) { files[$0] }
    if problems.contains(where: { $0.severity == .error }) { return nil }
    return (files, changed.map(\.path).sorted())
  }

  /// What a render after a template edit takes from the last one: every
  /// page whose template cannot reach an edited template.
  func templateReuse(last: BuildMemory.LastBuild, templates: TemplateSet) -> OpenPagesSink.TemplateReuse {
    let edited = templates.changedTemplates(since: last.templates)
    var mayChange: [String: Bool] = [:]
    for name in Set(last.rendered.templateOfPage.values) {
      mayChange[name] = templates.templates(reachableFrom: name).map { !$0.isDisjoint(with: edited) } ?? true
    }
    return OpenPagesSink.TemplateReuse(
      assetsFolder: last.rendered.assetsFolder, modulePreloads: last.rendered.modulePreloads,
      pages: last.files, mayChange: { mayChange[$0] ?? true })
  }

  /// The open pages a build handed over early, with the bytes shown; set
  /// from the renderer.
  final class ShownFirst: Sendable {
    private let value = NIOLockedValueBox<[String: [UInt8]]>([:])
    var pages: [String: [UInt8]] { value.withLockedValue { $0 } }

    func add(_ shown: (files: [String: [UInt8]], changed: [String])) {
      value.withLockedValue { value in for path in shown.changed { value[path] = shown.files[path] ?? [] } }
    }
  }
}

extension SiteBuilder {
  /// A preview's build (`PreviewBuild`): redoes only what changed since
  /// the last good build kept in `memory`, and says which files changed.
  /// `progress`, when given, is shown the open pages first and every file
  /// before it is written, and may stop the build.
  public func build(keeping memory: BuildMemory, reportingTo progress: PreviewServer.BuildProgress? = nil)
    throws
    -> IncrementalBuild
  {
    try PreviewBuild(builder: self, memory: memory, progress: progress).build()
  }
}
