import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Publishes a built site atomically: every file is written into a fresh
/// staging folder beside the output, and only a complete folder takes the
/// output's place — in one step where the system can exchange two folders
/// (Linux's `renameat2(RENAME_EXCHANGE)`), else with two renames. A failure
/// at any point leaves the previous site as it was.
public struct SiteWriter {
  /// The folder published to, absolute (a symlinked output resolved).
  public var outputPath: String
  /// How the output is named in messages.
  public var shownPath: String

  /// A writer for an output folder that passed `OutputFolder`'s checks.
  public init(output: OutputFolder) {
    self.outputPath = output.path
    self.shownPath = output.given
  }

  var outputURL: URL { URL(fileURLWithPath: outputPath).standardizedFileURL }
  var parentURL: URL { outputURL.deletingLastPathComponent() }
  var stagingPrefix: String { ".\(outputURL.lastPathComponent).staging-" }
  var oldPrefix: String { ".\(outputURL.lastPathComponent).old-" }

  /// The folder beside the output where this process stages a build.
  var stagingURL: URL { parentURL.appendingPathComponent(stagingPrefix + String(getpid())) }

  /// Removes staging folders that builds left behind. Without `all`, only
  /// those whose process is gone: another build may be running.
  public func removeStaleFolders(all: Bool = false) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: parentURL.path)) ?? []
    for name in names {
      guard let prefix = [stagingPrefix, oldPrefix].first(where: name.hasPrefix) else { continue }
      guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid() else { continue }
      if all || !Self.isRunning(pid) {
        try? FileManager.default.removeItem(at: parentURL.appendingPathComponent(name))
      }
    }
  }

  static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// Writes the files into a staging folder and swaps it in. Returns
  /// warnings (the new site is live, but something after the swap failed).
  @discardableResult
  public func publish(_ files: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
    let fileManager = FileManager.default
    let staging = stagingURL
    try? fileManager.removeItem(at: staging)
    do {
      try Self.makeFolder(staging.path, shown: shownPath)
      var made = Set<String>([staging.path])
      for file in files.sorted(by: { $0.path < $1.path }) {
        guard let url = Self.place(file.path, in: staging) else {
          throw DiagnosticsError(
            .error(
              at: SourceLocation(file: shownPath),
              "refusing to write '\(file.path)': it is not a plain path inside the site"))
        }
        let folder = url.deletingLastPathComponent().path
        if !made.contains(folder) {
          try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
          made.insert(folder)
        }
        try Self.writeFile(file.bytes, to: url.path)
      }
      try Self.writeFile(
        Array(OutputFolder.markerText.utf8), to: staging.appendingPathComponent(OutputFolder.markerName).path)
    } catch {
      try? fileManager.removeItem(at: staging)
      if let error = error as? DiagnosticsError { throw error }
      throw DiagnosticsError(
        .error(at: SourceLocation(file: shownPath), "cannot write the site: \(Self.describe(error))"))
    }
    return try swapIn(staging)
  }

  /// Where a site-relative path is written, or nil if it would land
  /// anywhere but inside `folder`. Every name that reaches a path is checked
  /// where it is read (ids at the config, page paths at the record); this is
  /// the last line of defence, so that no future slip can write outside.
  static func place(_ path: String, in folder: URL) -> URL? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    guard !path.isEmpty,
      segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") })
    else { return nil }
    let url = folder.appendingPathComponent(path).standardizedFileURL
    let root = folder.standardizedFileURL.path
    return url.path.hasPrefix(root.hasSuffix("/") ? root : root + "/") ? url : nil
  }

  /// Exchanges the staging folder with the output, then removes the old
  /// site. Once the exchange is done the new site is live: a failure to
  /// remove the old one is only a warning.
  private func swapIn(_ staging: URL) throws -> [Diagnostic] {
    let output = outputURL
    let fileManager = FileManager.default
    func fail(_ what: String) -> DiagnosticsError {
      let reason = String(cString: strerror(errno))
      try? fileManager.removeItem(at: staging)
      return DiagnosticsError(
        .error(at: SourceLocation(file: shownPath), "cannot \(what) '\(shownPath)': \(reason)"))
    }
    var exists = stat()
    guard lstat(output.path, &exists) == 0 else {
      if rename(staging.path, output.path) != 0 { throw fail("create") }
      return []
    }
    let old: URL
    if Self.exchange(staging.path, output.path) {
      old = staging
    } else {
      // No atomic exchange here: two renames, the old site complete until
      // the first and the new one complete from the second.
      old = parentURL.appendingPathComponent(oldPrefix + String(getpid()))
      try? fileManager.removeItem(at: old)
      if rename(output.path, old.path) != 0 { throw fail("replace") }
      if rename(staging.path, output.path) != 0 {
        let error = fail("replace")
        _ = rename(old.path, output.path)
        throw error
      }
    }
    do {
      try fileManager.removeItem(at: old)
    } catch {
      return [
        .warning(
          at: SourceLocation(file: shownPath),
          "the new site is published, but the previous one could not be removed from '\(DatasetLoader.displayPath(old.path))': \(Self.describe(error))"
        )
      ]
    }
    return []
  }

  /// `renameat2(…, RENAME_EXCHANGE)`, looked up at run time: glibc has it
  /// from 2.28, and a file system may still refuse it (then: false).
  static func exchange(_ a: String, _ b: String) -> Bool {
    #if os(Linux)
      typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
      guard let symbol = Self.renameat2Symbol else { return false }
      let function = unsafeBitCast(symbol, to: RenameAt2.self)
      let renameExchange: UInt32 = 1 << 1
      return function(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
    #else
      return false
    #endif
  }

  #if os(Linux)
    nonisolated(unsafe) static let renameat2Symbol = dlsym(nil, "renameat2")
  #endif

  static func makeFolder(_ path: String, shown: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: shown),
          "cannot create a staging folder beside '\(shown)': \(describe(error))"))
    }
  }

  /// Plain POSIX writes: FileManager's atomic write costs a temporary file
  /// and a rename per file, which the staging folder already makes moot.
  static func writeFile(_ bytes: [UInt8], to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw DiagnosticsError(
        .error(at: SourceLocation(file: path), "cannot write file: \(String(cString: strerror(errno)))"))
    }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      guard written > 0 else {
        throw DiagnosticsError(
          .error(at: SourceLocation(file: path), "cannot write file: \(String(cString: strerror(errno)))"))
      }
      offset += written
    }
  }

  private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, buffer, count)
    #else
      Darwin.write(descriptor, buffer, count)
    #endif
  }

  /// The system's reason, not Foundation's error domain and code.
  static func describe(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    switch nsError.code {
    case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
    case NSFileWriteOutOfSpaceError: return "no space left on the device"
    case NSFileWriteVolumeReadOnlyError: return "the volume is read-only"
    default: return nsError.localizedDescription
    }
  }
}
