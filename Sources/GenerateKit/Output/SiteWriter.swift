import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Publishes a built site atomically: the files go into a fresh staging
/// folder beside the output, and only a complete folder takes the output's
/// place — in one step where the system can exchange two folders (Linux's
/// `renameat2(RENAME_EXCHANGE)`), else with two renames. A failure at any
/// point leaves the previous site as it was.
///
/// A file whose bytes the live site already has (same size, then same
/// contents, read back) reaches the staging folder as a hard link to the
/// live copy instead of being written again; every other file is written as
/// a new inode into the fresh staging folder, so no file the live site
/// holds is ever opened for writing. Unchanged files keep their inode and
/// modification time from build to build. Files are staged over all cores,
/// and the previous site is removed after the swap by a detached `rm -rf`,
/// so the build does not wait for it (a build that finds one left behind by
/// a process that is gone removes it: `removeStaleFolders`).
public struct SiteWriter {
  /// The folder published to, absolute (a symlinked output resolved).
  public var outputPath: String
  /// How the output is named in messages.
  public var shownPath: String
  /// How the previous site goes once the new one is live.
  public var oldSiteRemoval: OldSiteRemoval = .background
  /// Whether unchanged files are hard-linked from the live site.
  public var reusesUnchangedFiles = true

  /// How the previous site is removed after the swap.
  public enum OldSiteRemoval: Sendable {
    /// A detached `rm -rf` (inline where none can be started).
    case background
    /// Before `publish` returns.
    case inline
  }

  /// What one `publish` did, for progress lines and tests.
  public struct Report: Sendable, Equatable {
    /// Files written as new inodes.
    public var written = 0
    /// Unchanged files hard-linked from the previous site.
    public var linked = 0
  }

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

