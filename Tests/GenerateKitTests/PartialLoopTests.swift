import Foundation
import Testing

@testable import GenerateKit

/// A partial that includes itself, directly or through others. With no
/// section on the way it can never end: an error when the templates load,
/// at the reference, naming the chain. Inside a section it ends when the
/// data does (a tree), and renders as swift-mustache renders it; when the
/// data does not end — in Mustache a leaf without `children` finds its
/// parent's again — the page stops at `CompiledRenderer.maxPartialDepth`
/// and the build fails there, where swift-mustache runs out of stack.
@Suite struct PartialLoopTests {
  static func folder(_ files: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loops-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("partials"), withIntermediateDirectories: true)
    for (path, text) in files {
      try Data(text.utf8).write(to: folder.appendingPathComponent(path))
    }
    return folder
  }

  nonisolated(unsafe) static let tree: [String: Any] = [
    "name": "root",
    "children": [
      ["name": "a", "children": [["name": "a1", "children": [] as [Any]] as [String: Any]]] as [String: Any],
      ["name": "b", "children": [] as [Any]] as [String: Any],
    ] as [Any],
  ]

  /// A tree through two partials, each inside a section: no error at
  /// load, and the bytes swift-mustache writes.
  @Test func aLoopInsideASectionRendersAsDeepAsTheData() throws {
    let folder = try Self.folder([
      "page.mustache": "<ul>{{> node}}</ul>\n",
      "partials/node.mustache": "<li>{{name}}{{#children}}<ul>{{> branch}}</ul>{{/children}}</li>",
      "partials/branch.mustache": "{{> node}}",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let set = try TemplateSet.load(directories: [folder.path], builtIn: false)
    let ours = try #require(set.render(Self.tree, withTemplate: "page"))
    let mustache = try MustacheOracle.render(set, Self.tree, template: "page")
    #expect(ours == mustache)
    #expect(
      String(decoding: ours, as: UTF8.self)
        == "<ul><li>root<ul><li>a<ul><li>a1</li></ul></li></ul><ul><li>b</li></ul></li></ul>\n")
    #expect(set.endlessPartials.chains.isEmpty)
  }

  /// No section on the way: an error at load, at the reference that
  /// closes the loop, naming it.
  @Test func aLoopWithNoSectionIsAnErrorAtLoad() throws {
    let folder = try Self.folder([
      "page.mustache": "<ul>{{> node}}</ul>\n",
      "partials/node.mustache": "<li>{{name}}\n{{^leaf}}{{> branch}}{{/leaf}}</li>",
      "partials/branch.mustache": "<ul>\n  {{> node}}</ul>",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let error = try #require(throws: DiagnosticsError.self) {
      try TemplateSet.load(directories: [folder.path], builtIn: false)
    }
    let messages = error.diagnostics.map(\.description)
    #expect(messages.count == 1, "\(messages)")
    #expect(
      messages.first?.contains(
        "partials/branch.mustache:2:3: error: partials include themselves: node → branch → node, with no section around them"
      ) == true, "\(messages)")
  }

  /// A section whose data never ends (the leaves lack `children`, so the
  /// name climbs to the parent's list): the page stops, quickly, and the
  /// set names the page, the chain and the reference.
  @Test func aSectionThatNeverEndsStopsThePageWithAnError() throws {
    let folder = try Self.folder([
      "page.mustache": "<ul>{{> node}}</ul>\n",
      "partials/node.mustache": "<li>{{name}}\n{{#children}}<ul>{{> node}}</ul>{{/children}}</li>",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let set = try TemplateSet.load(directories: [folder.path], builtIn: false)
    let wide: [String: Any] = [
      "name": "root", "children": (0..<4).map { ["name": "leaf \($0)"] as [String: Any] },
    ]
    _ = set.render(wide, withTemplate: "page")
    let error = try #require(throws: DiagnosticsError.self) { try set.checkEndlessPartials() }
    let messages = error.diagnostics.map(\.description)
    #expect(messages.count == 1, "\(messages)")
    #expect(
      messages.first?.contains(
        "partials/node.mustache:2:18: error: pages of 'page' include partials more than 100 deep: page → node → node → …; the section around {{> node}} does not end for this data"
      ) == true, "\(messages)")
  }

  /// A loop the load cannot see — written after a set-delimiter tag,
  /// which the scan of references does not follow — still ends the page
  /// with the error, where it used to stop silently.
  @Test func aLoopAfterChangedDelimitersIsNamedToo() throws {
    let folder = try Self.folder([
      "page.mustache": "<p>{{> node}}</p>\n",
      "partials/node.mustache": "{{=<% %>=}}x<%> node%>",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let set = try TemplateSet.load(directories: [folder.path], builtIn: false)
    _ = set.render([String: Any](), withTemplate: "page")
    let error = try #require(throws: DiagnosticsError.self) { try set.checkEndlessPartials() }
    #expect(
      error.diagnostics.map(\.description).first?.contains(
        "partials/node.mustache:1:1: error: pages of 'page' include partials more than 100 deep: page → node → node → …"
      ) == true, "\(error.diagnostics)")
  }

  /// The same through the build: exit 1, the error at the partial's
  /// reference, the published site untouched.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BadInputSuite.executable)))
  func theBuildFailsAtTheReference() throws {
    try BadInputSuite().failsAtItsSourceAndKeepsTheSite(
      BadInputSuite.Case(
        name: "a partial inside a section that never ends",
        edits: [
          .write(
            "templates/partials/tree.mustache",
            "{{#albumList}}<li>{{title}}<ul>1️⃣{{> tree}}</ul></li>{{/albumList}}"),
          .replace("templates/artist.mustache", "<ul>{{#albumList}}", "<ul>{{> tree}}{{#albumList}}"),
        ],
        file: "templates/partials/tree.mustache",
        message: "pages of 'artist' include partials more than 100 deep: artist → layout → tree → tree → …"))
  }
}
