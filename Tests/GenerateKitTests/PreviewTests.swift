import Foundation
import Testing

@testable import GenerateKit

#if canImport(Glibc)
  import Glibc
  private let closeDescriptor = Glibc.close
  private let sendBytes = Glibc.send
#elseif canImport(Darwin)
  import Darwin
  private let closeDescriptor = Darwin.close
  private let sendBytes = Darwin.send
#endif

/// The preview server over a real loopback socket: what a browser (or a
/// hostile page making requests on its behalf) would get back.
@Suite struct PreviewTests {
  // MARK: Serving files

  @Test func sendsTheContentTypeAStaticHostWould() async throws {
    let project = try PreviewFolder()
    let files: [(name: String, type: String)] = [
      ("index.html", "text/html; charset=utf-8"),
      ("style.css", "text/css; charset=utf-8"),
      ("app.js", "text/javascript; charset=utf-8"),
      ("search.mjs", "text/javascript; charset=utf-8"),
      ("index.json", "application/json"),
      ("icon.svg", "image/svg+xml"),
      ("cover.png", "image/png"),
      ("sitemap.xml", "application/xml"),
      ("robots.txt", "text/plain; charset=utf-8"),
      ("font.woff2", "font/woff2"),
      ("favicon.ico", "image/x-icon"),
      ("site.webmanifest", "application/manifest+json"),
      ("LICENSE", "application/octet-stream"),
    ]
    for file in files { try project.write("site/\(file.name)", "content of \(file.name)") }

    try await project.withServer { client in
      for file in files {
        let response = try await client.get("/\(file.name)")
        #expect(response.status == 200, "\(file.name)")
        #expect(response.header("Content-Type") == file.type, "\(file.name)")
        #expect(response.text == "content of \(file.name)", "\(file.name)")
        #expect(response.header("Content-Security-Policy") == "default-src 'self'")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Cache-Control") == "no-cache")
      }
    }
  }

  @Test func servesFolderIndexesAndRedirectsToTheSlash() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("site/artists/index.html", "artists")
    try project.write("site/empty/readme.txt", "no index here")

