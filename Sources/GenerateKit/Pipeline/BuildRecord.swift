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
///   a modification time alone misses a quick edit of the same size), the
///   `generate` executable and the esbuild it bundles with (path, size,
///   inode, modification time: a new build of either is a new file), and
///   the options that change the output (`--base-url`);
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
    guard let configBytes = FileManager.default.contents(atPath: options.configPath),
      let config = try? ConfigLoader().load(path: options.configPath)
    else { return nil }
    var lines = [
      "config \(escape(OutputFolder.absolute(options.configPath))) \(configBytes.count) \(hash(configBytes))",
      "base-url \(escape(options.baseURL ?? "-"))",
      "preview \(options.previewScript.map { String(ContentHash.value(Array($0.utf8))) } ?? "-")",
    ]
    lines.append("executable " + stamp(executablePath()))
    lines.append("esbuild " + (AssetBundler.locateEsbuild().map(stamp) ?? "-"))
    for folder in config.templates.map(config.resolve) {
      lines.append("templates \(escape(folder))")
      for (relative, bytes) in filesUnder(folder) {
        lines.append("template \(escape(relative)) \(bytes.count) \(hash(bytes))")
      }
    }
    for table in config.tables {
      guard let file = table.file else { continue }
      let path = config.resolve(file)
      guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
      lines.append("data \(escape(path)) \(bytes.count) \(hash(bytes))")
    }
    return lines
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

  /// Every regular file under a folder, sorted by relative path, links
  /// followed as the template loader follows them.
  static func filesUnder(_ folder: String) -> [(String, Data)] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    var files: [(String, Data)] = []
    while let relative = enumerator.nextObject() as? String {
      let path = folder + "/" + relative
      guard FileStatus(path: path)?.kind == .file, let bytes = FileManager.default.contents(atPath: path)
      else { continue }
      files.append((relative, bytes))
    }
    return files.sorted { $0.0 < $1.0 }
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
    var level = [""]
    while !level.isEmpty {
      let listings = Parallel.map(count: level.count) { index in list(root, level[index]) }
      level = []
      for listing in listings {
        for item in listing {
          entries.append(item)
          if item.kind == 1 { level.append(item.path) }
        }
      }
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

  /// One folder's entries with their `lstat`, relative to the folder's
  /// descriptor.
  static func list(_ root: String, _ folder: String) -> [Entry] {
    let path = folder.isEmpty ? root : root + "/" + folder
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0, let directory = fdopendir(descriptor) else {
      if descriptor >= 0 { close(descriptor) }
      // Unreadable: an entry no record holds, so the site never matches.
      return [Entry(path: folder + "/\u{0}unreadable", kind: 2, device: 0, inode: 0, size: 0, modified: 0)]
    }
    defer { closedir(directory) }
    var entries: [Entry] = []
    while let item = readdir(directory) {
      let name = withUnsafePointer(to: &item.pointee.d_name) {
        String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
      }
      if name == "." || name == ".." { continue }
      var info = stat()
      guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      entries.append(entry(folder.isEmpty ? name : folder + "/" + name, info))
    }
    return entries
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
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
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

  /// Writes the record by rename, so a reader sees the old one or the new one.
  func write(to path: String) {
    let temporary = path + ".\(getpid()).tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
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
