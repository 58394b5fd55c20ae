import Foundation
import NIOConcurrencyHelpers

/// Runs the whole pipeline for one site, as the steps of `BuildStep`: load
/// data → prepare documents → build the index → render pages → validate →
/// publish. Every step reports into one `DiagnosticsEngine`, which tags
/// each problem with the step that found it.
public struct SiteBuilder: Sendable {
  public var options: BuildOptions
  public var log: @Sendable (String) -> Void
  /// Adds record and index counts to the progress lines.
  public var verbose = false

  public init(options: BuildOptions, log: @escaping @Sendable (String) -> Void = { print($0) }) {
    self.options = options
    self.log = log
  }

  /// What step 1 hands on.
  struct Loaded {
    var config: SiteConfig
    var dataset: Dataset
    var templates: TemplateSet
    var output: OutputFolder
    /// What the config and the data files held when they were read, for
    /// the next preview build to compare with.
    var inputs: BuildMemory.Inputs?
    /// The dataset, config and data files are those of the last good
    /// build: its prepared documents and index hold.
    var reusesData = false
  }

  /// Builds and publishes the site. Throws `DiagnosticsError` and leaves
  /// the previous output untouched on any failure.
  ///
  /// With `options.usesBuildRecord`, a build whose inputs and published site
  /// are as the last one recorded returns at once (`BuildRecord`).
  public func build() throws -> BuildSummary {
    guard options.usesBuildRecord else { return try build(memory: nil).summary }
    let started = Date()
    // Taken before anything is loaded: an edit saved during the build then
    // shows as a change to the next one.
    return try build(fingerprinted: BuildRecord.fingerprint(for: options), started: started)
  }

  /// `build()` from the inputs' fingerprint, taken before the build reads
  /// them (nil when the config cannot be loaded).
  func build(fingerprinted fingerprint: BuildRecord.Fingerprint?, started: Date) throws -> BuildSummary {
    let output = OutputFolder.realPath(OutputFolder.absolute(options.outputPath))
    let recordPath = BuildRecord.path(forOutput: output)
    // The record's name through the guard before it is read, replaced or
    // removed: a link there is never followed (`OwnedNames`).
    let names = OwnedNames(outputPath: output)
    _ = try names.check(names.record)
    let inputs = fingerprint?.lines
    let fingerprinted = Date()
    if options.clean {
      unlink(recordPath)
    } else if let inputs, let record = BuildRecord(contentsOf: recordPath), record.inputs == inputs {
      if let entries = BuildRecord.entries(of: output), record.matches(entries) {
        // A build killed since the recorded one left the site as it was,
        // and perhaps its staging folder: that goes (or becomes the
        // previous site) as any build would clear it.
        try SiteWriter(outputPath: output, shownPath: options.outputPath).removeStaleFolders()
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        log(
          "Up to date: the inputs and the \(entries.count) entries of \(options.outputPath) are as the last build left them (checked in \(milliseconds) ms; --clean builds anyway)"
        )
        var summary = BuildSummary(
          pages: record.pages, records: record.records, indexBytes: record.indexBytes,
          seconds: Date().timeIntervalSince(started))
        summary.upToDate = true
        return summary
      }
      if verbose { log("      the site was changed since the last build: building it again") }
    }
    let checked = Date()
    var summary = try build(memory: nil).summary
    let built = Date()
    // A record is a promise that the site is what these inputs build. An
    // input that changed while the build read it (an edit saved, a file
    // swapped and put back) breaks it: the site may hold the edit while the
    // fingerprint says otherwise, so no record is written and the next
    // build builds.
    let unchanged = fingerprint?.isUnchanged() ?? false
    // Local pictures are named by the data, not the config, so the
    // fingerprint cannot list them before the build: such a site is always
    // built, or an edited picture would never be published.
    if let inputs, unchanged, summary.warnings.isEmpty, !summary.copiesLocalImages,
      let entries = BuildRecord.entries(of: output)
    {
      BuildRecord(
        inputs: inputs, pages: summary.pages, records: summary.records, indexBytes: summary.indexBytes,
        entries: entries
      ).write(to: recordPath, names: names)
    } else {
      if (try? names.check(names.record)) == .present { unlink(recordPath) }
      if fingerprint != nil && !unchanged && verbose {
        log("      an input changed during the build: no build record written")
      }
    }
    if verbose {
      func milliseconds(_ from: Date, _ to: Date) -> Int { Int(to.timeIntervalSince(from) * 1000) }
      log(
        "      build record: inputs fingerprinted in \(milliseconds(started, fingerprinted)) ms, checked in \(milliseconds(fingerprinted, checked)) ms, written in \(milliseconds(built, Date())) ms"
      )
    }
    summary.seconds = Date().timeIntervalSince(started)
    return summary
  }

