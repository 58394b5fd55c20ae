import Foundation
import GRDB
import Testing

@testable import GenerateKit

/// The names a build keeps beside its output (`OwnedNames`): whatever sits
/// at one that a build did not make there — a link to someone's folder, a
/// mount point — is never followed, emptied, renamed or removed; the build
/// says so and stops, the site untouched.
@Suite struct OutputSafetyTests {
  /// A folder of the user's beside the project's output, with one file.
  struct Photos {
    let folder: String
    let bytes = Data("a photo, not a site".utf8)

    init(in project: TemporaryProject) throws {
      folder = project.path("photos")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try bytes.write(to: URL(fileURLWithPath: folder + "/me.jpg"))
    }

    /// Still exactly one file, with its bytes.
    func expectUntouched(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
      #expect(
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) == ["me.jpg"],
        sourceLocation: sourceLocation)
      #expect(
        FileManager.default.contents(atPath: folder + "/me.jpg") == bytes, sourceLocation: sourceLocation)
    }
  }

  /// A process id no process has.
  static func deadPID() -> Int32 {
    var pid: Int32 = 4_000_000
    while kill(pid, 0) == 0 || errno == EPERM { pid -= 1 }
    return pid
  }

  static func isRealFolder(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// `ln -s ~/photos .site.previous`, or a dead build's staging folder or
  /// old site left as a link: the build stops with an error naming the
  /// link, the folder it points to keeps its file, the link stays, and
  /// `site` is still the last site, a real folder.
  @Test(arguments: [".site.previous", ".site.staging-DEAD", ".site.old-DEAD-0123abcd", ".site.old-DEAD"])
  func aLinkAtANameTheBuildKeepsIsNeverFollowed(_ pattern: String) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let site = try project.snapshot()
    let photos = try Photos(in: project)
    let name = pattern.replacingOccurrences(of: "DEAD", with: String(Self.deadPID()))
    try? FileManager.default.removeItem(atPath: project.path(".site.previous"))
    // A build that builds (an input edited since), not one up to date.
    try project.write("data/genres.csv", try project.read("data/genres.csv") + "4,Samba\n")
    try FileManager.default.createSymbolicLink(atPath: project.path(name), withDestinationPath: photos.folder)

    let diagnostics = expectBuildFailure(project)
    let expected =
      "beside the output is a symbolic link to '\(photos.folder)'; generate owns that name and will not follow it — remove the link"
    #expect(
      diagnostics.contains { $0.message.contains("/\(name)' " + expected) && $0.location == nil },
      "\(diagnostics)")
    photos.expectUntouched()
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: project.path(name))) == photos.folder)
    #expect(Self.isRealFolder(project.output))
    #expect(try project.snapshot() == site)
  }

  /// The same through the real executable: exit status 1 and the message.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BadInputSuite.executable)))
  func theCommandSaysWhatIsThereAndExitsWithOne() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let arguments = ["--config", "site.yml", "--output", "site", "--quiet"]
    #expect(try runProcess(BadInputSuite.executable, arguments, in: project.root).status == 0)
    let photos = try Photos(in: project)
    try project.write("data/genres.csv", try project.read("data/genres.csv") + "4,Samba\n")
    try? FileManager.default.removeItem(atPath: project.path(".site.previous"))
    try FileManager.default.createSymbolicLink(
      atPath: project.path(".site.previous"), withDestinationPath: "photos")
    let result = try runProcess(BadInputSuite.executable, arguments, in: project.root)
    #expect(result.status == 1)
    #expect(
      result.err.contains(
        "error: '.site.previous' beside the output is a symbolic link to 'photos'; generate owns that name and will not follow it — remove the link"
      ), "\(result.err)")
    photos.expectUntouched()
    #expect(Self.isRealFolder(project.output))
  }

  /// The build record's name as a link to a file of the user's: the file is
  /// never read or replaced through it, nor is the link removed.
  @Test func aLinkAtTheRecordsNameIsNeverFollowed() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let notes = project.path("notes.txt")
    try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
    try FileManager.default.removeItem(atPath: project.path(".site.record"))
    try FileManager.default.createSymbolicLink(
      atPath: project.path(".site.record"), withDestinationPath: notes)
    let diagnostics = expectBuildFailure(project)
    #expect(
      diagnostics.contains { $0.message.contains(".site.record' beside the output is a symbolic link") })
    #expect(FileManager.default.contents(atPath: notes) == Data("my notes".utf8))
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: project.path(".site.record"))) == notes)
  }

  /// A name that only looks like a dead build's staging folder is not one:
  /// the build leaves it and what it holds alone.
  @Test func aNameOnlyLikeAStagingFolderIsLeftAlone() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    _ = try project.build()
    let folder = project.path(".site.staging-\(Self.deadPID())-backup")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data("kept".utf8).write(to: URL(fileURLWithPath: folder + "/mine.txt"))
    // With a previous site (it would be removed) and without (it would
    // become the previous site and be emptied).
    for _ in 1...2 {
      var options = project.options()
      options.usesBuildRecord = false
      _ = try SiteBuilder(options: options, log: { _ in }).build()
      #expect(FileManager.default.contents(atPath: folder + "/mine.txt") == Data("kept".utf8))
      try? FileManager.default.removeItem(atPath: project.path(".site.previous"))
    }
  }

  /// What is mounted inside a folder the build would empty or remove is
  /// found (a mount cannot be made here without privileges: the table and
  /// the system's own mounts stand in).
  @Test func mountPointsInsideAFolderAreFound() {
    let table = """
      22 27 0:21 / /proc rw,relatime - proc proc rw
      90 27 0:50 / /home/me/.site.previous/remote\\040files rw - fuse.sshfs me@host: rw
      91 27 0:51 / /home/me/site-old rw - tmpfs tmpfs rw

      """
    #expect(
      OwnedNames.mountPoints(inMountInfo: table) == [
        "/proc", "/home/me/.site.previous/remote files", "/home/me/site-old",
      ])
    #if os(Linux)
      #expect(OwnedNames.mountPoints(inside: "/").contains("/proc"))
      #expect(!OwnedNames.mountPoints(inside: "/proc").contains("/proc"))
    #endif
  }

  @Test func onlyTheNamesABuildMakesAreOwned() {
    let names = OwnedNames(outputPath: "/tmp/x/site")
    #expect(names.parse(".site.previous") == .init(kind: .folder))
    #expect(names.parse(".site.record") == .init(kind: .file))
    #expect(names.parse(".site.staging-42") == .init(kind: .folder, pid: 42, isStaging: true))
    #expect(names.parse(".site.old-42") == .init(kind: .folder, pid: 42))
    #expect(names.parse(".site.old-42-0a1b2c3d") == .init(kind: .folder, pid: 42))
    #expect(names.parse(".site.record.42.tmp") == .init(kind: .file, pid: 42))
    for name in [
      ".site.staging-42-backup", ".site.staging-", ".site.staging-042", ".site.staging--1",
      ".site.old-42-xyz",
      ".site.old-42-0A1B2C3D", ".site.previous.bak", ".site.record~", "site", ".other.previous",
    ] {
      #expect(names.parse(name) == nil, "\(name)")
    }
  }
}

