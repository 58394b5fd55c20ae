import Foundation
import Mustache
import Testing

@testable import GenerateKit

/// The compiled renderer writes the same bytes as swift-mustache: every
/// construct it renders, over contexts of the types pages use, compared
/// with what swift-mustache writes for the same templates; and what it
/// does not render goes to swift-mustache.
@Suite struct CompiledRendererTests {
  /// Templates in a folder of their own, loaded as a site's are.
  static func templateSet(_ templates: [String: String]) throws -> TemplateSet {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-compiled-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, text) in templates {
      try Data(text.utf8).write(to: folder.appendingPathComponent(name + ".mustache"))
    }
    return try TemplateSet.load(directories: [folder.path], builtIn: false)
  }

  /// What swift-mustache writes, and what the compiled renderer writes
  /// (nil when it does not render the template or a value in it).
  static func both(_ set: TemplateSet, _ object: Any, template: String = "main") throws -> (
    mustache: [UInt8], compiled: [UInt8]?
  ) {
    let mustache = Array(try #require(set.library.render(object, withTemplate: template)).utf8)
    guard let compiled = set.compiled[template] else { return (mustache, nil) }
    var renderer = CompiledRenderer(templates: set.compiled, known: set.names)
    return (mustache, try? renderer.render(compiled, object: object))
  }

  static let awkward = "Tom & \"Jerry\" <b>'s</b> — a<\u{338}b, \u{600}<x, &\u{301}, >\u{20DD} ok"

  /// A page's two layers, as `PageRenderer` makes them.
  static var page: PageContext {
    PageContext(
      page: [
        "name": "Ada <Lovelace>", "html": awkward, "t": true, "f": false, "zero": 0, "int": 42,
        "double": 2.5, "empty": "", "emptyList": [[String: Any]](), "noStrings": [String](),
        "strings": ["x&y", "b", "a"], "anyList": ["one", 2, true] as [Any],
        "items": [
          ["label": "first <1>", "url": "/a/", "more": false],
          ["label": "second", "url": false, "more": "3"],
          ["label": "third", "more": false, "inner": ["label": "deep"] as [String: Any]],
        ] as [[String: Any]],
        "dict": ["k": "v'", "site": ["title": "inner site"] as [String: Any]] as [String: Any],
        "textOnly": ["k": "plain"] as [String: String],
      ],
      shared: ["site": ["title": "Site & Co", "language": "en"] as [String: Any], "base": "/"])
  }

  /// Every construct the compiled renderer renders, with the whitespace
  /// rules around standalone tags.
  static let supported: [(String, [String: String])] = [
    ("variables and escaping", ["main": "Hi {{name}}! {{html}} | {{{html}}} | {{&html}} | {{missing}}|"]),
    ("numbers and booleans", ["main": "{{int}} {{double}} {{t}} {{f}} {{zero}}"]),
    ("dotted names", ["main": "{{site.title}} {{dict.site.title}} {{dict.missing.x}} {{missing.x}}"]),
    (
      "climbing the stack",
      ["main": "{{#items}}[{{label}} in {{site.title}}, {{inner.label}}]{{/items}}{{#dict}}{{name}}{{/dict}}"]
    ),
    ("names from the current object only", ["main": "{{#dict}}{{.k}}/{{.name}}/{{.site.title}}{{/dict}}"]),
    ("the implicit iterator", ["main": "{{#strings}}<{{.}}>{{/strings}}{{#anyList}}({{.}}){{/anyList}}"]),
    (
      "section truthiness",
      [
        "main":
          "{{#t}}T{{/t}}{{#f}}F{{/f}}{{#zero}}Z{{.}}{{/zero}}{{#empty}}E[{{.}}]{{/empty}}{{#emptyList}}L{{/emptyList}}{{#missing}}M{{/missing}}{{#dict}}D{{k}}{{/dict}}{{#textOnly}}{{k}}{{/textOnly}}{{#name}}({{.}}){{/name}}"
      ]
    ),
    (
      "inverted sections",
      [
        "main":
          "{{^t}}t{{/t}}{{^f}}f{{/f}}{{^zero}}z{{/zero}}{{^emptyList}}el{{name}}{{/emptyList}}{{^noStrings}}ns{{/noStrings}}{{^missing}}m{{/missing}}{{^items}}i{{/items}}{{^empty}}e{{/empty}}"
      ]
    ),
    (
      "standalone lines and comments",
      [
        "main":
          "a\n  {{#t}}\n  x\n  {{/t}}\n{{! a comment }}\n  {{! indented comment }}  \nb\n   {{^f}}  \nc\n  {{/f}}\n {{#items}} {{label}}\n{{/items}}\n\t{{#f}}\n\tno\n\t{{/f}}\r\n  {{#t}}\r\ncrlf\r\n{{/t}}\r\nend {{#t}}\ninline\n{{/t}} tail\n"
      ]
    ),
    (
      "partials and their indentation",
      [
        "main": "begin\n  {{> inner}}\n\t{{>inner}}\nmid {{> inner}} after\n  {{> crlf}}\r\nend\n",
        "inner": "line1 {{name}}\n{{#items}}\n  {{label}}\n{{/items}}\n{{html}}\n{{> leaf}}\n",
        "leaf": "leaf\nleaf2\n",
        "crlf": "x\r\ny\r\n{{#strings}}{{.}}\r\n{{/strings}}",
      ]
    ),
    (
      "parents and blocks",
      [
        "main":
          "{{<layout}}\n{{$title}}T {{name}}{{/title}}\n{{$body}}\n  {{> card}}\n  {{#items}}\n  - {{label}}\n  {{/items}}\n{{/body}}\n{{/layout}}\n",
        "layout":
          "<title>{{$title}}Default{{/title}}</title>\n<body class=\"{{$class}}plain{{/class}}\">\n  {{$body}}\n  body default\n  {{/body}}\n</body>\n{{$unused}}kept{{/unused}}\n",
        "card": "<card>{{$cardTitle}}card default{{/cardTitle}}</card>\n",
      ]
    ),
    (
      "a parent's parent, the outer override winning",
      [
        "main": "{{<middle}}{{$a}}main a{{/a}}{{/middle}}",
        "middle": "{{<base}}{{$a}}middle a{{/a}}{{$b}}middle b{{/b}}{{/base}}",
        "base": "[{{$a}}base a{{/a}}|{{$b}}base b{{/b}}|{{$c}}base c{{/c}}]",
      ]
    ),
    (
      "transforms",
      [
        "main":
          "{{#first(items)}}first:{{label}}{{/first(items)}} {{#last(items)}}last:{{label}}{{/last(items)}} {{count(items)}} {{#empty(emptyList)}}E{{/empty(emptyList)}}{{^empty(items)}}N{{/empty(items)}} {{#first(emptyList)}}no{{/first(emptyList)}} {{uppercased(name)}} {{lowercased(name)}} {{capitalized(html)}} {{reversed(name)}} {{plusone(count(items))}} {{minusone(int)}} {{#equalzero(count(emptyList))}}zero{{/equalzero(count(emptyList))}} {{#even(int)}}even{{/even(int)}}{{#odd(int)}}odd{{/odd(int)}} {{last(strings)}} {{count(dict)}} {{#empty(empty)}}empty{{/empty(empty)}} {{uppercased(missing)}} {{count(t)}}"
      ]
    ),
    (
      "where in a sequence",
      [
        "main":
          "{{#items}}{{#first()}}F{{/first()}}{{#last()}}L{{/last()}}{{#even()}}e{{/even()}}{{#odd()}}o{{/odd()}}{{#first()}}{{#last()}}both{{/last()}}{{/first()}}{{#inner}}{{#first()}}no{{/first()}}{{/inner}},{{/items}}{{#first()}}no{{/first()}}{{#strings}}{{#odd()}}{{.}}{{/odd()}}{{/strings}}"
      ]
    ),
    (
      "content types",
      [
        "main": "{{% CONTENT_TYPE: TEXT}}{{html}} {{#t}}{{html}}{{/t}} {{> part}}",
        "part": "{{html}}{{% CONTENT_TYPE: TEXT}}{{html}}",
      ]
    ),
    ("changed delimiters", ["main": "{{=<% %>=}}<% name %> <%# t %>yes<%/ t %>\n<%={{ }}=%>{{html}}"]),
    ("the page's own layers", ["main": "{{#name}}{{base}}{{/name}}{{#page}}{{site.title}}{{/page}}"]),
  ]

  @Test(arguments: supported.indices)
  func rendersWhatMustacheRenders(_ index: Int) throws {
    let (name, templates) = Self.supported[index]
    let set = try Self.templateSet(templates)
    for template in templates.keys {
      #expect(set.compiled[template] != nil, "\(name): \(template) did not compile")
    }
    let (mustache, compiled) = try Self.both(set, Self.page)
    #expect(compiled != nil, "\(name): fell back to swift-mustache")
    #expect(
      compiled.map { String(decoding: $0, as: UTF8.self) } == String(decoding: mustache, as: UTF8.self),
      "\(name)")
    #expect(set.render(Self.page, withTemplate: "main") == mustache, "\(name)")
    // A plain dictionary as the root, as the service worker's context is.
    let root = ["name": "x<y", "t": true, "items": [["label": "l"]]] as [String: Any]
    let plain = try Self.both(set, root)
    #expect(plain.compiled == plain.mustache, "\(name), over a dictionary")
  }

  /// The byte escape agrees with swift-mustache's character escape on
  /// the five characters next to every kind of neighbour.
  @Test func escapesAsMustacheDoes() throws {
    let neighbours = [
      "", "a", " ", "é", "e\u{301}", "\u{301}", "\u{338}", "\u{600}", "\u{200D}", "👍🏽", "\r", "\n",
      "\u{1F1EB}",
    ]
    let set = try Self.templateSet(["main": "{{text}}"])
    for special in ["<", ">", "&", "\"", "'"] {
      for before in neighbours {
        for after in neighbours {
          let text = before + special + after
          var bytes: [UInt8] = []
          HTMLEscape.append(text, to: &bytes)
          #expect(String(decoding: bytes, as: UTF8.self) == HTMLEscape.byCharacter(text))
          let (mustache, compiled) = try Self.both(set, ["text": text] as [String: Any])
          #expect(compiled == mustache, "\(text.unicodeScalars.map { $0.value })")
        }
      }
    }
  }

  /// What the compiled renderer leaves to swift-mustache, and that the
  /// page still comes out as swift-mustache writes it.
  @Test func fallsBackToMustache() throws {
    let lambda = MustacheLambda { text in "<" + text + ">" }
    let object = PageContext(
      page: ["lambda": lambda, "items": [["label": "a"], ["label": "b"]], "name": "n", "null": NSNull()],
      shared: [:])
    let cases: [(String, [String: String], compiles: Bool)] = [
      ("a dynamic partial", ["main": "{{>*name}}", "n": "partial {{name}}"], false),
      (
        "a partial that did not compile", ["main": "[{{> dynamic}}]", "dynamic": "{{>*name}}", "n": "x"], true
      ),
      ("a lambda", ["main": "{{#lambda}}text{{/lambda}}"], true),
      ("a list written as text", ["main": "{{items}}"], true),
      ("a reversed list", ["main": "{{#reversed(items)}}{{label}}{{/reversed(items)}}"], true),
      ("NSNull", ["main": "{{#null}}x{{/null}}{{null}}"], true),
    ]
    for (name, templates, compiles) in cases {
      let set = try Self.templateSet(templates)
      #expect((set.compiled["main"] != nil) == compiles, "\(name)")
      let (mustache, compiled) = try Self.both(set, object)
      #expect(compiled == nil, "\(name): the compiled renderer should have refused it")
      #expect(set.render(object, withTemplate: "main") == mustache, "\(name)")
    }
  }

  /// The built-in theme's pages and the fixture's own templates over a
  /// real prepared site: every record page (with its collection's template
  /// and with the built-in `record`), the A–Z pages, the search page and
  /// the 404 page.
  @Test(arguments: [false, true])
  func sitePagesRenderWhatMustacheRenders(builtInOnly: Bool) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let site = try preparedSite(config: project.config)
    let set = try TemplateSet.load(directories: builtInOnly ? [] : [project.path("templates")], builtIn: true)
    #expect(set.names.count >= 9)
    for name in set.names { #expect(set.compiled[name] != nil, "\(name) did not compile") }
    var shared = PageRenderer.sharedValues(site, templates: set, manifestPath: "idx/manifest.json")
    shared["assets"] = "/assets/x/"
    shared["modulePreloads"] = ["/assets/x/a.js"]
    shared["indexData"] = "{\"a\":\"<b>\"}"
    var contexts: [(String, PageContext)] = [
      (
        "search",
        PageContext(page: ["page": ["title": "T", "isSearch": true] as [String: Any]], shared: shared)
      ),
      ("404", PageContext(page: ["page": ["title": "Not found"] as [String: Any]], shared: shared)),
    ]
    for document in site.documents {
      let collection = site.collections[document.collection]
      guard let page = collection.config.page else { continue }
      for template in Set([page.template, "record"]) where set.has(template) {
        let record = RecordContext(site: site, table: collection.table, row: document.row)
        let context = PageContext(
          page: ["page": ["title": document.title, "kind": "k"] as [String: Any], "record": record],
          shared: shared)
        contexts.append((template, context))
      }
    }
    var browse = BrowsePages(site: site, base: "/")
    browse.pagePaths = Set(
      site.documents.map { $0.url.hasSuffix("/") || $0.url.isEmpty ? $0.url + "index.html" : $0.url })
    for page in browse.pages() {
      let context = PageContext(
        page: ["page": [:] as [String: Any], "browse": page.context()], shared: shared)
      contexts.append(("browse", context))
    }
    #expect(contexts.count > 20)
    for (template, context) in contexts {
      let (mustache, compiled) = try Self.both(set, context, template: template)
      #expect(compiled != nil, "\(template) fell back")
      #expect(compiled == mustache, "\(template)")
    }
  }

  /// A record's `subtitle:`/`url:` template with more than names in it
  /// renders compiled, as swift-mustache renders it (text, no escaping).
  @Test func recordTemplatesRenderWhatMustacheRenders() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let site = try preparedSite(config: project.config)
    let texts = [
      "{{#title}}<{{.}}>{{/title}}{{^missing}} & none{{/missing}} {{uppercased(title)}}",
      "{{#url}}{{url}}#x{{/url}}{{^url}}-{{/url}}\n  {{#title}}\n  {{kind}} {{slug}}\n  {{/title}}\n",
    ]
    for text in texts {
      let template = try RecordTemplate(text)
      #expect(template.parts == nil && template.compiled != nil)
      for document in site.documents.prefix(50) {
        let collection = site.collections[document.collection]
        let context = RecordContext(site: site, table: collection.table, row: document.row)
        let expected = template.template.render(
          RecordContext(site: site, table: collection.table, row: document.row))
        #expect(template.render(context) == expected, "\(text)")
      }
    }
  }
}
