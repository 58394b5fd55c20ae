import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a command-line build leaves beside its output (`.NAME.record`, next
/// to the kept previous site, never inside the published folder), so that
/// the next build with nothing changed can say so instead of building again:
///
/// - a fingerprint of every input: the config's bytes, every file of every
///   template folder, every data file (size and content hash, always read:
///   a modification time alone misses a quick edit of the same size) and a
///   database's `-wal` and `-journal` files (changes a writer has committed
///   but not yet checkpointed are read with it), the `generate` executable
///   and the esbuild it bundles with (path, size, inode, modification time:
///   a new build of either is a new file), and the options that change the
///   output (`--base-url`);
/// - the summary the build printed;
/// - every entry of the published folder with its `lstat` (device, inode,
///   size, modification time), the folder itself included.
///
/// The next build is skipped only when the inputs match and a walk of the
/// live site finds exactly those entries, unchanged: a file deleted, added,
/// replaced or edited in the site (or a folder's entries changed, or the
/// site swapped for another) makes it build as usual, which restores what
/// the build writes. A build with warnings leaves no record (a skipped
/// build could not show them again). `--clean` ignores the record.
///
/// The fingerprint is taken before the build reads its inputs and checked
/// again after it (`Fingerprint.isUnchanged`: each file's `stat`, which any
/// write or rename changes, and the bytes again of one changed within a
/// second of the fingerprint). A build whose inputs changed under it — an
/// edit saved meanwhile, a file swapped and put back — writes no record:
/// its site may hold what the fingerprint does not say.
///
/// The record is written after the new site is live, by rename: a build
/// killed before that leaves the last record, which no longer matches the
/// live site (its folder is another inode), so nothing is ever skipped on
/// a stale record.
struct BuildRecord: Equatable {
  static let header = "generate build record 1"

  /// One line per input, in a fixed order.
  var inputs: [String]
  var pages: Int
  var records: Int
  var indexBytes: Int
  /// Every entry of the published folder, in the order walked.
  var entries: [Entry]

  struct Entry: Equatable {
    /// Site-relative; "" for the folder itself.
    var path: String
    var kind: UInt8
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// Nanoseconds since 1970.
    var modified: Int64
  }

  /// The record beside an output folder (absolute, symlinks resolved).
  static func path(forOutput output: String) -> String {
    let url = URL(fileURLWithPath: output)
    return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).record").path
  }

  // MARK: Inputs

  /// The fingerprint of what a build with `options` reads, or nil when the
  /// config cannot be loaded (the build then reports why).
  static func inputs(for options: BuildOptions) -> [String]? {
    fingerprint(for: options)?.lines
  }

  /// The fingerprint's lines, and what each file read for them looked like
  /// (`stat`, taken before its bytes were read), so that a build can tell
  /// whether any of them changed while it ran (`Fingerprint.isUnchanged`).
  static func fingerprint(for options: BuildOptions) -> Fingerprint? {
    var read = Fingerprint(lines: [])
    guard let configBytes = read.read(options.configPath),
      let config = try? ConfigLoader().load(path: options.configPath)
    else { return nil }
    read.lines = [
      "config \(escape(OutputFolder.absolute(options.configPath))) \(configBytes)",
      "base-url \(escape(options.baseURL ?? "-"))",
      "preview \(options.previewScript.map { String(ContentHash.value(Array($0.utf8))) } ?? "-")",
    ]
    read.lines.append("executable " + stamp(executablePath()))
    read.lines.append("esbuild " + (AssetBundler.locateEsbuild().map(stamp) ?? "-"))
    for folder in config.templates.map(config.resolve) {
      read.lines.append("templates \(escape(folder))")
      read.folders.append(folder)
      for relative in regularFiles(under: folder) {
        guard let bytes = read.read(folder + "/" + relative) else { continue }
        read.lines.append("template \(escape(relative)) \(bytes)")
      }
    }
    for table in config.tables {
      guard let source = table.source else { continue }
      // A database server has no file to fingerprint: what it holds may
      // change at any time, so a build that reads one always rebuilds.
      guard let file = source.file else { return nil }
      let path = config.resolve(file.value)
      guard let bytes = read.read(path) else { return nil }
      read.lines.append("data \(escape(path)) \(bytes)")
      // What a database holds is the file and the changes still in its
      // `-wal` (a writer connected, no checkpoint yet) or `-journal`:
      // `SQLiteSource` reads them with it, so they are inputs too. Their
      // absence is recorded (and checked after the build) as well: one
      // appearing is a change.
      for suffix in source.companionSuffixes {
        if let bytes = read.read(path + suffix, missingIsEmpty: true) {
          read.lines.append("data\(suffix) \(escape(path + suffix)) \(bytes)")
        } else {
          read.lines.append("data\(suffix) \(escape(path + suffix)) unreadable")
        }
      }
    }
    return read
  }

  /// What a fingerprint read: its lines, and every file and folder behind
  /// them with its `stat` as it was before the bytes were read.
  struct Fingerprint {
    var lines: [String]
    /// Each file read, with its status then (nil: missing) and the hash of
    /// its bytes.
    var files: [(path: String, status: Status?, hash: UInt64)] = []
    /// The template folders, whose files are listed again.
    var folders: [String] = []
    /// When the fingerprint was begun, in nanoseconds since 1970.
    let begun = Status.now()

    init(lines: [String]) { self.lines = lines }

    /// What `stat` says of a file: any write or rename changes the inode,
    /// size, modification or status-change time (the status-change time
    /// cannot be set back by a program, as the modification time can).
    struct Status: Equatable {
      var device: UInt64
      var inode: UInt64
      var size: Int64
      var modified: Int64
      var changed: Int64
      var isRegular: Bool

      init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
          let (mtime, ctime) = (info.st_mtimespec, info.st_ctimespec)
        #else
          let (mtime, ctime) = (info.st_mtim, info.st_ctim)
        #endif
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(mtime.tv_sec) * 1_000_000_000 + Int64(mtime.tv_nsec)
        changed = Int64(ctime.tv_sec) * 1_000_000_000 + Int64(ctime.tv_nsec)
        isRegular = (info.st_mode & S_IFMT) == S_IFREG
      }

      static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
      }
    }

    /// A regular file's size and content hash, as a fingerprint line
    /// shows them (`SIZE HASH`), links followed as the loaders follow them;
    /// its status is kept, taken before the bytes are read. Nil for
    /// anything else: a named pipe named as data must not hang the
    /// fingerprint before `DataFile` reports it. With `missingIsEmpty`, a
    /// file that is not there reads as no bytes.
    mutating func read(_ path: String, missingIsEmpty: Bool = false) -> String? {
      let status = Status(path)
      let bytes = status == nil ? (missingIsEmpty ? Data() : nil) : BuildRecord.readRegular(path)
      guard let bytes else { return nil }
      let hash = BuildRecord.hash(bytes)
      files.append((path, status, hash))
      return "\(bytes.count) \(hash)"
    }

    /// Whether every file read is as it was when it was read, and each
    /// template folder holds the same files. A file whose times fall within
    /// a second of the fingerprint's start is also read and compared again:
    /// a file system's clock can be coarse (a kernel tick, or a second), and
    /// an edit in the same tick as the fingerprint's `stat` could leave the
    /// times as they were.
    func isUnchanged() -> Bool {
      for (path, before, hash) in files {
        guard Status(path) == before else { return false }
        guard let before, max(before.modified, before.changed) >= begun - 1_000_000_000 else { continue }
        // Racy: the bytes decide, read again.
        guard let bytes = BuildRecord.readRegular(path), BuildRecord.hash(bytes) == hash else { return false }
      }
      for folder in folders {
        let listed = Set(BuildRecord.regularFiles(under: folder).map { folder + "/" + $0 })
        let read = Set(files.map(\.path).filter { PathContainment.isPath($0, inside: folder) })
        if !listed.isSubset(of: read) { return false }
      }
      return true
    }
  }

  /// A regular file's bytes, opened without blocking on a pipe; nil when it
  /// is not one or cannot be read.
  static func readRegular(_ path: String) -> Data? {
    readPlainFile(atPath: path, followingLinks: true)
  }

  /// The relative paths of the regular files under a folder, sorted, links
  /// followed.
  static func regularFiles(under folder: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
      guard FileStatus(path: folder + "/" + relative)?.kind == .file else { continue }
      files.append(relative)
    }
    return files.sorted()
  }

  /// FNV-1a over the bytes in place: through `Data`'s iterator it ran at
  /// ~100 MB/s (a second for a million records' CSV files).
  static func hash(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { ContentHash.value($0) }
  }

  static func executablePath() -> String {
    #if os(Linux)
      FileStatus.realPath("/proc/self/exe") ?? CommandLine.arguments[0]
    #else
      Bundle.main.executablePath ?? CommandLine.arguments[0]
    #endif
  }

  /// A program's path, size, inode and modification time.
  static func stamp(_ path: String) -> String {
    guard let status = FileStatus(path: path) else { return "\(escape(path)) missing" }
    return "\(escape(path)) \(status.size) \(status.device) \(status.inode) \(status.modified)"
  }

  // MARK: The published folder

  /// Every entry under `root` (the folder itself as ""), not following
  /// links, folder by folder in `readdir` order (the same order for the
  /// same folders: `matches` sorts only when it must); nil when `root` is
  /// not a folder.
  static func entries(of root: String) -> [Entry]? {
    var info = stat()
    guard lstat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
    var entries = [entry("", info)]
    Disk.walk(root, listing: list) { listings in
      var next: [String] = []
      for listing in listings {
        for item in listing {
          entries.append(item)
          if item.kind == 1 { next.append(item.path) }
        }
      }
      return next
    }
    return entries
  }

  /// Whether the walked entries are the recorded ones, in any order.
  func matches(_ walked: [Entry]) -> Bool {
    if walked == entries { return true }
    guard walked.count == entries.count else { return false }
    return walked.sorted { $0.path < $1.path } == entries.sorted { $0.path < $1.path }
  }

  static func entry(_ path: String, _ info: stat) -> Entry {
    let type = info.st_mode & S_IFMT
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return Entry(
      path: path, kind: type == S_IFDIR ? 1 : type == S_IFREG ? 0 : 2,
      device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
      size: Int64(info.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
  }

  /// One folder's entries with their `lstat`.
  static func list(_ root: String, _ folder: String) -> [Entry] {
    guard let listed = Disk.entryStatuses(root, folder) else {
      // Unreadable: an entry no record holds, so the site never matches.
      return [Entry(path: folder + "/\u{0}unreadable", kind: 2, device: 0, inode: 0, size: 0, modified: 0)]
    }
    return listed.map { entry($0.path, $0.status) }
  }

  // MARK: Reading and writing

  /// The record's text: a header, the inputs, the summary, the entries.
  var text: String {
    var text = Self.header + "\n"
    for line in inputs { text += "input \(line)\n" }
    text += "summary \(pages) \(records) \(indexBytes)\n"
    for entry in entries {
      text +=
        "entry \(entry.kind) \(entry.device) \(entry.inode) \(entry.size) \(entry.modified) \(Self.escape(entry.path))\n"
    }
    return text
  }

  init(inputs: [String], pages: Int, records: Int, indexBytes: Int, entries: [Entry]) {
    self.inputs = inputs
    self.pages = pages
    self.records = records
    self.indexBytes = indexBytes
    self.entries = entries
  }

  /// Reads a record; nil when it is missing or not one this version wrote.
  /// Parsed from the bytes: a site of a million pages has a line for each.
  init?(contentsOf path: String) {
    guard let data = readPlainFile(atPath: path) else { return nil }
    var inputs: [String] = []
    var entries: [Entry] = []
    var summary: [Int]?
    let parsed = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
      let bytes = raw.bindMemory(to: UInt8.self)
      var start = 0
      var first = true
      while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 10 { end += 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        start = end + 1
        if first {
          guard String(decoding: line, as: UTF8.self) == Self.header else { return false }
          first = false
          continue
        }
        if line.isEmpty { continue }
        var fields = Fields(line)
        switch fields.word() {
        case "entry":
          guard let kind = fields.number(), let device = fields.number(), let inode = fields.number(),
            let size = fields.number(), let modified = fields.signed()
          else { return false }
          entries.append(
            Entry(
              path: Self.unescape(fields.rest()), kind: UInt8(truncatingIfNeeded: kind), device: device,
              inode: inode, size: Int64(size), modified: modified))
        case "input": inputs.append(fields.rest())
        case "summary":
          guard let pages = fields.number(), let records = fields.number(), let index = fields.number() else {
            return false
          }
          summary = [Int(pages), Int(records), Int(index)]
        default: return false
        }
      }
      return !first
    }
    guard parsed, let summary else { return nil }
    self.init(
      inputs: inputs, pages: summary[0], records: summary[1], indexBytes: summary[2], entries: entries)
  }

  /// Space-separated fields of one line.
  struct Fields {
    let line: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ line: UnsafeBufferPointer<UInt8>) { self.line = line }

    mutating func word() -> String {
      let start = position
      while position < line.count && line[position] != 32 { position += 1 }
      defer { position += 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: line[start..<position]), as: UTF8.self)
    }

    mutating func number() -> UInt64? {
      var value: UInt64 = 0
      let start = position
      while position < line.count && line[position] != 32 {
        let digit = line[position] &- 48
        guard digit < 10 else { return nil }
        value = value &* 10 &+ UInt64(digit)
        position += 1
      }
      defer { position += 1 }
      return position > start ? value : nil
    }

    mutating func signed() -> Int64? {
      if position < line.count && line[position] == UInt8(ascii: "-") {
        position += 1
        return number().map { -Int64(truncatingIfNeeded: $0) }
      }
      return number().map { Int64(truncatingIfNeeded: $0) }
    }

    func rest() -> String {
      position >= line.count
        ? "" : String(decoding: UnsafeBufferPointer(rebasing: line[position...]), as: UTF8.self)
    }
  }

  /// Writes the record by rename, so a reader sees the old one or the new
  /// one. Both names pass the guard first (`OwnedNames`), and the temporary
  /// file is always a new one (`O_EXCL | O_NOFOLLOW`): a link left at
  /// either name is never written through. No record is no harm: the next
  /// build builds.
  func write(to path: String, names: OwnedNames) {
    let temporaryName = names.record + ".\(getpid()).tmp"
    let temporary = names.path(temporaryName)
    guard (try? names.check(names.record)) != nil, let left = try? names.check(temporaryName) else { return }
    if left == .present { unlink(temporary) }
    if let failure = Disk.createNew(Array(text.utf8), at: temporary) {
      if failure.created { unlink(temporary) }
      return
    }
    if rename(temporary, path) != 0 { unlink(temporary) }
  }

  /// Paths may hold any byte but NUL: spaces, newlines and `%` are escaped.
  static func escape(_ text: String) -> String {
    guard text.contains(where: { $0 == " " || $0 == "\n" || $0 == "%" || $0 == "\r" }) else { return text }
    var escaped = ""
    for character in text.unicodeScalars {
      switch character {
      case "%": escaped += "%25"
      case " ": escaped += "%20"
      case "\n": escaped += "%0A"
      case "\r": escaped += "%0D"
      default: escaped.unicodeScalars.append(character)
      }
    }
    return escaped
  }

  static func unescape(_ text: String) -> String {
    guard text.contains("%") else { return text }
    return text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
      .replacingOccurrences(of: "%20", with: " ").replacingOccurrences(of: "%25", with: "%")
  }
}

extension SiteConfig.Table.Source {
  /// The files beside a data file that its loader reads with it: for a
  /// database, the changes a writer has committed but not yet checkpointed
  /// (`-wal`) or is in the middle of (`-journal`), which `SQLiteSource`
  /// copies and reads with the database. An empty one holds nothing.
  var companionSuffixes: [String] {
    switch self {
    case .sqliteTable, .sqliteQuery: ["-wal", "-journal"]
    case .csv, .json, .jsonLines, .postgres: []
    }
  }
}
