import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of the plain file at `path`, or nil when it is anything else
/// or larger than `limit`: never waiting on a named pipe or a device
/// (`O_NONBLOCK`, then `fstat` on what was opened, so nothing can be
/// swapped in between the check and the read), and through a link only
/// when asked. For what a build reads back from beside its output (the
/// site it replaces, its build record), which anyone with write access
/// there could have turned into something else, and for its own inputs.
func readPlainFile(atPath path: String, limit: Int = .max, followingLinks: Bool = false) -> Data? {
  let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
  guard descriptor >= 0 else { return nil }
  let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  var info = stat()
  guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= limit else {
    return nil
  }
  do { return try handle.readToEnd() ?? Data() } catch { return nil }
}
