import Foundation

/// One build's context, which every step runs over: the options, the
/// diagnostics engine every step reports into, and the progress lines.
final class BuildRun: Sendable {
  let options: BuildOptions
  let engine: DiagnosticsEngine
  let log: @Sendable (String) -> Void
  /// Adds record and index counts to the progress lines.
  let verbose: Bool
  let started = Date()

  init(options: BuildOptions, log: @escaping @Sendable (String) -> Void, verbose: Bool) {
    self.options = options
    self.engine = DiagnosticsEngine(strict: options.strict)
    self.log = log
    self.verbose = verbose
  }

  /// Runs one step through the engine (see `DiagnosticsEngine.run`) and
  /// says how long it took: `[4/6] Rendering pages (812 ms)`.
  func step<T>(_ step: BuildStep, _ detail: @autoclosure () -> String = "", _ body: () throws -> T) throws
    -> T
  {
    let stepStart = Date()
    let result = try engine.run(step, body)
    done(step, detail(), since: stepStart)
    return result
  }

  /// The line of a step that ended at `end` (now by default).
  func done(_ step: BuildStep, _ detail: String = "", since start: Date, end: Date = Date()) {
    let milliseconds = Int(end.timeIntervalSince(start) * 1000)
    log(
      "[\(step.number)/\(BuildStep.count)] \(step.name)\(detail.isEmpty ? "" : " " + detail) (\(milliseconds) ms)"
    )
  }

  /// A line of detail under the step lines, with `--verbose` only.
  func detail(_ line: @autoclosure () -> String) {
    if verbose { log("      " + line()) }
  }

  /// The summary of a build that made `site` with `rendered` and `index`.
  func summary(_ site: PreparedSite, _ rendered: PageRenderer.Output, _ index: SiteIndex) -> BuildSummary {
    var summary = BuildSummary(
      pages: rendered.pageCount, records: site.recordCount, indexBytes: index.byteCount,
      seconds: Date().timeIntervalSince(started), warnings: engine.warnings)
    summary.contentSecurityPolicy = PreparedSite.contentSecurityPolicy(
      imageOrigins: site.imageOrigins, styleHashes: rendered.styleHashes)
    summary.copiesLocalImages = !site.imageFiles.isEmpty
    return summary
  }
}
