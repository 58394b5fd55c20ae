import Foundation

/// Where every stage of a build reports its problems. The engine tags each
/// diagnostic with the step that found it, keeps them in the order found,
/// and decides whether the build may go on; `DiagnosticPrinter` shows them.
///
/// Errors stop the build after the step that found them. Warnings — a
/// mistake that still gives a working site, such as a scope that matches
/// no record — are collected and shown with the result; under `strict`
/// (CI's `--strict`) they stop the build as errors do.
/// Thread-safe: stages that work on all cores report from any thread.
public final class DiagnosticsEngine: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [Diagnostic] = []
  /// The step now running; diagnostics reported without one get it.
  public private(set) var step: BuildStep?
  /// Whether a warning fails the build.
  public let strict: Bool

  public init(strict: Bool = false) {
    self.strict = strict
  }

  public var diagnostics: [Diagnostic] { lock.withLock { collected } }

  public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

  /// Whether the build must stop: an error, or under `strict` a warning.
  public var mustStop: Bool {
    lock.withLock { collected.contains { $0.severity == .error || strict } }
  }

  public func emit(_ diagnostic: Diagnostic) {
    lock.withLock {
      var diagnostic = diagnostic
      if diagnostic.step == nil { diagnostic.step = step }
      collected.append(diagnostic)
    }
  }

  public func emit(contentsOf diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics { emit(diagnostic) }
  }

  /// Runs one step: whatever it throws as `DiagnosticsError` is reported
  /// under its name, and the build stops after a step that found errors
  /// (or, under `strict`, warnings).
  public func run<T>(_ step: BuildStep, _ body: () throws -> T) throws -> T {
    lock.withLock { self.step = step }
    let result: T
    do {
      result = try body()
    } catch let error as DiagnosticsError where error.step != nil {
      // Another step's failure, already reported (the index built beside
      // the render): passed on as it is.
      throw error
    } catch let error as DiagnosticsError {
      emit(contentsOf: error.diagnostics)
      throw failure(in: step)
    }
    if mustStop { throw failure(in: step) }
    return result
  }

  /// Reports what a step that runs beside another found (the index, built
  /// while the pages render), tagged with its own step; when the build must
  /// stop, throws that step's failure, which `run` passes on untouched.
  public func report(_ step: BuildStep, _ diagnostics: [Diagnostic]) throws {
    emit(
      contentsOf: diagnostics.map { diagnostic in
        var diagnostic = diagnostic
        if diagnostic.step == nil { diagnostic.step = step }
        return diagnostic
      })
    if mustStop { throw failure(in: step) }
  }

  private func failure(in step: BuildStep?) -> DiagnosticsError {
    var error = DiagnosticsError(
      diagnostics.map { diagnostic in
        var diagnostic = diagnostic
        if diagnostic.step == nil { diagnostic.step = step }
        return diagnostic
      }, step: step)
    error.strict = strict
    return error
  }
}
