import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Publishes a built site atomically: the files go into a staging folder
/// beside the output, and only a complete folder takes the output's place —
/// in one step where the system can exchange two folders (Linux's
/// `renameat2(RENAME_EXCHANGE)`), else with two renames. A failure at any
/// point leaves the previous site as it was.
///
/// Only what changed is written. The site the last build replaced is kept
/// beside the output (`.NAME.previous`) and becomes the next staging folder:
/// what it holds that the new site does not is removed, a file whose bytes
/// are the same is kept as it is, and a file that changed is unlinked and
/// written anew. A file it lacks is hard-linked from the live site when
/// the live copy holds the same bytes, else written. Bytes are compared by
/// size, then by reading the file back. No existing file is ever opened for
/// writing — every write makes a new inode (`O_EXCL`) — so a file shared by
/// hard link with the live site cannot change under it. Creating and
/// removing folders is what costs most on a page-per-record site (a folder
/// per page), and an updated previous site needs neither. Work is spread
/// over the cores; a previous site that cannot be kept is removed by a
/// detached `rm -rf`, so the build does not wait for it (a build that finds
/// one left behind by a process that is gone removes it:
/// `LeftoverFolders`). It takes only an output folder that passed
/// `OutputFolder`'s checks.
public struct SiteWriter {
  /// The folder published to, absolute (a symlinked output resolved).
  public var outputPath: String
  /// How the output is named in messages.
  public var shownPath: String
  /// How a replaced site goes when it is not kept.
  public var oldSiteRemoval: OldSiteRemoval = .background
  /// Whether earlier sites are reused: the previous one updated, unchanged
  /// files hard-linked from the live one.
  public var reusesUnchangedFiles = true
  /// Whether the replaced site is kept beside the output for the next
  /// build to update (it costs the disk space of a second site).
  public var keepsPreviousSite = true

  /// How a replaced site is removed.
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
    /// Unchanged files hard-linked from the live site.
    public var linked = 0
    /// Unchanged files the previous site already held.
    public var kept = 0

    public init(written: Int = 0, linked: Int = 0, kept: Int = 0) {
      self.written = written
      self.linked = linked
      self.kept = kept
    }

