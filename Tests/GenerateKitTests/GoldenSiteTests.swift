import Foundation
import Testing

@testable import GenerateKit

/// The fixture site, byte for byte: every page and index file is compared
/// with the stored copy in Fixtures/golden-mini. After an intended change,
/// re-record with `GENERATE_RECORD_GOLDEN=1 swift test --filter GoldenSiteTests`.
@Suite struct GoldenSiteTests {
  static let golden = fixturesRoot.appendingPathComponent("golden-mini")

  @Test func theFixtureSiteMatchesItsGoldenFiles() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let built = try project.snapshot()
    if ProcessInfo.processInfo.environment["GENERATE_RECORD_GOLDEN"] != nil {
      try? FileManager.default.removeItem(at: Self.golden)
      for (path, data) in built {
        let url = Self.golden.appendingPathComponent(path)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
      }
      return
    }
    let stored = try snapshotFolder(Self.golden.path)
    #expect(!stored.isEmpty, "no golden files: record them with GENERATE_RECORD_GOLDEN=1")
    let added = Set(built.keys).subtracting(stored.keys).sorted()
    let missing = Set(stored.keys).subtracting(built.keys).sorted()
    #expect(added.isEmpty && missing.isEmpty, "files added: \(added); files missing: \(missing)")
    for path in built.keys.sorted() {
      guard let expected = stored[path], let actual = built[path], expected != actual else { continue }
      Issue.record("\(path) differs from its golden file:\n\(Self.diff(expected, actual))")
    }
  }

  @Test func aSecondBuildIsByteIdentical() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build()
    let first = try project.snapshot()
    _ = try project.build()
    #expect(try project.snapshot() == first)
  }

  @Test func everyLinkCarriesTheBaseURL() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    _ = try project.build(baseURL: "/music")
    let files = try project.snapshot()
    let album = try #require(
      files["albums/11-back-in-black/index.html"].map { String(decoding: $0, as: UTF8.self) })
    #expect(album.contains("href=\"/music/artists/2-ac-dc/\""))
    #expect(album.contains("href=\"/music/assets/"))
    let hrefs = files.filter { $0.key.hasSuffix(".html") }.flatMap { page in
      String(decoding: page.value, as: UTF8.self).components(separatedBy: "href=\"").dropFirst().map {
        $0.prefix { $0 != "\"" }
      }
    }
    #expect(!hrefs.isEmpty)
    for href in hrefs where href.hasPrefix("/") { #expect(href.hasPrefix("/music/"), "\(href)") }
    let sitemap = try #require(files["sitemap.xml"].map { String(decoding: $0, as: UTF8.self) })
    #expect(sitemap.contains("<loc>https://mini.example.org/music/albums/11-back-in-black/</loc>"))
  }

  /// A line diff, enough to see what moved.
  static func diff(_ expected: Data, _ actual: Data) -> String {
    let a = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let b = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [String] = []
    for index in 0..<max(a.count, b.count)
    where (index < a.count ? a[index] : nil) != (index < b.count ? b[index] : nil) {
      if index < a.count { lines.append("  \(index + 1) - \(a[index].prefix(200))") }
      if index < b.count { lines.append("  \(index + 1) + \(b[index].prefix(200))") }
      if lines.count > 20 { break }
    }
    return lines.joined(separator: "\n")
  }
}
