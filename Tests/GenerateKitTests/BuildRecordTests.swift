import Foundation
import Testing

@testable import GenerateKit

/// A command-line build over its own output skips the work only when the
/// inputs and the published site are exactly as the last build left them
/// (`BuildRecord`); otherwise it builds, and its site is byte for byte the
/// one a cold build of the same inputs writes.
@Suite struct BuildRecordTests {
  final class Session {
    let project: TemporaryProject
    let lines = Lines()

    init() throws { project = try TemporaryProject() }
    deinit { project.remove() }

    func build() throws -> BuildSummary {
      try SiteBuilder(options: project.options(), log: lines.append).build()
    }

    /// The site a cold build of the current inputs writes: a fresh folder,
    /// no record, no earlier site to update — or, `over` a copy of a site,
    /// the names of whose unchanged term shards it keeps (FORMAT.md "Stable
    /// names"), that site replaced.
    func cold(over site: String? = nil) throws -> [String: Data] {
      let output = project.path("cold-\(UUID().uuidString.prefix(8))")
      if let site { try FileManager.default.copyItem(atPath: site, toPath: output) }
      var options = project.options(output: output)
      options.usesBuildRecord = false
      _ = try SiteBuilder(options: options, log: { _ in }).build()
      defer { try? FileManager.default.removeItem(atPath: output) }
      return try snapshotFolder(output)
    }
  }

  @Test func aBuildWithNothingChangedIsUpToDateAndDoesNotTouchTheSite() throws {
    let session = try Session()
    let first = try session.build()
    #expect(!first.upToDate)
    let inodes = PublishingReuseTests.inodes(session.project.output)
    let second = try session.build()
    #expect(second.upToDate)
    #expect(second.pages == first.pages && second.records == first.records)
    #expect(session.lines.all.last?.hasPrefix("Up to date:") == true)
    #expect(PublishingReuseTests.inodes(session.project.output) == inodes)
    // Nothing in the published folder but what the build wrote.
    #expect(!FileManager.default.fileExists(atPath: session.project.output + "/.site.record"))
    #expect(FileManager.default.fileExists(atPath: session.project.path(".site.record")))
  }

