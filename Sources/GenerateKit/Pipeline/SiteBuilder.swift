import Foundation

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
  }

  /// Builds and publishes the site. Throws `DiagnosticsError` and leaves
  /// the previous output untouched on any failure.
  ///
  /// With `options.usesBuildRecord`, a build whose inputs and published site
  /// are as the last one recorded returns at once (`BuildRecord`).
  public func build() throws -> BuildSummary {
    guard options.usesBuildRecord else { return try buildSite(output: resolvedOutput()) }
    let started = Date()
    // Taken before anything is loaded: an edit saved during the build then
    // shows as a change to the next one.
    return try build(fingerprinted: BuildRecord.fingerprint(for: options), started: started)
  }

  /// The output's path, resolved once (`OutputFolder.resolve`); its
  /// failure is step 1's to report.
  func resolvedOutput() -> Result<String, DiagnosticsError> {
    Result { () throws(DiagnosticsError) in try OutputFolder.resolve(options.outputPath) }
  }

  /// Steps 1 to 6, from the inputs to the published site. The index is
  /// built on a thread of its own while the pages that embed nothing from
  /// it are rendered, checked and staged a batch at a time (the site's
  /// pages are never all in memory: at a million records they are most of
  /// the build's peak); esbuild bundles the assets meanwhile.
  func buildSite(output: Result<String, DiagnosticsError>) throws -> BuildSummary {
    IndexStep.limitArenas
    let run = BuildRun(options: options, log: log, verbose: verbose)
    let loaded = try run.step(.loading) { try load(run, output: output) }
    let site = try prepare(loaded, run)
    var renderer = PageRenderer()
    renderer.browsePagesAfterIndexFrom = options.browsePagesAfterIndexFrom
    renderer.earlyAssets = PageRenderer.EarlyAssets(site, templates: loaded.templates)
    defer { renderer.earlyAssets?.wait() }
    // The index's files wait on disk, not in memory, from the stage that
    // makes them until publishing (`IndexSpool`): beside the output, on the
    // disk the site goes to (`/tmp` may be memory), else in `TMPDIR`.
    let spool =
      try (try? IndexSpool(in: (loaded.output.path as NSString).deletingLastPathComponent)) ?? IndexSpool()
    let index = IndexStep(
      beside: site, config: loaded.config, spool: spool, replacing: loaded.output.path, in: run)
    defer { index.finish() }
    let sink = StagingPageSink(
      writer: SiteWriter(output: loaded.output), baseURL: site.baseURL, imageOrigins: site.imageOrigins)
    defer { sink.abandon() }
    let rendered = try render(site, loaded.templates, index: index, with: renderer, into: sink, run)
    for line in loaded.templates.genericReads.lines(templateCount: loaded.templates.names.count) {
      run.detail(line)
    }
    let built = try index.wait()
    try site.documents.checkReads()
    try validate(loaded.templates, rendered, run) {
      try sink.validate(index: built, otherFiles: rendered.files)
    }
    try run.step(.publishing, "to \(options.outputPath)") {
      run.engine.emit(contentsOf: try sink.publish(index: built, otherFiles: rendered.files))
    }
    run.detail(sink.report.description)
    return run.summary(site, rendered, built)
  }

  /// Step 2: one document per record.
  func prepare(_ loaded: Loaded, _ run: BuildRun) throws -> PreparedSite {
    let site = try run.step(.preparing) {
      let site = try DocumentBuilder().prepare(
        loaded.config, dataset: loaded.dataset, baseURL: loaded.config.baseURL, releasingLookups: true)
      run.engine.emit(contentsOf: site.warnings)
      return site
    }
    // What only pages and document shards show goes to disk for a large
    // site (`DocumentStore`), beside the output like the index's spool.
    site.documents.seal(
      spillingTo: (loaded.output.path as NSString).deletingLastPathComponent,
      from: options.documentsOnDiskFrom)
    // What loading and preparing freed is handed back before the index is
    // built on threads of their own: their allocations come from arenas
    // of their own, which cannot reuse the main thread's free memory, so
    // without this the two add up at the build's peak.
    IndexStep.trimMemory()
    return site
  }

  /// Step 4: every page into `sink`. When the render fails before the
  /// index was waited for, the index's problems come first, as in a build
  /// that makes it before the pages.
  func render(
    _ site: PreparedSite, _ templates: TemplateSet, index: IndexStep, with renderer: PageRenderer,
    into sink: some PageSink, _ run: BuildRun, detail: String = ""
  ) throws -> PageRenderer.Output {
    try run.step(.rendering, detail) {
      do {
        templates.clearRenderProblems()
        let output = try renderer.render(
          site, index: index, templates: templates, previewScript: options.previewScript, into: sink)
        try templates.checkEndlessPartials()
        return output
      } catch let error as DiagnosticsError where error.step == nil {
        _ = try index.wait()
        throw error
      }
    }
  }

  /// Step 5: `check` finds the pages' problems; a page that fails names
  /// the template tags that wrote into it unescaped.
  func validate(
    _ templates: TemplateSet, _ rendered: PageRenderer.Output, _ run: BuildRun,
    _ check: () throws -> [Diagnostic]
  ) throws {
    try run.step(.validating) {
      do {
        run.engine.emit(contentsOf: try check())
      } catch let error as DiagnosticsError {
        let failed = Set(error.diagnostics.filter { $0.severity == .error }.compactMap(\.location?.file))
        throw DiagnosticsError(
          templates.blameUnescapedTags(
            forPages: rendered.pages.filter(failed.contains), templateOfPage: rendered.templateOfPage)
            + error.diagnostics)
      }
    }
  }

  /// Step 1: the config, then — each reporting every problem it finds —
  /// the output folder, the data (or `loaded`'s dataset, when it gives one
  /// for this config), the templates, and the config's cross-references.
  /// The names kept beside the output pass their guard here, before
  /// anything is built: a link at one is an error of this step.
  func load(
    _ run: BuildRun, output resolved: Result<String, DiagnosticsError>,
    dataset loaded: (SiteConfig) -> Dataset? = { _ in nil }
  ) throws -> Loaded {
    let engine = run.engine
    var config = try ConfigLoader().load(path: options.configPath)
    if let baseURL = options.baseURL {
      do {
        config.baseURL = try BasePath(baseURL).path
      } catch {
        engine.emit(.error(at: nil, "--base-url '\(baseURL)': \(error)"))
      }
    }
    let templateFolders = config.templates.map(config.resolve)
    let output = checkOutput(config, resolved, templateFolders: templateFolders, engine)
    var dataset = loaded(config)
    if dataset == nil {
      do { dataset = try DatasetLoader().load(config) } catch let error as DiagnosticsError {
        engine.emit(contentsOf: error.diagnostics)
      }
    }
    // Text the loader mended (a C1 control dropped), said on every build.
    engine.emit(contentsOf: dataset?.warnings ?? [])
    var templates: TemplateSet?
    do {
      templates = try TemplateSet.load(directories: templateFolders, builtIn: config.builtInTheme)
    } catch let error as DiagnosticsError {
      engine.emit(contentsOf: error.diagnostics)
    }
    engine.emit(contentsOf: ConfigChecker(config: config, templates: templates).check())
    guard let dataset, let templates, let output, !engine.mustStop else { throw DiagnosticsError([]) }
    try SiteWriter(output: output).removeStaleFolders(all: options.clean)
    return Loaded(config: config, dataset: dataset, templates: templates, output: output)
  }

  /// The output folder, checked before anything is built: the publishing
  /// step may only replace a folder that passed (`SiteWriter` takes
  /// nothing else).
  func checkOutput(
    _ config: SiteConfig, _ resolved: Result<String, DiagnosticsError>, templateFolders: [String],
    _ engine: DiagnosticsEngine
  ) -> OutputFolder? {
    do {
      return try OutputFolder(
        options.outputPath, resolved: resolved.get(),
        protecting: protectedFolders(config, templates: templateFolders),
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
