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

  public init(_ severity: Severity = .error, at location: SourceLocation?, _ message: String) {
    self.severity = severity
    self.location = location
    self.message = message
  }

  public static func error(at location: SourceLocation?, _ message: String) -> Diagnostic {
    Diagnostic(.error, at: location, message)
  }

  public var description: String {
    guard let location else { return "\(severity.rawValue): \(message)" }
    return "\(location): \(severity.rawValue): \(message)"
  }
}

/// A build step's failure: every diagnostic it could collect before giving up.
public struct DiagnosticsError: Error, Hashable, Sendable, CustomStringConvertible {
  public var diagnostics: [Diagnostic]
  /// The pipeline step that failed ("Loading data", "Validating pages"…), if known.
  public var step: String?

  public init(_ diagnostics: [Diagnostic], step: String? = nil) {
    self.diagnostics = diagnostics
    self.step = step
  }

  public init(_ diagnostic: Diagnostic, step: String? = nil) {
    self.init([diagnostic], step: step)
  }

  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }
}
