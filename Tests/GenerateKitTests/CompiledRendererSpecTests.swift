import Foundation
import Testing

@testable import GenerateKit

/// Cases from the Mustache specification (interpolation, sections,
/// inverted sections, comments, partials, inheritance), written out here
/// so no network is needed, rendered by the compiled renderer and by
/// swift-mustache: the bytes must be the same. What is compared is
/// swift-mustache's output, not the specification's expected text —
/// where the two disagree, pages must still come out as they did.
@Suite struct CompiledRendererSpecTests {
  /// Its data is `[String: Any]`, read only.
  struct Case: CustomStringConvertible, @unchecked Sendable {
    var name: String
    var template: String
    var data: [String: Any] = [:]
    var partials: [String: String] = [:]
    var description: String { name }
  }

  static let cases: [Case] = interpolation + sections + inverted + comments + partials + inheritance

  static let interpolation: [Case] = [
    Case(name: "no interpolation", template: "Hello from {Mustache}!\n"),
    Case(name: "basic", template: "Hello, {{subject}}!\n", data: ["subject": "world"]),
    Case(
      name: "HTML escaping", template: "These characters should be HTML escaped: {{forbidden}}\n",
      data: ["forbidden": "& \" < >"]),
    Case(
      name: "triple mustache", template: "Not escaped: {{{forbidden}}}\n", data: ["forbidden": "& \" < >"]),
    Case(name: "ampersand", template: "Not escaped: {{&forbidden}}\n", data: ["forbidden": "& \" < >"]),
    Case(name: "integer", template: "\"{{mustache}} miles an hour!\"", data: ["mustache": 85]),
    Case(name: "decimal", template: "\"{{power}} jiggawatts!\"", data: ["power": 1.21]),
    Case(name: "context miss", template: "I ({{cannot}}) be seen!"),
    Case(
      name: "dotted names", template: "\"{{person.name}}\" == \"{{#person}}{{name}}{{/person}}\"",
      data: ["person": ["name": "Joe"] as [String: Any]]),
    Case(
      name: "dotted names, arbitrary depth", template: "\"{{a.b.c.d.e.name}}\" == \"Phil\"",
      data: nest(["a", "b", "c", "d", "e"], ["name": "Phil"])),
    Case(
      name: "dotted names, broken chains", template: "\"{{a.b.c}}\" == \"\"", data: ["a": [String: Any]()]),
    Case(
      name: "dotted names, broken chain resolution", template: "\"{{a.b.c.name}}\" == \"\"",
      data: ["a": ["b": [String: Any]()] as [String: Any], "c": ["name": "Jim"] as [String: Any]]),
    Case(
      name: "dotted names, initial resolution", template: "\"{{#a}}{{b.c.d.e.name}}{{/a}}\" == \"Phil\"",
      data: [
        "a": nest(["b", "c", "d", "e"], ["name": "Phil"]), "b": nest(["c", "d", "e"], ["name": "Wrong"]),
      ]),
    Case(
      name: "dotted names, context precedence", template: "{{#a}}{{b.c}}{{/a}}",
      data: ["a": ["b": [String: Any]()] as [String: Any], "b": ["c": "ERROR"] as [String: Any]]),
    Case(name: "surrounding whitespace", template: "| {{string}} |", data: ["string": "---"]),
    Case(name: "standalone", template: "  {{string}}\n", data: ["string": "---"]),
    Case(name: "padding", template: "|{{ string }}|{{& string }}|{{{ string }}}|", data: ["string": "---"]),
  ]

