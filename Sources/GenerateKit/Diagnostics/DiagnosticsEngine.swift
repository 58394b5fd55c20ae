import Foundation

/// Where every stage of a build reports its problems. The engine tags each
/// diagnostic with the step that found it, keeps them in the order found,
/// and decides whether the build may go on; `DiagnosticPrinter` shows them.
/// Thread-safe: stages that work on all cores report from any thread.
public final class DiagnosticsEngine: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [Diagnostic] = []
  /// The step now running; diagnostics reported without one get it.
  public private(set) var step: BuildStep?

  public init() {}

  public var diagnostics: [Diagnostic] { lock.withLock { collected } }

  public var hasErrors: Bool { lock.withLock { collected.contains { $0.severity == .error } } }

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
  /// under its name, and the build stops after a step that found errors.
  public func run<T>(_ step: BuildStep, _ body: () throws -> T) throws -> T {
    lock.withLock { self.step = step }
    let result: T
    do {
      result = try body()
    } catch let error as DiagnosticsError {
      emit(contentsOf: error.diagnostics)
      throw failure(in: step)
    }
    if hasErrors { throw failure(in: step) }
    return result
  }

  /// Stops the build if anything reported so far is an error.
  public func check() throws {
    if hasErrors { throw failure(in: step) }
  }

  private func failure(in step: BuildStep?) -> DiagnosticsError {
    DiagnosticsError(
      diagnostics.map { diagnostic in
        var diagnostic = diagnostic
        if diagnostic.step == nil { diagnostic.step = step }
        return diagnostic
      }, step: step)
  }
}