  /// The pages open in a browser during a preview, rendered and checked
  /// before the rest of the site so that they reload first.
  public struct OpenPages: Sendable {
    /// Site-relative paths (`albums/1-x/index.html`).
    public var paths: Set<String>
    /// Given the last good site with the open pages that changed (and the
    /// assets and index they use) replaced, and those pages' paths.
    public var ready: @Sendable (_ files: [String: [UInt8]], _ changed: [String]) -> Void
    /// Asked between batches of the other pages and before validating and
    /// publishing (not in a first build): true stops the build with
    /// `Superseded`, the folder untouched.
    public var isSuperseded: @Sendable () -> Bool

    public init(
      paths: Set<String>,
      ready: @escaping @Sendable (_ files: [String: [UInt8]], _ changed: [String]) -> Void,
      isSuperseded: @escaping @Sendable () -> Bool = { false }
    ) {
      self.paths = paths
      self.ready = ready
      self.isSuperseded = isSuperseded
    }
  }

  /// A preview build stopped because its inputs changed again: the next
  /// build starts from them. The folder and the memory keep the last good
  /// build.
  public struct Superseded: Error, Equatable {}

  /// Builds like `build()`, redoing only what changed since the last good
  /// build kept in `memory` (see `BuildMemory`), and says which files
  /// changed. On failure `memory` keeps the last good build.
  ///
  /// `openPages`, when given, are rendered and checked first and handed to
  /// `openPages.ready` before the rest of the site is rendered.
  /// `beforePublishing` is given every file of the checked site and the
  /// changed paths just before they are written (see
  /// `PreviewServer.BuildProgress`), less the open pages already handed
  /// over with the same bytes.
  public func build(
    keeping memory: BuildMemory, openPages: OpenPages? = nil,
    beforePublishing: ((_ files: [String: [UInt8]], _ changed: [String]?) -> Void)? = nil
  ) throws -> IncrementalBuild {
    try build(memory: memory, openPages: openPages, beforePublishing: beforePublishing)
  }

