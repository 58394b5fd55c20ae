import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folders listed without following links: by the type of each entry (what
/// `SiteWriter` clears), or with each entry's `lstat` (what `BuildRecord`
/// compares), a level at a time over all cores. The one `readdir` loop:
/// `FileManager` gives neither an entry's type nor its `stat` unfollowed.
extension Disk {
  enum EntryType { case file, folder, other }

  /// Walks the folders under `root` a level at a time: each level's
  /// folders are listed by `list` over all cores, and `visit` takes their
  /// listings, in the level's order, and names the folders of the next
  /// level.
  static func walk<Entry>(
    _ root: String, listing list: (_ root: String, _ folder: String) -> [Entry],
    _ visit: ([[Entry]]) throws -> [String]
  ) rethrows {
    var level = [""]
    while !level.isEmpty {
      let listings = Parallel.map(count: level.count) { index in list(root, level[index]) }
      level = try visit(listings)
    }
  }

  /// The entries of one folder (`folder` relative to `root`, "" for
  /// `root` itself), as paths relative to `root`, by type: the file
  /// system's `d_type`, or `lstat` where it does not say. Empty when the
  /// folder cannot be opened.
  static func entryTypes(_ root: String, _ folder: String) -> [(path: String, type: EntryType)] {
    let path = folder.isEmpty ? root : root + "/" + folder
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var entries: [(path: String, type: EntryType)] = []
    forEachEntry(of: directory) { name, type in
      var type = type
      if type == UInt8(DT_UNKNOWN) {
        var info = stat()
        guard lstat(path + "/" + name, &info) == 0 else { return }
        type =
          (info.st_mode & S_IFMT) == S_IFDIR
          ? UInt8(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : UInt8(DT_LNK)
      }
      entries.append(
        (
          folder.isEmpty ? name : folder + "/" + name,
          type == UInt8(DT_DIR) ? .folder : type == UInt8(DT_REG) ? .file : .other
        ))
    }
    return entries
  }

  /// The entries of one folder (as `entryTypes`) with their `lstat`, taken
  /// relative to the folder's descriptor. Nil when the folder cannot be
  /// opened, or is a link.
  static func entryStatuses(_ root: String, _ folder: String) -> [(path: String, status: stat)]? {
    let path = folder.isEmpty ? root : root + "/" + folder
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0, let directory = fdopendir(descriptor) else {
      if descriptor >= 0 { close(descriptor) }
      return nil
    }
    defer { closedir(directory) }
    var entries: [(path: String, status: stat)] = []
    forEachEntry(of: directory) { name, _ in
      var info = stat()
      guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
      entries.append((folder.isEmpty ? name : folder + "/" + name, info))
    }
    return entries
  }

  #if canImport(Darwin)
    private typealias FolderStream = UnsafeMutablePointer<DIR>
  #else
    private typealias FolderStream = OpaquePointer
  #endif

  /// Calls `body` with each name in an open folder and its `d_type`
  /// (`DT_UNKNOWN` where the file system does not say), in `readdir`
  /// order, without `.` and `..`.
  private static func forEachEntry(
    of directory: FolderStream, _ body: (_ name: String, _ type: UInt8) -> Void
  ) {
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
      }
      if name == "." || name == ".." { continue }
      body(name, entry.pointee.d_type)
    }
  }
}
