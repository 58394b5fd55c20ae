import Foundation
import Mustache
import Testing

@testable import GenerateKit

/// More of the Mustache specification than `CompiledRendererSpecTests`
/// (set delimiters, dynamic names, null and root values, recursive
/// partials and parents, which a `TemplateSet` refuses at load), written
/// out here as no network is needed: each template and its partials are
/// parsed by `MustacheParser` and rendered by `CompiledRenderer` directly,
/// and compared with what swift-mustache writes for them.
@Suite struct MustacheSpecTests {
  /// Its data is read only.
  struct Case: CustomStringConvertible, @unchecked Sendable {
    var name: String
    var template: String
    var data: Any = [String: Any]()
    var partials: [String: String] = [:]
    var description: String { name }
  }

  static let cases: [Case] =
    delimiters + dynamicNames + interpolation + sections + comments + partials + inheritance

  static let delimiters: [Case] = [
    Case(name: "pair behavior", template: "{{=<% %>=}}(<%text%>)", data: ["text": "Hey!"]),
    Case(name: "special characters", template: "({{=[ ]=}}[text])", data: ["text": "It worked!"]),
    Case(
      name: "sections",
      template:
        "[\n{{#section}}\n  {{data}}\n  |data|\n{{/section}}\n\n{{= | | =}}\n|#section|\n  {{data}}\n  |data|\n|/section|\n]\n",
      data: ["section": true, "data": "I got interpolated."]),
    Case(
      name: "inverted sections",
      template:
        "[\n{{^section}}\n  {{data}}\n  |data|\n{{/section}}\n\n{{= | | =}}\n|^section|\n  {{data}}\n  |data|\n|/section|\n]\n",
      data: ["section": false, "data": "I got interpolated."]),
    Case(
      name: "partial inheritence", template: "[ {{>include}} ]\n{{= | | =}}\n[ |>include| ]\n",
      data: ["value": "yes"], partials: ["include": ".{{value}}."]),
    Case(
      name: "post-partial behavior", template: "[ {{>include}} ]\n[ .{{value}}.  .|value|. ]\n",
      data: ["value": "yes"], partials: ["include": ".{{value}}. {{= | | =}} .|value|."]),
    Case(name: "surrounding whitespace", template: "| {{=@ @=}} |"),
    Case(name: "outlying whitespace (inline)", template: " | {{=@ @=}}\n"),
    Case(name: "standalone tag", template: "Begin.\n{{=@ @=}}\nEnd.\n"),
    Case(name: "indented standalone tag", template: "Begin.\n  {{=@ @=}}\nEnd.\n"),
    Case(name: "standalone line endings", template: "|\r\n{{= @ @ =}}\r\n|"),
    Case(name: "standalone without previous line", template: "  {{=@ @=}}\n="),
    Case(name: "standalone without newline", template: "=\n  {{=@ @=}}"),
    Case(name: "pair with padding", template: "|{{= @   @ =}}|"),
    Case(
      name: "delimiters of several characters, and back",
      template: "{{=<%% %%>=}}<%%#a%%>[<%%b%%>]<%%/a%%>\n<%%={{ }}=%%>{{b}}",
      data: ["a": true, "b": "<x>"]),
    Case(
      name: "a comment under other delimiters", template: "{{=<% %>=}}a<%! one % two %>b<%! x %%> y %>c"),
    Case(
      name: "triple mustache under other delimiters", template: "{{=<% %>=}}<%{b%>}<%&b%>",
      data: ["b": "<x>"]),
  ]

