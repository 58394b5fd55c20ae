import Foundation
import Testing

@testable import GenerateKit

/// The pages open in a browser are rendered, checked and reloaded before
/// the rest of the site: the build is held right after it hands them over,
/// so what the server answers then is what a person sees before the rest
/// is rendered. The folder ends as a cold build makes it.
@Suite struct PreviewFastRenderTests {
  static let open = "/albums/10-lemonade/index.html"

  /// Holds the build once, right after the open pages are handed over.
  final class Hold: @unchecked Sendable {
    private let lock = NSLock()
    private var armed = false
    private let released = DispatchSemaphore(value: 0)

    func arm() { lock.withLock { armed = true } }
    func release() { released.signal() }

    func pauseIfArmed() {
      let pause = lock.withLock {
        defer { armed = false }
        return armed
      }
      if pause { _ = released.wait(timeout: .now() + 30) }
    }
  }

  struct Session {
    var folder: PreviewFolder
    var options: BuildOptions
    var hold = Hold()
    var lines = Lines()
    var errors = Lines()
    var album: String

    init() throws {
      folder = try PreviewFolder()
      try folder.copyFixture("mini")
      album = try String(contentsOfFile: folder.path("templates/album.mustache"), encoding: .utf8)
      options = BuildOptions()
      options.configPath = folder.path("site.yml")
      options.outputPath = folder.path("site")
      options.previewScript = PreviewServer.reloadScript
    }

    /// Runs the server as `generate preview` does, with the hold.
    func withServer(_ body: (HTTPTestClient) async throws -> Void) async throws {
      let builder = SiteBuilder(options: options, log: lines.append)
      let memory = BuildMemory()
      let hold = self.hold
      try await folder.withServer(
        watching: ["templates", "data", "site.yml"], log: lines.append, warn: errors.append,
        reportingChanges: { progress in
          var progress = progress
          let handOver = progress.openReady
          progress.openReady = { files, changed in
            handOver(files, changed)
            hold.pauseIfArmed()
          }
          return try builder.build(keeping: memory, reportingTo: progress).changedFiles
        }, body)
    }

    /// The album template as the fixture has it, with another heading.
    func editAlbumTemplate(_ heading: String) throws {
      try folder.write(
        "templates/album.mustache", album.replacingOccurrences(of: "<h1>{{title}}</h1>", with: heading))
    }

    func folderText(_ path: String) throws -> String {
      try String(contentsOfFile: folder.path("site/" + path), encoding: .utf8)
    }

    /// The folder as a cold build of the same inputs writes it.
    func expectFolderMatchesAColdBuild() throws {
      var cold = options
      cold.outputPath = folder.path("cold")
      try? FileManager.default.removeItem(atPath: cold.outputPath)
      _ = try SiteBuilder(options: cold, log: { _ in }).build()
      let built = try snapshotFolder(folder.path("site"))
      let expected = try snapshotFolder(folder.path("cold"))
      #expect(built.keys.sorted() == expected.keys.sorted())
      for (path, bytes) in expected where built[path] != bytes {
        Issue.record("\(path) differs from a cold build")
      }
    }

    func builds() -> Int { lines.all.count { $0.hasPrefix("Built in") } }
  }