/// The build record's fingerprint covers what the build reads, and a build
/// whose inputs changed under it leaves no record to trust.
@Suite struct BuildRecordInputTests {
  /// The mini project with its genres in a SQLite database in WAL mode,
  /// and the database's writer, still connected, never checkpointing.
  static func walProject() throws -> (TemporaryProject, DatabaseQueue) {
    let project = try TemporaryProject()
    let config = try project.read("site.yml")
    try project.write(
      "site.yml",
      config.replacingOccurrences(
        of: "genres: { file: data/genres.csv, key: id }",
        with: "genres: { sqlite: data/genres.sqlite, table: genres, key: id }"))
    let writer = try DatabaseQueue(path: project.path("data/genres.sqlite"))
    try writer.writeWithoutTransaction { db in
      _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
      try db.execute(sql: "CREATE TABLE genres (id INTEGER PRIMARY KEY, name TEXT)")
      try db.execute(sql: "INSERT INTO genres VALUES (1, 'Rock'), (2, 'Pop'), (3, 'MPB')")
    }
    return (project, writer)
  }

  /// A SQLite database in WAL mode with a writer still connected and no
  /// checkpoint: a change committed to the `-wal` file is a change.
  @Test func aChangeStillInTheWALIsAChange() throws {
    let (project, writer) = try Self.walProject()
    defer { project.remove() }
    defer { try? writer.close() }
    #expect(try !project.build().upToDate)
    #expect(try project.build().upToDate)
    let database = FileManager.default.contents(atPath: project.path("data/genres.sqlite"))

    try writer.write { db in try db.execute(sql: "UPDATE genres SET name = 'Rock and Roll' WHERE id = 1") }
    #expect(FileManager.default.contents(atPath: project.path("data/genres.sqlite")) == database)
    #expect(try !project.build().upToDate, "the edit in the -wal file was taken for no change")
    let built = try project.snapshot()
    #expect(built.values.contains { String(decoding: $0, as: UTF8.self).contains("Rock and Roll") })
    #expect(try project.build().upToDate)
  }

