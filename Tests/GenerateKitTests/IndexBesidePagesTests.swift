import Foundation
import Testing

@testable import GenerateKit

/// A plain build renders the pages that embed nothing from the index while
/// the index is built (`IndexStep`); a page or an asset that names the
/// index waits for it, and comes out as if the index had been built first.
@Suite struct IndexBesidePagesTests {
  /// The manifest path the search page names.
  func manifest(in project: TemporaryProject) throws -> String {
    let search = try project.read("site/index.html")
    let start = try #require(search.range(of: "data-manifest=\"/"))
    return String(search[start.upperBound...].prefix { $0 != "\"" })
  }

  @Test func aRecordPageThatNamesTheIndexNamesTheBuiltOne() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let artist = try project.read("templates/artist.mustache")
    try project.write(
      "templates/artist.mustache",
      artist.replacingOccurrences(of: "<h1>", with: "<h1 data-index=\"{{manifest}}\">"))
    _ = try project.build()
    let path = try manifest(in: project)
    #expect(path.hasPrefix("idx/manifest.") && path != "idx/manifest.json", "\(path)")
    let page = try project.read("site/artists/2-ac-dc/index.html")
    #expect(page.contains("<h1 data-index=\"/\(path)\">"), "\(page)")
    for (file, bytes) in try project.snapshot() {
      #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{E000}"), "a stand-in left in \(file)")
    }
  }

  @Test func anAssetThatNamesTheIndexNamesTheBuiltOne() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("templates/assets/where.txt.mustache", "index at {{manifest}}\n")
    _ = try project.build()
    let path = try manifest(in: project)
    let assets = try project.snapshot().filter { $0.key.hasSuffix("/where.txt") }
    #expect(assets.count == 1)
    #expect(assets.values.allSatisfy { String(decoding: $0, as: UTF8.self) == "index at /\(path)\n" })
  }

  /// The same site from a plain build (index beside the pages) and from a
  /// preview's first build (index, then pages), file for file.
  @Test func aPlainBuildWritesWhatAPreviewBuildWrites() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let memory = BuildMemory()
    _ = try SiteBuilder(options: project.options(output: project.path("preview")), log: { _ in }).build(
      keeping: memory)
    #expect(try project.snapshot() == (try snapshotFolder(project.path("preview"))))
  }
}