    try await project.withServer { client in
      #expect(try await client.get("/").text == "home")
      #expect(try await client.get("/artists/").text == "artists")

      let redirect = try await client.get("/artists?q=jazz")
      #expect(redirect.status == 301)
      #expect(redirect.header("Location") == "/artists/?q=jazz")

      // No index, no listing.
      #expect(try await client.get("/empty/").status == 404)
      #expect(try await client.get("/empty").status == 404)
      // A file asked for as a folder.
      #expect(try await client.get("/artists/index.html/").status == 404)
    }
  }

  @Test func answersMissingFilesWithTheSites404Page() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("site/404.html", "<h1>Nothing here</h1>")

    try await project.withServer { client in
      let response = try await client.get("/no/such/page")
      #expect(response.status == 404)
      #expect(response.text == "<h1>Nothing here</h1>")
      #expect(response.header("Content-Type") == "text/html; charset=utf-8")
    }
  }

  @Test func answersHeadWithHeadersOnly() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "twelve bytes")

    try await project.withServer { client in
      let response = try await client.send(method: "HEAD", "/index.html")
      #expect(response.status == 200)
      #expect(response.header("Content-Length") == "12")
      #expect(response.header("Content-Type") == "text/html; charset=utf-8")
      #expect(response.body.isEmpty)
    }
  }

  @Test func revalidatesWithEntityTagsAndDates() async throws {
    let project = try PreviewFolder()
    try project.write("site/app.js", "console.log(1)")

    try await project.withServer { client in
      let first = try await client.get("/app.js")
      let etag = try #require(first.header("ETag"))
      let lastModified = try #require(first.header("Last-Modified"))
      #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong tag")

      let revalidated = try await client.get("/app.js", headers: ["If-None-Match": etag])
      #expect(revalidated.status == 304)
      #expect(revalidated.body.isEmpty)
      #expect(revalidated.header("ETag") == etag)

      let byDate = try await client.get("/app.js", headers: ["If-Modified-Since": lastModified])
      #expect(byDate.status == 304)

      let otherTag = try await client.get("/app.js", headers: ["If-None-Match": "\"something-else\""])
      #expect(otherTag.status == 200)

      try project.write("site/app.js", "console.log(2) // changed")
      let changed = try await client.get("/app.js", headers: ["If-None-Match": etag])
      #expect(changed.status == 200)
      #expect(changed.text == "console.log(2) // changed")
      #expect(changed.header("ETag") != etag)
    }
  }

  @Test func compressesTextOnlyWhenTheClientAcceptsGzip() async throws {
    let project = try PreviewFolder()
    let script = (1...200).map { "export const value\($0) = \"track \($0)\";\n" }.joined()
    try project.write("site/search.js", script)
    try project.write("site/small.css", "body { margin: 0 }")
    try project.write("site/cover.png", String(repeating: "x", count: 4096))

    try await project.withServer { client in
      let gzipped = try await client.get("/search.js", headers: ["Accept-Encoding": "gzip, deflate, br"])
      #expect(gzipped.status == 200)
      #expect(gzipped.header("Content-Encoding") == "gzip")
      #expect(gzipped.header("Vary") == "Accept-Encoding")
      #expect(gzipped.body.count < script.utf8.count / 3)
      #expect(try gunzip(gzipped.body) == Array(script.utf8))

      let plain = try await client.get("/search.js")
      #expect(plain.header("Content-Encoding") == nil)
      #expect(plain.header("Vary") == "Accept-Encoding")
      #expect(plain.text == script)
      #expect(plain.header("ETag") != gzipped.header("ETag"), "each representation has its own tag")

      let refused = try await client.get("/search.js", headers: ["Accept-Encoding": "gzip;q=0, *"])
      #expect(refused.header("Content-Encoding") == nil)
      let brotliOnly = try await client.get("/search.js", headers: ["Accept-Encoding": "br"])
      #expect(brotliOnly.header("Content-Encoding") == nil)

      let small = try await client.get("/small.css", headers: ["Accept-Encoding": "gzip"])
      #expect(small.header("Content-Encoding") == nil, "under 1 KB stays as it is")
      let image = try await client.get("/cover.png", headers: ["Accept-Encoding": "gzip"])
      #expect(image.header("Content-Encoding") == nil, "images are compressed already")
      #expect(image.header("Vary") == nil)
    }
  }

  @Test func servesTheSiteUnderItsBasePathOnly() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "music home")
    try project.write("site/style.css", "css")
    try project.write("site/404.html", "music 404")

    try await project.withServer(basePath: "/music/") { client in
      #expect(try await client.get("/music/").text == "music home")
      #expect(try await client.get("/music/style.css").text == "css")
      #expect(try await client.get("/music/missing").text == "music 404")

      let root = try await client.get("/")
      #expect(root.status == 302)
      #expect(root.header("Location") == "/music/")
      let bare = try await client.get("/music")
      #expect(bare.status == 302)
      #expect(bare.header("Location") == "/music/")

      #expect(try await client.get("/style.css").status == 404)
      #expect(try await client.get("/index.html").status == 404)
      #expect(try await client.get("/musical/").status == 404)
      #expect(
        try await client.get("/__preview/reload.js").status == 200, "reload endpoints sit outside the base")
    }
  }

  // MARK: Safety

  @Test func refusesEveryWayOutOfTheSiteFolder() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("site/a/b/index.html", "deep")
    try project.write("secret.txt", PreviewFolder.secret)
    let secretPath = project.root.appendingPathComponent("secret.txt").path

    let targets = [
      "/../secret.txt",
      "/a/../../secret.txt",
      "/a/b/../../../secret.txt",
      "/..%2fsecret.txt",
      "/..%2Fsecret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/secret.txt",
      "/.%2e/secret.txt",
      "/%2e%2e%2fsecret.txt",
      "/a/%2e%2e/%2e%2e/secret.txt",
      "/%252e%252e/secret.txt",
      "/%252e%252e%252fsecret.txt",
      "/..\\secret.txt",
      "/%5c..%5csecret.txt",
      "/a\\..\\..\\secret.txt",
      "/%00",
      "/index.html%00.png",
      "/secret.txt%00",
      "/%2",
      "/%zz",
      "/%c0%ae%c0%ae/secret.txt",
      "/" + secretPath,
      "//" + secretPath,
      "/.." + secretPath,
      "http://127.0.0.1/../secret.txt",
      "../secret.txt",
      "*",
    ]
    try await project.withServer { client in
      for target in targets {
        let response = try await client.get(target)
        #expect((400..<500).contains(response.status), "\(target) → \(response.status)")
        #expect(!response.text.contains(PreviewFolder.secret), "\(target) leaked the file")
      }
      #expect(try await client.get("/").text == "home", "still serving")
    }
  }

  @Test func decodesPercentEscapesExactlyOnce() async throws {
    let project = try PreviewFolder()
    try project.write("site/%2e%2e.txt", "a file literally named %2e%2e.txt")
    try project.write("site/café.txt", "accented")

    try await project.withServer { client in
      let literal = try await client.get("/%252e%252e.txt")
      #expect(literal.status == 200)
      #expect(literal.text == "a file literally named %2e%2e.txt")
      #expect(try await client.get("/caf%C3%A9.txt").text == "accented")
      #expect(try await client.get("/caf%E9.txt").status == 400, "not UTF-8")
    }
  }

  @Test func refusesSymbolicLinksThatLeadOutside() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("secret.txt", PreviewFolder.secret)
    try project.write("elsewhere/secret.txt", PreviewFolder.secret)
    try project.write("elsewhere/index.html", PreviewFolder.secret)
    try project.link("site/leak.txt", to: "../secret.txt")
    try project.link("site/absolute.txt", to: project.root.appendingPathComponent("secret.txt").path)
    try project.link("site/elsewhere", to: "../elsewhere")
    try project.link("site/home.html", to: "index.html")
    try project.write("site/.git/config", PreviewFolder.secret)

    try await project.withServer { client in
      for target in [
        "/leak.txt", "/absolute.txt", "/elsewhere/secret.txt", "/elsewhere/", "/elsewhere", "/.git/config",
      ] {
        let response = try await client.get(target)
        #expect(response.status == 404, "\(target)")
        #expect(!response.text.contains(PreviewFolder.secret), "\(target) leaked the file")
      }
      #expect(try await client.get("/home.html").text == "home", "a link inside the site is fine")
    }
  }

  @Test func allowsOnlyGetAndHead() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer { client in
      for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        for target in ["/", "/index.html", "/__preview/events"] {
          let response = try await client.send(method: method, target)
          #expect(response.status == 405, "\(method) \(target)")
          #expect(response.header("Allow") == "GET, HEAD", "\(method) \(target)")
        }
      }
      #expect(try await client.get("/index.html").text == "home")
    }
  }

  @Test func refusesOversizedRequestsAndKeepsServing() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer { client in
      let longTarget = try await client.get("/" + String(repeating: "a", count: 6000))
      #expect(longTarget.status == 414)

      let hugeTarget = try await client.get("/" + String(repeating: "a", count: 100_000))
      #expect((400..<500).contains(hugeTarget.status), "\(hugeTarget.status)")

      let hugeHeader = try await client.get(
        "/", headers: ["X-Padding": String(repeating: "b", count: 100_000)])
      #expect((400..<500).contains(hugeHeader.status), "\(hugeHeader.status)")

      var manyHeaders: [String: String] = [:]
      for index in 0..<500 { manyHeaders["X-Header-\(index)"] = "v" }
      let tooMany = try await client.get("/", headers: manyHeaders)
      #expect((400..<500).contains(tooMany.status), "\(tooMany.status)")

      let garbage = try await client.sendRaw(Array("\u{1}\u{2}NOT HTTP AT ALL\r\n\r\n".utf8))
      #expect((400..<500).contains(garbage.status), "\(garbage.status)")

      #expect(try await client.get("/").text == "home", "still serving afterwards")
    }
  }

  // MARK: Live reload

  @Test func rebuildsWhenAWatchedFileChangesAndTellsOpenPages() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")

    try await project.withServer(watching: ["Data"], rebuild: project.renderTracks) { client in
      #expect(try await client.get("/").text == "<p>v1</p>")
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")

      try project.write("Data/tracks.csv", "version 2")
      _ = try await page.waitFor("event: reload")
      #expect(try await client.get("/").text == "<p>version 2</p>")
    }
  }

  @Test func aFailedRebuildShowsTheErrorAndKeepsTheLastGoodSite() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")

    try await project.withServer(watching: ["Data"], rebuild: project.renderTracks) { client in
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")

      try project.write("Data/tracks.csv", "broken")
      let stream = try await page.waitFor("event: error")
      #expect(
        stream.contains(
          "data: Data/tracks.csv:1:1: error: the row is broken\ndata: Data/tracks.csv:2:1: error: so is this one\n\n"
        ))
      #expect(try await client.get("/").text == "<p>v1</p>", "the last good site is still served")

      let latecomer = try await client.openEvents()
      _ = try await latecomer.waitFor("data: Data/tracks.csv:1:1: error: the row is broken")

      try project.write("Data/tracks.csv", "fixed again")
      let after = try await page.waitFor("event: reload")
      let ok = try #require(after.range(of: "event: ok"))
      let reload = try #require(after.range(of: "event: reload"))
      #expect(ok.lowerBound < reload.lowerBound, "ok clears the overlay before the reload")
      #expect(try await client.get("/").text == "<p>fixed again</p>")
    }
  }

  @Test func buildsOneAtATimeAndOnceMoreForChangesDuringABuild() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")
    let builds = BuildCounter()

    try await project.withServer(
      watching: ["Data"], buildsAtStart: false,
      rebuild: {
        builds.started()
        Thread.sleep(forTimeInterval: 0.4)
        builds.finished()
      }
    ) { client in
      try project.write("Data/tracks.csv", "change 1")
      try await eventually { builds.count == 1 }
      for index in 2...4 {
        try project.write("Data/tracks.csv", "change \(index)")
        try await Task.sleep(for: .milliseconds(60))
      }
      try await eventually { builds.count == 2 }
      try await Task.sleep(for: .milliseconds(900))
      #expect(builds.count == 2, "three saves during a build cause exactly one more build")
      #expect(builds.mostAtOnce == 1)
    }
  }

  @Test func showsAnErrorPageUntilTheFirstBuildSucceeds() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "broken <script>")

    try await project.withServer(watching: ["Data"], rebuild: project.renderTracks) { client in
      let page = try await client.get("/")
      #expect(page.status == 503)
      #expect(page.text.contains("Data/tracks.csv:1:1: error: the row is broken"))
      #expect(page.text.contains("<script type=\"module\" src=\"/__preview/reload.js\"></script>"))
      #expect(!page.text.contains("broken <script>"))

      let script = try await client.get("/__preview/reload.js")
      #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
      #expect(script.text == PreviewServer.reloadScript)

      try project.write("Data/tracks.csv", "good at last")
      try await eventually { try await client.get("/").status == 200 }
      #expect(try await client.get("/").text == "<p>good at last</p>")
    }
  }

  // MARK: Starting up

  @Test func reportsAPortInUseClearly() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer { client in
      var configuration = PreviewServer.Configuration(siteFolder: project.path("site"))
      configuration.port = client.port
      configuration.handlesSignals = false
      let second = PreviewServer(configuration: configuration, log: { _ in }, warn: { _ in }) {}
      await #expect(throws: PreviewError.portInUse(host: "127.0.0.1", port: client.port)) {
        try await second.run(onReady: { _, _ in })
      }
      #expect(
        PreviewError.portInUse(host: "127.0.0.1", port: 8000).description
          == "port 8000 is already in use; try --port 8001")
    }
  }

  @Test func warnsWhenListeningBeyondThisMachine() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    let warnings = Lines()

    try await project.withServer(host: "0.0.0.0", warn: warnings.append) { client in
      let response = try await client.get("/")
      #expect(response.text == "home")
    }
    #expect(warnings.all.contains { $0.contains("warning: preview is for local use") })
    #expect(PreviewServer.isLoopback("127.0.0.1") && PreviewServer.isLoopback("::1"))
    #expect(!PreviewServer.isLoopback("0.0.0.0") && !PreviewServer.isLoopback("192.168.1.2"))
  }
}

