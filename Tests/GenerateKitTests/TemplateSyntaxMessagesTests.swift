import Foundation
import Testing

@testable import GenerateKit

/// Malformed templates as people write them, each with the message they
/// should get, written before the messages were: the place is the tag's
/// (its start delimiter), the message says what was expected there and
/// what was found instead.
@Suite struct TemplateSyntaxMessagesTests {
  static let noNames = "names hold ASCII letters, digits and . - _ ? *"

  static let cases: [(template: String, message: String)] = [
    (
      "<p>{{name</p>\n",
      "1:4: error: template syntax: tag is not closed: expected '}}' after '{{name', found '</'; '<' cannot be part of a name (\(noNames))"
    ),
    (
      "<ul>{{#items}}<li>{{.}}</li>\n</ul>\n",
      "1:5: error: template syntax: section 'items' is never closed: expected '{{/items}}' before the end of the template"
    ),
    (
      "{{#items}}\n  {{#tags}}\n  {{/tags}}\n",
      "1:1: error: template syntax: section 'items' is never closed: expected '{{/items}}' before the end of the template"
    ),
    (
      "{{#a}}x{{/b}}",
      "1:8: error: template syntax: section closed with a different name than it was opened with: 'a' is closed as 'b' (opened at line 1, column 1): write {{/a}} to close it"
    ),
    (
      "{{#a}}{{#b}}{{/a}}",
      "1:13: error: template syntax: section closed with a different name than it was opened with: 'b' is closed as 'a' (opened at line 1, column 7): write {{/b}} to close it"
    ),
    (
      "{{#first(items)}}x{{/items}}",
      "1:19: error: template syntax: section closed with a different name than it was opened with: 'first(items)' is closed as 'items' (opened at line 1, column 1): write {{/first(items)}} to close it"
    ),
    ("x {{/a}}", "1:3: error: template syntax: 'a' is closed but was never opened"),
    (
      "<p>\n{{! a note\n",
      "2:1: error: template syntax: comment is never closed: expected '}}' before the end of the template"
    ),
    (
      "{{=<% %>}}",
      "1:1: error: template syntax: invalid set-delimiter tag: write the two new delimiters between '=' signs, apart, as {{=<% %>=}}"
    ),
    (
      "{{=<%%>=}}",
      "1:1: error: template syntax: invalid set-delimiter tag: write the two new delimiters between '=' signs, apart, as {{=<% %>=}}"
    ),
    (
      "{{=<% %>=}}\n<p><% name }}</p>",
      "2:4: error: template syntax: tag is not closed: expected '%>' after '<% name', found '}}'; '}' cannot be part of a name (\(noNames)) (the delimiters are '<% %>' since the set-delimiter tag at line 1, column 1)"
    ),
    (
      "{{{name}}",
      "1:1: error: template syntax: tag is not closed: expected '}}}' after '{{{name', found '}}' and the end of the template"
    ),
    (
      "{{name}",
      "1:1: error: template syntax: tag is not closed: expected '}}' after '{{name', found '}' and the end of the template"
    ),
    (
      "{{first name}}",
      "1:1: error: template syntax: tag is not closed: expected '}}' after '{{first', found 'name'; a name holds no spaces"
    ),
    (
      "{{name!}}",
      "1:1: error: template syntax: tag is not closed: expected '}}' after '{{name', found '!}'; '!' cannot be part of a name (\(noNames))"
    ),
    (
      "a {{first(items}}",
      "1:3: error: template syntax: 'first(items' is not a name or a function call like first(items): a ')' is missing"
    ),
    (
      "a {{first(items))}}",
      "1:3: error: template syntax: 'first(items))' is not a name or a function call like first(items): there is one ')' too many"
    ),
    (
      "<h1>{{naïve}}</h1>",
      "1:5: error: template syntax: 'ï' cannot be part of a name: \(noNames) (give the value an ASCII name under the collection's fields:)"
    ),
    (
      "{{<layout}}\n<p>{{title}}</p>\n{{/layout}}\n",
      "1:1: error: template syntax: parent 'layout' may hold only blocks ({{$name}}…{{/name}}) and text"
    ),
    (
      "{{% FOO: BAR}}",
      "1:1: error: template syntax: unknown pragma 'FOO: BAR' (known: CONTENT_TYPE: HTML and CONTENT_TYPE: TEXT)"
    ),
    (
      "{{$first(x)}}{{/first(x)}}",
      "1:1: error: template syntax: block 'first(x)' cannot apply a function: a block's name is a plain name, as in {{$title}}"
    ),
    ("<p>{{> }}</p>", "1:4: error: template syntax: the partial tag names no partial: write {{> name}}"),
    // A function given two values, as Hugo's and Jekyll's take them.
    (
      "<p>{{count(tracks, albums)}}</p>",
      "1:4: error: template syntax: tag is not closed: expected '}}' after '{{count(tracks', found ', '; a function takes one value, as in count(tracks); to apply two, nest them: plusone(count(tracks))"
    ),
  ]

  @Test func eachMalformedTemplateSaysWhereWhatWasExpectedAndWhatWasFound() throws {
    #expect(Self.cases.count >= 15)
    for (template, message) in Self.cases {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "syntax-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      try Data(template.utf8).write(to: folder.appendingPathComponent("page.mustache"))
      let error = try #require(throws: DiagnosticsError.self, "\(template.debugDescription)") {
        try TemplateSet.load(directories: [folder.path], builtIn: true)
      }
      let shown = error.diagnostics.map(\.description)
      #expect(shown.count == 1, "\(template.debugDescription): \(shown)")
      #expect(
        shown.first?.hasSuffix("page.mustache:" + message) == true, "\(template.debugDescription)\n\(shown)")
    }
  }

  /// A triple mustache under changed delimiters is written `<%{name}%>`,
  /// as the specification and other Mustache implementations write it; the
  /// form swift-mustache reads, `<%{name%>}`, still works.
  @Test func aTripleMustacheUnderChangedDelimiters() throws {
    var renderer = CompiledRenderer(templates: [:])
    for text in ["{{=<% %>=}}<%{name}%>", "{{=<% %>=}}<%{name%>}", "{{{name}}}", "{{=<% %>=}}<%{ name }%>"] {
      let template = try MustacheParser.parse(text)
      #expect(renderer.render(template, object: ["name": "<b>"]) == Array("<b>".utf8), "\(text)")
    }
  }
}