  static let sections: [Case] = [
    Case(
      name: "truthy", template: "\"{{#boolean}}This should be rendered.{{/boolean}}\"",
      data: ["boolean": true]),
    Case(
      name: "falsey", template: "\"{{#boolean}}This should not be rendered.{{/boolean}}\"",
      data: ["boolean": false]),
    Case(
      name: "context", template: "\"{{#context}}Hi {{name}}.{{/context}}\"",
      data: ["context": ["name": "Joe"]]),
    Case(
      name: "parent contexts", template: "\"{{#sec}}{{a}}, {{b}}, {{c.d}}{{/sec}}\"",
      data: ["a": "foo", "b": "wrong", "sec": ["b": "bar"], "c": ["d": "baz"]]),
    Case(name: "variable test", template: "\"{{#foo}}{{.}} is {{foo}}{{/foo}}\"", data: ["foo": "bar"]),
    Case(
      name: "list contexts",
      template:
        "{{#tops}}{{#middles}}{{tname.lower}}{{mname}}.{{#bottoms}}{{tname.upper}}{{mname}}{{bname}}.{{/bottoms}}{{/middles}}{{/tops}}",
      data: [
        "tops": [
          [
            "tname": ["upper": "A", "lower": "a"],
            "middles": [["mname": "1", "bottoms": [["bname": "x"], ["bname": "y"]]] as [String: Any]],
          ] as [String: Any]
        ]
      ]),
    Case(
      name: "deeply nested contexts",
      template:
        "{{#a}}\n{{one}}\n{{#b}}\n{{one}}{{two}}{{one}}\n{{#c}}\n{{one}}{{two}}{{three}}{{two}}{{one}}\n{{/c}}\n{{/b}}\n{{/a}}\n",
      data: ["a": ["one": 1], "b": ["two": 2], "c": ["three": 3]]),
    Case(
      name: "list", template: "\"{{#list}}{{item}}{{/list}}\"",
      data: ["list": [["item": 1], ["item": 2], ["item": 3]]]),
    Case(name: "empty list", template: "\"{{#list}}Yay lists!{{/list}}\"", data: ["list": [[String: Any]]()]),
    Case(
      name: "doubled", template: "{{#bool}}\n* first\n{{/bool}}\n* {{two}}\n{{#bool}}\n* third\n{{/bool}}\n",
      data: ["bool": true, "two": "second"]),
    Case(
      name: "nested (truthy)", template: "| A {{#bool}}B {{#bool}}C{{/bool}} D{{/bool}} E |",
      data: ["bool": true]),
    Case(
      name: "nested (falsey)", template: "| A {{#bool}}B {{#bool}}C{{/bool}} D{{/bool}} E |",
      data: ["bool": false]),
    Case(name: "context misses", template: "[{{#missing}}Found key 'missing'!{{/missing}}]"),
    Case(
      name: "implicit iterator, string", template: "\"{{#list}}({{.}}){{/list}}\"",
      data: ["list": ["a", "b", "c", "d", "e"]]),
    Case(
      name: "implicit iterator, integer", template: "\"{{#list}}({{.}}){{/list}}\"",
      data: ["list": [1, 2, 3, 4, 5]]
    ),
    Case(
      name: "implicit iterator, decimal", template: "\"{{#list}}({{.}}){{/list}}\"",
      data: ["list": [1.1, 2.2, 3.3, 4.4, 5.5]]),
    Case(
      name: "implicit iterator, array", template: "\"{{#list}}({{#.}}{{.}}{{/.}}){{/list}}\"",
      data: ["list": [[1, 2, 3], ["a", "b", "c"]] as [Any]]),
    Case(
      name: "implicit iterator, HTML escaping", template: "\"{{#list}}({{.}}){{/list}}\"",
      data: ["list": ["&", "\"", "<", ">"]]),
    Case(
      name: "the current object as a section", template: "\"{{#.}}({{value}}){{/.}}\"",
      data: ["value": "x"]),
    Case(
      name: "dotted names, truthy", template: "\"{{#a.b.c}}Here{{/a.b.c}}\" == \"Here\"",
      data: ["a": ["b": ["c": true]]]),
    Case(
      name: "dotted names, falsey", template: "\"{{#a.b.c}}Here{{/a.b.c}}\" == \"\"",
      data: ["a": ["b": ["c": false]]]),
    Case(
      name: "dotted names, broken chains", template: "\"{{#a.b.c}}Here{{/a.b.c}}\" == \"\"",
      data: ["a": [:] as [String: Any]]),
    Case(
      name: "surrounding whitespace", template: " | {{#boolean}}\t|\t{{/boolean}} | \n",
      data: ["boolean": true]),
    Case(
      name: "internal whitespace",
      template: " | {{#boolean}} {{! Important Whitespace }}\n {{/boolean}} | \n",
      data: ["boolean": true]),
    Case(
      name: "indented inline sections",
      template: " {{#boolean}}YES{{/boolean}}\n {{#boolean}}GOOD{{/boolean}}\n",
      data: ["boolean": true]),
    Case(
      name: "standalone lines", template: "| This Is\n{{#boolean}}\n|\n{{/boolean}}\n| A Line\n",
      data: ["boolean": true]),
    Case(
      name: "indented standalone lines", template: "| This Is\n  {{#boolean}}\n|\n  {{/boolean}}\n| A Line\n",
      data: ["boolean": true]),
    Case(
      name: "standalone line endings", template: "|\r\n{{#boolean}}\r\n{{/boolean}}\r\n|",
      data: ["boolean": true]),
    Case(
      name: "standalone without previous line", template: "  {{#boolean}}\n#{{/boolean}}\n/",
      data: ["boolean": true]),
    Case(
      name: "standalone without newline", template: "#{{#boolean}}\n/\n  {{/boolean}}",
      data: ["boolean": true]),
    Case(name: "padding", template: "|{{# boolean }}={{/ boolean }}|", data: ["boolean": true]),
  ]

