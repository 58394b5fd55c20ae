/// One problem found while building a site, printed compiler-style so that
/// terminals and editors can jump to it: `Data/x.csv:12:4: error: …`.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Severity: String, Hashable, Sendable {
    case error
    case warning
  }

  public var severity: Severity
  public var location: SourceLocation?
  public var message: String
  /// The pipeline step that found it; set by `DiagnosticsEngine`.
  public var step: BuildStep?

  public init(_ severity: Severity = .error, at location: SourceLocation?, _ message: String) {
    self.severity = severity
    self.location = location
    self.message = message
  }

  public static func error(at location: SourceLocation?, _ message: String) -> Diagnostic {
    Diagnostic(.error, at: location, message)
  }

  public static func warning(at location: SourceLocation?, _ message: String) -> Diagnostic {
    Diagnostic(.warning, at: location, message)
  }

  /// One line whatever the message quotes: a name from the data with a
  /// line break in it (a file called `a⏎error: …`) is shown as `a\nerror: …`
  /// and cannot forge a line of the output or move the terminal's cursor.
  public var description: String {
    let message = ControlEscapes.escaped(message)
    guard let location else { return "\(severity.rawValue): \(message)" }
    return "\(ControlEscapes.escaped(location.description)): \(severity.rawValue): \(message)"
  }
}

/// A stage's failure: every diagnostic it could collect before giving up.
/// Stages throw it; `DiagnosticsEngine` tags it with the step at the step's
/// boundary, and `DiagnosticPrinter` is the one way it is shown.
public struct DiagnosticsError: Error, Hashable, Sendable, CustomStringConvertible {
  public var diagnostics: [Diagnostic]
  /// The pipeline step that failed, once the engine has tagged it.
  public var step: BuildStep?
  /// Whether warnings failed the build too (`--strict`).
  public var strict = false

  public init(_ diagnostics: [Diagnostic], step: BuildStep? = nil) {
    self.diagnostics = diagnostics
    self.step = step
  }

  public init(_ diagnostic: Diagnostic, step: BuildStep? = nil) {
    self.init([diagnostic], step: step)
  }

  /// The diagnostics as the terminal shows them (capped per file).
  public var description: String {
    DiagnosticPrinter().lines(for: diagnostics).joined(separator: "\n")
  }
}
