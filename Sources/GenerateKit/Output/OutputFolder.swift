import Foundation

/// Decides whether a folder may be replaced by a built site, before
/// anything is built: `generate` is pointed at people's own folders, and a
/// wrong `--output` must never cost them their data, templates or project.
public struct OutputFolder: Sendable {
  /// The file every published site carries, so a later build knows the
  /// folder is its own to replace.
  public static let markerName = ".generate-site"
  static let markerText = "This folder is written by generate and replaced on every build.\n"

  /// The output as given on the command line (for messages).
  public let given: String
  /// The absolute, standardised path published to: a symlinked output is
  /// resolved, so the site goes where the link points and the link stays.
  public let path: String

  /// A folder the output must keep clear of, and what it is (for messages).
  public struct Protected: Sendable {
    public var path: String
    public var what: String
    /// Whether the output may be a new folder inside it.
    public var mayHoldOutput: Bool

    public init(path: String, what: String, mayHoldOutput: Bool) {
      self.path = path
      self.what = what
      self.mayHoldOutput = mayHoldOutput
    }
  }

  /// Checks `given` against the folders the build reads and the places no
  /// site belongs (`/`, the home folder, the current folder and its
  /// ancestors). Throws a diagnostic naming both paths.
  public init(_ given: String, protecting protected: [Protected], force: Bool) throws(DiagnosticsError) {
    try self.init(given, resolved: try Self.resolve(given), protecting: protected, force: force)
  }

  /// The absolute, standardised path a site given as `given` is published
  /// to (see `path`): resolved once per build, for the folder and for the
  /// names kept beside it (`BuildRecord`, `LeftoverFolders`).
  public static func resolve(_ given: String) throws(DiagnosticsError) -> String {
    guard !given.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw DiagnosticsError(.error(at: nil, "--output: the output folder name is empty"))
    }
    let path = absolute(given)
    // A symlink: publish into what it points at, never replace the link.
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
      let resolved = absolute(target, relativeTo: (path as NSString).deletingLastPathComponent)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue
      else {
        throw DiagnosticsError(
          .error(at: nil, "--output '\(given)' is a symbolic link to '\(target)', which is not a folder"))
      }
      return realPath(resolved)
    }
    // Resolve the part that exists, so an output under a symlinked
    // parent is compared where it will really be written.
    return realPath(path)
  }

  /// Checks `given`, resolved to `path` by `resolve`.
  init(_ given: String, resolved path: String, protecting protected: [Protected], force: Bool)
    throws(DiagnosticsError)
  {
    self.given = given
    let shown: SourceLocation? = nil
    self.path = path

    let cwd = Self.realPath(FileManager.default.currentDirectoryPath)
    let home = Self.realPath(NSHomeDirectory())
    if path == "/" {
      throw DiagnosticsError(
        .error(at: shown, "--output '\(given)': refusing to publish to '/', the root folder"))
    }
    if Self.contains(path, cwd) {
      let relation = path == cwd ? "is the current folder" : "contains the current folder (\(cwd))"
      throw DiagnosticsError(
        .error(
          at: shown,
          "--output '\(given)': refusing to publish there: it \(relation), which the site would replace"))
    }
    if Self.contains(path, home) {
      throw DiagnosticsError(
        .error(
          at: shown,
          "--output '\(given)': refusing to publish there: it \(path == home ? "is" : "contains") the home folder (\(home))"
        ))
    }
    for folder in protected {
      let other = Self.realPath(Self.absolute(folder.path))
      if Self.contains(path, other) {
        let relation = path == other ? "is" : "contains"
        throw DiagnosticsError(
          .error(
            at: shown,
            "--output '\(given)': refusing to publish there: it \(relation) \(folder.what) '\(Self.display(other))', which the site would replace"
          ))
      }
      if !folder.mayHoldOutput && Self.contains(other, path) {
        throw DiagnosticsError(
          .error(
            at: shown,
            "--output '\(given)': refusing to publish there: it is inside \(folder.what) '\(Self.display(other))', which the build reads"
          ))
      }
    }

    var ancestor = (path as NSString).deletingLastPathComponent
    while !FileManager.default.fileExists(atPath: ancestor) && ancestor != "/" {
      ancestor = (ancestor as NSString).deletingLastPathComponent
    }
    var ancestorIsFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: ancestor, isDirectory: &ancestorIsFolder),
      !ancestorIsFolder.boolValue
    {
      throw DiagnosticsError(
        .error(at: shown, "--output '\(given)': '\(Self.display(ancestor))' is a file, not a folder"))
    }

    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw DiagnosticsError(.error(at: shown, "--output '\(given)' exists and is not a folder"))
      }
      if !force && !Self.isOurs(path) {
        throw DiagnosticsError(
          .error(
            at: shown,
            "--output '\(given)' holds files generate did not write (it has no \(Self.markerName)); choose another --output, empty it, or pass --force to replace it"
          ))
      }
    }
  }

  /// Whether `outer` is `inner` or one of its ancestors: by name, and for
  /// folders that exist by identity (device and inode), so that a
  /// case-insensitive file system's `templates` is its `Templates`, and a
  /// hard-linked or bind-mounted folder is itself.
  static func contains(_ outer: String, _ inner: String) -> Bool {
    if PathContainment.isPath(inner, inside: outer) { return true }
    guard let target = identity(outer) else { return false }
    var ancestor = inner
    while true {
      if identity(ancestor) == target { return true }
      let parent = (ancestor as NSString).deletingLastPathComponent
      if parent == ancestor || parent.isEmpty { return false }
      ancestor = parent
    }
  }

  struct Identity: Equatable {
    var device: UInt64
    var inode: UInt64
  }

  /// The folder's device and inode, following links; nil if it does not exist.
  static func identity(_ path: String) -> Identity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// A folder is ours to replace if it is empty, carries the marker, or is a
  /// site an earlier version wrote (before the marker existed).
  static func isOurs(_ path: String) -> Bool {
    let fileManager = FileManager.default
    guard let names = try? fileManager.contentsOfDirectory(atPath: path) else { return false }
    if names.isEmpty || names.contains(markerName) { return true }
    let legacy = ["index.html", ".nojekyll", "idx", "404.html"]
    return legacy.allSatisfy(names.contains)
  }

  static func absolute(_ path: String, relativeTo base: String = FileManager.default.currentDirectoryPath)
    -> String
  {
    let expanded = (path as NSString).expandingTildeInPath
    let url =
      expanded.hasPrefix("/")
      ? URL(fileURLWithPath: expanded)
      : URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: base + "/"))
    var standardized = url.standardizedFileURL.path
    while standardized.count > 1 && standardized.hasSuffix("/") { standardized.removeLast() }
    return standardized
  }

  /// Symlinks resolved for the part of the path that exists.
  static func realPath(_ path: String) -> String {
    var existing = path
    var rest: [String] = []
    while !FileManager.default.fileExists(atPath: existing) && existing != "/" {
      rest.insert((existing as NSString).lastPathComponent, at: 0)
      existing = (existing as NSString).deletingLastPathComponent
    }
    let resolved = (existing as NSString).resolvingSymlinksInPath
    return rest.reduce(resolved) { ($0 as NSString).appendingPathComponent($1) }
  }

  static func display(_ path: String) -> String { DatasetLoader.displayPath(path) }
}