  /// The same for a preview's build: the data is loaded again, not kept
  /// from the last build as unchanged.
  @Test func aPreviewLoadsAChangeStillInTheWAL() throws {
    let (project, writer) = try Self.walProject()
    defer { project.remove() }
    defer { try? writer.close() }
    let memory = BuildMemory()
    let builder = SiteBuilder(options: project.options(), log: { _ in })
    _ = try builder.build(keeping: memory)
    try writer.write { db in try db.execute(sql: "UPDATE genres SET name = 'Rock and Roll' WHERE id = 1") }
    let build = try builder.build(keeping: memory)
    #expect(build.kind == .data)
    #expect(
      try project.snapshot().values.contains { String(decoding: $0, as: UTF8.self).contains("Rock and Roll") }
    )
  }

  /// A data file swapped for an edit right after the fingerprint was taken,
  /// built from, and put back afterwards (the same inode, size and
  /// modification time): the build must leave no record, so the next one
  /// builds the file as it is instead of calling the edit up to date.
  @Test func aFileSwappedUnderTheBuildLeavesNoRecord() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let options = project.options()
    let builder = SiteBuilder(options: options, log: { _ in })
    _ = try builder.build()
    let cold = try project.snapshot()
    // As after an edit since: no record to find the original up to date.
    #expect(unlink(project.path(".site.record")) == 0)

    let data = project.path("data/artists.csv")
    let aside = project.path("artists.csv.aside")
    let original = try project.read("data/artists.csv")
    let fingerprint = try #require(BuildRecord.fingerprint(for: options))
    #expect(rename(data, aside) == 0)
    try project.write("data/artists.csv", original.replacingOccurrences(of: "2,AC/DC", with: "2,AC-DC"))
    _ = try builder.build(fingerprinted: fingerprint, started: Date())
    #expect(try project.snapshot() != cold, "the build read the edit")
    #expect(rename(aside, data) == 0)

    #expect(try !builder.build().upToDate, "a site built from the edit was taken as up to date")
    #expect(try project.snapshot() == cold)
  }

  /// The fingerprint's own check: an edit put back before it is asked
  /// (same bytes, same inode, same modification time) still shows.
  @Test func aFileEditedAndPutBackShowsAsChanged() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let options = project.options()
    let fingerprint = try #require(BuildRecord.fingerprint(for: options))
    #expect(fingerprint.isUnchanged())
    let data = project.path("data/albums.csv")
    let aside = project.path("albums.csv.aside")
    #expect(rename(data, aside) == 0)
    try project.write("data/albums.csv", "id,title,artist_id\n")
    #expect(rename(aside, data) == 0)
    #expect(!fingerprint.isUnchanged())
  }

  /// A named pipe named as data: the fingerprint does not wait on it (the
  /// loader then says what it is).
  @Test(.timeLimit(.minutes(1))) func aNamedPipeIsNotWaitedOn() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let data = project.path("data/genres.csv")
    try FileManager.default.removeItem(atPath: data)
    try #require(mkfifo(data, 0o644) == 0)
    let started = Date()
    #expect(BuildRecord.fingerprint(for: project.options()) == nil)
    #expect(Date().timeIntervalSince(started) < 5)
  }
}
