import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The names a build keeps beside an output folder `NAME`, and the one
/// guard every one of them passes before anything removes, renames, empties
/// or writes through it.
///
/// A build owns `.NAME.previous` (the replaced site it updates next time),
/// `.NAME.staging-PID` (where it stages), `.NAME.old-PID-XXXXXXXX` and the
/// older `.NAME.old-PID` (sites on their way out), `.NAME.record` and
/// `.NAME.record.PID.tmp` (the build record). Such a name is claimed by
/// renaming and then emptied or filled, so whatever sits at it must be what
/// a build put there: anything else is someone's own — a symbolic link
/// (`ln -s ~/photos .site.previous`) would be followed, its target emptied
/// and the site written into it; a mount point would be emptied across
/// devices. The guard (`check`), by `lstat`, never following a link:
///
/// - the name is one of the names above, exactly (`.site.staging-12-backup`
///   is not ours and is never touched);
/// - it is not a symbolic link;
/// - it is of the kind a build makes there (a folder, or a regular file
///   for the record);
/// - it is on the device of the output's parent folder (not a mount point).
///
/// A name that fails is an error and nothing is done to it. Unlinking just
/// the link would be safe too, but the link is not something generate
/// makes: someone put it there, perhaps meaning it to send the kept site
/// elsewhere, and silently removing it would hide that; the error says what
/// is there and what to do, and the site stays as it was.
struct OwnedNames: Sendable {
  /// The folder that holds the output, absolute, links resolved.
  let parent: String
  /// The output folder's own name.
  let output: String

  /// What a build keeps at a name.
  enum Kind: Equatable, Sendable {
    case folder
    case file
  }

  /// What the guard found at a name that passed it.
  enum Presence: Equatable, Sendable {
    case absent
    case present
  }

  /// One of the names, taken apart.
  struct Name: Equatable, Sendable {
    var kind: Kind
    /// The process a staging folder, site on its way out or temporary
    /// record belongs to.
    var pid: Int32?
    var isStaging = false
  }

  /// For an output by its absolute path (links resolved).
  init(outputPath: String) {
    let url = URL(fileURLWithPath: outputPath).standardizedFileURL
    parent = url.deletingLastPathComponent().path
    output = url.lastPathComponent
  }

  var previous: String { ".\(output).previous" }
  var stagingPrefix: String { ".\(output).staging-" }
  var oldPrefix: String { ".\(output).old-" }
  var record: String { ".\(output).record" }

  func path(_ name: String) -> String { parent == "/" ? "/" + name : parent + "/" + name }

  /// The name taken apart when it is exactly one a build makes; nil for any
  /// other name, which a build never touches.
  func parse(_ name: String) -> Name? {
    if name == previous { return Name(kind: .folder) }
    if name == record { return Name(kind: .file) }
    if name.hasPrefix(stagingPrefix) {
      let rest = name.dropFirst(stagingPrefix.count)
      guard let pid = Self.pid(rest) else { return nil }
      return Name(kind: .folder, pid: pid, isStaging: true)
    }
    if name.hasPrefix(oldPrefix) {
      let rest = name.dropFirst(oldPrefix.count)
      // `.NAME.old-PID` (earlier versions), `.NAME.old-PID-xxxxxxxx` now.
      let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
      guard let first = parts.first, let pid = Self.pid(first) else { return nil }
      if parts.count == 1 { return Name(kind: .folder, pid: pid) }
      guard parts.count == 2, parts[1].count == 8,
        parts[1].utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
      else { return nil }
      return Name(kind: .folder, pid: pid)
    }
    if name.hasPrefix(record + "."), name.hasSuffix(".tmp") {
      let middle = name.dropFirst(record.count + 1).dropLast(4)
      guard let pid = Self.pid(middle) else { return nil }
      return Name(kind: .file, pid: pid)
    }
    return nil
  }

  /// Decimal digits only, no sign, no leading zero: a process id as `getpid`
  /// prints it.
  static func pid(_ text: Substring) -> Int32? {
    guard !text.isEmpty, text.count <= 10, text.first != "0",
      text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    return Int32(text)
  }