  /// Removes staging folders and previous sites that builds left behind.
  /// Without `all`, only those whose process is gone: another build may be
  /// running.
  public func removeStaleFolders(all: Bool = false) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: parentURL.path)) ?? []
    for name in names {
      guard let prefix = [stagingPrefix, oldPrefix].first(where: name.hasPrefix) else { continue }
      guard let pid = Int32(name.dropFirst(prefix.count).prefix(while: \.isNumber)), pid != getpid()
      else { continue }
      if all || !Self.isRunning(pid) {
        try? FileManager.default.removeItem(at: parentURL.appendingPathComponent(name))
      }
    }
  }

  static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// Stages the files and swaps them in. Returns warnings (the new site is
  /// live, but something after the swap failed).
  @discardableResult
  public func publish(_ files: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
    var report = Report()
    return try publish(files, report: &report)
  }

  /// `publish(_:)`, also saying how many files were written and linked.
  public func publish(_ files: [(path: String, bytes: [UInt8])], report: inout Report) throws
    -> [Diagnostic]
  {
    let fileManager = FileManager.default
    let staging = stagingURL
    try? fileManager.removeItem(at: staging)
    do {
      try Self.makeFolder(staging.path, shown: shownPath)
      let marker = (path: OutputFolder.markerName, bytes: Array(OutputFolder.markerText.utf8))
      let ordered = (files + [marker]).sorted(by: { $0.path < $1.path })
      var relative: [String] = []
      relative.reserveCapacity(ordered.count)
      for file in ordered {
        guard let url = Self.place(file.path, in: staging) else {
          throw DiagnosticsError(
            .error(
              at: SourceLocation(file: shownPath),
              "refusing to write '\(file.path)': it is not a plain path inside the site"))
        }
        relative.append(String(url.path.dropFirst(staging.path.count + 1)))
      }
      try Self.makeFolders(for: relative, in: staging.path)
      let live = reusesUnchangedFiles ? Self.liveSite(outputPath) : nil
      let stagingPath = staging.path
      let outcomes = Parallel.map(count: ordered.count) { index -> Result<Bool, any Error> in
        let target = stagingPath + "/" + relative[index]
        if let live,
          Self.link(live.path + "/" + relative[index], to: target, ifHolding: ordered[index].bytes, live)
        {
          return .success(true)
        }
        do {
          try Self.writeFile(ordered[index].bytes, to: target)
          return .success(false)
        } catch {
          return .failure(error)
        }
      }
      for outcome in outcomes {
        switch outcome {
        case .success(true): report.linked += 1
        case .success(false): report.written += 1
        case .failure(let error): throw error
        }
      }
    } catch {
      try? fileManager.removeItem(at: staging)
      if let error = error as? DiagnosticsError { throw error }
      throw DiagnosticsError(
        .error(at: SourceLocation(file: shownPath), "cannot write the site: \(Self.describe(error))"))
    }
    return try swapIn(staging)
  }

  /// Creates every folder the files need, parents first: one level at a
  /// time, each level's folders over all cores (a page per record is a
  /// folder per record).
  static func makeFolders(for relative: [String], in root: String) throws {
    var byDepth: [[String]] = []
    var seen = Set<Substring>()
    for path in relative {
      var end = path.endIndex
      var missing: [Substring] = []
      while let slash = path[..<end].lastIndex(of: "/") {
        let folder = path[..<slash]
        if !seen.insert(folder).inserted { break }
        missing.append(folder)
        end = slash
      }
      for folder in missing {
        let depth = folder.reduce(0) { $1 == "/" ? $0 + 1 : $0 }
        while byDepth.count <= depth { byDepth.append([]) }
        byDepth[depth].append(String(folder))
      }
    }
    for level in byDepth {
      let failures = Parallel.map(count: level.count) { index -> String? in
        let path = root + "/" + level[index]
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return nil }
        return "cannot create folder: \(String(cString: strerror(errno)))"
      }
      if let index = failures.firstIndex(where: { $0 != nil }), let message = failures[index] {
        throw DiagnosticsError(.error(at: SourceLocation(file: root + "/" + level[index]), message))
      }
    }
  }

  /// What a live file must match to be shared with the new site: owned by
  /// this user, with the permissions a fresh write would give it.
  struct LiveSite {
    var path: String
    var owner: uid_t
    var mode: mode_t
  }

  /// The live site, if there is one to link from.
  static func liveSite(_ path: String) -> LiveSite? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
    let mask = umask(0)
    umask(mask)
    return LiveSite(path: path, owner: geteuid(), mode: 0o644 & ~mask)
  }

  /// Hard-links the live file at `source` to `target` if it is a plain file
  /// of this user, with the usual permissions, holding exactly `bytes`.
  /// False (and nothing made) otherwise: the caller writes a new file.
  static func link(_ source: String, to target: String, ifHolding bytes: [UInt8], _ live: LiveSite) -> Bool {
    let descriptor = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == bytes.count,
      info.st_uid == live.owner, (info.st_mode & 0o7777) == live.mode
    else { return false }
    guard Self.contents(of: descriptor, equal: bytes) else { return false }
    return systemLink(source, target) == 0
  }

  /// Whether the file behind `descriptor` holds exactly `bytes` (its size
  /// already checked), read in blocks.
  static func contents(of descriptor: Int32, equal bytes: [UInt8]) -> Bool {
    let blockSize = 64 * 1024
    var buffer = [UInt8](repeating: 0, count: min(max(bytes.count, 1), blockSize))
    var offset = 0
    while offset < bytes.count {
      let wanted = min(buffer.count, bytes.count - offset)
      let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, wanted) }
      guard count > 0 else { return false }
      let same = buffer.withUnsafeBytes { block in
        bytes.withUnsafeBytes { expected in
          guard let read = block.baseAddress, let start = expected.baseAddress else { return false }
          return memcmp(read, start + offset, count) == 0
        }
      }
      guard same else { return false }
      offset += count
    }
    return true
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
    // A name of its own for each previous site: an earlier one of this
    // process may still be being removed.
    let old = parentURL.appendingPathComponent(
      oldPrefix + String(getpid()) + "-" + UUID().uuidString.prefix(8).lowercased())
    var removing = old
    if Self.exchange(staging.path, output.path) {
      if rename(staging.path, old.path) != 0 { removing = staging }
    } else {
      // No atomic exchange here: two renames, the old site complete until
      // the first and the new one complete from the second.
      if rename(output.path, old.path) != 0 { throw fail("replace") }
      if rename(staging.path, output.path) != 0 {
        let error = fail("replace")
        _ = rename(old.path, output.path)
        throw error
      }
    }
    if oldSiteRemoval == .background && Self.removeDetached(removing.path) { return [] }
    do {
      try fileManager.removeItem(at: removing)
    } catch {
      return [
        .warning(
          at: SourceLocation(file: shownPath),
          "the new site is published, but the previous one could not be removed from '\(DatasetLoader.displayPath(removing.path))': \(Self.describe(error))"
        )
      ]
    }
    return []
  }

  /// Starts `rm -rf` on a previous site and does not wait for it: its
  /// standard streams go to /dev/null (a caller reading this process's
  /// output to its end must not wait for it either). False if it could not
  /// be started.
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
  /// Always a new file (`O_EXCL`): a name already there may be a hard link
  /// to the live site, which must never be written through.
  static func writeFile(_ bytes: [UInt8], to path: String) throws(DiagnosticsError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
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

  private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
  {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  private static func systemLink(_ source: String, _ target: String) -> Int32 {
    #if canImport(Glibc)
      Glibc.link(source, target)
    #else
      Darwin.link(source, target)
    #endif
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