  static let inverted: [Case] = [
    Case(
      name: "falsey", template: "\"{{^boolean}}This should be rendered.{{/boolean}}\"",
      data: ["boolean": false]),
    Case(
      name: "truthy", template: "\"{{^boolean}}This should not be rendered.{{/boolean}}\"",
      data: ["boolean": true]),
    Case(
      name: "context", template: "\"{{^context}}Hi {{name}}.{{/context}}\"",
      data: ["context": ["name": "Joe"]]),
    Case(
      name: "list", template: "\"{{^list}}{{n}}{{/list}}\"", data: ["list": [["n": 1], ["n": 2], ["n": 3]]]),
    Case(name: "empty list", template: "\"{{^list}}Yay lists!{{/list}}\"", data: ["list": [[String: Any]]()]),
    Case(
      name: "doubled", template: "{{^bool}}\n* first\n{{/bool}}\n* {{two}}\n{{^bool}}\n* third\n{{/bool}}\n",
      data: ["bool": false, "two": "second"]),
    Case(name: "context misses", template: "[{{^missing}}Found key 'missing'!{{/missing}}]"),
    Case(
      name: "dotted names, falsey", template: "\"{{^a.b.c}}Not Here{{/a.b.c}}\"",
      data: ["a": ["b": ["c": false]]]),
    Case(
      name: "dotted names, broken", template: "\"{{^a.b.c}}Not Here{{/a.b.c}}\"",
      data: ["a": [:] as [String: Any]]),
    Case(
      name: "standalone lines", template: "| This Is\n{{^boolean}}\n|\n{{/boolean}}\n| A Line\n",
      data: ["boolean": false]),
    Case(
      name: "standalone indented lines", template: "| This Is\n  {{^boolean}}\n|\n  {{/boolean}}\n| A Line\n",
      data: ["boolean": false]),
    Case(
      name: "standalone line endings", template: "|\r\n{{^boolean}}\r\n{{/boolean}}\r\n|",
      data: ["boolean": false]),
    Case(name: "padding", template: "|{{^ boolean }}={{/ boolean }}|", data: ["boolean": false]),
  ]

  static let comments: [Case] = [
    Case(name: "inline", template: "12345{{! Comment Block! }}67890"),
    Case(name: "multiline", template: "12345{{!\n  This is a\n  multi-line comment...\n}}67890\n"),
    Case(name: "standalone", template: "Begin.\n{{! Comment Block! }}\nEnd.\n"),
    Case(name: "indented standalone", template: "Begin.\n  {{! Indented Comment Block! }}\nEnd.\n"),
    Case(name: "standalone line endings", template: "|\r\n{{! Standalone Comment }}\r\n|"),
    Case(name: "standalone without previous line", template: "  {{! I'm Still Standalone }}\n!"),
    Case(name: "standalone without newline", template: "!\n  {{! I'm Still Standalone }}"),
    Case(name: "multiline standalone", template: "Begin.\n{{!\nSomething's going on here...\n}}\nEnd.\n"),
    Case(
      name: "indented multiline standalone",
      template: "Begin.\n  {{!\n    Something's going on here...\n  }}\nEnd.\n"),
    Case(name: "indented inline", template: "  12 {{! 34 }}\n"),
    Case(name: "surrounding whitespace", template: "12345 {{! Comment Block! }} 67890"),
  ]

