import Foundation
import Testing

@testable import GenerateKit

/// The benchmark's template sets (`Tests/bench/templates/`), written as
/// users write templates — their own base template with blocks, layouts,
/// many small partials, inverted and nested sections, dotted names, lists
/// of records through `refs` and a join table — render as swift-mustache
/// renders them, over 60 of Debian's packages (`sample/`): every page
/// `CompiledRenderer` writes for them is byte for byte the oracle's.
@Suite struct UserTemplatesTests {
  static let sets = packageRoot.appendingPathComponent("Tests/bench/templates")

  /// A set in the test fixtures rather than the benchmark's (no Hugo twin).
  static let fixtureSets = packageRoot.appendingPathComponent("Tests/GenerateKitTests/Fixtures")

  /// A folder with the set's config and templates and the sample's tables.
  static func project(_ name: String, in sets: URL = sets) throws -> URL {
    let files = FileManager.default
    let root = files.temporaryDirectory.appendingPathComponent("generate-user-templates-\(UUID().uuidString)")
    try files.createDirectory(at: root, withIntermediateDirectories: true)
    for file in ["site.yml", "templates"] {
      try files.copyItem(
        at: sets.appendingPathComponent(name).appendingPathComponent(file),
        to: root.appendingPathComponent(file))
    }
    let sample = Self.sets.appendingPathComponent("sample")
    for file in try files.contentsOfDirectory(atPath: sample.path) {
      try files.copyItem(at: sample.appendingPathComponent(file), to: root.appendingPathComponent(file))
    }
    return root
  }

  @Test(arguments: ["minimal", "verbose", "layout", "stranger-templates"])
  func rendersAsMustacheDoes(_ name: String) throws {
    let root = try Self.project(name, in: name.hasPrefix("stranger") ? Self.fixtureSets : Self.sets)
    defer { try? FileManager.default.removeItem(at: root) }
    let site = try preparedSite(config: root.appendingPathComponent("site.yml").path)
    let set = try TemplateSet.load(
      directories: [root.appendingPathComponent("templates").path], builtIn: true)
    let contexts = CompiledRendererTests.pageContexts(site, set)
    // The search and 404 pages, 60 packages and each other record's page.
    #expect(contexts.count > 100)
    let library = try MustacheOracle.library(set)
    var written = 0
    for (template, context) in contexts {
      let mustache = library.render(context, withTemplate: template).map { Array($0.utf8) }
      let ours = set.render(context, withTemplate: template)
      #expect(ours == mustache, "\(name): \(template)")
      written += ours?.count ?? 0
    }
    #expect(written > 100_000)
    // Every value read as pages' own types: what `--verbose` reports as
    // every page rendered by the compiled renderer.
    #expect(set.genericReads.reads.isEmpty, "\(name): \(set.genericReads.reads)")
  }

  /// A partial that is not UTF-8 is one error, at its first bad byte: the
  /// templates that include it are not also told it does not exist, and
  /// the theme's file of the same name does not stand in for it.
  @Test func aPartialThatIsNotUTF8IsOneError() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-utf8-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("partials"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("<main>{{> card}}{{> footer}}</main>".utf8).write(
      to: folder.appendingPathComponent("page.mustache"))
    for name in ["card", "footer"] {
      try Data(Array("<p>caf".utf8) + [0xE9] + Array(" {{title}}</p>".utf8)).write(
        to: folder.appendingPathComponent("partials/\(name).mustache"))
    }
    let error = try #require(throws: DiagnosticsError.self) {
      try TemplateSet.load(directories: [folder.path], builtIn: true)
    }
    let messages = error.diagnostics.map(\.description)
    #expect(messages.count == 2, "\(messages)")
    #expect(
      messages.allSatisfy { $0.contains(".mustache:1:7: error: template is not valid UTF-8") }, "\(messages)")
  }

  /// The sets' own templates are what pages are made of: a dependency's
  /// summary through the `refs` list, a tag through the join table, the
  /// user's layout around the built-in `art` partial.
  @Test func pagesShowWhatTheTemplatesAskFor() throws {
    let cases: [(set: String, template: String, needles: [String])] = [
      (
        "verbose", "package",
        ["<h2>Depends on", "<span class=\"summary\">", "class=\"tag\"", "Maintained by"]
      ),
      (
        "layout", "pkg",
        ["class=\"skip-link\"", "class=\"art", "<h2>Depends on</h2>", "<dt>Installed size</dt>"]
      ),
      ("minimal", "package", ["<dt>Section</dt><dd><a href=\"/sections/"]),
      // Three levels of inheritance, index() over reversed(), changed
      // delimiters, a CRLF page and its partials four deep.
      (
        "stranger-templates", "section",
        ["<li value=\"1\">", "(least popular)", "level 3 aside", "<p>top: "]
      ),
      (
        "stranger-templates", "package",
        ["<pre>\r\n", "<span class=\"meta\">", "<p class=\"level\">page</p>"]
      ),
    ]
    for (name, template, needles) in cases {
      let root = try Self.project(name, in: name.hasPrefix("stranger") ? Self.fixtureSets : Self.sets)
      defer { try? FileManager.default.removeItem(at: root) }
      let site = try preparedSite(config: root.appendingPathComponent("site.yml").path)
      let set = try TemplateSet.load(
        directories: [root.appendingPathComponent("templates").path], builtIn: true)
      let pages = CompiledRendererTests.pageContexts(site, set).filter { $0.0 == template }.compactMap {
        set.render($0.1, withTemplate: template).map { String(decoding: $0, as: UTF8.self) }
      }
      #expect(!pages.isEmpty, "\(name)")
      for needle in needles {
        #expect(pages.contains { $0.contains(needle) }, "\(name): \(needle)")
      }
    }
  }
}