  static let dynamicNames: [Case] = [
    Case(
      name: "basic behavior", template: "\"{{>*dynamic}}\"", data: ["dynamic": "content"],
      partials: ["content": "Hello, world!"]),
    Case(
      name: "context", template: "\"{{>*example}}\"", data: ["text": "Hello, world!", "example": "partial"],
      partials: ["partial": "*{{text}}*"]),
    Case(
      name: "dotted names", template: "\"{{>*foo.bar.baz}}\"",
      data: ["text": "Hello, world!", "foo": ["bar": ["baz": "partial"]]], partials: ["partial": "*{{text}}*"]
    ),
    Case(
      name: "dotted names, operator precedence", template: "\"{{>*foo.bar.baz}}\"",
      data: ["text": "Hello, world!", "foo": "test", "test": ["bar": ["baz": "partial"]]],
      partials: ["partial": "*{{text}}*", "test": "ERROR"]),
    Case(
      name: "dotted names, failed lookup", template: "\"{{>*foo.bar.baz}}\"",
      data: ["foo": ["bar": ["baz": "partial"]]], partials: ["partial": "*{{text}}*"]),
    Case(
      name: "dotted names, context stacking", template: "{{#section1}}{{>*dynamic}}{{/section1}}",
      data: ["section1": ["dynamic": "partial"], "dynamic": "missing"], partials: ["partial": "hello"]),
    Case(
      name: "dotted names, context stacking under repetition", template: "{{#value}}{{>*dynamic}}{{/value}}",
      data: ["value": "test", "dynamic": "partial"], partials: ["partial": "{{value}}"]),
    Case(
      name: "dotted names, context stacking failed lookup",
      template: "{{#section1}}{{>*dynamic}}{{/section1}}",
      data: ["section1": ["dynamic": "missing"]], partials: ["partial": "hello"]),
    Case(
      name: "recursion", template: "{{>*template}}",
      data: [
        "template": "node", "content": "X",
        "nodes": [["content": "Y", "nodes": [[String: Any]]()] as [String: Any]],
      ],
      partials: ["node": "{{content}}<{{#nodes}}{{>*template}}{{/nodes}}>"]),
    Case(
      name: "surrounding whitespace", template: "| {{>*partial}} |", data: ["partial": "partial"],
      partials: ["partial": "\t|\t"]),
    Case(
      name: "inline indentation", template: "  {{data}}  {{>*dynamic}}\n",
      data: ["dynamic": "partial", "data": "|"], partials: ["partial": ">\n>"]),
    Case(
      name: "standalone line endings", template: "|\r\n{{>*dynamic}}\r\n|", data: ["dynamic": "partial"],
      partials: ["partial": ">"]),
    Case(
      name: "standalone without previous line", template: "  {{>*dynamic}}\n>", data: ["dynamic": "partial"],
      partials: ["partial": ">\n>"]),
    Case(
      name: "standalone without newline", template: ">\n  {{>*dynamic}}", data: ["dynamic": "partial"],
      partials: ["partial": ">\n>"]),
    Case(
      name: "standalone indentation", template: "\\\n {{>*dynamic}}\n/\n",
      data: ["dynamic": "partial", "content": "<\n->"], partials: ["partial": "|\n{{{content}}}\n|\n"]),
    Case(
      name: "padding whitespace", template: "|{{>* dynamic }}|",
      data: ["dynamic": "partial", "boolean": true],
      partials: ["partial": "[]"]),
    Case(
      name: "a name that is not text", template: "[{{>*number}}{{>*list}}{{>*missing}}]",
      data: ["number": 1, "list": ["partial"]], partials: ["partial": "P", "1": "one"]),
    Case(
      name: "a dynamic parent",
      template: "{{<*dynamic}}{{$block}}mine {{x}}{{/block}}{{/*dynamic}}|{{<*missing}}{{/*missing}}",
      data: ["dynamic": "parent", "x": "<"], partials: ["parent": "[{{$block}}theirs{{/block}}]"]),
    Case(
      name: "a dynamic parent standing alone",
      template: "a\n  {{<*dynamic}}\n  {{$b}}\n  mine\n  {{/b}}\n  {{/*dynamic}}\nz",
      data: ["dynamic": "parent"], partials: ["parent": "<\n{{$b}}default{{/b}}\n>\n"]),
  ]