  func build(
    memory: BuildMemory?, openPages: OpenPages? = nil,
    beforePublishing: ((_ files: [String: [UInt8]], _ changed: [String]?) -> Void)? = nil
  ) throws -> IncrementalBuild {
    let started = Date()
    let engine = DiagnosticsEngine(strict: options.strict)
    func step<T>(_ step: BuildStep, _ detail: @autoclosure () -> String = "", _ body: () throws -> T) throws
      -> T
    {
      let stepStart = Date()
      let result = try engine.run(step, body)
      let milliseconds = Int(Date().timeIntervalSince(stepStart) * 1000)
      let suffix = detail()
      log(
        "[\(step.number)/\(BuildStep.count)] \(step.name)\(suffix.isEmpty ? "" : " " + suffix) (\(milliseconds) ms)"
      )
      return result
    }
    func kept(_ step: BuildStep) {
      log(
        "[\(step.number)/\(BuildStep.count)] \(step.name): kept from the last build (config and data unchanged)"
      )
    }

    let last = memory?.kept
    // Open pages handed over before the rest was rendered, with their bytes.
    let shownFirst = ShownFirst()
    let loaded = try step(.loading) {
      let loaded = try load(engine, memory: memory)
      // The names kept beside the output pass their guard here, before
      // anything is built: a link at one is an error of this step.
      try SiteWriter(output: loaded.output).removeStaleFolders(all: options.clean)
      return loaded
    }
    let (config, dataset, templates) = (loaded.config, loaded.dataset, loaded.templates)
    let writer = SiteWriter(output: loaded.output)

    let site: PreparedSite
    var index: SiteIndex?
    // A plain build's index, built while the pages that embed nothing
    // from it are rendered (`PendingIndex`).
    var pending: PendingIndex?
    var kind = IncrementalBuild.Kind.full
    var early: PageRenderer.EarlyAssets?
    defer { early?.wait() }
    defer { _ = pending?.wait() }
    if loaded.reusesData, let last {
      (site, index) = (last.site, last.index)
      kind = .templates
      kept(.preparing)
      kept(.indexing)
      engine.emit(contentsOf: site.warnings + last.index.warnings)
    } else {
      if last != nil, last?.inputs.config == loaded.inputs?.config { kind = .data }
      site = try step(.preparing) {
        let site = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: config.baseURL)
        engine.emit(contentsOf: site.warnings)
        return site
      }
      site.prepareRelatedRecords()
      dataset.releaseKeyIndexes()
      // esbuild bundles the assets while the index is built (a plain build).
      if memory == nil { early = PageRenderer.EarlyAssets(site, templates: templates) }
      // Not after a config edit: the last index may not fit the new config.
      if kind == .data, let openPages, let last {
        showBeforeIndexing(site, templates: templates, openPages, last: last, shownFirst: shownFirst, memory)
      }
      if memory == nil {
        let builder = IndexBuilder(config.index)
        pending = PendingIndex { try builder.build(site) }
      } else {
        index = try step(.indexing) {
          let index = try IndexBuilder(config.index).build(site)
          engine.emit(contentsOf: index.warnings)
          return index
        }
      }
    }
    func indexed(_ index: SiteIndex) {
      guard verbose else { return }
      log(
        "      \(site.recordCount) records from \(dataset.tables.count) tables; index: \(index.files.count) files, \(index.byteCount / 1024) KiB"
      )
    }
    if let index { indexed(index) }
    // What was reported before the render: a failure of the index built
    // beside it is reported with these, as if it had stopped the build
    // before the render began.
    let prior = engine.diagnostics
    func finishIndex(_ pending: PendingIndex) throws -> SiteIndex {
      if let index { return index }
      let waitStarted = Date()
      let built: SiteIndex
      do {
        built = try pending.wait().get()
      } catch let error as DiagnosticsError {
        var failure = DiagnosticsError(prior + Self.tagged(error.diagnostics), step: .indexing)
        failure.strict = engine.strict
        throw IndexStepFailed(error: failure)
      } catch {
        throw IndexStepFailed(error: error)
      }
      let warnings = Self.tagged(built.warnings)
      if !warnings.isEmpty && (engine.strict || warnings.contains { $0.severity == .error }) {
        var failure = DiagnosticsError(prior + warnings, step: .indexing)
        failure.strict = engine.strict
        throw IndexStepFailed(error: failure)
      }
      engine.emit(contentsOf: warnings)
      let step = BuildStep.indexing
      log("[\(step.number)/\(BuildStep.count)] \(step.name) (\(pending.milliseconds) ms)")
      indexed(built)
      if verbose {
        let waited = Int(Date().timeIntervalSince(waitStarted) * 1000)
        log("      built beside the pages that do not embed it; the render waited \(waited) ms for it")
      }
      index = built
      return built
    }
    var renderer = PageRenderer()
    renderer.bundleCache = memory?.bundles
    renderer.earlyAssets = early
    // After a template edit, only pages whose template reaches an edited
    // template (or partial, or parent) are rendered again.
    let reuse = kind == .templates ? last.map { templateReuse(last: $0, templates: templates) } : nil
    let shownIndex = index
    let first = openPages.flatMap { open in
      last.map { last in
        PageRenderer.FirstPages(
          paths: open.paths,
          ready: { pages, shared, all in
            let started = Date()
            guard let shownIndex,
              let shown = Self.openPagesReady(
                pages, shared: shared, index: shownIndex, allPages: all, last: last, shown: shownFirst.pages,
                baseURL: config.baseURL, imageOrigins: site.imageOrigins)
            else { return }
            shownFirst.add(shown)
            open.ready(shown.files, shown.changed)
            let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
            log("      open pages first: \(shown.changed.count) reloaded (checked in \(milliseconds) ms)")
          }, shouldStop: open.isSuperseded)
      }
    }
    // Not the first build: its folder may not be there yet.
    func stopIfSuperseded() throws {
      if last != nil, openPages?.isSuperseded() == true { throw Superseded() }
    }
    // A plain build checks each page as it is rendered and writes the
    // pages a batch at a time into the staging folder (the previous site,
    // updated in place), so the site's pages are never all in memory (at a
    // million records they are most of the build's peak). A preview keeps
    // every file, to compare, to show open pages first and to serve.
    let stream =
      memory == nil
      ? PageStream(writer: writer, baseURL: config.baseURL, imageOrigins: site.imageOrigins) : nil
    defer { stream?.abandon() }
    let source =
      pending.map { pending in PageRenderer.IndexSource.building { try finishIndex(pending) } }
      ?? index.map(PageRenderer.IndexSource.built)
    let rendered: PageRenderer.Output
    do {
      rendered = try step(.rendering, reuse == nil ? "" : "(changed templates only)") {
        try renderer.render(
          site, index: source ?? .building { throw DiagnosticsError([]) }, templates: templates,
          previewScript: options.previewScript, reusing: reuse, first: first, stream: stream)
      }
    } catch let failed as IndexStepFailed {
      throw failed.error
    } catch var error as DiagnosticsError {
      // A render stopped before the index was waited for: the index's
      // problems come first, as in a build that makes it before the pages.
      guard let pending, index == nil else { throw error }
      do { _ = try finishIndex(pending) } catch let failed as IndexStepFailed { throw failed.error }
      let warnings = Self.tagged(index?.warnings ?? [])
      if error.diagnostics.starts(with: prior) {
        error.diagnostics = prior + warnings + error.diagnostics.dropFirst(prior.count)
      }
      throw error
    }
    guard let index else { preconditionFailure("the render waits for the index") }
    if reuse != nil { log("      \(rendered.renderedCount) of \(rendered.pageCount) pages rendered") }
    let files = index.files + rendered.files
    try stopIfSuperseded()
    try step(.validating) {
      do {
        if let stream {
          engine.emit(contentsOf: try stream.validate(otherFiles: files))
          return
        }
        engine.emit(
          contentsOf: try SiteValidator(imageOrigins: site.imageOrigins).validate(
            files: files, pages: rendered.pages, baseURL: config.baseURL, reusing: memory?.reports))
      } catch let error as DiagnosticsError {
        let failed = Set(error.diagnostics.filter { $0.severity == .error }.compactMap(\.location?.file))
        throw DiagnosticsError(
          templates.blameUnescapedTags(
            forPages: rendered.pages.filter(failed.contains), templateOfPage: rendered.templateOfPage)
            + error.diagnostics)
      }
    }
    var filesByPath: [String: [UInt8]] = [:]
    var changed: [String]?
    if memory != nil {
      for file in files { filesByPath[file.path] = file.bytes }
      changed = last.map { BuildMemory.changes(from: $0.files, to: filesByPath) }
    }
    try stopIfSuperseded()
    if let changed, changed.isEmpty, FileManager.default.fileExists(atPath: writer.outputPath) {
      log("[\(BuildStep.publishing.number)/\(BuildStep.count)] \(BuildStep.publishing.name): no file changed")
    } else {
      let shown = shownFirst.pages
      if memory != nil { beforePublishing?(filesByPath, changed?.filter { shown[$0] != filesByPath[$0] }) }
      var published = SiteWriter.Report()
      try step(.publishing, "to \(options.outputPath)") {
        if let stream {
          engine.emit(contentsOf: try stream.publish(otherFiles: files))
          published = stream.report
        } else {
          engine.emit(contentsOf: try writer.publish(files, report: &published))
        }
      }
      if verbose {
        log(
          "      \(published.written) files written, \(published.kept + published.linked) unchanged (\(published.kept) kept from the previous site, \(published.linked) linked from the live one)"
        )
      }
    }
    if let memory, let inputs = loaded.inputs {
      memory.kept = BuildMemory.Kept(
        inputs: inputs, dataset: dataset, site: site, index: index, templates: templates, rendered: rendered,
        files: filesByPath)
    }
    var summary = BuildSummary(
      pages: rendered.pageCount, records: site.recordCount, indexBytes: index.byteCount,
      seconds: Date().timeIntervalSince(started), warnings: engine.warnings)
    summary.contentSecurityPolicy = site.contentSecurityPolicy
    summary.copiesLocalImages = !site.imageFiles.isEmpty
    return IncrementalBuild(summary: summary, kind: kind, changedFiles: changed)
  }

  /// The index's problems, tagged as its step would tag them.
  static func tagged(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.map { diagnostic in
      var diagnostic = diagnostic
      if diagnostic.step == nil { diagnostic.step = .indexing }
      return diagnostic
    }
  }

  /// The index built beside the render stopped the build: passed through
  /// the rendering step untouched (it is not a `DiagnosticsError`).
  struct IndexStepFailed: Error {
    var error: any Error
  }

  /// After a data edit, building the index takes longest: the open pages
  /// are rendered from the new records before it, naming the last build's
  /// index (whose files the server still has), and shown at once. They
  /// reload again once the index is built, with the bytes a cold build
  /// writes. Any problem here is left to the full render to report.
  func showBeforeIndexing(
    _ site: PreparedSite, templates: TemplateSet, _ openPages: OpenPages, last: BuildMemory.Kept,
    shownFirst: ShownFirst, _ memory: BuildMemory?
  ) {
    guard !openPages.paths.isEmpty else { return }
    let started = Date()
    var renderer = PageRenderer()
    renderer.bundleCache = memory?.bundles
    let first = PageRenderer.FirstPages(
      paths: openPages.paths,
      ready: { pages, shared, all in
        guard
          let shown = Self.openPagesReady(
            pages, shared: shared, index: last.index, allPages: all, last: last, shown: [:],
            baseURL: site.config.baseURL, imageOrigins: site.imageOrigins)
        else { return }
        shownFirst.add(shown)
        openPages.ready(shown.files, shown.changed)
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        log("      open pages before the index: \(shown.changed.count) reloaded (\(milliseconds) ms)")
      }, only: true)
    _ = try? renderer.render(
      site, index: last.index, templates: templates, previewScript: options.previewScript, reusing: nil,
      first: first)
  }

  /// The site to show while the rest of it renders: the last good site
  /// with the open pages that changed, the shared files and the index
  /// replaced. Nil when no open page changed (from the last build, and
  /// from what was `shown` of it already), or one fails its own checks
  /// (libxml2, and its links against the files this build will write):
  /// the whole site's validation then reports it as usual.
  static func openPagesReady(
    _ pages: [(path: String, bytes: [UInt8])], shared: [(path: String, bytes: [UInt8])], index: SiteIndex,
    allPages: [String], last: BuildMemory.Kept, shown: [String: [UInt8]], baseURL: String,
    imageOrigins: [String] = []
  ) -> (files: [String: [UInt8]], changed: [String])? {
    let changed = pages.filter { last.files[$0.path] != $0.bytes && shown[$0.path] != $0.bytes }
    guard !changed.isEmpty, let basePath = try? BasePath(baseURL) else { return nil }
    let validator = HTMLValidator(imageOrigins: imageOrigins)
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
  func templateReuse(last: BuildMemory.Kept, templates: TemplateSet) -> PageRenderer.Reuse {
    let edited = templates.changedTemplates(since: last.templates)
    var mayChange: [String: Bool] = [:]
    for name in Set(last.rendered.templateOfPage.values) {
      mayChange[name] = templates.templates(reachableFrom: name).map { !$0.isDisjoint(with: edited) } ?? true
    }
    return PageRenderer.Reuse(
      assetsFolder: last.rendered.assetsFolder, modulePreloads: last.rendered.modulePreloads,
      pages: last.files, mayChange: { mayChange[$0] ?? true })
  }

  /// Step 1: the config, then — each reporting every problem it finds —
  /// the output folder, the data, the templates, and the config's
  /// cross-references.
  func load(_ engine: DiagnosticsEngine, memory: BuildMemory? = nil) throws -> Loaded {
    // Read before the loaders: an edit saved in between then shows as a
    // change to the next build, never as a stale copy taken for current.
    let configText = memory.map { _ in BuildMemory.read(options.configPath) }
    var config = try ConfigLoader().load(path: options.configPath)
    if let baseURL = options.baseURL {
      do {
        config.baseURL = try BasePath(baseURL).path
      } catch {
        engine.emit(.error(at: nil, "--base-url '\(baseURL)': \(error)"))
      }
    }
    let templateFolders = config.templates.map(config.resolve)
    let output = checkOutput(config, templateFolders: templateFolders, engine)
    var dataset: Dataset?
    var templates: TemplateSet?
    var inputs: BuildMemory.Inputs?
    var reusesData = false
    if let memory, let configText {
      let current = BuildMemory.Inputs(
        config: configText, data: BuildMemory.stamps(of: config, previous: memory.kept?.inputs.data ?? [:]))
      inputs = current
      if let last = memory.kept, last.inputs == current {
        dataset = last.dataset
        reusesData = true
      }
    }
    if !reusesData {
      do { dataset = try DatasetLoader().load(config) } catch let error as DiagnosticsError {
        engine.emit(contentsOf: error.diagnostics)
      }
    }
    do {
      templates = try TemplateSet.load(directories: templateFolders, builtIn: config.builtInTheme)
    } catch let error as DiagnosticsError {
      engine.emit(contentsOf: error.diagnostics)
    }
    engine.emit(contentsOf: ConfigChecker(config: config, templates: templates).check())
    guard let dataset, let templates, let output, !engine.mustStop else { throw DiagnosticsError([]) }
    return Loaded(
      config: config, dataset: dataset, templates: templates, output: output, inputs: inputs,
      reusesData: reusesData)
  }

  /// The output folder, checked before anything is built: the publishing
  /// step may only replace a folder that passed (`SiteWriter` takes
  /// nothing else).
  func checkOutput(_ config: SiteConfig, templateFolders: [String], _ engine: DiagnosticsEngine)
    -> OutputFolder?
  {
    do {
      return try OutputFolder(
        options.outputPath, protecting: protectedFolders(config, templates: templateFolders),
        force: options.force)
    } catch {
      engine.emit(contentsOf: error.diagnostics)
      return nil
    }
  }

  /// The folders a build reads: the site must never replace them.
  func protectedFolders(_ config: SiteConfig, templates: [String]) -> [OutputFolder.Protected] {
    var folders = [
      OutputFolder.Protected(path: config.directory, what: "the config's folder", mayHoldOutput: true)
    ]
    let project = config.resolve(".")
    for table in config.tables {
      guard let file = table.file else { continue }
      let folder = (config.resolve(file) as NSString).deletingLastPathComponent
      // Data kept beside the config (one folder for everything) may hold
      // the output too; a folder of its own, such as Data/chinook, may not.
      let isProject = PathContainment.isPath(project, inside: folder)
      folders.append(
        .init(path: folder, what: "the data folder of table '\(table.name)'", mayHoldOutput: isProject))
    }
    for folder in templates {
      folders.append(.init(path: folder, what: "the template folder", mayHoldOutput: false))
    }
    return folders
  }
}

extension SiteConfig {
  /// A path from the config, relative to the config's folder.
  func resolve(_ path: String) -> String {
    URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory + "/")).standardizedFileURL.path
  }
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
