import Foundation
import GRDB
import Testing

@testable import GenerateKit

/// A JSON dataset's values as a user's template sees them
/// (`Fixtures/typed-values`): a JSON `false` (or null, or no field) skips
/// `{{#active}}` and shows `{{^active}}`, as in every Mustache fed JSON; a
/// JSON number is a number to `plusone` and `equalzero`; and `{{active}}`,
/// `{{count}}` print what the JSON wrote, as they did when every value was
/// text. A string `"false"` stays text, and truthy.
@Suite struct TypedValuesTests {
  static let fixture = packageRoot.appendingPathComponent("Tests/GenerateKitTests/Fixtures/typed-values")

  /// The fixture built by the real pipeline into a temporary folder: each
  /// record page's paragraphs, by record and class.
  static func pages() throws -> [String: [String: String]] {
    let files = FileManager.default
    let folder = files.temporaryDirectory.appendingPathComponent("generate-typed-\(UUID().uuidString)")
    try files.copyItem(at: fixture, to: folder)
    defer { try? files.removeItem(at: folder) }
    var options = BuildOptions()
    options.configPath = folder.appendingPathComponent("site.yml").path
    options.outputPath = folder.appendingPathComponent("site").path
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    var pages: [String: [String: String]] = [:]
    for record in ["a", "b", "c", "d"] {
      let html = try String(
        contentsOf: folder.appendingPathComponent("site/items/\(record)/index.html"), encoding: .utf8)
      var paragraphs: [String: String] = [:]
      for part in html.components(separatedBy: "<p class=\"").dropFirst() {
        let name = String(part.prefix { $0 != "\"" })
        let body = part.drop { $0 != ">" }.dropFirst()
        paragraphs[name] = String(body.prefix { $0 != "<" })
      }
      pages[record] = paragraphs
    }
    return pages
  }

  @Test func aJSONBooleanIsABooleanInASection() throws {
    let pages = try Self.pages()
    // true; false; null; no field at all.
    #expect(pages["a"]?["active"] == "on [true]")
    #expect(pages["b"]?["active"] == "off [false]")
    #expect(pages["c"]?["active"] == "off []")
    #expect(pages["d"]?["active"] == "off []")
    // The same column under the collection's `fields:`.
    #expect(pages.mapValues { $0["live"] } == ["a": "on", "b": "off", "c": "off", "d": "off"])
    // A JSON string "false" is text: a section shows it.
    #expect(pages["a"]?["note"] == "note false")
  }

  @Test func aJSONNumberIsANumberToTheFunctionsThatTakeNumbers() throws {
    let pages = try Self.pages()
    #expect(pages["a"]?["count"] == "0 none next 1 ")
    #expect(pages["b"]?["count"] == "3 some next 4 odd")
    #expect(pages["c"]?["count"] == "-1 some next 0 odd")
    #expect(pages.mapValues { $0["tally"] } == ["a": "1", "b": "4", "c": "0", "d": "8"])
    // A fraction prints as before and has no `plusone` (swift-mustache
    // has none for a `Double`); `1e3` printed as 1000 before, and still does.
    #expect(pages["a"]?["score"] == "2.5 ")
    #expect(pages["b"]?["score"] == "10 11")
    #expect(pages["a"]?["big"] == "1000")
    #expect(pages["b"]?["big"] == "12")
  }

  /// A SQLite INTEGER or REAL is a number as a JSON number is; TEXT that
  /// spells a number stays text.
  @Test func aSQLiteNumberIsANumber() throws {
    let files = FileManager.default
    let folder = files.temporaryDirectory.appendingPathComponent("generate-typed-\(UUID().uuidString)")
    try files.createDirectory(
      at: folder.appendingPathComponent("templates"), withIntermediateDirectories: true)
    defer { try? files.removeItem(at: folder) }
    let queue = try DatabaseQueue(path: folder.appendingPathComponent("items.sqlite").path)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE items (id TEXT, name TEXT, count INTEGER, code TEXT)")
      try db.execute(
        sql:
          "INSERT INTO items VALUES ('a', 'Alpha', 0, '7'), ('b', 'Beta', 3, '8'), ('c', 'Gamma', NULL, '9')")
    }
    let config = try String(contentsOf: Self.fixture.appendingPathComponent("site.yml"), encoding: .utf8)
      .replacingOccurrences(
        of: "{ file: items.json, key: id }", with: "{ sqlite: items.sqlite, table: items, key: id }"
      )
      .replacingOccurrences(of: "      live: active\n", with: "")
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    let head = try String(
      contentsOf: Self.fixture.appendingPathComponent("templates/item.mustache"), encoding: .utf8
    ).components(separatedBy: "\n").prefix(2).joined(separator: "\n")
    try Data(
      (head + """

        <p class="count">{{record.count}} {{#equalzero(record.count)}}none{{/equalzero(record.count)}} next {{plusone(record.count)}}</p>
        <p class="code">{{record.code}} {{plusone(record.code)}}</p>
        </body></html>

        """).utf8
    ).write(to: folder.appendingPathComponent("templates/item.mustache"))
    var options = BuildOptions()
    options.configPath = folder.appendingPathComponent("site.yml").path
    options.outputPath = folder.appendingPathComponent("site").path
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    func page(_ id: String) throws -> String {
      try String(contentsOf: folder.appendingPathComponent("site/items/\(id)/index.html"), encoding: .utf8)
    }
    #expect(try page("a").contains("<p class=\"count\">0 none next 1</p>"))
    #expect(try page("b").contains("<p class=\"count\">3  next 4</p>"))
    #expect(try page("c").contains("<p class=\"count\">  next </p>"))
    #expect(try page("a").contains("<p class=\"code\">7 </p>"))
  }

  /// The compiled renderer and swift-mustache agree on every page.
  @Test func rendersAsMustacheDoes() throws {
    let site = try preparedSite(config: Self.fixture.appendingPathComponent("site.yml").path)
    let set = try TemplateSet.load(
      directories: [Self.fixture.appendingPathComponent("templates").path], builtIn: true)
    let contexts = CompiledRendererTests.pageContexts(site, set).filter { $0.0 == "item" }
    #expect(contexts.count == 4)
    let library = try MustacheOracle.library(set)
    for (template, context) in contexts {
      let mustache = library.render(context, withTemplate: template).map { Array($0.utf8) }
      #expect(set.render(context, withTemplate: template) == mustache)
    }
    #expect(set.genericReads.reads.isEmpty, "\(set.genericReads.reads)")
  }
}