extension PreviewTests {
  /// The parts of the server that need no socket.
  @Suite struct Units {
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

    @Test func reducesABaseURLToItsPath() {
      #expect(PreviewServer.basePath(from: "https://example.com/music") == "/music/")
      #expect(PreviewServer.basePath(from: "/music/") == "/music/")
      #expect(PreviewServer.basePath(from: "music/jazz") == "/music/jazz/")
      #expect(PreviewServer.basePath(from: "/") == "/")
      #expect(PreviewServer.basePath(from: "") == "/")
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
        let compressed = Gzip.compress(input)
        #expect(try gunzip(compressed) == input, "\(input.count) bytes")
      }
      #expect(Gzip.compress(text).count < text.count / 4)
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
  }
}

// MARK: - Helpers

/// A folder in the temporary directory with a site and inputs, removed when
/// the value goes away.
final class PreviewFolder: Sendable {
  static let secret = "TOP-SECRET-\(UUID().uuidString)"
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  func write(_ relative: String, _ content: String) throws {
    let url = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try content.write(to: url, atomically: true, encoding: .utf8)
  }

  func link(_ relative: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: destination)
  }

  /// A stand-in for the site builder: renders `Data/tracks.csv` into
  /// `site/index.html`, and fails with two diagnostics when the data says
  /// "broken". Like the real builder it leaves the site alone on failure.
  var renderTracks: PreviewServer.Rebuild {
    { [root] in
      let data = try String(contentsOf: root.appendingPathComponent("Data/tracks.csv"), encoding: .utf8)
      if data.contains("broken") {
        throw DiagnosticsError([
          .error(at: SourceLocation(file: "Data/tracks.csv", line: 1, column: 1), "the row is broken"),
          .error(at: SourceLocation(file: "Data/tracks.csv", line: 2, column: 1), "so is this one"),
        ])
      }
      let site = root.appendingPathComponent("site")
      try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
      try "<p>\(data)</p>".write(
        to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
    }
  }

  /// Runs a preview server on a free loopback port for the length of `body`.
  func withServer(
    basePath: String = "/",
    host: String = "127.0.0.1",
    watching watched: [String] = [],
    buildsAtStart: Bool = true,
    warn: @escaping @Sendable (String) -> Void = { _ in },
    rebuild: @escaping PreviewServer.Rebuild = {},
    _ body: (HTTPTestClient) async throws -> Void
  ) async throws {
    var configuration = PreviewServer.Configuration(siteFolder: path("site"))
    configuration.basePath = basePath
    configuration.host = host
    configuration.port = 0
    configuration.watchedPaths = watched.map(path)
    configuration.pollInterval = .milliseconds(50)
    configuration.debounce = .milliseconds(30)
    configuration.buildsAtStart = buildsAtStart
    configuration.handlesSignals = false
    let server = PreviewServer(configuration: configuration, log: { _ in }, warn: warn, rebuild: rebuild)

    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = Task {
      defer { continuation.finish() }
      try await server.run(onReady: { port, _ in continuation.yield(port) })
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
      try await task.value
      throw HTTPTestClient.Failure("the server stopped before it was ready")
    }
    do {
      try await body(HTTPTestClient(port: port))
    } catch {
      task.cancel()
      _ = await task.result
      throw error
    }
    task.cancel()
    try await task.value
  }
}

