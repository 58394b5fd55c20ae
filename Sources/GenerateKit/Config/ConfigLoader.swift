import Foundation
import Yams

/// Reads a site configuration, rejecting unknown keys and missing required
/// ones with the line and column where they were (or should have been).
public struct ConfigLoader {
  public init() {}

  public func load(path: String) throws -> SiteConfig {
    let url = URL(fileURLWithPath: path)
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DiagnosticsError(.error(at: SourceLocation(file: path), "cannot read the config file"))
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      let location = UTF8Check.firstInvalidByte(in: [UInt8](data), file: path)
      throw DiagnosticsError(.error(at: location, "the config file is not valid UTF-8"))
    }
    if let alias = YAMLExpansion.firstKeyOverBudget(in: text) {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: path, line: alias.line, column: alias.column),
          "the config's mapping keys stand for more than \(YAMLExpansion.budget) values once their aliases (*name) are expanded, past here at \(alias.alias); a key is a name, never an alias of a list or mapping"
        ))
    }
    let root: Node
    do {
      guard let node = try Yams.compose(yaml: text) else {
        throw DiagnosticsError(.error(at: SourceLocation(file: path), "the config file is empty"))
      }
      root = node
    } catch let error as YamlError {
      if case .duplicatedKeysInMapping(let keys, let context) = error {
        throw DiagnosticsError(Self.duplicateKeys(keys, after: context.mark.line, in: text, file: path))
      }
      throw DiagnosticsError(Self.diagnostic(for: error, file: path))
    }
    var reader = NodeReader(file: path)
    let config = reader.site(root, path: path, directory: url.deletingLastPathComponent().path)
    guard let config, reader.diagnostics.isEmpty else { throw DiagnosticsError(reader.diagnostics) }
    return config
  }
}
