import Foundation

/// What a preview watches: exactly what its build reads. That is the config
/// file, each data file the config names — for SQLite the database file
/// alone, never the `-wal`, `-shm` or `-journal` files SQLite keeps beside it
/// (the build's own reads can touch those) — and each template folder, where
/// every file is read. Other files next to a data file (an editor's swap or
/// lock file, notes, exports) trigger nothing.
public enum PreviewInputs {
  /// Read from the config as it is now. When it cannot be loaded (the user
  /// is halfway through an edit), the config alone: a build stops at the
  /// config until it loads, so an edit to it is what the next build needs.
  public static func paths(forConfig configPath: String) -> [String] {
    var paths = [configPath]
    guard let config = try? ConfigLoader().load(path: configPath) else { return paths }
    let base = URL(fileURLWithPath: config.directory + "/")
    func resolved(_ path: String) -> String {
      URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }
    for template in config.templates { paths.append(resolved(template)) }
    for table in config.tables {
      guard let file = table.file else { continue }
      paths.append(resolved(file))
    }
    var seen = Set<String>()
    return paths.filter { seen.insert($0).inserted }
  }
}