  static let partials: [Case] = [
    Case(name: "basic", template: "\"{{>text}}\"", partials: ["text": "from partial"]),
    Case(
      name: "context", template: "\"{{>partial}}\"", data: ["text": "content"],
      partials: ["partial": "*{{text}}*"]),
    Case(
      name: "nested", template: "{{>outer}}", data: ["a": "hello", "b": "world"],
      partials: ["outer": "*{{a}} {{>inner}}*", "inner": "{{b}}!"]),
    Case(name: "surrounding whitespace", template: "| {{>partial}} |", partials: ["partial": "\t|\t"]),
    Case(
      name: "inline indentation", template: "  {{data}}  {{> partial}}\n", data: ["data": "|"],
      partials: ["partial": ">\n>"]),
    Case(name: "standalone line endings", template: "|\r\n{{>partial}}\r\n|", partials: ["partial": ">"]),
    Case(
      name: "standalone without previous line", template: "  {{>partial}}\n>", partials: ["partial": ">\n>"]),
    Case(name: "standalone without newline", template: ">\n  {{>partial}}", partials: ["partial": ">\n>"]),
    Case(
      name: "standalone indentation", template: "\\\n {{>partial}}\n/\n", data: ["content": "<\n->"],
      partials: ["partial": "|\n{{{content}}}\n|\n"]),
    Case(
      name: "padding whitespace", template: "|{{> partial }}|", data: ["boolean": true],
      partials: ["partial": "[]"]),
  ]

