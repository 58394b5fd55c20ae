/// The folder being served, and the one place that turns URL path segments
/// into a file on disk.
///
/// Every answer is checked against the folder's real path after all
/// symbolic links are resolved, so a link that points outside (or a folder
/// swapped for one) is simply "not found". The folder itself is resolved on
/// each call because the builder may replace it at any time, and before the
/// first good build it may not exist at all.
struct SiteFolder: Sendable {
  enum Resolution: Equatable, Sendable {
    case file(path: String, status: FileStatus)
    case directory(path: String)
    case notFound
    /// The folder itself is missing: nothing has been built yet.
    case noSite
  }

  var path: String

  /// `segments` must come from `RequestTarget`: no `/`, `.` or `..` inside.
  func resolve(_ segments: some Collection<String>) -> Resolution {
    guard let root = FileStatus.realPath(path) else { return .noSite }
    let candidate = segments.isEmpty ? root : root + "/" + segments.joined(separator: "/")
    guard let real = FileStatus.realPath(candidate), PathContainment.isPath(real, inside: root),
      let status = FileStatus(path: real)
    else { return .notFound }
    switch status.kind {
    case .file: return .file(path: real, status: status)
    case .directory: return .directory(path: real)
    case .other: return .notFound
    }
  }
}
