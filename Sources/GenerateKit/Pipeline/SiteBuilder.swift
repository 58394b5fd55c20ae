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
    /// What the config and the data files held when they were read, for
    /// the next preview build to compare with.
    var inputs: BuildMemory.Inputs?
    /// The dataset, config and data files are those of the last good
    /// build: its prepared documents and index hold.
    var reusesData = false
  }

  /// Builds and publishes the site. Throws `DiagnosticsError` and leaves
  /// the previous output untouched on any failure.
  public func build() throws -> BuildSummary {
    try build(memory: nil).summary
  }

  /// Builds like `build()`, redoing only what changed since the last good
  /// build kept in `memory` (see `BuildMemory`), and says which files
  /// changed. On failure `memory` keeps the last good build.
  ///
  /// `beforePublishing` is given every file of the checked site and the
  /// changed paths just before they are written (see
  /// `PreviewServer.BuildProgress`).
  public func build(
    keeping memory: BuildMemory,
    beforePublishing: ((_ files: [String: [UInt8]], _ changed: [String]?) -> Void)? = nil
  ) throws -> IncrementalBuild {
    try build(memory: memory, beforePublishing: beforePublishing)
  }

  func build(
    memory: BuildMemory?,
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
    let loaded = try step(.loading) { try load(engine, memory: memory) }
    let (config, dataset, templates) = (loaded.config, loaded.dataset, loaded.templates)
    let writer = SiteWriter(output: loaded.output)
    writer.removeStaleFolders(all: options.clean)

    let site: PreparedSite
    let index: SiteIndex
    var kind = IncrementalBuild.Kind.full
    if loaded.reusesData, let last {
      (site, index) = (last.site, last.index)
      kind = .templates
      kept(.preparing)
      kept(.indexing)
      engine.emit(contentsOf: site.warnings + index.warnings)
    } else {
      if last != nil, last?.inputs.config == loaded.inputs?.config { kind = .data }
      site = try step(.preparing) {
        let site = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: config.baseURL)
        engine.emit(contentsOf: site.warnings)
        return site
      }
      site.prepareRelatedRecords()
      dataset.releaseKeyIndexes()
      index = try step(.indexing) {
        let index = try IndexBuilder(config.index).build(site)
        engine.emit(contentsOf: index.warnings)
        return index
      }
    }
    if verbose {
      log(
        "      \(site.recordCount) records from \(dataset.tables.count) tables; index: \(index.files.count) files, \(index.byteCount / 1024) KiB"
      )
    }
    var renderer = PageRenderer()
    renderer.bundleCache = memory?.bundles
    // After a template edit, only pages whose template reaches an edited
    // template (or partial, or parent) are rendered again.
    let reuse = kind == .templates ? last.map { templateReuse(last: $0, templates: templates) } : nil
    let rendered = try step(.rendering, reuse == nil ? "" : "(changed templates only)") {
      try renderer.render(
        site, index: index, templates: templates, previewScript: options.previewScript, reusing: reuse)
    }
    if reuse != nil { log("      \(rendered.renderedCount) of \(rendered.pageCount) pages rendered") }
    let files = index.files + rendered.files
    try step(.validating) {
      do {
        engine.emit(
          contentsOf: try SiteValidator().validate(
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
    if let changed, changed.isEmpty, FileManager.default.fileExists(atPath: writer.outputPath) {
      log("[\(BuildStep.publishing.number)/\(BuildStep.count)] \(BuildStep.publishing.name): no file changed")
    } else {
      if memory != nil { beforePublishing?(filesByPath, changed) }
      var published = SiteWriter.Report()
      try step(.publishing, "to \(options.outputPath)") {
        engine.emit(contentsOf: try writer.publish(files, report: &published))
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
    let summary = BuildSummary(
      pages: rendered.pageCount, records: site.recordCount, indexBytes: index.byteCount,
      seconds: Date().timeIntervalSince(started), warnings: engine.warnings)
    return IncrementalBuild(summary: summary, kind: kind, changedFiles: changed)
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