  @Test func theOpenPageReloadsBeforeTheRestIsRendered() async throws {
    let session = try Session()
    try await session.withServer { client in
      let page = try await client.openEvents(page: Self.open)
      _ = try await page.waitFor("event: hello")
      let albums = try FileManager.default.contentsOfDirectory(atPath: session.folder.path("site/albums"))
        .sorted()
      #expect(albums.count == 3)

      session.hold.arm()
      try session.editAlbumTemplate("<h1>Album: {{title}}</h1>")
      let first = try await page.waitFor("event: reload", timeout: .seconds(15))
      // Held: the rest of the site is not rendered yet.
      #expect(PreviewBuildTests.reloaded(in: first) == [[Self.open]], "the open page alone, first")
      #expect(try await client.get("/albums/10-lemonade/").text.contains("<h1>Album: Lemonade</h1>"))
      let other = try await client.get("/albums/11-back-in-black/")
      #expect(other.status == 200)
      #expect(other.text.contains("<h1>Back in Black</h1>"), "another album is as the last build left it")
      #expect(
        !(try session.folderText("albums/10-lemonade/index.html").contains("Album:")), "nothing written yet")

      session.hold.release()
      let both = try await page.waitFor("]\n\n", occurrences: 2, timeout: .seconds(15))
      let rest = albums.map { "/albums/\($0)/index.html" }.filter { $0 != Self.open }
      #expect(PreviewBuildTests.reloaded(in: both).last == rest, "the others, not the open page again")
      try await eventually(timeout: .seconds(15)) { session.builds() == 2 }
      #expect(
        try await client.get("/albums/11-back-in-black/").text.contains("<h1>Album: Back in Black</h1>"))
      #expect(session.lines.all.contains { $0.contains("open pages first: 1 reloaded") })
    }
    try session.expectFolderMatchesAColdBuild()
  }

  /// After a data edit the open page shows the new records before the
  /// index is built (the longest step), and reloads no second time when
  /// the index does not change its bytes.
  @Test func aDataEditShowsTheOpenPageBeforeTheIndexIsBuilt() async throws {
    let session = try Session()
    try await session.withServer { client in
      let page = try await client.openEvents(page: Self.open)
      _ = try await page.waitFor("event: hello")
      let linesBefore = session.lines.all.count

      session.hold.arm()
      let artists = try String(contentsOfFile: session.folder.path("data/artists.csv"), encoding: .utf8)
      try session.folder.write(
        "data/artists.csv", artists.replacingOccurrences(of: "Beyoncé", with: "Beyoncé Knowles"))
      let first = try await page.waitFor("event: reload", timeout: .seconds(15))
      #expect(PreviewBuildTests.reloaded(in: first) == [[Self.open]])
      #expect(try await client.get("/albums/10-lemonade/").text.contains(">Beyoncé Knowles</a>"))
      let during = session.lines.all.dropFirst(linesBefore)
      #expect(during.contains { $0.contains("[2/6] Preparing documents") })
      #expect(!during.contains { $0.contains("[3/6] Building index") }, "held before the index: \(during)")
      #expect(!(try session.folderText("albums/10-lemonade/index.html").contains("Knowles")))

      session.hold.release()
      try await eventually(timeout: .seconds(15)) { session.builds() == 2 }
      let all = try await page.waitFor("]\n\n", occurrences: 2, timeout: .seconds(15))
      let reloads = PreviewBuildTests.reloaded(in: all)
      #expect(reloads.count == 2, "\(reloads)")
      #expect(reloads.last?.contains(Self.open) == false, "not again: the same bytes")
      #expect(reloads.last?.contains { $0.hasPrefix("/artists/1-beyonce") } == true, "\(reloads)")
    }
    try session.expectFolderMatchesAColdBuild()
  }

  /// The search page shows no record, only the index's name: rendered
  /// before the index it is unchanged, so it reloads once, after it.
  @Test func aPageThatOnlyNamesTheIndexReloadsOnceItIsBuilt() async throws {
    let session = try Session()
    try await session.withServer { client in
      let before = try await client.get("/").text
      let page = try await client.openEvents(page: "/index.html")
      _ = try await page.waitFor("event: hello")

      let artists = try String(contentsOfFile: session.folder.path("data/artists.csv"), encoding: .utf8)
      try session.folder.write(
        "data/artists.csv", artists.replacingOccurrences(of: "Beyoncé", with: "Beyoncé Knowles"))
      try await eventually(timeout: .seconds(15)) { session.builds() == 2 }
      let reloads = PreviewBuildTests.reloaded(in: try await page.waitFor("]\n\n", occurrences: 2))
      #expect(reloads.first == ["/index.html"], "\(reloads)")
      #expect(reloads.dropFirst().allSatisfy { !$0.contains("/index.html") }, "once: \(reloads)")
      #expect(try await client.get("/").text != before)
      #expect(!session.lines.all.contains { $0.contains("open pages before the index") })
      #expect(session.lines.all.contains { $0.contains("open pages first: 1 reloaded") })
    }
    try session.expectFolderMatchesAColdBuild()
  }

  /// An edit saved while the rest of the site renders stops that build
  /// before it writes anything; the next build starts from both edits.
  @Test func aNewerEditSupersedesTheRestOfTheBuild() async throws {
    let session = try Session()
    try await session.withServer { client in
      let page = try await client.openEvents(page: Self.open)
      _ = try await page.waitFor("event: hello")

      session.hold.arm()
      try session.editAlbumTemplate("<h1>Album: {{title}}</h1>")
      _ = try await page.waitFor("event: reload", timeout: .seconds(15))
      try session.editAlbumTemplate("<h1>Record: {{title}}</h1>")
      session.hold.release()

      try await eventually(timeout: .seconds(15)) { session.lines.all.contains { $0.hasPrefix("Stopped:") } }
      try await eventually(timeout: .seconds(15)) { session.builds() == 2 }
      #expect(try await client.get("/albums/10-lemonade/").text.contains("<h1>Record: Lemonade</h1>"))
      #expect(
        try await client.get("/albums/11-back-in-black/").text.contains("<h1>Record: Back in Black</h1>"))
      #expect(session.errors.all.isEmpty, "\(session.errors.all)")
    }
    try session.expectFolderMatchesAColdBuild()
  }

  /// The open page renders and passes its checks, another page does not:
  /// the open page has reloaded with the edit, then the whole site's
  /// validation reports the error to every open page, and the folder keeps
  /// the last good site, which the server answers from again.
  @Test func anErrorElsewhereIsReportedWhenTheRestIsChecked() async throws {
    let session = try Session()
    try await session.withServer { client in
      let page = try await client.openEvents(page: Self.open)
      _ = try await page.waitFor("event: hello")

      session.hold.arm()
      // "Lemonade" is a good id; "Back in Black" has spaces.
      try session.editAlbumTemplate("<h1 id=\"{{title}}\">{{title}}</h1>")
      _ = try await page.waitFor("event: reload", timeout: .seconds(15))
      #expect(try await client.get("/albums/10-lemonade/").text.contains("<h1 id=\"Lemonade\">"))
      session.hold.release()

      let stream = try await page.waitFor("event: error", timeout: .seconds(15))
      #expect(stream.contains("albums/11-back-in-black/index.html:"), "\(stream)")
      #expect(stream.contains("id \"Back in Black\" must be non-empty and contain no spaces"), "\(stream)")
      #expect(!(try session.folderText("albums/10-lemonade/index.html").contains("id=\"Lemonade\"")))
      #expect(
        try await client.get("/albums/10-lemonade/").text.contains("<h1>Lemonade</h1>"),
        "the last good site is served again")

      try session.editAlbumTemplate("<h1>Fixed: {{title}}</h1>")
      _ = try await page.waitFor("event: ok", timeout: .seconds(15))
      try await eventually(timeout: .seconds(15)) { session.builds() == 2 }
    }
    try session.expectFolderMatchesAColdBuild()
  }

  @Test func theReloadClientNamesItsPage() throws {
    #expect(StaticSiteResponder.page(inQuery: "page=%2Falbums%2F10-lemonade%2Findex.html") == Self.open)
    #expect(StaticSiteResponder.page(inQuery: "x=1&page=%2F") == "/")
    #expect(StaticSiteResponder.page(inQuery: "page=albums") == nil, "not a path")
    #expect(StaticSiteResponder.page(inQuery: nil) == nil)
    #expect(
      RebuildService.sitePath(of: "/music/a%20b/index.html", basePath: .root) == "music/a%20b/index.html")
    #expect(RebuildService.sitePath(of: "/other/index.html", basePath: try BasePath("/music/")) == nil)
    #expect(
      RebuildService.sitePath(of: "/music/index.html", basePath: try BasePath("/music/")) == "index.html")
  }
}
