import Foundation

/// Runs the whole pipeline for one site: load data → prepare documents →
/// build the index → render pages → validate → publish. Each step is named
/// in the progress output and in any error it raises.
public struct SiteBuilder: Sendable {
  public var options: BuildOptions
  public var log: @Sendable (String) -> Void
  /// Adds counts to the progress lines.
  public var verbose = false

  public init(options: BuildOptions, log: @escaping @Sendable (String) -> Void = { print($0) }) {
    self.options = options
    self.log = log
  }

  static let stepCount = 6

  /// Builds and publishes the site. Throws `DiagnosticsError` and leaves
  /// the previous output untouched on any failure.
  public func build() throws -> BuildSummary {
    let started = Date()
    var number = 0
    func step<T>(_ name: String, _ detail: @autoclosure () -> String = "", _ body: () throws -> T) throws -> T {
      number += 1
      let stepStart = Date()
      do {
        let result = try body()
        let milliseconds = Int(Date().timeIntervalSince(stepStart) * 1000)
        let suffix = detail()
        log("[\(number)/\(Self.stepCount)] \(name)\(suffix.isEmpty ? "" : " " + suffix) (\(milliseconds) ms)")
        return result
      } catch var error as DiagnosticsError {
        error.step = name
        throw error
      }
    }

    let writer = SiteWriter(outputPath: options.outputPath)
    if options.clean { try writer.removeStaleFolders() }

    let (config, dataset, templates) = try step("Loading data") {
      var config = try ConfigLoader().load(path: options.configPath)
      if let baseURL = options.baseURL { config.baseURL = Self.normalizedBase(baseURL) }
      let templateFolders = config.templates.map {
        URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: config.directory + "/")).path
      }
      var diagnostics: [Diagnostic] = []
      var dataset: Dataset?
      var templates: TemplateSet?
      do { dataset = try DatasetLoader().load(config) } catch let error as DiagnosticsError { diagnostics += error.diagnostics }
      do { templates = try TemplateSet.load(directories: templateFolders) } catch let error as DiagnosticsError { diagnostics += error.diagnostics }
      guard let dataset, let templates else { throw DiagnosticsError(diagnostics) }
      return (config, dataset, templates)
    }
    let site = try step("Preparing documents") {
      try DocumentBuilder().prepare(config, dataset: dataset, baseURL: config.baseURL)
    }
    dataset.releaseKeyIndexes()
    let index = try step("Building index") { IndexBuilder().build(site) }
    if verbose {
      log("      \(site.recordCount) records from \(dataset.tables.count) tables; index: \(index.files.count) files, \(index.byteCount / 1024) KiB")
    }
    let rendered = try step("Rendering pages") {
      try PageRenderer().render(site, index: index, templates: templates, previewScript: options.previewScript)
    }
    let files = index.files + rendered.files
    try step("Validating pages") {
      try SiteValidator().validate(files: files, pages: rendered.pages, baseURL: config.baseURL)
    }
    try step("Publishing", "to \(options.outputPath)") { try writer.publish(files) }
    number = Self.stepCount
    return BuildSummary(
      pages: rendered.pageCount, records: site.recordCount, indexBytes: index.byteCount,
      seconds: Date().timeIntervalSince(started))
  }

  static func normalizedBase(_ base: String) -> String {
    var base = base
    if !base.hasPrefix("/") { base = "/" + base }
    if !base.hasSuffix("/") { base += "/" }
    return base
  }
}
