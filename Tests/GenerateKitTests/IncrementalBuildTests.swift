import Foundation
import Testing

@testable import GenerateKit

/// A preview build that keeps the last one in memory (`BuildMemory`) must
/// write exactly the bytes a cold build writes, whatever was edited, and say
/// exactly which files changed.
@Suite struct IncrementalBuildTests {
  /// One project built again and again, each time compared with a cold
  /// build of the same inputs into another folder.
  final class Session {
    let project: TemporaryProject
    let memory = BuildMemory()
    let builder: SiteBuilder
    let lines = Lines()
    let cold: SiteBuilder
    let coldOutput: String
    var before: [String: Data] = [:]

    init() throws {
      project = try TemporaryProject()
      var options = project.options()
      options.previewScript = PreviewServer.reloadScript
      builder = SiteBuilder(options: options, log: lines.append)
      coldOutput = project.path("cold")
      options.outputPath = coldOutput
      cold = SiteBuilder(options: options, log: { _ in })
    }

    deinit { project.remove() }

    /// Builds incrementally and cold; checks the two trees are equal byte
    /// for byte and that the reported changes are the files that differ
    /// from the previous build. Returns the build.
    @discardableResult
    func build(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> IncrementalBuild {
      let build = try builder.build(keeping: memory)
      // Cold: into an empty folder, with no site whose term shards' names it could keep.
      try? FileManager.default.removeItem(atPath: coldOutput)
      _ = try cold.build()
      let after = try project.snapshot()
      let coldFiles = try snapshotFolder(coldOutput)
      #expect(after.keys.sorted() == coldFiles.keys.sorted(), sourceLocation: sourceLocation)
      for (path, data) in after where coldFiles[path] != data {
        Issue.record("\(path) differs from a cold build", sourceLocation: sourceLocation)
      }
      if let changed = build.changedFiles {
        let differing = Set(after.keys).union(before.keys).filter {
          after[$0] != before[$0] && $0 != OutputFolder.markerName
        }
        #expect(changed == differing.sorted(), sourceLocation: sourceLocation)
      }
      before = after
      return build
    }

    func edit(_ relative: String, _ change: (String) -> String) throws {
      let text = try project.read(relative)
      let changed = change(text)
      #expect(changed != text, "the edit of \(relative) changes it")
      try project.write(relative, changed)
    }

    /// How many pages the last build rendered rather than kept.
    var rendered: Int? {
      guard let line = lines.all.last(where: { $0.hasSuffix(" pages rendered") }) else { return nil }
      return Int(line.trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
    }

    func pages(_ changed: [String]?) -> Set<String> {
      Set((changed ?? []).filter { $0.hasSuffix(".html") })
    }
  }

  @Test func templatePartialAssetDataAndConfigEditsGiveTheBytesOfAColdBuild() throws {
    let session = try Session()
    let first = try session.build()
    #expect(first.kind == .full)
    #expect(first.changedFiles == nil)
    let allPages = Set(session.before.keys.filter { $0.hasSuffix(".html") })
    let albums = allPages.filter { $0.hasPrefix("albums/") }
    #expect(albums.count >= 2)

    // A partial: only the pages whose template includes it.
    try session.edit("templates/partials/row.mustache") {
      $0.replacingOccurrences(of: "<span>", with: "<span class=\"d\">")
    }
    var build = try session.build()
    #expect(build.kind == .templates)
    #expect(session.pages(build.changedFiles) == albums, "only album pages include the row partial")
    #expect(session.rendered == albums.count, "only they were rendered again")

    // A page template.
    try session.edit("templates/artist.mustache") {
      $0.replacingOccurrences(of: "<h1>", with: "<h1 class=\"artist\">")
    }
    build = try session.build()
    #expect(build.kind == .templates)
    #expect(session.pages(build.changedFiles) == allPages.filter { $0.hasPrefix("artists/") })

    // The layout every page extends.
    try session.edit("templates/layout.mustache") {
      $0.replacingOccurrences(of: "<main id=\"main\">", with: "<main id=\"main\" class=\"x\">")
    }
    build = try session.build()
    #expect(session.pages(build.changedFiles) == allPages)

    // An asset: its folder's name changes, and with it every page.
    try session.edit("templates/assets/site.css") { $0 + "\nh1 { color: red; }\n" }
    build = try session.build()
    #expect(build.kind == .templates)
    #expect(session.pages(build.changedFiles) == allPages)
    #expect(build.changedFiles?.contains { $0.hasPrefix("assets/") && $0.hasSuffix("site.css") } == true)

    // A template no page uses changes nothing; saving identical bytes neither.
    try session.project.write("templates/partials/unused.mustache", "<p>{{title}}</p>")
    build = try session.build()
    #expect(build.changedFiles == [])
    #expect(session.rendered == 0)
    try session.project.write(
      "templates/search.mustache", try session.project.read("templates/search.mustache"))
    build = try session.build()
    #expect(build.changedFiles == [])

    // One record's data: the pages that show it, and the index.
    try session.edit("data/tracks.csv") { $0.replacingOccurrences(of: "Formation", with: "Formación") }
    build = try session.build()
    #expect(build.kind == .data)
    let changedPages = session.pages(build.changedFiles)
    #expect(changedPages.contains("albums/10-lemonade/index.html"))
    #expect(!changedPages.contains { $0.hasPrefix("artists/") }, "artist pages do not list tracks")
    #expect(build.changedFiles?.contains { $0.hasPrefix("idx/") } == true)

    // The config: a cold build.
    try session.edit("site.yml") { $0.replacingOccurrences(of: "title: Mini", with: "title: Mini catalogue") }
    build = try session.build()
    #expect(build.kind == .full)
    #expect(session.pages(build.changedFiles) == allPages, "every page names the site")
  }

  /// A broken edit keeps the last good build in memory and on disk; the
  /// build after the fix compares with that site.
  @Test func aBrokenEditKeepsTheLastGoodBuild() throws {
    let session = try Session()
    try session.build()
    let good = session.before

    try session.edit("templates/album.mustache") {
      $0.replacingOccurrences(of: "{{/record}}", with: "{{/recrd}}")
    }
    #expect(throws: DiagnosticsError.self) { try session.builder.build(keeping: session.memory) }
    #expect(try session.project.snapshot() == good, "the last good site stays")

    // A page that fails validation (an unescaped tag writing markup).
    try session.edit("templates/album.mustache") {
      $0.replacingOccurrences(of: "{{/recrd}}", with: "{{/record}}")
        .replacingOccurrences(of: "<h1>{{title}}</h1>", with: "<h1>{{title}}</h1><p>{{{title}}}</p>")
    }
    try session.edit("data/albums.csv") { $0.replacingOccurrences(of: "Lemonade", with: "Lemonade <b>") }
    #expect(throws: DiagnosticsError.self) { try session.builder.build(keeping: session.memory) }
    #expect(try session.project.snapshot() == good, "the last good site stays")

    try session.edit("data/albums.csv") {
      $0.replacingOccurrences(of: "Lemonade <b>", with: "Lemonade (2016)")
    }
    let build = try session.build()
    #expect(build.kind == .data)
    #expect(session.pages(build.changedFiles).contains("albums/10-lemonade/index.html"))
  }

  /// On the built-in theme, a partial of the user's folder overrides the
  /// theme's by name: adding it, and removing it again, renders only the
  /// pages that include it.
  @Test func aFolderOverridingAPartialOfTheBuiltInThemeRendersItsPages() throws {
    let session = try Session()
    let records = try String(
      contentsOf: fixturesRoot.appendingPathComponent("records/site.yml"), encoding: .utf8)
    try session.project.write(
      "site.yml", records.replacingOccurrences(of: "../mini/data/", with: "data/") + "templates: theme\n")
    try FileManager.default.createDirectory(
      atPath: session.project.path("theme/partials"), withIntermediateDirectories: true)
    try session.build()
    let withFooter = Set(
      session.before.keys.filter {
        $0.hasSuffix(".html")
          && String(decoding: session.before[$0] ?? Data(), as: UTF8.self).contains("site-footer")
      })
    #expect(withFooter.contains("404.html"))
    #expect(!withFooter.contains("index.html"), "the search page has no footer")

    let footer = try #require(EmbeddedTheme.files.first { $0.path == "partials/footer.mustache" }).text
    try session.project.write(
      "theme/partials/footer.mustache",
      footer.replacingOccurrences(of: "{{strings.builtWith}}", with: "Made here."))
    var build = try session.build()
    #expect(build.kind == .templates)
    #expect(session.pages(build.changedFiles) == withFooter)
    #expect(session.rendered == withFooter.count)

    try FileManager.default.removeItem(atPath: session.project.path("theme/partials/footer.mustache"))
    build = try session.build()
    #expect(session.pages(build.changedFiles) == withFooter, "the theme's footer again")
  }

  /// Which templates a page may use, read from the templates themselves.
  @Test func theIncludeGraphFollowsPartialsAndParents() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let templates = try TemplateSet.load(directories: [project.path("templates")], builtIn: false)
    #expect(templates.templates(reachableFrom: "album") == ["album", "layout", "row"])
    #expect(templates.templates(reachableFrom: "artist") == ["artist", "layout"])

    try project.write("templates/dynamic.mustache", "{{>*which}}")
    try project.write("templates/uses-dynamic.mustache", "{{> dynamic}}")
    let dynamic = try TemplateSet.load(directories: [project.path("templates")], builtIn: false)
    #expect(dynamic.templates(reachableFrom: "uses-dynamic") == nil, "a dynamic partial may be any template")
    #expect(dynamic.changedTemplates(since: templates) == ["dynamic", "uses-dynamic"])
  }
}