  static let inheritance: [Case] = [
    Case(name: "default", template: "{{$title}}Default title{{/title}}\n"),
    Case(name: "variable", template: "{{$foo}}default {{bar}} content{{/foo}}\n", data: ["bar": "baz"]),
    Case(
      name: "triple mustache", template: "{{$foo}}default {{{bar}}} content{{/foo}}\n", data: ["bar": "<baz>"]
    ),
    Case(
      name: "sections", template: "{{$foo}}default {{#bar}}{{baz}}{{/bar}} content{{/foo}}\n",
      data: ["bar": ["baz": "qux"]]),
    Case(
      name: "negative sections", template: "{{$foo}}default {{^bar}}{{baz}}{{/bar}} content{{/foo}}\n",
      data: ["baz": "three"]),
    Case(
      name: "mustache injection", template: "{{$foo}}default {{#bar}}{{baz}}{{/bar}} content{{/foo}}\n",
      data: ["bar": ["baz": "{{qux}}"]]),
    Case(
      name: "inherit", template: "{{<include}}{{/include}}",
      partials: ["include": "{{$foo}}default content{{/foo}}"]),
    Case(
      name: "overridden content", template: "{{<super}}{{$title}}sub template title{{/title}}{{/super}}",
      partials: ["super": "...{{$title}}Default title{{/title}}..."]),
    Case(
      name: "data does not override block",
      template: "{{<include}}{{$var}}var in template{{/var}}{{/include}}",
      data: ["var": "var in data"], partials: ["include": "A {{$var}}var in include{{/var}} B"]),
    Case(
      name: "data does not override block default", template: "{{<include}}{{/include}}",
      data: ["var": "var in data"], partials: ["include": "A {{$var}}var in include{{/var}} B"]),
    Case(
      name: "overridden parent",
      template: "test {{<parent}}{{$stuff}}override{{/stuff}}{{/parent}}",
      partials: ["parent": "{{$stuff}}...{{/stuff}}"]),
    Case(
      name: "two overridden parents",
      template:
        "test {{<parent}}{{$stuff}}override1{{/stuff}}{{/parent}} {{<parent}}{{$stuff}}override2{{/stuff}}{{/parent}}\n",
      partials: ["parent": "|{{$stuff}}...{{/stuff}}{{$default}} default{{/default}}|"]),
    Case(
      name: "override parent with newlines",
      template: "{{<parent}}{{$ballmer}}\npeaked\n\n:(\n{{/ballmer}}{{/parent}}",
      partials: ["parent": "{{$ballmer}}peaking{{/ballmer}}"]),
    Case(
      name: "inherit indentation", template: "{{<parent}}{{$nineties}}hammer time{{/nineties}}{{/parent}}",
      partials: ["parent": "stop:\n  {{$nineties}}collaborate and listen{{/nineties}}\n"]),
    Case(
      name: "only one override",
      template: "{{<parent}}{{$stuff2}}override two{{/stuff2}}{{/parent}}",
      partials: ["parent": "{{$stuff}}new default one{{/stuff}}, {{$stuff2}}new default two{{/stuff2}}"]),
    Case(
      name: "parent template", template: "{{>parent}}|{{<parent}}{{/parent}}",
      partials: ["parent": "{{$foo}}default content{{/foo}}"]),
    Case(
      name: "multi-level inheritance", template: "{{<parent}}{{$a}}c{{/a}}{{/parent}}",
      partials: [
        "parent": "{{<older}}{{$a}}p{{/a}}{{/older}}",
        "older": "{{<grandParent}}{{$a}}o{{/a}}{{/grandParent}}",
        "grandParent": "{{$a}}g{{/a}}",
      ]),
    Case(
      name: "multi-level inheritance, no sub child", template: "{{<parent}}{{/parent}}",
      partials: [
        "parent": "{{<older}}{{$a}}p{{/a}}{{/older}}",
        "older": "{{<grandParent}}{{$a}}o{{/a}}{{/grandParent}}",
        "grandParent": "{{$a}}g{{/a}}",
      ]),
    Case(
      name: "text inside parent",
      template: "{{<parent}} asdfasd {{$foo}}hmm{{/foo}} asdfasdfasdf {{/parent}}",
      partials: ["parent": "{{$foo}}default content{{/foo}}"]),
    Case(
      name: "block scope", template: "{{<parent}}{{$block}}I say {{fruit}}.{{/block}}{{/parent}}",
      data: ["fruit": "apples", "nested": ["fruit": "bananas"]],
      partials: ["parent": "{{#nested}}{{$block}}You say {{fruit}}.{{/block}}{{/nested}}"]),
    Case(
      name: "standalone parent", template: "Hi,\n  {{<parent}}{{/parent}}\n",
      partials: ["parent": "one\ntwo\n"]),
    Case(
      name: "standalone block", template: "{{<parent}}{{$block}}\none\ntwo{{/block}}\n{{/parent}}\n",
      partials: ["parent": "Hi,\n  {{$block}}{{/block}}\n"]),
    Case(
      name: "block reindentation",
      template: "{{<parent}}{{$block}}\n    one\n    two\n{{/block}}\n{{/parent}}\n",
      partials: ["parent": "Hi,\n  {{$block}}\n  {{/block}}\n"]),
    Case(
      name: "intrinsic indentation", template: "{{<parent}}{{$block}}\none\ntwo\n{{/block}}\n{{/parent}}\n",
      partials: ["parent": "Hi,\n{{$block}}\n{{/block}}\n"]),
    Case(
      name: "nested block reindentation",
      template: "{{<parent}}{{$nested}}\nthree\n{{/nested}}\n{{/parent}}\n",
      partials: [
        "parent":
          "{{<grandparent}}{{$block}}\n  one\n  {{$nested}}\n  two\n  {{/nested}}\n{{/block}}{{/grandparent}}\n",
        "grandparent": "{{$block}}default\n{{/block}}\n",
      ]),
  ]

  static func nest(_ names: [String], _ leaf: [String: Any]) -> [String: Any] {
    names.reversed().reduce(leaf) { inner, name in [name: inner] }
  }

  @Test(arguments: cases)
  func rendersAsMustacheDoes(_ spec: Case) throws {
    var templates = spec.partials
    templates["main"] = spec.template
    let set = try CompiledRendererTests.templateSet(templates)
    let (mustache, compiled) = try CompiledRendererTests.both(set, spec.data)
    #expect(compiled != nil, "fell back to swift-mustache")
    #expect(compiled.map { String(decoding: $0, as: UTF8.self) } == String(decoding: mustache, as: UTF8.self))
  }
}