/// A deliberately dumb HTTP/1.1 client over a blocking socket, so that tests
/// can send exactly the bytes they mean (`..`, `%00`, oversized heads) with
/// nothing normalising them on the way. Blocking calls run on a dispatch
/// queue, never on the cooperative pool the server answers from.
struct HTTPTestClient: Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  struct Response: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
  }

  let port: Int

  func get(_ target: String, headers: [String: String] = [:]) async throws -> Response {
    try await send(method: "GET", target, headers: headers)
  }

  func send(method: String, _ target: String, headers: [String: String] = [:]) async throws -> Response {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    if method == "POST" || method == "PUT" || method == "PATCH" { head += "Content-Length: 0\r\n" }
    head += "\r\n"
    return try await sendRaw(Array(head.utf8))
  }

  /// Sends the bytes, reads until the server closes, parses one response.
  func sendRaw(_ request: [UInt8]) async throws -> Response {
    let port = self.port
    let bytes = try await offPool {
      let socket = try Socket(port: port)
      defer { socket.close() }
      socket.send(request)
      return socket.readToEnd()
    }
    return try Self.parse(bytes)
  }

  func openEvents() async throws -> EventStream {
    let port = self.port
    let socket = try await offPool { try Socket(port: port) }
    let request =
      "GET /__preview/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
    socket.send(Array(request.utf8))
    return EventStream(socket: socket)
  }

  static func parse(_ bytes: [UInt8]) throws -> Response {
    let separator = Array("\r\n\r\n".utf8)
    guard let end = bytes.firstRange(of: separator) else {
      throw Failure(
        "no complete response head in \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))")
    }
    let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure("bad status line \(lines[0])")
    }
    let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    var response = Response(status: status, headers: headers, body: Array(bytes[end.upperBound...]))
    if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
      response.body = try dechunk(response.body)
    }
    return response
  }

  private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
    var result: [UInt8] = []
    var index = 0
    while let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) {
      let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
      guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
        throw Failure("bad chunk size")
      }
      if size == 0 { break }
      result += bytes[lineEnd.upperBound..<(lineEnd.upperBound + size)]
      index = lineEnd.upperBound + size + 2
    }
    return result
  }
}