  /// The guard: whether `name` beside the output is absent, or present and
  /// what a build made there (see the type's comment). Throws the reason
  /// otherwise; nothing may then be done to it.
  func check(_ name: String) throws(DiagnosticsError) -> Presence {
    let shown = DatasetLoader.displayPath(path(name))
    guard let owned = parse(name) else {
      throw DiagnosticsError(
        .error(at: nil, "'\(shown)' is not a name generate keeps beside the output; it is left alone"))
    }
    var info = stat()
    guard lstat(path(name), &info) == 0 else {
      // Nothing can be there when a folder on the way is missing or is a
      // file: the output's own check (`OutputFolder`) says what is wrong.
      if errno == ENOENT || errno == ENOTDIR { return .absent }
      throw DiagnosticsError(
        .error(at: nil, "cannot inspect '\(shown)' beside the output: \(String(cString: strerror(errno)))"))
    }
    let type = info.st_mode & S_IFMT
    if type == S_IFLNK {
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path(name))) ?? "?"
      throw DiagnosticsError(
        .error(
          at: nil,
          "'\(shown)' beside the output is a symbolic link to '\(target)'; generate owns that name and will not follow it — remove the link"
        ))
    }
    let expected = owned.kind == .folder ? S_IFDIR : S_IFREG
    guard type == expected else {
      let what =
        switch type {
        case S_IFDIR: "a folder"
        case S_IFREG: "a file"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFSOCK: "a socket"
        default: "a device"
        }
      let wanted = owned.kind == .folder ? "the folder" : "the file"
      throw DiagnosticsError(
        .error(
          at: nil,
          "'\(shown)' beside the output is \(what), not \(wanted) generate keeps there; generate owns that name and will not remove or replace it — move it away"
        ))
    }
    var folder = stat()
    guard stat(parent, &folder) == 0 else {
      throw DiagnosticsError(
        .error(
          at: nil,
          "cannot inspect the folder '\(DatasetLoader.displayPath(parent))' of the output: \(String(cString: strerror(errno)))"
        ))
    }
    guard info.st_dev == folder.st_dev else {
      throw DiagnosticsError(
        .error(
          at: nil,
          "'\(shown)' beside the output is on another device than the output's folder (a mount point); generate owns that name and will not empty it — unmount it or move it away"
        ))
    }
    // Nor anything mounted inside a folder (an `sshfs` mount made in the
    // site, carried along when the site was kept): emptying or removing
    // the folder would go on into it.
    if owned.kind == .folder, let mount = Self.mountPoints(inside: path(name)).first {
      throw DiagnosticsError(
        .error(
          at: nil,
          "'\(DatasetLoader.displayPath(mount))' inside '\(shown)' beside the output is a mount point; generate will not empty or remove what is mounted there — unmount it"
        ))
    }
    return .present
  }

  /// The mount points strictly inside `folder` (absolute, links resolved),
  /// from `/proc/self/mountinfo`. Elsewhere none are known, and the device
  /// check of the name itself is all there is.
  static func mountPoints(inside folder: String) -> [String] {
    #if os(Linux)
      guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else {
        return []
      }
      return mountPoints(inMountInfo: table).filter {
        $0 != folder && PathContainment.isPath($0, inside: folder)
      }
    #else
      return []
    #endif
  }

  /// The mount points a `mountinfo` table lists (its fifth field, with the
  /// kernel's octal escapes for space, tab, newline and backslash undone).
  static func mountPoints(inMountInfo table: String) -> [String] {
    table.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      guard fields.count > 4 else { return nil }
      var bytes: [UInt8] = []
      let raw = Array(fields[4].utf8)
      var index = 0
      while index < raw.count {
        if raw[index] == UInt8(ascii: "\\"), index + 3 < raw.count,
          let value = UInt8(String(decoding: raw[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
        {
          bytes.append(value)
          index += 4
        } else {
          bytes.append(raw[index])
          index += 1
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// `check`, for a caller that must not throw: true only when the name is
  /// present and passed.
  func isPresentAndOurs(_ name: String) -> Bool {
    (try? check(name)) == .present
  }
}