  @Test func aFileDeletedAddedOrEditedInTheSiteIsPutBack() throws {
    let session = try Session()
    _ = try session.build()
    let built = try session.project.snapshot()
    let page = try #require(built.keys.first { $0.hasSuffix("index.html") && $0.contains("/") })
    let output = session.project.output

    try FileManager.default.removeItem(atPath: output + "/" + page)
    #expect(try !session.build().upToDate)
    #expect(try session.project.snapshot() == built)

    try Data("stray".utf8).write(to: URL(fileURLWithPath: output + "/stray.html"))
    #expect(try !session.build().upToDate)
    #expect(try session.project.snapshot() == built)

    // An edit in place of the same size: same inode, same folder.
    let original = try #require(built[page])
    var edited = [UInt8](original)
    edited[edited.count / 2] =
      edited[edited.count / 2] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output + "/" + page))
    try handle.write(contentsOf: Data(edited))
    try handle.close()
    #expect(try !session.build().upToDate)
    #expect(try session.project.snapshot() == built)
    #expect(try session.build().upToDate)
  }

  /// Each kind of input edited in turn, then put back: every build after an
  /// edit builds, and writes what a build with no record over the same site
  /// writes (a cold build's bytes, but for the names term shards keep).
  @Test(arguments: [
    ("templates/artist.mustache", "<h1>", "<h1 class=\"edited\">"),
    ("templates/partials/row.mustache", "<li", "<li class=\"edited\""),
    ("data/artists.csv", "2,AC/DC", "2,AC-DC"),
    // The same size: only the content hash can tell.
    ("data/artists.csv", "1,Beyoncé", "1,Beyoncè"),
    ("site.yml", "title: Mini", "title: Mini edited"),
  ])
  func anEditedInputIsBuiltAsACold(file: String, old: String, new: String) throws {
    let session = try Session()
    _ = try session.build()
    let original = try session.project.read(file)
    try #require(original.contains(old), "\(file) has no \(old)")
    for text in [original.replacingOccurrences(of: old, with: new), original] {
      try session.project.write(file, text)
      let previous = session.project.path("previous")
      try? FileManager.default.removeItem(atPath: previous)
      try FileManager.default.copyItem(atPath: session.project.output, toPath: previous)
      #expect(try !session.build().upToDate, "\(file) edited, yet the build was skipped")
      #expect(try session.project.snapshot() == session.cold(over: previous))
      #expect(try session.build().upToDate)
    }
  }

  /// A build killed after its site went live but before its record was
  /// written leaves the last record: inputs put back to what that record
  /// says must still build, since the live site is another folder now.
  @Test func aRecordLeftByAnEarlierSiteIsNotTrusted() throws {
    let session = try Session()
    _ = try session.build()
    let first = try session.project.snapshot()
    let original = try session.project.read("data/artists.csv")
    try session.project.write(
      "data/artists.csv", original.replacingOccurrences(of: "2,AC/DC", with: "2,AC-DC"))
    var options = session.project.options()
    options.usesBuildRecord = false  // as if killed before writing its record
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    #expect(try session.project.snapshot() != first)
    try session.project.write("data/artists.csv", original)
    #expect(try !session.build().upToDate)
    #expect(try session.project.snapshot() == first)
  }

  /// A named pipe where the record was is neither waited on nor replaced:
  /// the build stops with an error that names it, and the site stays.
  @Test(.timeLimit(.minutes(1))) func aPipeInPlaceOfTheRecordStopsTheBuildWithoutWaiting() throws {
    let session = try Session()
    _ = try session.build()
    let built = try session.project.snapshot()
    let record = session.project.path(".site.record")
    #expect(unlink(record) == 0 && mkfifo(record, 0o644) == 0)
    let error = #expect(throws: (any Error).self) { try session.build() }
    #expect(error.map { "\($0)" }?.contains("named pipe") == true)
    #expect(try session.project.snapshot() == built)
  }

  @Test func cleanBuildsAnyway() throws {
    let session = try Session()
    _ = try session.build()
    var options = session.project.options()
    options.clean = true
    #expect(try !SiteBuilder(options: options, log: { _ in }).build().upToDate)
    #expect(try session.build().upToDate)
  }
}

/// Pages other than the search page name the manifest by a name that
/// stays (`idx/manifest.json`), so a data edit changes only the pages whose
/// own content changed.
@Suite struct StableManifestTests {
  @Test func aOneRecordEditChangesItsPagesNotEveryPage() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    // The built-in theme over the mini data (the records fixture's config).
    let config = try String(
      contentsOf: fixturesRoot.appendingPathComponent("records/site.yml"), encoding: .utf8)
    try project.write("site.yml", config.replacingOccurrences(of: "../mini/data/", with: "data/"))
    let memory = BuildMemory()
    let builder = SiteBuilder(options: project.options(), log: { _ in })
    _ = try builder.build(keeping: memory)
    let before = try project.snapshot()
    let manifest = try #require(before["idx/manifest.json"])
    let hashed = try #require(
      before.first { $0.key.hasPrefix("idx/manifest.") && $0.key != "idx/manifest.json" })
    #expect(hashed.value == manifest)
    let pages = before.keys.filter { $0.hasSuffix("/index.html") }
    let beyonce = try #require(pages.first { $0.hasPrefix("artists/") && $0.contains("beyonc") })
    #expect(
      String(decoding: try #require(before[beyonce]), as: UTF8.self).contains(
        "data-index=\"/idx/manifest.json\""))

    let artists = try project.read("data/artists.csv")
    try project.write("data/artists.csv", artists.replacingOccurrences(of: "2,AC/DC", with: "2,AC-DC"))
    let changed = try #require(try builder.build(keeping: memory).changedFiles)
    let after = try project.snapshot()
    #expect(after["idx/manifest.json"] != manifest)
    #expect(changed.contains("idx/manifest.json") && changed.contains("index.html"))
    #expect(!changed.contains(beyonce))
    let changedPages = changed.filter { $0.hasSuffix("/index.html") }
    #expect(
      !changedPages.isEmpty && changedPages.count < pages.count / 2, "\(changedPages.count) of \(pages.count)"
    )
  }
}
