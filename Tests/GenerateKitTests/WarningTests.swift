import Foundation
import Testing

/// Warnings: a mistake that still gives a working site is shown
/// compiler-style and counted, publishes the site, and fails the build only
/// under `--strict`, leaving the previous site as it was.
@Suite struct WarningTests {
  static var executable: String { BadInputSuite.executable }

  /// A page attribute libxml2 warns about but accepts.
  static func warnOnAlbumPages(_ project: TemporaryProject) throws {
    let template = try project.read("templates/album.mustache")
    try project.write(
      "templates/album.mustache", template.replacingOccurrences(of: "<h1>", with: "<h1 xml:space=\"wide\">"))
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func warningsArePrintedAndCountedAndTheSiteIsPublished() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try Self.warnOnAlbumPages(project)
    let result = try runProcess(
      Self.executable, ["--config", "site.yml", "--output", "site"], in: project.root)
    #expect(result.status == 0, "\(result.err)")
    let warnings = result.err.split(separator: "\n").filter { $0.contains(": warning: ") }
    #expect(warnings.count == 3, "\(result.err)")
    #expect(
      warnings.first?.hasPrefix("albums/10-lemonade/index.html:12:21: warning: Invalid value \"wide\"")
        == true,
      "\(result.err)")
    #expect(result.output.contains("with 3 warnings"), "\(result.output)")
    #expect(try project.read("site/albums/10-lemonade/index.html").contains("xml:space=\"wide\""))
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func strictFailsOnWarningsAndKeepsTheSite() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let first = try runProcess(
      Self.executable, ["--config", "site.yml", "--output", "site", "-q"], in: project.root)
    try #require(first.status == 0, "\(first.err)")
    let before = try project.snapshot()
    try Self.warnOnAlbumPages(project)
    let result = try runProcess(
      Self.executable, ["--config", "site.yml", "--output", "site", "-q", "--strict"], in: project.root)
    #expect(result.status == 1)
    #expect(
      result.err.contains(
        "generate: 3 warnings (--strict) while validating pages; site/ was left unchanged"), "\(result.err)")
    #expect(try project.snapshot() == before)
  }

  /// A warning on a page must not skip the site-wide link check, which
  /// runs only when no page has an error.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func aWarningDoesNotSkipTheLinkCheck() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try Self.warnOnAlbumPages(project)
    let template = try project.read("templates/album.mustache")
    try project.write(
      "templates/album.mustache",
      template.replacingOccurrences(of: "</h1>", with: "</h1><a href=\"#nowhere\">x</a>"))
    let result = try runProcess(
      Self.executable, ["--config", "site.yml", "--output", "site", "-q"], in: project.root)
    #expect(result.status == 1)
    #expect(result.err.contains("error: ") && result.err.contains("nowhere"), "\(result.err)")
    #expect(result.err.contains("1 error") || result.err.contains(" errors and 3 warnings"), "\(result.err)")
  }
}
