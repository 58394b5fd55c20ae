import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls the output folder and the build record share: a new
/// file made exclusively, two folders exchanged in one step, a folder
/// removed by a detached process, and folders listed without following
/// links (`Disk+Listing`).
enum Disk {
  /// Writes `bytes` into a new file at `path` (relative to the folder
  /// open as `folder`, or to the current one): `O_EXCL`, so a name
  /// already there — a file hard-linked from the live site, a link put
  /// there — is never written through. Nil when written, else the error
  /// number and whether the file was made (what is written so far is left
  /// to the caller to remove; a name that was there is not the caller's).
  static func createNew(_ bytes: [UInt8], at path: String, in folder: Int32 = AT_FDCWD)
    -> (error: Int32, created: Bool)?
  {
    let descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return (errno, false) }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      guard written > 0 else { return (written == 0 ? EIO : errno, true) }
      offset += written
    }
    return nil
  }

  /// `renameat2(…, RENAME_EXCHANGE)`, looked up at run time: glibc has it
  /// from 2.28, and a file system may still refuse it (then: false, and
  /// the caller renames twice).
  static func exchange(_ a: String, _ b: String) -> Bool {
    #if os(Linux)
      typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
      guard let symbol = renameat2Symbol else { return false }
      let function = unsafeBitCast(symbol, to: RenameAt2.self)
      let renameExchange: UInt32 = 1 << 1
      return function(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
    #else
      return false
    #endif
  }

  #if os(Linux)
    nonisolated(unsafe) private static let renameat2Symbol = dlsym(nil, "renameat2")
  #endif

  /// Starts `rm -rf` on a folder and does not wait for it: its standard
  /// streams go to /dev/null (a caller reading this process's output to
  /// its end must not wait for it either). False if it could not be started.
  static func removeDetached(_ path: String) -> Bool {
    let remover = "/bin/rm"
    guard FileManager.default.isExecutableFile(atPath: remover) else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: remover)
    process.arguments = ["-rf", "--", path]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    return true
  }

  private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, buffer, count)
    #else
      Darwin.write(descriptor, buffer, count)
    #endif
  }
}