    /// `--verbose`'s line about publishing.
    var description: String {
      "\(written) files written, \(kept + linked) unchanged (\(kept) kept from the previous site, \(linked) linked from the live one)"
    }
  }

  /// A writer for an output folder that passed `OutputFolder`'s checks.
  public init(output: OutputFolder) {
    self.outputPath = output.path
    self.shownPath = output.given
  }

  var outputURL: URL { URL(fileURLWithPath: outputPath).standardizedFileURL }
  var parentURL: URL { outputURL.deletingLastPathComponent() }
  /// The names this writer keeps beside the output, and their guard.
  var names: OwnedNames { OwnedNames(outputPath: outputPath) }
  var stagingPrefix: String { names.stagingPrefix }
  var oldPrefix: String { names.oldPrefix }

  /// The site the last build replaced, kept for the next one to update.
  var previousURL: URL { parentURL.appendingPathComponent(names.previous) }

  /// The folder beside the output where this process stages a build.
  var stagingURL: URL { parentURL.appendingPathComponent(stagingPrefix + String(getpid())) }

  /// The folders left beside the output by builds that died, and how
  /// this writer removes a folder it no longer needs.
  var leftovers: LeftoverFolders { LeftoverFolders(names: names, removal: oldSiteRemoval) }

  /// Clears up after builds that died (`LeftoverFolders.remove`).
  public func removeStaleFolders(all: Bool = false) throws(DiagnosticsError) {
    try leftovers.remove(all: all)
  }

  /// Removes a folder beside the output, in the background where it can.
  func discard(_ url: URL) { leftovers.discard(url.path) }

  /// Stages the files and swaps them in. Returns warnings (the new site is
  /// live, but something after the swap failed).
  @discardableResult
  public func publish(_ files: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
    var report = Report()
    return try publish(files, report: &report)
  }

  /// `publish(_:)`, also saying how many files were written, linked and kept.
  public func publish(_ files: [(path: String, bytes: [UInt8])], report: inout Report) throws
    -> [Diagnostic]
  {
    let update = try Update(self, paths: files.map(\.path))
    try update.write(files)
    let warnings = try update.finish([])
    report = update.report
    return warnings
  }

  enum Outcome { case kept, linked, written }

  /// The folders the files need, level by level (a page per record is a
  /// folder per record).
  static func folders(for relative: [String]) -> [[String]] {
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
    return byDepth
  }

  /// Makes a previous site hold nothing but what the new one keeps: every
  /// file not in `files`, folder not in `folders`, and anything else (a
  /// symbolic link, a socket) is removed — never followed; a folder goes
  /// as a whole, moved out and removed like a replaced site. Returns the
  /// files that stay, to be compared.
  func clear(_ root: String, keeping files: Set<String>, folders: Set<String>) throws -> Set<String> {
    var kept = Set<String>()
    try Disk.walk(root, listing: Disk.entryTypes) { listings in
      var next: [String] = []
      for listing in listings {
        for (path, type) in listing {
          switch type {
          case .folder where folders.contains(path): next.append(path)
          case .file where files.contains(path): kept.insert(path)
          case .folder:
            // Out of the way first: the new site may put a file there.
            let target = leftovers.removalPath()
            if rename(root + "/" + path, target) == 0 {
              leftovers.removeLater(target)
            } else {
              do { try FileManager.default.removeItem(atPath: root + "/" + path) } catch {
                throw DiagnosticsError(
                  .error(
                    at: SourceLocation(file: root + "/" + path), "cannot remove: \(Self.describe(error))"))
              }
            }
          case .file, .other:
            guard unlink(root + "/" + path) == 0 else {
              throw DiagnosticsError(
                .error(
                  at: SourceLocation(file: root + "/" + path),
                  "cannot remove: \(String(cString: strerror(errno)))"))
            }
          }
        }
      }
      return next
    }
    return kept
  }

  /// Creates the folders, parents first: one level at a time, each level's
  /// folders over all cores, those of one parent on one core. A folder
  /// already there is kept.
  static func makeFolders(_ byDepth: [[String]], in root: Folder) throws {
    for level in byDepth {
      let failures = mapByParent(level) { index -> String? in
        if mkdirat(root.descriptor, level[index], 0o755) == 0 || errno == EEXIST { return nil }
        return "cannot create folder: \(String(cString: strerror(errno)))"
      }
      if let index = failures.firstIndex(where: { $0 != nil }), let message = failures[index] {
        throw DiagnosticsError(.error(at: SourceLocation(file: root.path + "/" + level[index]), message))
      }
    }
  }

  /// `body` for each path's index over all cores, results in input order,
  /// with the paths of one parent folder taken in turn by one core. Adding
  /// an entry to a folder locks it in the kernel: two cores making entries
  /// in one folder (64,000 `packages/NAME/` folders) take turns at the
  /// lock, and the waiting one spins — twice the CPU for the same work.
  static func mapByParent<T>(_ paths: [String], _ body: (Int) -> T) -> [T] {
    var groups: [[Int]] = []
    var groupOfParent: [Substring: Int] = [:]
    for (index, path) in paths.enumerated() {
      let parent = path.lastIndex(of: "/").map { path[..<$0] } ?? ""
      if let group = groupOfParent[parent] {
        groups[group].append(index)
      } else {
        groupOfParent[parent] = groups.count
        groups.append([index])
      }
    }
    if groups.count == paths.count { return Parallel.map(count: paths.count, body) }
    let results = Parallel.map(count: groups.count) { group in groups[group].map { ($0, body($0)) } }
    var ordered = [T?](repeating: nil, count: paths.count)
    for (index, result) in results.joined() { ordered[index] = result }
    return ordered.compactMap { $0 }
  }

  /// An open folder, for paths relative to it (`openat`, `mkdirat`, …).
  final class Folder: @unchecked Sendable {
    let path: String
    let descriptor: Int32

    init(_ path: String) throws {
      self.path = path
      // Never through a link: the folders opened are the staging folder,
      // checked by `OwnedNames`, and the live site, checked by `lstat`.
      descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw DiagnosticsError(
          .error(at: SourceLocation(file: path), "cannot open folder: \(String(cString: strerror(errno)))"))
      }
    }

    deinit { close(descriptor) }
  }

  /// What a file of an earlier site must be to stay in the new one: owned
  /// by this user, with the permissions a fresh write would give it.
  struct ExpectedFile {
    var owner: uid_t
    var mode: mode_t
  }

  static func expectedFile() -> ExpectedFile {
    let mask = umask(0)
    umask(mask)
    return ExpectedFile(owner: geteuid(), mode: 0o644 & ~mask)
  }

  /// The live site's path, if there is one to link from.
  static func liveSite(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
    return path
  }

  /// Whether `path` in `folder` is a plain file of this user, with the
  /// permissions a fresh write would give it, holding exactly `bytes`: the
  /// size first, then the contents. Links are not followed, and a named
  /// pipe is not waited on (`O_NONBLOCK`; `fstat` then refuses it).
  static func holds(_ path: String, in folder: Folder, _ bytes: [UInt8], _ expected: ExpectedFile) -> Bool {
    let descriptor = openat(folder.descriptor, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == bytes.count,
      info.st_uid == expected.owner, (info.st_mode & 0o7777) == expected.mode
    else { return false }
    return contents(of: descriptor, equal: bytes)
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

  /// Whether a site-relative path lands inside the site: its segments are
  /// names, never empty, `.` or `..`, so the path joined to the site's
  /// folder cannot leave it (and the staging folder holds no symbolic
  /// link: `clear` removes any). Every name that reaches a path is checked
  /// where it is read (ids at the config, page paths at the record); this
  /// is the last line of defence, so that no future slip can write outside.
  static func isPlain(_ path: String) -> Bool {
    guard !path.isEmpty else { return false }
    var segment = 0
    var dots = 0
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "/"):
        if segment == 0 || segment == dots && dots <= 2 { return false }
        segment = 0
        dots = 0
      case 0: return false
      case UInt8(ascii: "."):
        segment += 1
        dots += 1
      default: segment += 1
      }
    }
    return !(segment == 0 || segment == dots && dots <= 2)
  }

  /// Exchanges the staging folder with the output, then removes the old
  /// site. Once the exchange is done the new site is live: a failure to
  /// remove the old one is only a warning.
  func swapIn(_ staging: URL) throws -> [Diagnostic] {
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
    let old = URL(fileURLWithPath: leftovers.removalPath())
    var removing = old
    if Disk.exchange(staging.path, output.path) {
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
    // Onto the previous site's name only when nothing is there: a link or
    // anything else put there since the build began is left alone.
    if keepsPreviousSite && (try? names.check(names.previous)) == .absent
      && rename(removing.path, previousURL.path) == 0
    {
      return []
    }
    // Removed only through the guard: something mounted in the old site
    // must not be removed with it.
    do { _ = try names.check(removing.lastPathComponent) } catch {
      let reason = error.diagnostics.first?.message ?? "it did not pass the checks"
      return [
        .warning(
          at: SourceLocation(file: shownPath),
          "the new site is published, but the previous one was left at '\(DatasetLoader.displayPath(removing.path))': \(reason)"
        )
      ]
    }
    if oldSiteRemoval == .background && Disk.removeDetached(removing.path) { return [] }
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
  static func writeFile(_ bytes: [UInt8], to relative: String, in folder: Folder) throws(DiagnosticsError) {
    guard let failure = Disk.createNew(bytes, at: relative, in: folder.descriptor) else { return }
    throw DiagnosticsError(
      .error(
        at: SourceLocation(file: folder.path + "/" + relative),
        "cannot write file: \(String(cString: strerror(failure.error)))"))
  }

  private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
  {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
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