  static let interpolation: [Case] = [
    Case(name: "null", template: "I ({{cannot}}) be seen!", data: ["cannot": NSNull()]),
    Case(name: "triple mustache null", template: "I ({{{cannot}}}) be seen!", data: ["cannot": NSNull()]),
    Case(name: "ampersand null", template: "I ({{&cannot}}) be seen!", data: ["cannot": NSNull()]),
    Case(
      name: "triple mustache integer", template: "\"{{{mustache}}} miles an hour!\"", data: ["mustache": 85]),
    Case(name: "ampersand decimal", template: "\"{{&power}} jiggawatts!\"", data: ["power": 1.21]),
    Case(name: "triple mustache context miss", template: "I ({{{cannot}}}) be seen!"),
    Case(
      name: "dotted names, triple mustache and ampersand", template: "{{{person.name}}} {{&person.name}}",
      data: ["person": ["name": "Joe & <Co>"]]),
    Case(
      name: "dotted names, integer", template: "\"{{a.b.c}}\" == \"85\"", data: ["a": ["b": ["c": 85]]]),
    Case(name: "dotted names are never single keys", template: "{{a.b}}", data: ["a.b": "c"]),
    Case(name: "dotted names, no masking", template: "{{a.b}}", data: ["a.b": "c", "a": ["b": "d"]]),
    Case(name: "implicit iterator, basic", template: "Hello, {{.}}!\n", data: "world"),
    Case(name: "implicit iterator, HTML escaping", template: "{{.}} {{{.}}} {{&.}}", data: "& \" < >"),
    Case(name: "implicit iterator, integer", template: "\"{{.}} miles an hour!\"", data: 85),
    Case(name: "triple mustache, standalone", template: "  {{{string}}}\n", data: ["string": "---"]),
    Case(name: "ampersand, standalone", template: "  {{&string}}\n", data: ["string": "---"]),
    Case(
      name: "triple mustache, surrounding whitespace", template: "| {{{string}}} |", data: ["string": "-"]),
    Case(
      name: "the five characters escaped", template: "{{text}}", data: ["text": "<a href=\"x\">'&amp;'</a>"]),
    Case(name: "an empty name", template: "[{{}}][{{ }}]", data: "root"),
    // Printing `{{..}}` or `{{.a}}` here would print an object, which
    // swift-mustache writes as Swift's description and pages never do
    // (`ObjectTags`, and `TemplateRoundFourTests`): open them instead.
    Case(
      name: "a name of dots", template: "[{{#..}}{{a.b}}{{/..}}][{{a..b}}][{{#.a}}{{b}}{{/.a}}]",
      data: ["a": ["b": "ab"]]),
  ]

  static let sections: [Case] = [
    Case(
      name: "null is falsey", template: "\"{{#null}}This should not be rendered.{{/null}}\"",
      data: ["null": NSNull()]),
    Case(
      name: "implicit iterator, root-level", template: "\"{{#.}}({{value}}){{/.}}\"",
      data: [["value": "a"], ["value": "b"]]),
    Case(
      name: "implicit iterator, integer and decimal",
      template: "{{#ints}}({{.}}){{/ints}}{{#doubles}}({{.}}){{/doubles}}",
      data: ["ints": [1, 2, 3], "doubles": [1.1, 2.2]]),
    Case(
      name: "implicit iterator, root-level list of lists", template: "{{#.}}[{{#.}}{{.}}{{/.}}]{{/.}}",
      data: [["a", "b"], ["c"]]),
    Case(
      name: "dotted names, context precedence",
      template: "{{#a}}{{#b}}{{c}}{{/b}}{{/a}}", data: ["a": ["b": [String: Any]()], "b": ["c": "ERROR"]]),
    Case(
      name: "list of NSNull and optionals", template: "{{#items}}[{{.}}]{{/items}}",
      data: ["items": [NSNull(), "x", 1] as [Any]]),
    Case(
      name: "a section's standalone lines with tabs and carriage returns",
      template: " \t{{#boolean}}\t \r\n#\n{{/boolean}}\r\n{{^boolean}}\rx\n{{/boolean}}\n",
      data: ["boolean": true]),
    Case(
      name: "transforms on the root and in sequences",
      template:
        "{{#items}}{{index()}}{{#first()}}^{{/first()}}{{#last()}}${{/last()}}{{#even()}}e{{/even()}}{{plusone(index())}} {{/items}}{{count(items)}}",
      data: ["items": ["a", "b", "c"]]),
  ]

  static let comments: [Case] = [
    Case(
      name: "variable name collision", template: "comments never show: >{{! comment }}<",
      data: ["! comment": 1, "! comment ": 2, "!comment": 3, "comment": 4]),
    Case(name: "a comment with braces", template: "a{{! { } {{ }b{{!}}c"),
    Case(
      name: "multiline indented standalone",
      template: "Begin.\n  {{!\n    Something's going on here...\n  }}\nEnd.\n"),
  ]

  static let partials: [Case] = [
    Case(
      name: "recursion", template: "{{>node}}",
      data: ["content": "X", "nodes": [["content": "Y", "nodes": [[String: Any]]()] as [String: Any]]],
      partials: ["node": "{{content}}<{{#nodes}}{{>node}}{{/nodes}}>"]),
    Case(name: "failed lookup", template: "\"{{>text}}\""),
    Case(
      name: "nested standalone indentation", template: "a\n  {{>outer}}\nz\n",
      data: ["x": "X\nY"], partials: ["outer": "o1\n  {{>inner}}\no2\n", "inner": "i1\n{{x}}\ni2\n"]),
    Case(
      name: "a partial's content type is its own", template: "{{%CONTENT_TYPE:TEXT}}{{x}}{{>p}}{{x}}",
      data: ["x": "<"], partials: ["p": "[{{x}}]"]),
    Case(
      name: "names with slashes and dots", template: "{{>a/b}}{{> c.d }}",
      partials: ["a/b": "ab", "c.d": "cd"]),
  ]

