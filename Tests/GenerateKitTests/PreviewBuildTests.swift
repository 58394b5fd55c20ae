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

  /// With the builder's memory, a reload names the pages whose file
  /// changed, so that only those reload; a save that changes no page sends
  /// no reload at all.
  @Test func aReloadNamesOnlyThePagesThatChanged() async throws {
    let folder = try PreviewFolder()
    try folder.copyFixture("mini")
    var options = BuildOptions()
    options.configPath = folder.path("site.yml")
    options.outputPath = folder.path("site")
    options.previewScript = PreviewServer.reloadScript
    let builder = SiteBuilder(options: options, log: { _ in })
    let memory = BuildMemory()
    let lines = Lines()

    try await folder.withServer(
      watching: ["templates", "data", "site.yml"], log: lines.append,
      reportingChanges: { progress in
        // Every file before it is written; no open page first.
        try builder.build(keeping: memory, reportingTo: .init(ready: progress.ready)).changedFiles
      }
    ) { client in
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")
      let albums = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/albums")).sorted()
      #expect(albums.count >= 2)

      let row = try String(contentsOfFile: folder.path("templates/partials/row.mustache"), encoding: .utf8)
      try folder.write(
        "templates/partials/row.mustache", row.replacingOccurrences(of: "<span>", with: "<span class=\"t\">"))
      let first = try await page.waitFor("event: reload", timeout: .seconds(15))
      #expect(
        Self.reloaded(in: first) == [albums.map { "/albums/\($0)/index.html" }],
        "only the album pages include the partial")
      #expect(try await client.get("/albums/10-lemonade/").text.contains("<span class=\"t\">"))

      // The same bytes saved again: a build, and nothing to reload.
      try folder.write(
        "templates/partials/row.mustache", row.replacingOccurrences(of: "<span>", with: "<span class=\"t\">"))
      try await eventually(timeout: .seconds(15)) { lines.all.contains { $0.contains("no page changed") } }

      let data = try String(contentsOfFile: folder.path("data/artists.csv"), encoding: .utf8)
      try folder.write("data/artists.csv", data.replacingOccurrences(of: "Beyoncé", with: "Beyoncé Knowles"))
      // Each reload's list ends its event.
      let second = try await page.waitFor("]\n\n", occurrences: 2, timeout: .seconds(15))
      let reloads = Self.reloaded(in: second)
      #expect(reloads.count == 2, "no reload for the save that changed nothing: \(reloads)")
      let pages = reloads.last ?? []
      #expect(pages.contains("/albums/10-lemonade/index.html"), "the album names its artist")
      #expect(pages.contains { $0.hasPrefix("/artists/") })
      #expect(!pages.contains { $0.hasPrefix("/playlists/") }, "playlists do not show artists: \(pages)")
    }
  }

  /// The pages each reload event names, in order.
  static func reloaded(in stream: String) -> [[String]] {
    stream.components(separatedBy: "event: reload\ndata: ").dropFirst().compactMap { event in
      let line = event.prefix { $0 != "\n" }
      return try? JSONDecoder().decode([String].self, from: Data(line.utf8))
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
