import Foundation
import Testing

@testable import GenerateKit

/// A field that holds an object (`"publisher": {"name": …, "url": …}`)
/// opens as one in a template: `{{publisher.name}}`, and
/// `{{#publisher}}<a href="{{url}}">{{name}}</a>{{/publisher}}` — in JSON,
/// in JSON Lines, and wherever column names are dotted (a CSV header
/// `publisher.name`). Both renderers write the same bytes.
@Suite struct ObjectColumnTests {
  static let records: [String] = [
    #"{"id": 1, "title": "Mort", "publisher": {"name": "Gollancz", "url": "https://gollancz.example", "address": {"city": "London"}}, "year": 1987, "tags": ["fantasy", "death, personified"], "editions": [{"format": "Hardcover"}, {"format": "Paperback"}]}"#,
    // No url: `{{url}}` inside the object is its own (nothing), never the
    // record's page.
    #"{"id": 2, "title": "Sourcery", "publisher": {"name": "Corgi & Sons"}}"#,
    // No publisher at all: `{{^publisher}}` shows.
    #"{"id": 3, "title": "Eric", "publisher": null}"#,
  ]

  static let page = """
    <main>{{#record}}<h1>{{title}}</h1>
    <p class="dotted">{{publisher.name}} / {{publisher.address.city}}</p>
    {{#publisher}}<a href="{{url}}">{{name}}</a>{{#address}} in {{city}}{{/address}}{{/publisher}}
    {{^publisher}}<p class="none">no publisher</p>{{/publisher}}
    <p class="local">{{#publisher}}[{{.name}}]{{/publisher}}</p>
    <p class="json">{{publisher}}</p>
    <p class="editions">{{editions.format}}|{{#editions.format}}<i>{{.}}</i>{{/editions.format}}</p>
    <p class="tags">{{tags}}</p><ul>{{#tags}}<li>{{.}}</li>{{/tags}}</ul>{{^tags}}<p>untagged</p>{{/tags}}<p>{{count(tags)}} tags, first {{first(tags)}}</p>
    {{/record}}</main>

    """

  /// The project: the records as `format` ("json" or "jsonl"), a page per book.
  static func project(_ format: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("objects-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("templates"), withIntermediateDirectories: true)
    let data =
      format == "json"
      ? "[\n" + records.joined(separator: ",\n") + "\n]\n" : records.joined(separator: "\n") + "\n"
    try Data(data.utf8).write(to: folder.appendingPathComponent("books.\(format)"))
    let config = """
      title: Books
      tables:
        books: { file: books.\(format), key: id }
      collections:
        - id: books
          label: Books
          table: books
          title: title
          page: { template: book, path: "books/{{slug}}/" }
      """
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    try Data(page.utf8).write(to: folder.appendingPathComponent("templates/book.mustache"))
    return folder
  }

  static func pages(_ folder: URL) throws -> [String: String] {
    let site = try preparedSite(config: folder.appendingPathComponent("site.yml").path)
    let set = try TemplateSet.load(directories: [folder.appendingPathComponent("templates").path])
    let library = try MustacheOracle.library(set)
    var pages: [String: String] = [:]
    for (template, context) in CompiledRendererTests.pageContexts(site, set) where template == "book" {
      let ours = try #require(set.render(context, withTemplate: template))
      let mustache = library.render(context, withTemplate: template).map { Array($0.utf8) }
      #expect(ours == mustache)
      let text = String(decoding: ours, as: UTF8.self)
      let title = text.split(separator: "<h1>")[1].split(separator: "<")[0]
      pages[String(title)] = text
    }
    #expect(set.genericReads.reads.isEmpty, "\(set.genericReads.reads)")
    return pages
  }

  @Test(arguments: ["json", "jsonl"])
  func anObjectOpensAsAnObject(_ format: String) throws {
    let folder = try Self.project(format)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pages = try Self.pages(folder)
    let mort = try #require(pages["Mort"])
    #expect(mort.contains(#"<p class="dotted">Gollancz / London</p>"#), "\(mort)")
    #expect(mort.contains(#"<a href="https://gollancz.example">Gollancz</a> in London"#), "\(mort)")
    #expect(!mort.contains("no publisher"))
    #expect(mort.contains(#"<p class="local">[Gollancz]</p>"#))
    // A list column prints its items joined, and a section writes each.
    #expect(mort.contains(#"<p class="tags">fantasy, death, personified</p>"#), "\(mort)")
    #expect(mort.contains("<ul><li>fantasy</li><li>death, personified</li></ul>"), "\(mort)")
    #expect(mort.contains("<p>2 tags, first fantasy</p>"), "\(mort)")
    // An array of objects: a list per member.
    #expect(
      mort.contains(#"<p class="editions">Hardcover, Paperback|<i>Hardcover</i><i>Paperback</i></p>"#),
      "\(mort)")
    // The object as JSON text, escaped, members in the order first read.
    #expect(
      mort.contains(
        #"<p class="json">{&quot;name&quot;:&quot;Gollancz&quot;,&quot;url&quot;:&quot;https://gollancz.example&quot;,&quot;address&quot;:{&quot;city&quot;:&quot;London&quot;}}</p>"#
      ), "\(mort)")

    let sourcery = try #require(pages["Sourcery"])
    // A member this record's object lacks is nothing: not the page's url.
    #expect(sourcery.contains(#"<a href="">Corgi &amp; Sons</a>"#), "\(sourcery)")
    #expect(sourcery.contains(#"<p class="dotted">Corgi &amp; Sons / </p>"#))

    let eric = try #require(pages["Eric"])
    #expect(eric.contains(#"<p class="none">no publisher</p>"#), "\(eric)")
    #expect(eric.contains(#"<p class="json"></p>"#))
    #expect(eric.contains("<p>untagged</p>"))
    #expect(!eric.contains("<a href"))
  }

  /// A CSV whose header names columns with dots reads the same way; a CSV
  /// cell that holds JSON text is text: printed as it is, with no members.
  @Test func dottedCSVColumnsOpenAndJSONTextStaysText() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "objects-csv-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("templates"), withIntermediateDirectories: true)
    let csv = """
      id,title,publisher.name,publisher.url,meta
      1,Mort,Gollancz,https://gollancz.example,"{""name"": ""Gollancz""}"

      """
    try Data(csv.utf8).write(to: folder.appendingPathComponent("books.csv"))
    let config = """
      title: Books
      tables:
        books: { file: books.csv, key: id }
      collections:
        - id: books
          label: Books
          table: books
          title: title
          page: { template: book, path: "books/{{slug}}/" }
      """
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    let page = """
      <main>{{#record}}<h1>{{title}}</h1>{{#publisher}}<a href="{{url}}">{{name}}</a>{{/publisher}}
      <p>{{meta}}|{{meta.name}}</p>{{/record}}</main>

      """
    try Data(page.utf8).write(to: folder.appendingPathComponent("templates/book.mustache"))
    let pages = try Self.pages(folder)
    let mort = try #require(pages["Mort"])
    #expect(mort.contains(#"<a href="https://gollancz.example">Gollancz</a>"#), "\(mort)")
    #expect(mort.contains("<p>{&quot;name&quot;: &quot;Gollancz&quot;}|</p>"), "\(mort)")
  }
}
