import Foundation
import Testing

@testable import GenerateKit

/// The preview server with the real site builder: a template edit reloads
/// open pages, a broken template shows its `path:line:column` error while the
/// last good site is still served, and preview pages carry the reload script.
@Suite struct PreviewBuildTests {
  @Test func aTemplateEditRebuildsAndABrokenOneShowsItsError() async throws {
    let folder = try PreviewFolder()
    for item in try FileManager.default.contentsOfDirectory(
      atPath: fixturesRoot.appendingPathComponent("mini").path)
    {
      try FileManager.default.copyItem(
        at: fixturesRoot.appendingPathComponent("mini/\(item)"), to: folder.root.appendingPathComponent(item))
    }
    var options = BuildOptions()
    options.configPath = folder.path("site.yml")
    options.outputPath = folder.path("site")
    options.previewScript = PreviewServer.reloadScript
    let builder = SiteBuilder(options: options, log: { _ in })

    try await folder.withServer(
      watching: ["templates", "data", "site.yml"], rebuild: { _ = try builder.build() }
    ) { client in
      let first = try await client.get("/albums/10-lemonade/")
      #expect(first.status == 200)
      #expect(first.text.contains("<h1>Lemonade</h1>"))
      #expect(first.text.contains("__preview/reload.js"), "preview pages load the reload client")
      #expect(try await client.get("/__preview/reload.js").status == 200)

      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")
      let album = try String(contentsOfFile: folder.path("templates/album.mustache"), encoding: .utf8)
      try folder.write(
        "templates/album.mustache",
        album.replacingOccurrences(of: "<h1>{{title}}</h1>", with: "<h1>Album: {{title}}</h1>"))
      _ = try await page.waitFor("event: reload", timeout: .seconds(15))
      #expect(try await client.get("/albums/10-lemonade/").text.contains("<h1>Album: Lemonade</h1>"))

      try folder.write(
        "templates/album.mustache",
        "{{<layout}}{{$body}}\n{{#record}}<h1>{{title}}</h1>{{/recrd}}{{/body}}{{/layout}}\n")
      let events = try await page.waitFor("event: error", timeout: .seconds(15))
      #expect(events.contains("templates/album.mustache:2:"), "\(events)")
      #expect(events.contains(": error: template syntax"), "\(events)")
      #expect(
        try await client.get("/albums/10-lemonade/").text.contains("<h1>Album: Lemonade</h1>"),
        "the last good site is still served")
    }
  }

  @Test func aPublishedBuildCarriesNoPreviewScript() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    for (path, data) in try project.snapshot() where path.hasSuffix(".html") {
      #expect(!String(decoding: data, as: UTF8.self).contains("__preview"), "\(path)")
    }
    #expect(try project.snapshot().keys.allSatisfy { !$0.hasPrefix("__preview") })
  }
}
