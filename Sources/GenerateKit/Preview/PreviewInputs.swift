import Foundation

/// What a preview watches: exactly what its build reads. That is the config
/// file, each data file the config names — for SQLite the database file and
/// its `-wal` and `-journal` files, which hold changes a writer has
/// committed but not yet checkpointed and which `SQLiteSource` reads with
/// it (it opens the database `immutable=1` or a private copy, so the build's
/// own reads touch none of them), never the `-shm` index — and each template
/// folder, where every file is read. Other files next to a data file (an
/// editor's swap or lock file, notes, exports) trigger nothing.
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
      // A PostgreSQL server is no file to watch.
      guard let source = table.source, let named = source.file else { continue }
      let file = resolved(named.value)
      paths.append(file)
      paths += source.companionSuffixes.map { file + $0 }
    }
    var seen = Set<String>()
    return paths.filter { seen.insert($0).inserted }
  }
}
