import Foundation
import Testing

@testable import GenerateKit

/// Every template is rendered by `CompiledRenderer`; what `--verbose` names
/// is each page template whose tags found a value read through
/// swift-mustache's protocols (the slow path), with the tag and the type.
@Suite struct GenericReadsTests {
  @Test func aValueOfAnotherTypeIsNamedWithItsTagAndTemplate() throws {
    let set = try CompiledRendererTests.templateSet([
      "main": "<p>{{name}} {{price}}</p>{{> row}}",
      "row": "{{#tags}}[{{.}}]{{/tags}}{{^missing}}-{{/missing}}",
    ])
    let object: [String: Any] = ["name": "Ada", "price": 2.5, "tags": Set(["x"])]
    let (mustache, compiled) = try CompiledRendererTests.both(set, object)
    #expect(compiled == mustache)
    let reads = set.genericReads.reads
    #expect(reads.map(\.template) == ["main"])
    #expect(
      reads.first?.reads == [
        GenericReads.Read(tag: "price", type: "Double"), GenericReads.Read(tag: "tags", type: "Set<String>"),
      ])
    let lines = set.genericReads.lines(templateCount: 2)
    #expect(
      lines == [
        "template main: {{price}} found a Double, {{tags}} found a Set<String>: read through swift-mustache's protocols (the same bytes, more slowly), not a type pages are made of"
      ])
  }

  @Test func valuesOfThePagesOwnTypesAreNotNamed() throws {
    let set = try CompiledRendererTests.templateSet([
      "main": "{{name}} {{#items}}{{label}}{{/items}} {{#flag}}yes{{/flag}} {{count}} {{texts.k}}"
    ])
    let object: [String: Any] = [
      "name": "Ada", "items": [["label": "a"]] as [[String: Any]], "flag": true, "count": 3,
      "texts": ["k": "v"] as [String: String],
    ]
    #expect(set.render(object, withTemplate: "main") == Array("Ada a yes 3 v".utf8))
    #expect(set.genericReads.reads.isEmpty)
    #expect(set.genericReads.lines(templateCount: 1).first?.contains("no value read through") == true)
  }

  /// `reversed` over the lists pages hold (records, dictionaries, text)
  /// is read as those lists are, not through the protocols: in a section,
  /// inverted, under further transforms and written as a value, as
  /// swift-mustache writes it.
  @Test func reversedListsAreNotNamed() throws {
    let set = try CompiledRendererTests.templateSet([
      "main": """
      {{#reversed(items)}}[{{label}}{{#first()}}F{{/first()}}{{#last()}}L{{/last()}}{{index()}}]{{/reversed(items)}}\
      {{#reversed(texts)}}<{{.}}>{{/reversed(texts)}}{{#reversed(mixed)}}({{.}}){{/reversed(mixed)}}\
      {{^reversed(none)}}none{{/reversed(none)}}{{^reversed(items)}}never{{/reversed(items)}}\
      {{count(reversed(items))}} {{first(reversed(texts))}} {{last(reversed(texts))}} \
      {{#empty(reversed(none))}}E{{/empty(reversed(none))}} {{#sorted(reversed(texts))}}{{.}},{{/sorted(reversed(texts))}} \
      {{#reversed(reversed(texts))}}{{.}};{{/reversed(reversed(texts))}} \
      {{#reversed(record.rows)}}{{title}}/{{/reversed(record.rows)}}{{uppercased(first(reversed(texts)))}}
      """
    ])
    let object: [String: Any] = [
      "items": [["label": "a"], ["label": "b<"], ["label": "c"]] as [[String: Any]],
      "texts": ["x", "z&", "y"], "mixed": ["one", 2, true] as [Any], "none": [[String: Any]](),
      "record": ["rows": [["title": "r1"], ["title": "r2"]] as [[String: Any]]] as [String: Any],
    ]
    let (mustache, compiled) = try CompiledRendererTests.both(set, object)
    #expect(compiled.map { String(decoding: $0, as: UTF8.self) } == String(decoding: mustache, as: UTF8.self))
    #expect(String(decoding: mustache, as: UTF8.self).hasPrefix("[cF0][b&lt;1][aL2]<y><z&amp;><x>"))
    #expect(set.genericReads.reads.isEmpty, "\(set.genericReads.reads)")
    // Written as a value, as swift-mustache describes it (the same bytes,
    // read through the protocols).
    let written = try CompiledRendererTests.templateSet(["main": "{{reversed(texts)}}"])
    let pair = try CompiledRendererTests.both(written, object)
    #expect(pair.compiled == pair.mustache)
  }

  /// A whole build with `--verbose` says, under "Rendering pages", that no
  /// template took the slow path: the theme's and a user's own templates.
  @Test func aVerboseBuildSaysNoTemplateFallsBack() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let lines = Lines()
    var builder = SiteBuilder(options: project.options(), log: lines.append)
    builder.verbose = true
    _ = try builder.build()
    let logged = lines.all
    let rendering = try #require(logged.firstIndex { $0.contains("Rendering pages") })
    let line = try #require(logged.first { $0.contains("every page rendered by the compiled renderer") })
    #expect(line.contains("no value read through swift-mustache's protocols"))
    #expect(!logged.contains { $0.contains("read through swift-mustache's protocols (the same bytes") })
    #expect((logged.firstIndex(of: line) ?? -1) > rendering)
  }
}