  static let inheritance: [Case] = [
    Case(
      name: "recursion", template: "{{<parent}}{{$foo}}override{{/foo}}{{/parent}}",
      partials: [
        "parent": "{{$foo}}default content{{/foo}} {{$bar}}{{<parent2}}{{/parent2}}{{/bar}}",
        "parent2":
          "{{$foo}}parent2 default content{{/foo}} {{<parent}}{{$bar}}don't recurse{{/bar}}{{/parent}}",
      ]),
    Case(
      name: "inheritance with a comment and delimiters inside the parent",
      template: "{{<parent}}{{! c }}\n{{$a}}A{{/a}}\n{{/parent}}",
      partials: ["parent": "[{{$a}}{{/a}}]"]),
    Case(
      name: "a block with a section", template: "{{<parent}}{{$a}}{{#list}}<{{.}}>{{/list}}{{/a}}{{/parent}}",
      data: ["list": ["x", "y"]], partials: ["parent": "{{$a}}{{/a}}"]),
    Case(
      name: "a parent inside a block",
      template: "{{<outer}}{{$a}}{{<inner}}{{$b}}B{{/b}}{{/inner}}{{/a}}{{/outer}}",
      partials: ["outer": "({{$a}}-{{/a}})", "inner": "[{{$b}}-{{/b}}]"]),
    Case(
      name: "the same block twice in a parent", template: "{{<p}}{{$a}}one{{/a}}{{$a}}two{{/a}}{{/p}}",
      partials: ["p": "{{$a}}{{/a}}"]),
    Case(
      name: "a block's indentation inside a section",
      template: "{{<p}}\n  {{$a}}\n    x\n    {{#t}}\n      y\n    {{/t}}\n  {{/a}}\n{{/p}}\n",
      data: ["t": true],
      partials: ["p": "<\n    {{$a}}\n    {{/a}}\n>\n"]),
  ]

  /// What swift-mustache writes and what `MustacheParser` and
  /// `CompiledRenderer` write, for one case.
  static func both(_ spec: Case) throws -> (mustache: String, ours: String) {
    var library = MustacheLibrary()
    var templates: [String: CompiledTemplate] = [:]
    for (name, text) in spec.partials {
      library.register(try MustacheTemplate(string: text), named: name)
      templates[name] = try MustacheParser.parse(text)
    }
    let mustache = try MustacheTemplate(string: spec.template).render(spec.data, library: library)
    var renderer = CompiledRenderer(templates: templates)
    let bytes = renderer.render(try MustacheParser.parse(spec.template), object: spec.data)
    return (mustache, String(decoding: bytes, as: UTF8.self))
  }

  @Test(arguments: cases)
  func rendersAsMustacheDoes(_ spec: Case) throws {
    let (mustache, ours) = try Self.both(spec)
    #expect(ours == mustache)
  }

  /// A partial that names itself through a value, or a parent whose block
  /// holds the parent again, never ends in swift-mustache (its stack
  /// overflows); here it stops after `CompiledRenderer.maxPartialDepth`
  /// partials, having written what came before, and says so (`endless`).
  @Test func endlessPartialsStop() throws {
    let templates = [
      "self": try MustacheParser.parse("x{{>*me}}"),
      "outer": try MustacheParser.parse("({{$a}}-{{/a}})"),
      "inner": try MustacheParser.parse("[{{$a}}?{{/a}}]"),
    ]
    var renderer = CompiledRenderer(templates: templates)
    let dynamic = renderer.render(try MustacheParser.parse("{{>self}}"), object: ["me": "self"])
    #expect(dynamic == Array(repeating: UInt8(ascii: "x"), count: CompiledRenderer.maxPartialDepth))
    #expect(renderer.endless?.prefix(3) == ["self", "self", "self"])
    let blocks = renderer.render(
      try MustacheParser.parse("{{<outer}}{{$a}}{{<inner}}{{/inner}}{{/a}}{{/outer}}"), object: [:])
    #expect(blocks.count >= CompiledRenderer.maxPartialDepth / 2)
    #expect(renderer.endless != nil)
  }

  /// The whole specification the other suite holds, through this harness too.
  @Test func theOtherSuitesCasesToo() throws {
    for spec in CompiledRendererSpecTests.cases {
      let (mustache, ours) = try Self.both(
        Case(name: spec.name, template: spec.template, data: spec.data, partials: spec.partials))
      #expect(ours == mustache, "\(spec.name)")
    }
  }
}
