#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat(2)` says about a path, reduced to what serving and watching
/// need. Together, device, inode, size and modification time change whenever
/// a file is rewritten or swapped for another, which is what both the file
/// cache and the watcher look for.
struct FileStatus: Hashable, Sendable {
  enum Kind: Hashable, Sendable {
    case file
    case directory
    case other
  }

  var kind: Kind
  var size: Int
  var device: UInt64
  var inode: UInt64
  /// Nanoseconds since 1970.
  var modified: Int64

  /// Follows symbolic links; nil when nothing is there.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .file
    case S_IFDIR: kind = .directory
    default: kind = .other
    }
    size = Int(info.st_size)
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    modified = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }

  var modifiedSeconds: Int64 { modified / 1_000_000_000 }

  /// The canonical absolute path with every symbolic link, `.` and `..`
  /// resolved, or nil when the path does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
