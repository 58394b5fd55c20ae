import Foundation

/// The files and folders a preview watches: the config file and the folders
/// its build actually reads — each template folder and each data file's
/// folder — rather than a fixed guess like `Data/` and `Templates/`.
public enum PreviewInputs {
  /// Read from the config as it is now. When it cannot be loaded (the user
  /// is halfway through an edit), its own folder is watched too, so that
  /// whatever the fix touches triggers the next build.
  public static func paths(forConfig configPath: String) -> [String] {
    var paths = [configPath]
    guard let config = try? ConfigLoader().load(path: configPath) else {
      paths.append(folder(of: configPath))
      return paths
    }
    let base = URL(fileURLWithPath: config.directory + "/")
    func resolved(_ path: String) -> String {
      URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }
    for template in config.templates { paths.append(resolved(template)) }
    for table in config.tables {
      guard let file = table.file else { continue }
      paths.append(folder(of: resolved(file)))
    }
    var seen = Set<String>()
    return paths.filter { seen.insert($0).inserted }
  }

  private static func folder(of path: String) -> String {
    let folder = NSString(string: path).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }
}
