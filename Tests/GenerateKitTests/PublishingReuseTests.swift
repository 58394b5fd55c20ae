import Foundation
import Testing

@testable import GenerateKit

/// Publishing writes only what changed: unchanged files are hard links to
/// the live site's, changed ones new files, and the live site is never
/// written through, so an interrupted build still leaves the old site or
/// the new one, whole.
@Suite struct PublishingReuseTests {
  /// A scratch folder with an output path inside that `OutputFolder` accepts.
  struct Scratch {
    let root: URL
    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("reuse-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }
    var site: String { root.appendingPathComponent("site").path }
    func writer() throws -> SiteWriter {
      var writer = SiteWriter(output: try OutputFolder(site, protecting: [], force: false))
      writer.oldSiteRemoval = .inline
      return writer
    }
    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  static func inode(_ path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
  }

  static func inodes(_ folder: String) -> [String: UInt64] {
    var result: [String: UInt64] = [:]
    for relative in FileManager.default.subpaths(atPath: folder) ?? [] {
      var isFolder: ObjCBool = false
      let path = folder + "/" + relative
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        result[relative] = inode(path)
      }
    }
    return result
  }

  @Test func aRebuildWithNothingChangedGivesTheSameBytesAndKeepsEveryFile() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let bytes = try project.snapshot()
    let before = Self.inodes(project.output)
    // The second build links from the live site; the third updates the
    // site the second replaced.
    for build in 2...3 {
      _ = try project.build()
      #expect(try project.snapshot() == bytes)
      let after = Self.inodes(project.output)
      #expect(after.count == before.count && before.count > 10)
      let rewritten = after.filter { before[$0.key] != $0.value }.keys.sorted()
      #expect(rewritten.isEmpty, "build \(build) rewrote unchanged files: \(rewritten)")
    }
  }

