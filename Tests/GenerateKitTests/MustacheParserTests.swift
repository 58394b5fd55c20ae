import Foundation
import Mustache
import Testing

@testable import GenerateKit

/// `MustacheParser` reads templates as swift-mustache reads them: every
/// shipped template, thousands of random ones made of the awkward pieces
/// (standalone tags, line endings, changed delimiters, parents, broken
/// tags), and real sites' pages, each compared with swift-mustache; and
/// its errors point at the place to fix.
@Suite struct MustacheParserTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The template folders that ship: the built-in theme (which `generate
  /// init` sites use), the examples' and the test fixture's.
  static let shippedFolders = [
    "Templates", "Data/templates", "Data/gapminder/Templates",
    "Tests/GenerateKitTests/Fixtures/mini/templates",
  ]

  @Test func everyShippedTemplateParsesAndRendersAsMustacheDoes() throws {
    var count = 0
    for folder in Self.shippedFolders {
      let directory = Self.root.appendingPathComponent(folder)
      let files = try #require(FileManager.default.subpaths(atPath: directory.path))
      for file in files where file.hasSuffix(".mustache") {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        #expect(throws: Never.self, "\(folder)/\(file)") { try MustacheParser.parse(text) }
        #expect(throws: Never.self, "\(folder)/\(file)") { try MustacheTemplate(string: text) }
        count += 1
      }
      // Each template over a context that opens every section, with the
      // folder's partials and the theme's.
      let set = try TemplateSet.load(directories: folder == "Templates" ? [] : [directory.path])
      let library = try MustacheOracle.library(set)
      let context = PageContext(
        page: ["page": ["title": "T <&>", "isSearch": true] as [String: Any], "record": ["title": "R"]],
        shared: ["site": ["title": "S", "language": "en"] as [String: Any], "base": "/", "assets": "/a/"])
      for name in set.names.sorted() {
        let mustache = library.render(context, withTemplate: name).map { Array($0.utf8) }
        #expect(set.render(context, withTemplate: name) == mustache, "\(folder): \(name)")
      }
    }
    #expect(count >= 20)
  }

  /// The example sites' pages (at most 150 records' each), as
  /// swift-mustache writes them over the same prepared site.
  @Test(arguments: ["Data/site.yml", "Data/gapminder/site.yml", "Data/world/site.yml"])
  func exampleSitesRenderAsMustacheDoes(config path: String) throws {
    let configPath = Self.root.appendingPathComponent(path).path
    let config = try ConfigLoader().load(path: configPath)
    let site = try preparedSite(config: configPath)
    let set = try TemplateSet.load(
      directories: config.templates.map(config.resolve), builtIn: config.builtInTheme)
    let library = try MustacheOracle.library(set)
    let contexts = CompiledRendererTests.pageContexts(site, set, limit: 150)
    #expect(contexts.count > 30)
    for (template, context) in contexts {
      let mustache = library.render(context, withTemplate: template).map { Array($0.utf8) }
      let ours = set.render(context, withTemplate: template)
      #expect(ours == mustache, "\(path): \(template)")
    }
  }

  // MARK: Random templates

  /// Pieces random templates are made of: text, every kind of tag, tags
  /// standing alone or not, every line ending, broken tags.
  static let pieces = [
    "a", "<b>", " ", "  ", "\t", "\n", "\r\n", "\r", "é", "e\u{301}", "{", "}", "{\u{301}", "{{", "}}",
    "{{x}}", "{{ x }}", "{{{x}}}", "{{&x}}", "{{.}}", "{{a.b}}", "{{.a}}", "{{missing}}", "{{#a}}", "{{/a}}",
    "{{^a}}", "{{#items}}", "{{/items}}", "{{^items}}", "{{#t}}", "{{/t}}", "{{^f}}", "{{/f}}",
    "{{! note }}", "{{!\n}}", "{{> p}}", "{{>p}}", "{{>*dyn}}", "{{<parent}}", "{{/parent}}", "{{$blk}}",
    "{{/blk}}", "{{=<% %>=}}", "<%x%>", "<%#t%>", "<%/t%>", "<%={{ }}=%>", "{{% CONTENT_TYPE: TEXT}}",
    "{{first(items)}}", "{{#first()}}", "{{/first()}}", "{{count(items)}}", "{{uppercased(x)}}", "{{x",
    "{{#a}", "{{bad name}}", "{{=}}", "{{% NOPE: X}}",
    // Whole sections and parents, so that many random templates parse.
    "{{#t}}\n  y\n{{/t}}\n", " {{#items}} {{x}}\n {{/items}}\r\n", "\t{{^f}}\t\nz{{/f}}",
    "{{<parent}}\n  {{$blk}}\n    over {{x}}\n  {{/blk}}\n{{/parent}}\n", "  {{<parent}}{{/parent}}\n",
    "{{#a}}{{b}}{{.}}{{/a}}", "  {{> p}}\n", "\t{{>*dyn}}\r\n", " {{$blk}}\n  own\n {{/blk}}\n",
    "{{=| |=}}|x||={{ }}=|", "{{! c }}\n", "  {{! c }}  \r\n",
  ]

  /// A random generator that gives the same sequence every run.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// swift-mustache and `MustacheParser` agree on whether each random
  /// template parses, and where both parse, on what it renders (with
  /// partials, a parent and a dynamic partial). Where swift-mustache
  /// fails only for running out of text (`Parser.Error.overflow`, a
  /// template ending in `{`), `MustacheParser` may accept the template.
  @Test func randomTemplatesParseAndRenderAsMustacheDoes() throws {
    let partials = [
      "p": "P{{x}}\n  line {{#t}}\n  in\n  {{/t}}\n", "parent": "<{{$blk}}default\n{{/blk}}>\n",
    ]
    var library = MustacheLibrary()
    var templates: [String: CompiledTemplate] = [:]
    for (name, text) in partials {
      library.register(try MustacheTemplate(string: text), named: name)
      templates[name] = try MustacheParser.parse(text)
    }
    let context: [String: Any] = [
      "x": "<x&y>", "a": ["b": "ab"] as [String: Any], "items": [["x": "1"], ["x": "2"]], "t": true,
      "f": false,
      "dyn": "p",
    ]
    var random = SplitMix(state: 2024)
    var parsed = 0
    var failed = 0
    for round in 0..<4000 {
      let count = Int.random(in: 1...7, using: &random)
      let text = (0..<count).map { _ in Self.pieces.randomElement(using: &random) ?? "" }.joined()
      let theirs: MustacheTemplate?
      var overflow = false
      do {
        theirs = try MustacheTemplate(string: text)
      } catch let error as MustacheTemplate.ParserError {
        theirs = nil
        overflow = !(error.error is MustacheTemplate.Error)
      }
      let ours = try? MustacheParser.parse(text)
      guard let theirs else {
        failed += 1
        if !overflow { #expect(ours == nil, "round \(round): \(text.debugDescription) should not parse") }
        continue
      }
      guard let ours else {
        Issue.record("round \(round): \(text.debugDescription) should parse")
        continue
      }
      parsed += 1
      var renderer = CompiledRenderer(templates: templates)
      let rendered = String(decoding: renderer.render(ours, object: context), as: UTF8.self)
      // A tag that printed an object (`{{.}}`, `{{a}}`) fails the build
      // (`ObjectTags`), where swift-mustache writes Swift's description.
      guard renderer.objectTags.isEmpty else {
        #expect(!theirs.render(context, library: library).isEmpty)
        continue
      }
      #expect(
        rendered == theirs.render(context, library: library), "round \(round): \(text.debugDescription)")
    }
    // Both kinds are well represented.
    #expect(parsed > 1000 && failed > 1000, "\(parsed) parsed, \(failed) failed")
  }

  // MARK: Errors

  /// Where `1️⃣` is in the text: the error's line and column.
  static func expectError(
    _ marked: String, _ kind: MustacheParser.SyntaxError.Kind, at place: (line: Int, column: Int)? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    var source = Marked(marked)
    if let place { (source.line, source.column) = place }
    do {
      _ = try MustacheParser.parse(source.text)
      Issue.record("\(marked.debugDescription) parsed", sourceLocation: sourceLocation)
    } catch {
      #expect(error.kind == kind, sourceLocation: sourceLocation)
      #expect(
        (error.line, error.column) == (source.line, source.column), "\(error)", sourceLocation: sourceLocation
      )
    }
  }

  @Test func errorsPointAtWhatToFix() {
    // At the tag to fix: its start delimiter.
    Self.expectError(
      "<ol>\n{{#tracks}}<li>{{title}}</li>1️⃣{{/track}}</ol>",
      .sectionClosedWithOtherName(opened: "tracks", closed: "track"))
    // Lines that end in "\r\n" (swift-mustache counts the column from the
    // start of the file there).
    Self.expectError(
      "a\r\nb\r\n{{#x}}{{/y}}", .sectionClosedWithOtherName(opened: "x", closed: "y"), at: (3, 7))
    Self.expectError(
      "{{#first(items)}}1️⃣{{/items}}", .sectionClosedWithOtherName(opened: "first(items)", closed: "items"))
    Self.expectError("x\n  1️⃣{{#open}}\n  text\n", .sectionNeverClosed("open"))
    Self.expectError("{{#a}}{{^b}}1️⃣{{/a}}", .sectionClosedWithOtherName(opened: "b", closed: "a"))
    Self.expectError("x 1️⃣{{/a}}", .closesNothing("a"))
    Self.expectError("x 1️⃣{{!never closed", .commentNeverClosed)
    Self.expectError("a 1️⃣{{bad name}}", .unfinishedTag(expected: "}}"))
    Self.expectError("a 1️⃣{{name", .unfinishedTag(expected: "}}"))
    Self.expectError("a 1️⃣{{{name}} b", .unfinishedTag(expected: "}}}"))
    // A name outside ASCII, as swift-mustache refuses it, named as such.
    Self.expectError("<h1 title=\"1️⃣{{tïtel}}\">", .nonASCIIName("ï"))
    Self.expectError("1️⃣{{count(曲)}}", .nonASCIIName("曲"))
    Self.expectError("1️⃣{{# 名前 }}x{{/名前}}", .nonASCIIName("名"))
    Self.expectError("{{=<% %>=}}1️⃣<%&aü%>", .nonASCIIName("ü"))
    Self.expectError("a 1️⃣{{first(items}}", .badFunctionCall("first(items"))
    Self.expectError("a 1️⃣{{first(items))}}", .badFunctionCall("first(items))"))
    Self.expectError("{{=<% %>=}}\n1️⃣<%name}}", .unfinishedTag(expected: "%>"))
    Self.expectError("1️⃣{{= <% =}}", .invalidSetDelimiter)
    Self.expectError("1️⃣{{% CONTENT_TYPE: XML}}", .unknownPragma("CONTENT_TYPE: XML"))
    Self.expectError("1️⃣{{<p}}{{x}}{{/p}}", .notABlockInParent("p"))
    Self.expectError("1️⃣{{$b(x)}}{{/b(x)}}", .functionOnBlock("b(x)"))
    // Nesting as deep as a record's `subtitle:` could write it, which
    // would run the parser and the renderer out of stack.
    let deep = String(repeating: "{{#a}}", count: 100) + "1️⃣{{#a}}" + String(repeating: "{{/a}}", count: 101)
    Self.expectError(deep, .nestedTooDeep(TemplateTags.maxDepth))
    let deepest = String(repeating: "{{#a}}", count: 100_000)
    #expect(throws: MustacheParser.SyntaxError.self) { try MustacheParser.parse(deepest) }
  }

  /// The message names what is wrong, with the names as written.
  @Test func messagesNameTheTags() throws {
    let error = try #require(throws: MustacheParser.SyntaxError.self) {
      try MustacheParser.parse("{{#tracks}}\n{{/track}}")
    }
    #expect(error.message.contains("'tracks' is closed as 'track'"))
    #expect(error.lineText == "{{/track}}")
    let unicode = try #require(throws: MustacheParser.SyntaxError.self) {
      try MustacheParser.parse("{{naïve}}")
    }
    #expect(unicode.message.hasPrefix("'ï' cannot be part of a name: names hold ASCII letters"))
    #expect(throws: MustacheParser.SyntaxError.self) { try MustacheParser.parse("{{#open}}") }
  }

  /// A `{` or a lone start of a delimiter that ends the text is text, as
  /// the specification has it (swift-mustache fails on it).
  @Test func aBraceThatEndsTheTextIsText() throws {
    var renderer = CompiledRenderer(templates: [:])
    let template = try MustacheParser.parse("a {")
    #expect(renderer.render(template, object: [:]) == Array("a {".utf8))
    let changed = try MustacheParser.parse("{{=<% %>=}}x <")
    #expect(renderer.render(changed, object: [:]) == Array("x <".utf8))
  }

  /// A template's errors become diagnostics at their file, line and column.
  @Test func templateSetReportsSyntaxErrorsAtTheirPlace() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-parser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("line one\n  {{#items}}\n".utf8).write(to: folder.appendingPathComponent("broken.mustache"))
    let error = try #require(throws: DiagnosticsError.self) {
      try TemplateSet.load(directories: [folder.path], builtIn: false)
    }
    let diagnostic = try #require(error.diagnostics.first)
    #expect(diagnostic.location?.line == 2 && diagnostic.location?.column == 3)
    #expect(
      diagnostic.message
        == "template syntax: section 'items' is never closed: expected '{{/items}}' before the end of the template"
    )
  }
}
