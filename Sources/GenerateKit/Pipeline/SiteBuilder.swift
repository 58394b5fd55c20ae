import Foundation

/// Runs the whole pipeline for one site: load data → prepare documents →
/// build the index → render pages → validate → publish.
public struct SiteBuilder: Sendable {
  public var options: BuildOptions
  public var log: @Sendable (String) -> Void

  public init(options: BuildOptions, log: @escaping @Sendable (String) -> Void = { print($0) }) {
    self.options = options
    self.log = log
  }

  /// Builds and publishes the site. Throws `DiagnosticsError` and leaves
  /// the previous output untouched on any failure.
  public func build() throws -> BuildSummary {
    throw DiagnosticsError(.error(at: nil, "not implemented yet"))
  }
}