  @Test func aChangedFileIsANewFileAndTheOldSitesCopyIsUntouched() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let writer = try scratch.writer()
    var report = SiteWriter.Report()
    _ = try writer.publish(
      [("a/page.html", Array("one".utf8)), ("b.txt", Array("same".utf8)), ("c.txt", Array("grows".utf8))],
      report: &report)
    #expect(report == SiteWriter.Report(written: 4))
    // Someone still holding the first site's files: a second name for each.
    let kept = scratch.root.appendingPathComponent("kept").path
    try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
    for name in ["page.html", "b.txt", "c.txt"] {
      let source = scratch.site + (name == "page.html" ? "/a/" : "/") + name
      #expect(link(source, kept + "/" + name) == 0)
    }
    let oldA = Self.inode(scratch.site + "/a/page.html")
    let oldB = Self.inode(scratch.site + "/b.txt")
    report = SiteWriter.Report()
    _ = try writer.publish(
      [
        ("a/page.html", Array("two".utf8)), ("b.txt", Array("same".utf8)),
        ("c.txt", Array("grows more".utf8)),
      ],
      report: &report)
    #expect(report == SiteWriter.Report(written: 2, linked: 2))
    #expect(try String(contentsOfFile: scratch.site + "/a/page.html", encoding: .utf8) == "two")
    #expect(try String(contentsOfFile: scratch.site + "/c.txt", encoding: .utf8) == "grows more")
    #expect(Self.inode(scratch.site + "/a/page.html") != oldA)
    #expect(Self.inode(scratch.site + "/b.txt") == oldB)
    #expect(try String(contentsOfFile: kept + "/page.html", encoding: .utf8) == "one")
    #expect(try String(contentsOfFile: kept + "/c.txt", encoding: .utf8) == "grows")
    // The first site is now the previous one, its b.txt the same inode as
    // the live b.txt. Updating it must not write through that link.
    #expect(Self.inode(scratch.root.appendingPathComponent(".site.previous/b.txt").path) == oldB)
    report = SiteWriter.Report()
    _ = try writer.publish(
      [
        ("a/page.html", Array("two".utf8)), ("b.txt", Array("changed".utf8)),
        ("c.txt", Array("grows more".utf8)),
      ],
      report: &report)
    #expect(report == SiteWriter.Report(written: 1, linked: 2, kept: 1))
    #expect(try String(contentsOfFile: scratch.site + "/b.txt", encoding: .utf8) == "changed")
    #expect(try String(contentsOfFile: kept + "/b.txt", encoding: .utf8) == "same")
    let replaced = scratch.root.appendingPathComponent(".site.previous/b.txt").path
    #expect(try String(contentsOfFile: replaced, encoding: .utf8) == "same")
    #expect(Self.inode(replaced) == oldB)
  }

  /// The previous site is brought up to date: what the new site lacks goes,
  /// a file where a folder is wanted (and the other way round) is replaced,
  /// and a symbolic link in it is removed, never followed.
  @Test func thePreviousSiteIsUpdatedIntoTheNewOne() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let writer = try scratch.writer()
    _ = try writer.publish([
      ("keep.txt", Array("k".utf8)), ("x", Array("file".utf8)), ("d/e.txt", Array("e".utf8)),
    ])
    _ = try writer.publish([("keep.txt", Array("k".utf8))])
    let previous = scratch.root.appendingPathComponent(".site.previous").path
    let outside = scratch.root.appendingPathComponent("outside").path
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: outside + "/mine.txt"))
    try FileManager.default.createSymbolicLink(atPath: previous + "/y", withDestinationPath: outside)
    var report = SiteWriter.Report()
    let files: [(path: String, bytes: [UInt8])] = [
      ("keep.txt", Array("k".utf8)), ("x/inside.txt", Array("now a folder".utf8)),
      ("d", Array("now a file".utf8)),
      ("y/z.txt", Array("z".utf8)),
    ]
    _ = try writer.publish(files, report: &report)
    #expect(report.kept == 2)  // keep.txt and the marker
    var expected = Dictionary(uniqueKeysWithValues: files.map { ($0.path, Data($0.bytes)) })
    expected[OutputFolder.markerName] = Data(OutputFolder.markerText.utf8)
    #expect(try snapshotFolder(scratch.site) == expected)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["mine.txt"])
  }

  @Test func aPathThatCouldLeaveTheSiteIsRefusedAndTheSiteKept() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let writer = try scratch.writer()
    _ = try writer.publish([("index.html", Array("live".utf8)), ("a/.../b", Array("dots are a name".utf8))])
    let live = try snapshotFolder(scratch.site)
    for bad in ["../x", "a/../../x", "/etc/x", "a//b", "a/./b", "a/..", ".", "", "a/", "a\0b"] {
      #expect(throws: DiagnosticsError.self, "\(bad.debugDescription)") {
        try writer.publish([("index.html", Array("new".utf8)), (bad, Array("x".utf8))])
      }
      #expect(try snapshotFolder(scratch.site) == live)
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("x").path))
  }

  /// Same size, other bytes: the contents decide, not the size.
  @Test func aFileOfTheSameSizeWithOtherBytesIsWritten() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let writer = try scratch.writer()
    _ = try writer.publish([("x.html", Array("abcd".utf8))])
    let old = Self.inode(scratch.site + "/x.html")
    var report = SiteWriter.Report()
    _ = try writer.publish([("x.html", Array("abce".utf8))], report: &report)
    #expect(report.written == 1)
    #expect(Self.inode(scratch.site + "/x.html") != old)
    #expect(try String(contentsOfFile: scratch.site + "/x.html", encoding: .utf8) == "abce")
  }

  /// A live file someone made writable by others or replaced by a link is
  /// never shared with the new site.
  @Test func onlyPlainFilesWithTheUsualPermissionsAreShared() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let writer = try scratch.writer()
    try FileManager.default.createDirectory(atPath: scratch.site, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: scratch.root.appendingPathComponent("elsewhere.txt"))
    try FileManager.default.createSymbolicLink(
      atPath: scratch.site + "/linked.txt",
      withDestinationPath: scratch.root.appendingPathComponent("elsewhere.txt").path)
    try Data("open".utf8).write(to: URL(fileURLWithPath: scratch.site + "/open.txt"))
    chmod(scratch.site + "/open.txt", 0o666)
    try Data(OutputFolder.markerText.utf8).write(
      to: URL(fileURLWithPath: scratch.site + "/" + OutputFolder.markerName))
    var report = SiteWriter.Report()
    _ = try writer.publish(
      [("linked.txt", Array("keep".utf8)), ("open.txt", Array("open".utf8))], report: &report)
    #expect(report.written >= 2)
    var info = stat()
    #expect(lstat(scratch.site + "/linked.txt", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    #expect(stat(scratch.site + "/open.txt", &info) == 0 && (info.st_mode & 0o777) != 0o666)
  }

  @Test func aReplacedSiteNotKeptIsRemovedInTheBackground() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    var writer = try scratch.writer()
    writer.oldSiteRemoval = .background
    writer.keepsPreviousSite = false
    let files = (0..<200).map { (path: "p/\($0)/index.html", bytes: Array("page \($0)".utf8)) }
    _ = try writer.publish(files)
    _ = try writer.publish(files.map { ($0.path, $0.bytes + Array(" new".utf8)) })
    #expect(try String(contentsOfFile: scratch.site + "/p/7/index.html", encoding: .utf8) == "page 7 new")
    let deadline = Date().addingTimeInterval(30)
    var beside: [String] = []
    repeat {
      beside = try FileManager.default.contentsOfDirectory(atPath: scratch.root.path).filter { $0 != "site" }
      if beside.isEmpty { break }
      usleep(20_000)
    } while Date() < deadline
    #expect(beside.isEmpty, "still beside the site: \(beside)")
  }

  static var executable: URL { packageRoot.appendingPathComponent(".build/debug/generate") }

  /// `generate` killed with SIGKILL at moments spread over its publishing
  /// step: the output is always the previous site or the new one, byte for
  /// byte, and the next build finishes what the killed one left.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
  func aBuildKilledWhilePublishingLeavesTheOldSiteOrTheNew() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    // Enough pages that publishing takes a while.
    let artists = (1000...2500).map { "\($0),Artist number \($0)" }.joined(separator: "\n")
    let original = try project.read("data/artists.csv")
    func version(_ name: String) throws {
      try project.write(
        "data/artists.csv", original.replacingOccurrences(of: "AC/DC", with: name) + artists + "\n")
    }
    func build() throws {
      let result = try runProcess(
        Self.executable.path, ["--config", "site.yml", "--quiet"], in: project.root)
      #expect(result.status == 0, "\(result.err)")
    }
    try version("AC/DC")
    try build()
    let first = try project.snapshot()
    try version("ACDC")
    try build()
    let second = try project.snapshot()
    #expect(first != second)
    var current = second
    var interrupted = 0
    var whileStaging = 0
    for (run, delay) in [0, 1, 3, 10, 30, 60, 120, 250].enumerated() {
      let target = run % 2 == 0 ? first : second
      try version(run % 2 == 0 ? "AC/DC" : "ACDC")
      let process = Process()
      process.executableURL = Self.executable
      process.arguments = ["--config", "site.yml", "--quiet"]
      process.currentDirectoryURL = project.root
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      let staging = project.path(".site.staging-\(process.processIdentifier)")
      let deadline = Date().addingTimeInterval(120)
      while process.isRunning && !FileManager.default.fileExists(atPath: staging) && Date() < deadline {
        usleep(500)
      }
      usleep(useconds_t(delay * 1000))
      if process.isRunning { interrupted += 1 }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if FileManager.default.fileExists(atPath: staging) { whileStaging += 1 }
      let site = try project.snapshot()
      #expect(site == current || site == target, "run \(run): the site is neither the old nor the new one")
      current = site == target ? target : current
    }
    #expect(interrupted > 0 && whileStaging > 0, "no kill landed while the site was being staged")
    try build()
    let beside = try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
      $0.hasPrefix(".site.staging-")
    }
    #expect(beside.isEmpty, "left behind: \(beside)")
  }
}
