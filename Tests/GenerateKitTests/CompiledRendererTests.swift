import Foundation
import Testing

@testable import GenerateKit

/// The compiled renderer writes the same bytes as swift-mustache: every
/// construct, over contexts of the types pages use and of others, compared
/// with what swift-mustache writes for the same templates.
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

  /// What swift-mustache writes, and what the compiled renderer writes.
  static func both(_ set: TemplateSet, _ object: Any, template: String = "main") throws -> (
    mustache: [UInt8], compiled: [UInt8]?
  ) {
    let mustache = try #require(try MustacheOracle.render(set, object, template: template))
    return (mustache, set.render(object, withTemplate: template))
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
          "{{#items}}{{#first()}}F{{/first()}}{{#last()}}L{{/last()}}{{#even()}}e{{/even()}}{{#odd()}}o{{/odd()}}{{#first()}}{{#last()}}both{{/last()}}{{/first()}}{{index()}}{{#index()}}i{{/index()}}{{^index()}}z{{/index()}}{{plusone(index())}}{{#inner}}{{#first()}}no{{/first()}}{{/inner}},{{/items}}{{#first()}}no{{/first()}}{{index()}}{{#strings}}{{index()}}{{#odd()}}{{.}}{{/odd()}}{{/strings}}"
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

  /// An override that reaches its own block through a partial (which the
  /// load does not follow) renders to a depth and stops, where
  /// swift-mustache runs out of stack: the page stops there and the set
  /// names it (the build fails). The same block written in the override
  /// itself is refused at load, with its place.
  @Test func aBlockInItsOwnOverrideEnds() throws {
    let set = try Self.templateSet([
      "main": "{{<frame}}{{$head}}[{{> again}}]{{/head}}{{/frame}}",
      "frame": "<h>{{$head}}default{{/head}}</h>",
      "again": "{{$head}}inner{{/head}}",
    ])
    let text = String(decoding: try #require(set.render(Self.page, withTemplate: "main")), as: UTF8.self)
    #expect(text.hasPrefix("<h>[[["))
    #expect(!text.contains("default"))
    #expect(set.endlessPartials.chains.map(\.template) == ["main"])
    #expect(throws: DiagnosticsError.self) { try set.checkEndlessPartials() }
    #expect(throws: (any Error).self) {
      try Self.templateSet([
        "main": "{{<frame}}{{$head}}{{#t}}{{$head}}x{{/head}}{{/t}}{{/head}}{{/frame}}",
        "frame": "{{$head}}default{{/head}}",
      ])
    }
    // Not an override (no parent around it), and a same-named block in a
    // parent's override of another block: both render as swift-mustache does.
    let fine = try Self.templateSet([
      "main":
        "{{$head}}{{$head}}plain{{/head}}{{/head}}{{<frame}}{{$body}}{{<other}}{{$head}}h{{/head}}{{/other}}{{/body}}{{/frame}}",
      "frame": "<{{$head}}d{{/head}}|{{$body}}b{{/body}}>",
      "other": "({{$head}}o{{/head}})",
    ])
    let (mustache, compiled) = try Self.both(fine, Self.page)
    #expect(compiled == mustache)
    // A layout's override holding its own block, which every page that
    // extends the layout overrides: never rendered, so nothing to refuse.
    let overridden = try Self.templateSet([
      "main": "{{<mid}}{{$head}}M{{/head}}{{$body}}B{{/body}}{{/mid}}",
      "mid":
        "{{<frame}}{{$head}}{{$head}}x{{/head}}+{{/head}}{{$body}}[{{$body}}y{{/body}}]{{/body}}{{/frame}}",
      "frame": "<{{$head}}d{{/head}}|{{$body}}b{{/body}}>",
    ])
    let pair = try Self.both(overridden, Self.page)
    #expect(pair.compiled == pair.mustache)
    #expect(pair.mustache == Array("<M|B>".utf8))
  }

  @Test(arguments: supported.indices)
  func rendersWhatMustacheRenders(_ index: Int) throws {
    let (name, templates) = Self.supported[index]
    let set = try Self.templateSet(templates)
    for template in templates.keys {
      #expect(set.compiled[template] != nil, "\(name): \(template) did not compile")
    }
    let (mustache, compiled) = try Self.both(set, Self.page)
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

  /// What the compiled renderer used to leave to swift-mustache renders
  /// compiled now, as swift-mustache writes it: dynamic partials and
  /// parents, values written as text, reversed and sorted lists, NSNull,
  /// numbers of other types, key–value pairs, nil optionals.
  @Test func rendersWhatUsedToFallBack() throws {
    let object = PageContext(
      page: [
        "items": [["label": "a"], ["label": "b"]], "name": "n", "parentName": "base", "null": NSNull(),
        "nulls": [NSNull(), "x"] as [Any], "small": Int8(7), "big": UInt64.max, "double": 0.1 + 0.2,
        "strings": ["b", "a", "c"], "anyStrings": ["b", "a"] as [Any], "ints": [3, 1, 2],
        "set": Set(["only"]), "map": ["b": 2, "a": 1] as [String: Int],
        "textMap": ["k": "v"] as [String: String], "nothing": String?.none as Any,
        "something": String?.some("s") as Any, "float": Float(1.5),
      ],
      shared: ["site": ["title": "T"] as [String: Any]])
    let cases: [(String, [String: String])] = [
      (
        "a dynamic partial",
        ["main": "[{{>*name}}]\n  {{>*name}}\n{{>*missing}}{{>*items}}", "n": "partial {{name}}\nx\n"]
      ),
      (
        "a dynamic parent",
        ["main": "{{<*parentName}}{{$b}}mine{{/b}}{{/*parentName}}", "base": "<{{$b}}base{{/b}}>"]
      ),
      (
        "a partial that has a dynamic partial",
        ["main": "[{{> dynamic}}]", "dynamic": "{{>*name}}", "n": "x"]
      ),
      // `{{items}}` and `{{textMap}}` print objects: nothing, and an error
      // (`ObjectTags`, `TemplateRoundFourTests`).
      ("a list written as text", ["main": "{{strings}}|{{{ints}}}|{{set}}"]),
      (
        "reversed and sorted lists",
        [
          "main":
            "{{#reversed(items)}}{{label}}{{/reversed(items)}}{{#sorted(strings)}}{{.}}{{/sorted(strings)}}{{#sorted(anyStrings)}}no{{/sorted(anyStrings)}}{{#sorted(ints)}}{{.}}{{/sorted(ints)}}{{reversed(strings)}}{{#reversed(reversed(strings))}}{{.}}{{/reversed(reversed(strings))}}{{first(reversed(ints))}}{{count(set)}}{{#sorted(set)}}{{.}}{{/sorted(set)}}"
        ]
      ),
      (
        "NSNull",
        [
          "main":
            "{{#null}}x{{/null}}{{^null}}y{{/null}}{{null}}{{#nulls}}[{{.}}{{site.title}}]{{/nulls}}{{first(nulls)}}{{#first(nulls)}}F{{/first(nulls)}}"
        ]
      ),
      (
        "numbers of other types",
        [
          "main":
            "{{small}} {{plusone(small)}} {{big}} {{minusone(big)}} {{double}} {{float}} {{#odd(small)}}odd{{/odd(small)}}"
        ]
      ),
      (
        "key–value pairs",
        [
          "main":
            "{{#sorted(map)}}{{key}}={{value}};{{/sorted(map)}}{{count(map)}}{{#enumerated(textMap)}}{{key}}:{{value}} {{.}}{{/enumerated(textMap)}}{{#textMap}}{{k}}{{/textMap}}"
        ]
      ),
      (
        "optionals",
        [
          "main":
            "[{{nothing}}]{{#nothing}}N{{/nothing}}{{^nothing}}not{{/nothing}}[{{something}}]{{uppercased(something)}}"
        ]
      ),
    ]
    for (name, templates) in cases {
      let set = try Self.templateSet(templates)
      let mustache = try #require(try MustacheOracle.render(set, object, template: "main"))
      let compiled = set.render(object, withTemplate: "main")
      #expect(
        compiled.map { String(decoding: $0, as: UTF8.self) } == String(decoding: mustache, as: UTF8.self),
        "\(name)")
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
    let contexts = Self.pageContexts(site, set)
    #expect(contexts.count > 20)
    let library = try MustacheOracle.library(set)
    for (template, context) in contexts {
      let mustache = library.render(context, withTemplate: template).map { Array($0.utf8) }
      #expect(set.render(context, withTemplate: template) == mustache, "\(template)")
    }
  }

  /// The contexts a site's pages are rendered over, as `PageRenderer`
  /// makes them, with their templates: the search page, the 404 page,
  /// each record page (with its collection's template and with the
  /// built-in `record`; at most `limit` records) and the A–Z pages.
  static func pageContexts(_ site: PreparedSite, _ set: TemplateSet, limit: Int = .max) -> [(
    String, PageContext
  )] {
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
    for (index, document) in site.documents.prefix(limit).enumerated() {
      let collection = site.collections[document.collection]
      guard let page = collection.config.page else { continue }
      // In a fixed order, so two calls give the same list.
      for template in page.template == "record" ? ["record"] : [page.template, "record"]
      where set.has(template) {
        let record = RecordContext(site: site, table: collection.table, row: document.row, document: index)
        let context = PageContext(
          page: ["page": ["title": document.title, "kind": "k"] as [String: Any], "record": record],
          shared: shared)
        contexts.append((template, context))
      }
    }
    guard set.has("browse") else { return contexts }
    var browse = BrowsePages(site: site, base: "/")
    browse.pagePaths = Set(
      site.documents.map { $0.url.hasSuffix("/") || $0.url.isEmpty ? $0.url + "index.html" : $0.url })
    for page in browse.pages().prefix(limit) {
      let context = PageContext(
        page: ["page": [:] as [String: Any], "browse": page.context()], shared: shared)
      contexts.append(("browse", context))
    }
    return contexts
  }

  /// A record's `subtitle:`/`url:` template with more than names in it
  /// renders as swift-mustache renders it (text, no escaping).
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
      #expect(template.parts == nil)
      for document in site.documents.prefix(50) {
        let collection = site.collections[document.collection]
        let context = RecordContext(site: site, table: collection.table, row: document.row)
        let expected = try MustacheOracle.renderRecordTemplate(
          text, RecordContext(site: site, table: collection.table, row: document.row))
        #expect(template.render(context) == expected, "\(text)")
      }
    }
  }
}
