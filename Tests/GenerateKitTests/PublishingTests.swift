import Foundation
import Testing

@testable import GenerateKit

/// Publishing swaps a complete site in, keeps links and foreign folders
/// safe, and clears up after builds that died.
@Suite struct PublishingTests {
  @Test func theExchangeIsAtomicOnLinux() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exchange-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a").path
    let b = folder.appendingPathComponent("b").path
    try FileManager.default.createDirectory(atPath: a, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: b, withIntermediateDirectories: true)
    try Data("from a".utf8).write(to: URL(fileURLWithPath: a + "/file"))
    #if os(Linux)
      #expect(Disk.exchange(a, b))
      #expect(FileManager.default.fileExists(atPath: b + "/file"))
      #expect(!FileManager.default.fileExists(atPath: a + "/file"))
    #endif
  }

  /// The one exclusive create the site writer and the build record share:
  /// a name already there — a file hard-linked from the live site, a link
  /// — is never written through, and the caller is told nothing was made.
  @Test func aNewFileNeverWritesThroughANameAlreadyThere() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "create-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let live = folder.appendingPathComponent("live").path
    let staged = folder.appendingPathComponent("staged").path
    let linked = folder.appendingPathComponent("linked").path
    try Data("live bytes".utf8).write(to: URL(fileURLWithPath: live))
    #expect(link(live, staged) == 0)
    #expect(symlink(live, linked) == 0)
    for name in [staged, linked] {
      let failure = try #require(Disk.createNew(Array("new bytes".utf8), at: name))
      #expect(failure.error == EEXIST && !failure.created, "\(name)")
    }
    #expect(try String(contentsOfFile: live, encoding: .utf8) == "live bytes")
    let fresh = folder.appendingPathComponent("fresh").path
    #expect(Disk.createNew(Array("new bytes".utf8), at: fresh) == nil)
    #expect(try String(contentsOfFile: fresh, encoding: .utf8) == "new bytes")
  }

  @Test func rebuildingReplacesTheSiteAndKeepsOnlyThePreviousBeside() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    // Every build publishes: no build record to find the site up to date.
    var options = project.options()
    options.usesBuildRecord = false
    let builder = SiteBuilder(options: options, log: { _ in })
    _ = try builder.build()
    let built = try project.snapshot()
    try Data("stale".utf8).write(to: URL(fileURLWithPath: project.path("site/stale.txt")))
    _ = try builder.build()
    #expect(!FileManager.default.fileExists(atPath: project.path("site/stale.txt")))
    // The next build updates the previous site (which still has the stray
    // file) into the new one: nothing of it must show.
    _ = try builder.build()
    #expect(try project.snapshot() == built)
    #expect(FileManager.default.fileExists(atPath: project.path("site/\(OutputFolder.markerName)")))
    // Anything removed goes in the background: give it a moment.
    var beside: [String] = []
    for _ in 0..<1500 {
      beside = try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
        $0.hasPrefix(".site.")
      }
      if beside == [".site.previous"] { break }
      usleep(20_000)
    }
    #expect(beside == [".site.previous"], "\(beside)")
  }

  @Test func foldersOfDeadBuildsAreRemovedAndLiveOnesKept() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    // A pid far above any this machine hands out, and our parent's, alive.
    let dead = project.path(".site.staging-999999999")
    let old = project.path(".site.old-999999999")
    let removing = project.path(".site.old-999999999-0a1b2c3d")
    let live = project.path(".site.staging-\(getppid())")
    for folder in [dead, old, removing, live] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    _ = try project.build()
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(!FileManager.default.fileExists(atPath: removing), "a removal that was interrupted is finished")
    #expect(FileManager.default.fileExists(atPath: live), "another build's staging folder must be left alone")
  }

  @Test func aSymlinkedOutputKeepsItsLink() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try FileManager.default.createDirectory(atPath: project.path("real"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: project.path("linked"), withDestinationPath: "real")
    _ = try SiteBuilder(options: project.options(output: project.path("linked")), log: { _ in }).build()
    _ = try SiteBuilder(options: project.options(output: project.path("linked")), log: { _ in }).build()
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: project.path("linked")) == "real")
    #expect(FileManager.default.fileExists(atPath: project.path("real/index.html")))
  }

  @Test func forceReplacesAForeignFolder() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try FileManager.default.createDirectory(atPath: project.path("mine"), withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: project.path("mine/notes.txt")))
    var options = project.options(output: project.path("mine"))
    #expect(throws: DiagnosticsError.self) { try SiteBuilder(options: options, log: { _ in }).build() }
    #expect(FileManager.default.fileExists(atPath: project.path("mine/notes.txt")))
    options.force = true
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    #expect(FileManager.default.fileExists(atPath: project.path("mine/index.html")))
  }

  @Test func everyErrorIsTaggedWithItsStep() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("templates/partials/row.mustache", "{{> row}}")
    let diagnostics = expectBuildFailure(project)
    #expect(!diagnostics.isEmpty)
    #expect(diagnostics.allSatisfy { $0.step == .loading }, "\(diagnostics)")
  }

  @Test func thePrinterCapsEachFileAndSaysHowManyItHid() {
    let many = (1...30).map { Diagnostic.error(at: SourceLocation(file: "a.csv", line: $0), "bad") }
    let lines = DiagnosticPrinter().lines(for: many + [.error(at: SourceLocation(file: "b.csv"), "other")])
    #expect(lines.filter { $0.hasPrefix("a.csv:") && $0.contains("error:") }.count == 20)
    #expect(lines.contains("b.csv:1:1: error: other"))
    #expect(lines.contains("a.csv: note: 10 more problems not shown"))
  }

  /// The layout a README reader makes first: one folder with the data, the
  /// config and the output side by side, no description written.
  @Test func oneFolderForEverythingBuilds() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("sku,name,category\nA1,Red Kettle,Kitchen\nB1,Rake,Garden\n".utf8).write(
      to: folder.appendingPathComponent("products.csv"))
    let templates = fixturesRoot.appendingPathComponent("mini/templates").path
    let config = """
      title: Shop
      templates: \(templates)
      tables:
        products: { file: products.csv, key: sku }
      collections:
        - { id: products, label: Products, table: products, title: name }
      """
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    var options = BuildOptions()
    options.configPath = folder.appendingPathComponent("site.yml").path
    options.outputPath = folder.appendingPathComponent("out").path
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    let page = try String(contentsOf: folder.appendingPathComponent("out/index.html"), encoding: .utf8)
    #expect(page.contains("content=\"Search Products of Shop.\""), "\(page)")
  }
}