/// An open `/__preview/events` connection, read as it arrives.
final class EventStream: @unchecked Sendable {
  private let socket: Socket
  private var received: [UInt8] = []

  init(socket: Socket) { self.socket = socket }
  deinit { socket.close() }

  /// Everything received so far once it contains `text`.
  func waitFor(_ text: String, timeout: Duration = .seconds(5)) async throws -> String {
    try await offPool {
      let deadline = ContinuousClock.now + timeout
      while ContinuousClock.now < deadline {
        let sofar = String(decoding: self.received, as: UTF8.self)
        if sofar.contains(text) { return sofar }
        guard let chunk = self.socket.receive() else { break }
        self.received += chunk
      }
      throw HTTPTestClient.Failure(
        "no \"\(text)\" in the event stream; got: \(String(decoding: self.received, as: UTF8.self))")
    }
  }
}

/// A blocking TCP socket to 127.0.0.1 with a short receive timeout.
final class Socket: @unchecked Sendable {
  private let descriptor: Int32

  init(port: Int) throws {
    #if canImport(Darwin)
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard descriptor >= 0 else { throw HTTPTestClient.Failure("socket() failed") }
    var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      _ = closeDescriptor(descriptor)
      throw HTTPTestClient.Failure("connect() to port \(port) failed")
    }
  }

  /// Sends what the server will take; a server that closes early (as it
  /// should for an oversized head) is not an error here.
  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        sendBytes(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  /// One read; nil at end of stream or on error, empty on timeout.
  func receive() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count > 0 { return Array(buffer[..<count]) }
    if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
    return nil
  }

  func readToEnd(timeout: Duration = .seconds(5)) -> [UInt8] {
    var bytes: [UInt8] = []
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline, let chunk = receive() {
      bytes += chunk
    }
    return bytes
  }

  func close() { _ = closeDescriptor(descriptor) }
}

final class BuildCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var running = 0
  private var total = 0
  private var peak = 0

  func started() {
    lock.withLock {
      running += 1
      total += 1
      peak = max(peak, running)
    }
  }

  func finished() { lock.withLock { running -= 1 } }
  var count: Int { lock.withLock { total } }
  var mostAtOnce: Int { lock.withLock { peak } }
}

final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
  var all: [String] { lock.withLock { lines } }
}

/// Waits for a condition that becomes true asynchronously (a rebuild).
func eventually(
  timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return }
    try await Task.sleep(for: .milliseconds(20))
  }
  throw HTTPTestClient.Failure("condition not met within \(timeout)")
}

/// Runs blocking work on a thread of its own: neither the cooperative pool
/// (the server's handlers run there) nor Dispatch's global queues, which on
/// Linux add threads only slowly when the ones they have are blocked.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Decompresses with the system's gzip, an independent implementation.
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
  let input = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString).gz")
  try Data(bytes).write(to: input)
  defer { try? FileManager.default.removeItem(at: input) }
  let result = try runProcess("/usr/bin/env", ["gzip", "-dc", input.path])
  guard result.status == 0 else { throw HTTPTestClient.Failure("gzip -dc failed: \(result.output)") }
  return result.stdout
}

