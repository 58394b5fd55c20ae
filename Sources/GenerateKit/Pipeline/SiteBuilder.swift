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
  public func build() throws -> BuildSummary {
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

    let loaded = try step(.loading) { try load(engine) }
    let (config, dataset, templates) = (loaded.config, loaded.dataset, loaded.templates)
    let writer = SiteWriter(output: loaded.output)
    writer.removeStaleFolders(all: options.clean)

    let site = try step(.preparing) {
      let site = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: config.baseURL)
      engine.emit(contentsOf: site.warnings)
      return site
    }
    site.prepareRelatedRecords()
    dataset.releaseKeyIndexes()
    let index = try step(.indexing) {
      let index = try IndexBuilder(config.index).build(site)
      engine.emit(contentsOf: index.warnings)
      return index
    }
    if verbose {
      log(
        "      \(site.recordCount) records from \(dataset.tables.count) tables; index: \(index.files.count) files, \(index.byteCount / 1024) KiB"
      )
    }
    let rendered = try step(.rendering) {
      try PageRenderer().render(
        site, index: index, templates: templates, previewScript: options.previewScript)
    }
    let files = index.files + rendered.files
    try step(.validating) {
      do {
        engine.emit(
          contentsOf: try SiteValidator().validate(
            files: files, pages: rendered.pages, baseURL: config.baseURL))
      } catch let error as DiagnosticsError {
        let failed = Set(error.diagnostics.filter { $0.severity == .error }.compactMap(\.location?.file))
        throw DiagnosticsError(
          templates.blameUnescapedTags(
            forPages: rendered.pages.filter(failed.contains), templateOfPage: rendered.templateOfPage)
            + error.diagnostics)
      }
    }
    var published = SiteWriter.Report()
    try step(.publishing, "to \(options.outputPath)") {
      engine.emit(contentsOf: try writer.publish(files, report: &published))
    }
    if verbose {
      log(
        "      \(published.written) files written, \(published.kept + published.linked) unchanged (\(published.kept) kept from the previous site, \(published.linked) linked from the live one)"
      )
    }
    return BuildSummary(
      pages: rendered.pageCount, records: site.recordCount, indexBytes: index.byteCount,
      seconds: Date().timeIntervalSince(started), warnings: engine.warnings)
  }

  /// Step 1: the config, then — each reporting every problem it finds —
  /// the output folder, the data, the templates, and the config's
  /// cross-references.
  func load(_ engine: DiagnosticsEngine) throws -> Loaded {
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
    do { dataset = try DatasetLoader().load(config) } catch let error as DiagnosticsError {
      engine.emit(contentsOf: error.diagnostics)
    }
    do {
      templates = try TemplateSet.load(directories: templateFolders, builtIn: config.builtInTheme)
    } catch let error as DiagnosticsError {
      engine.emit(contentsOf: error.diagnostics)
    }
    engine.emit(contentsOf: ConfigChecker(config: config, templates: templates).check())
    guard let dataset, let templates, let output, !engine.mustStop else { throw DiagnosticsError([]) }
    return Loaded(config: config, dataset: dataset, templates: templates, output: output)
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
