/// The one test of "is this path that folder, or inside it".
///
/// Component by component, never by string prefix: `/work/site-old` is not
/// inside `/work/site`. Paths are compared as written, so resolve symbolic
/// links, `.` and `..` first (`FileStatus.realPath`, `standardizedFileURL`)
/// wherever they may occur.
enum PathContainment {
  /// Whether `path` is `folder` or lies somewhere below it. Repeated and
  /// trailing slashes do not matter; an absolute path is never inside a
  /// relative folder, nor the other way round.
  static func isPath(_ path: String, inside folder: String) -> Bool {
    guard path.hasPrefix("/") == folder.hasPrefix("/") else { return false }
    let outer = folder.split(separator: "/")
    let inner = path.split(separator: "/")
    return inner.starts(with: outer)
  }
}
