import Foundation
import Hummingbird
import Testing

@testable import GenerateKit

/// The parts of the server that need no socket.
@Suite struct PreviewUnitTests {
  @Test func takesRequestTargetsApartOnce() throws {
    #expect(try RequestTarget(parsing: "/") == RequestTarget(segments: [], hasTrailingSlash: true))
    #expect(
      try RequestTarget(parsing: "/music//albums/?q=a%20b")
        == RequestTarget(segments: ["music", "albums"], hasTrailingSlash: true, query: "q=a%20b"))
    #expect(try RequestTarget(parsing: "/a%20b").segments == ["a b"])
    #expect(try RequestTarget(parsing: "/%252e%252e").segments == ["%2e%2e"])
    #expect(try RequestTarget(parsing: "/.well-known/x").segments == [".well-known", "x"])

    let refused: [(String, RequestTarget.Problem)] = [
      ("/..", .dotSegment), ("/a/./b", .dotSegment), ("/%2e%2e/x", .dotSegment),
      ("/..%2fx", .encodedSlash), ("/a\\b", .backslash), ("/a%5cb", .backslash),
      ("/a%00", .controlCharacter), ("/a%0d%0aSet-Cookie:x", .controlCharacter),
      ("/%", .malformedEscape), ("/%4", .malformedEscape), ("/%g0", .malformedEscape),
      ("/%ff", .notUTF8), ("x", .notOriginForm), ("http://h/", .notOriginForm),
      ("/" + String(repeating: "a", count: 5000), .tooLong),
    ]
    for (target, problem) in refused {
      #expect(throws: problem, "\(target)") { try RequestTarget(parsing: target) }
    }
  }

  @Test func encodesRedirectsSoTheyStayOnThisHost() {
    #expect(RequestTarget.encodedPath(["evil.com"], trailingSlash: true) == "/evil.com/")
    #expect(RequestTarget.encodedPath(["a b", "café"], trailingSlash: false) == "/a%20b/caf%C3%A9")
    #expect(RequestTarget.encodedPath([], trailingSlash: true) == "/")
  }

  @Test func reducesABaseURLToItsPath() throws {
    #expect(try BasePath("https://example.com/music").path == "/music/")
    #expect(try BasePath("/music/").path == "/music/")
    #expect(try BasePath("music/jazz").segments == ["music", "jazz"])
    #expect(try BasePath("/") == .root)
    #expect(try BasePath("") == .root)
  }

  @Test func formatsAndReadsHTTPDates() {
    #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    #expect(HTTPDate.parse("garbage") == nil)
    for seconds: Int64 in [951_782_400, 1_709_164_800, 4_102_444_799] {
      #expect(HTTPDate.parse(HTTPDate.format(secondsSince1970: seconds)) == seconds)
    }
  }

  @Test func readsAcceptEncoding() {
    #expect(ContentNegotiation.acceptsGzip("gzip, deflate, br"))
    #expect(ContentNegotiation.acceptsGzip("br;q=1.0, GZIP;q=0.5"))
    #expect(ContentNegotiation.acceptsGzip("*"))
    #expect(!ContentNegotiation.acceptsGzip(nil))
    #expect(!ContentNegotiation.acceptsGzip("identity"))
    #expect(!ContentNegotiation.acceptsGzip("gzip;q=0"))
    #expect(!ContentNegotiation.acceptsGzip("gzip;q=0, *"))
    #expect(!ContentNegotiation.acceptsGzip("*;q=0"))
  }

  @Test func writesGzipThatGzipReads() throws {
    var random = SystemRandomNumberGenerator()
    let text = Array((1...2000).map { "track \($0 % 97), album \($0 % 13)\n" }.joined().utf8)
    let inputs: [[UInt8]] = [
      [],
      [42],
      Array("abc".utf8),
      [UInt8](repeating: 7, count: 100_000),
      (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) },
      text,
      // Repeats further back than the 32 KB window.
      text + (0..<40_000).map { _ in UInt8.random(in: 0...255, using: &random) } + text,
    ]
    for input in inputs {
      let compressed = try #require(Gzip.compress(input))
      #expect(try gunzip(compressed) == input, "\(input.count) bytes")
    }
    #expect(try #require(Gzip.compress(text)).count < text.count / 4)
  }

  /// A reload names the changed pages by the addresses open pages have,
  /// under the base path; other files are not pages to reload.
  @Test func aReloadNamesPagesByTheirAddresses() throws {
    let changed = ["404.html", "albums/10-lemonade/index.html", "assets/x/site.css", "idx/manifest.1.json"]
    let pages = RebuildService.pages(in: changed, basePath: try BasePath("/music/"))
    #expect(pages == ["/music/404.html", "/music/albums/10-lemonade/index.html"])
    #expect(
      ReloadEvent.reload(pages: ["/a \"b\"/index.html", "/c\nd.html"]).wireFormat
        == "event: reload\ndata: [\"/a \\\"b\\\"/index.html\",\"/c\\nd.html\"]\n\n",
      "one line of JSON, whatever the names hold")
    #expect(ReloadEvent.reload(pages: nil).wireFormat == "event: reload\ndata: *\n\n")
    #expect(
      ReloadEvent.reload(pages: nil, except: ["/a/index.html"]).wireFormat
        == "event: reload\ndata: {\"except\":[\"/a/index.html\"]}\n\n", "every page but one shown first")
  }

  @Test func theReloadClientBehaves() throws {
    let harness = fixturesRoot.appendingPathComponent("Preview/reload-harness.mjs")
    let script = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reload-\(UUID().uuidString).js")
    try PreviewServer.reloadScript.write(to: script, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: script) }

    let result = try runProcess("/usr/bin/env", ["node", harness.path, script.path])
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("reload client ok"))
  }

  @Test func knowsLoopbackHostNames() {
    for name in [
      "localhost", "LocalHost:8000", "localhost.", "127.0.0.1", "127.0.0.1:65535", "127.255.0.9", "[::1]",
      "[::1]:80", "[0:0:0:0:0:0:0:1]:8000", "[::ffff:127.0.0.1]",
    ] {
      #expect(HostCheck.isLoopbackName(name), "\(name)")
    }
    for name in [
      "", "evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "127.0.0.1:", "127.0.0.1:123456",
      "127.0.0",
      "127.0.0.256", "0x7f.0.0.1", "[::1", "[::2]", "[::1]x", "192.168.1.2", "::1", "[127.0.0.1]",
      "[::ffff:10.0.0.1]",
    ] {
      #expect(!HostCheck.isLoopbackName(name), "\(name)")
    }
    #expect(
      HostCheck.loopbackNames.allows("localhost:8000") && !HostCheck.loopbackNames.allows("evil.example"))
    #expect(HostCheck.anyName.allows("evil.example"))
  }

  /// `--host` naming loopback keeps the `Host` check; only an address other
  /// machines can reach turns it off.
  @Test func choosesTheHostCheckFromTheAddressListenedOn() {
    for address in ["127.0.0.1", "127.0.0.2", "localhost", "LOCALHOST", "::1", "[::1]", "0:0:0:0:0:0:0:1"] {
      #expect(HostCheck(listeningOn: address) == .loopbackNames, "\(address)")
      #expect(PreviewServer.isLoopback(address), "\(address)")
    }
    for address in ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "fd00::2"] {
      #expect(HostCheck(listeningOn: address) == .anyName, "\(address)")
      #expect(!PreviewServer.isLoopback(address), "\(address)")
    }
  }

  @Test func sendsHummingbirdsMediaTypesWithTheCharsetForText() {
    #expect(MediaType.forFile(named: "a/index.html").description == "text/html; charset=utf-8")
    #expect(MediaType.forFile(named: "app.MJS").description == "text/javascript; charset=utf-8")
    #expect(MediaType.forFile(named: "x.map").description == "application/json")
    #expect(MediaType.forFile(named: "cover.avif").description == "image/avif")
    #expect(MediaType.forFile(named: ".hidden").description == "application/octet-stream")
    #expect(MediaType.forFile(named: "README").description == "application/octet-stream")
    #expect(
      MediaType.forFile(named: "icon.svg").isCompressible
        && MediaType.forFile(named: "index.json").isCompressible)
    #expect(
      !MediaType.forFile(named: "cover.png").isCompressible
        && !MediaType.forFile(named: "f.woff2").isCompressible)
  }

  @Test func watchesExactlyWhatTheConfigReads() throws {
    let project = try PreviewFolder()
    try project.copyFixture("mini")
    // The config in a folder of its own, pointing back at the data and
    // templates: what it names is watched, not its neighbours.
    let original = try String(contentsOf: project.root.appendingPathComponent("site.yml"), encoding: .utf8)
    try project.write(
      "config/site.yml",
      original.replacingOccurrences(of: "templates: templates", with: "templates: [../templates]")
        .replacingOccurrences(of: "file: data/", with: "file: ../data/")
        .replacingOccurrences(
          of: "genres: { file: ../data/genres.csv, key: id }",
          with: "genres: { sqlite: ../data/catalogue.sqlite, table: genres, key: id }"))
    try project.write("config/notes.txt", "not an input")
    let config = project.path("config/site.yml")
    // A database with the `-wal` and `-journal` its loader reads with it.
    let data =
      ["artists.csv", "albums.csv", "catalogue.sqlite", "catalogue.sqlite-wal", "catalogue.sqlite-journal"]
      + ["tracks.csv", "playlists.csv", "playlist_tracks.csv", "invoice_lines.csv"]
    #expect(
      PreviewInputs.paths(forConfig: config)
        == [config, project.path("templates")] + data.map { project.path("data/\($0)") })

    // Half-way through an edit: the config alone, until it loads again.
    try project.write("config/site.yml", "title: [unclosed\n")
    #expect(PreviewInputs.paths(forConfig: config) == [config])
  }

  @Test func aPathIsInsideAFolderByWholeComponents() {
    for (path, folder) in [
      ("/work/site", "/work/site"), ("/work/site/a/b.html", "/work/site"), ("/work/site/a", "/work/site/"),
      ("/work//site/a", "/work/site"), ("/anything", "/"), ("/", "/"), ("data/a.csv", "data"),
    ] {
      #expect(PathContainment.isPath(path, inside: folder), "\(path) in \(folder)")
    }
    for (path, folder) in [
      ("/work/site-old", "/work/site"), ("/work/sitex/a.html", "/work/site"), ("/work", "/work/site"),
      ("/work/sit", "/work/site"), ("work/site/a", "/work/site"), ("/data/a.csv", "data"),
    ] {
      #expect(!PathContainment.isPath(path, inside: folder), "\(path) in \(folder)")
    }
  }

  @Test func aNewWatchListKeepsEditsMadeDuringTheBuild() {
    func status(_ modified: Int64) -> FileStatus? {
      var status = FileStatus(path: "/")
      status?.kind = .file
      status?.modified = modified
      return status
    }
    guard let v1 = status(1), let v2 = status(2) else {
      Issue.record("no status for /")
      return
    }
    // Taken when the build started, watching the config and `data`.
    let old: FileWatcher.Snapshot = ["site.yml": v1, "data/a.csv": v1, "data/gone.csv": v1]
    // After the build the config names `look` too; meanwhile the config was
    // saved again, `data/b.csv` appeared and `data/gone.csv` went.
    let now: FileWatcher.Snapshot = [
      "site.yml": v2, "data/a.csv": v1, "data/b.csv": v1, "look/page.mustache": v1,
    ]
    let rebased = FileWatcher.rebased(
      old, watching: ["site.yml", "data"], onto: now, watching: ["site.yml", "data", "look"])
    #expect(rebased["look/page.mustache"] == v1, "a newly watched folder is no change")
    #expect(FileWatcher.changes(from: rebased, to: now) == ["data/b.csv", "data/gone.csv", "site.yml"])
  }
}
