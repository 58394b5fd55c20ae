import Foundation
import Testing

@testable import GenerateKit

/// The search page's stylesheet inline, allowed by its hash: the hash
/// itself, the page, the policy the build writes and the preview sends.
struct InlineStyleTests {
  @Test func sha256MatchesTheStandardsVectors() {
    func hex(_ text: String) -> String {
      SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    // Two blocks: the padding spills into a second one.
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.cspSource(Array("p { color: red }".utf8))
        == "'sha256-ngewhhP73WDIbgwseeu52VAAJgKdGUsu1IUQQsAm8m4='")
  }

  /// The built-in theme's search page holds its stylesheet, and the
  /// policy the build reports and writes to `_headers` allows exactly it.
  @Test func theSearchPageHoldsItsStylesheetAndThePolicyItsHash() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("styles-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    var options = BuildOptions()
    options.configPath = fixturesRoot.appendingPathComponent("records/site.yml").path
    options.outputPath = output.path
    let summary = try SiteBuilder(options: options, log: { _ in }).build()
    let page = try String(contentsOfFile: output.path + "/index.html", encoding: .utf8)
    let style = try #require(
      page.range(of: "<style>").flatMap { open in
        page.range(of: "</style>", range: open.upperBound..<page.endIndex).map {
          page[open.upperBound..<$0.lowerBound]
        }
      })
    #expect(!page.contains("search-page.css"), "the page links its stylesheet")
    #expect(style.contains(":root{--tint:") && !style.contains(", ") && !style.contains(": "))
    let hash = SHA256.cspSource(Array(style.utf8))
    #expect(summary.contentSecurityPolicy == "default-src 'self'; style-src 'self' \(hash)")
    let headers = try String(contentsOfFile: output.path + "/_headers", encoding: .utf8)
    #expect(
      headers.contains("\n/*\n  Content-Security-Policy: \(summary.contentSecurityPolicy)\n"), "\(headers)")
    // Other pages link theirs: one file, cached across the visit.
    let notFound = try String(contentsOfFile: output.path + "/404.html", encoding: .utf8)
    #expect(notFound.contains("css/detail-page.css") && !notFound.contains("<style>"))
  }

  @Test func theHeadersFileNamesTheBasePath() {
    let text = PageRenderer.headers(policy: "default-src 'self'", base: "/music/")
    #expect(text.contains("\n/music/*\n  Content-Security-Policy: default-src 'self'\n"), "\(text)")
  }

  /// A stylesheet a polyglot page cannot hold as text is linked, unhashed.
  @Test func aStylesheetWithMarkupCharactersIsLinked() {
    let styles = InlineStyles(
      ["a", "b"],
      assets: [
        (path: "css/a.css", bytes: Array("p{color:red}".utf8)),
        (path: "css/b.css", bytes: Array("p::after{content:\"<&>\"}".utf8)),
        (path: "css/c.css", bytes: Array("p{}".utf8)),
      ], folder: "/assets/x/")
    #expect(styles.hashes == [SHA256.cspSource(Array("p{color:red}".utf8))])
    #expect(
      styles.elements == [
        "a": "<style>p{color:red}</style>", "b": "<link rel=\"stylesheet\" href=\"/assets/x/css/b.css\" />",
      ])
  }

  /// `generate preview` sends the policy of the build it serves, the
  /// stylesheet's hash in it, and a new one as soon as a theme edit (here
  /// the tint, which the stylesheet carries) is shown.
  @Test func thePreviewSendsTheInlineStylesheetsHash() async throws {
    let folder = try PreviewFolder()
    try folder.copyFixture("mini")
    let records = try String(
      contentsOf: fixturesRoot.appendingPathComponent("records/site.yml"), encoding: .utf8)
    try folder.write("site.yml", records.replacingOccurrences(of: "../mini/data/", with: "data/"))
    var options = BuildOptions()
    options.configPath = folder.path("site.yml")
    options.outputPath = folder.path("site")
    options.previewScript = PreviewServer.reloadScript
    let builder = SiteBuilder(options: options, log: { _ in })
    let memory = BuildMemory()

    func servedPolicyAndHash(_ client: HTTPTestClient) async throws -> (policy: String?, hash: String) {
      let response = try await client.get("/")
      let page = response.text
      let open = try #require(page.range(of: "<style>"))
      let close = try #require(page.range(of: "</style>", range: open.upperBound..<page.endIndex))
      return (
        response.header("Content-Security-Policy"),
        SHA256.cspSource(Array(page[open.upperBound..<close.lowerBound].utf8))
      )
    }

    try await folder.withServer(
      watching: ["data", "site.yml"],
      reportingChanges: { progress in try builder.build(keeping: memory, reportingTo: progress).changedFiles }
    ) { client in
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")
      let first = try await servedPolicyAndHash(client)
      #expect(first.policy == "default-src 'self'; style-src 'self' \(first.hash)")

      try folder.write(
        "site.yml", records.replacingOccurrences(of: "../mini/data/", with: "data/") + "tint: \"#2255aa\"\n")
      _ = try await page.waitFor("event: reload", timeout: .seconds(15))
      let second = try await servedPolicyAndHash(client)
      #expect(second.hash != first.hash)
      #expect(second.policy == "default-src 'self'; style-src 'self' \(second.hash)")
    }
  }
}
