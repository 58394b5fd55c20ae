import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks a data file before anything reads it, and opens it so that it
/// cannot block: only a regular file (after following links) is a table's
/// source — a named pipe would hang the build with no message, and a
/// device such as `/dev/zero` would be read until memory ran out — and a
/// text file over `limits.fileBytes` is refused before a byte of it is read.
enum DataFile {
  /// What kind of file the config named, for the checks' messages.
  struct Named {
    /// "data file" or "database".
    var what: String
    var table: String
    var shownPath: String
    /// The config's place for a missing file (the table's name).
    var missingAt: SourceLocation
    /// The config's place of the path itself.
    var at: SourceLocation

    /// "data file 'x.csv' of table 'x'"; without the table when there is
    /// none yet (`init` and `inspect` check a file before naming its table).
    var subject: String {
      "\(what) '\(shownPath)'" + (table.isEmpty ? "" : " of table '\(table)'")
    }

    /// The config file, where a limit that refused the file is raised.
    var configFile: String { at.file.isEmpty ? "the config file" : at.file }

    var missing: DiagnosticsError {
      let tail = what == "database" ? "does not exist" : "does not exist or cannot be read"
      return DiagnosticsError(.error(at: missingAt, "\(subject) \(tail)"))
    }
  }

  /// The size of `path`, a regular file no larger than `limit` bytes (no
  /// limit when nil); otherwise an error at the config line that names it.
  @discardableResult
  static func check(_ path: String, _ named: Named, limit: Int?) throws -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else { throw named.missing }
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG else {
      var through = ""
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        through = ", through the symbolic link to '\(target)'"
      }
      throw DiagnosticsError(
        .error(
          at: named.at,
          "\(named.subject) is \(describe(type))\(through), not a regular file; tables are read from regular files only"
        ))
    }
    let size = Int(info.st_size)
    if let limit, size > limit {
      throw DiagnosticsError(
        .error(
          at: named.at,
          "\(named.subject) is \(size) bytes, over the limit of \(limit) bytes (limits.fileBytes); raise limits.fileBytes in \(named.configFile) to read it"
        ))
    }
    return size
  }

  static func describe(_ type: mode_t) -> String {
    switch type {
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a named pipe (FIFO)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "not a file"
    }
  }

  /// Opens `path` for reading without waiting on a writer (`O_NONBLOCK`),
  /// and checks what was opened is still a regular file, so a file swapped
  /// for a pipe after `check` cannot hang the read either.
  static func open(_ path: String, _ named: Named) throws -> FileHandle {
    #if canImport(Glibc)
      let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    #else
      let descriptor = Darwin.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    #endif
    guard descriptor >= 0 else { throw named.missing }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw DiagnosticsError(
        .error(
          at: named.at,
          "\(named.subject) is not a regular file; tables are read from regular files only"
        ))
    }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }
}
