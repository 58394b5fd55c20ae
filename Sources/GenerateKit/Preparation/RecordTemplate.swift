import Foundation

/// A record's `subtitle:`, `url:` or page path template, rendered as text
/// (no escaping) once per record. Most are text and names (`Song ·
/// {{artistName}}`, `{{album.url}}#track-{{id}}`): those are filled in
/// here, a name at a time from the record's `RecordContext`, as Mustache
/// would fill them — a million records through Mustache cost seconds of
/// dynamic casts. Anything else (sections, a value that is not text)
/// renders through `CompiledRenderer`, which prints a list and a record
/// as these do (`ValueList`, `RecordContext.description`).
struct RecordTemplate {
  /// As the config writes it.
  let text: String
  /// The template as `CompiledRenderer` renders it: text, unescaped.
  let compiled: CompiledTemplate
  /// The template's text and dotted names, when it has nothing else.
  let parts: [Part]?

  enum Part {
    case text(String)
    case name([String])
  }

  init(_ text: String) throws(MustacheParser.SyntaxError) {
    self.text = text
    compiled = try MustacheParser.parse(text, html: false)
    parts = Self.parts(of: text)
  }

  /// Text and `{{name}}` / `{{a.b}}` tags only; nil for anything else,
  /// and for a line break (where Mustache's standalone-line rules apply).
  static func parts(of text: String) -> [Part]? {
    guard !text.contains("{{{"), !text.contains("}}}"), !text.contains("\n"), !text.contains("\r") else {
      return nil
    }
    var parts: [Part] = []
    var rest = Substring(text)
    while let open = rest.range(of: "{{") {
      if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
      guard let close = rest[open.upperBound...].range(of: "}}") else { return nil }
      let name = rest[open.upperBound..<close.lowerBound]
      let segments = name.split(separator: ".", omittingEmptySubsequences: false)
      guard
        segments.allSatisfy({ segment in
          !segment.isEmpty
            && segment.unicodeScalars.allSatisfy {
              $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0))
            }
        })
      else { return nil }
      parts.append(.name(segments.map(String.init)))
      rest = rest[close.upperBound...]
    }
    if !rest.isEmpty { parts.append(.text(String(rest))) }
    return parts
  }

  func render(_ context: RecordContext) -> String {
    guard let parts else { return rendered(context) }
    var text = ""
    for part in parts {
      switch part {
      case .text(let literal): text += literal
      case .name(let path):
        var value: Any? = context
        for name in path {
          if let record = value as? RecordContext {
            value = record.child(named: name)
          } else if let object = value as? ObjectValue {
            value = object.child(named: name)
          } else {
            // A name under text (`title.x`) Mustache looks up by reflection.
            return rendered(context)
          }
          if value == nil || value is NSNull { break }
        }
        guard let value, !(value is NSNull) else { continue }
        if let list = value as? ListText {
          text += list.description
          continue
        }
        if let list = value as? ValueList {
          // A computed list (`distinct(tracks.genre)`, `albums`) reads as
          // "fantasy, comedy", a record by its title, as on a page.
          text += list.description
          continue
        }
        if let record = value as? RecordContext {
          text += record.description
          continue
        }
        guard let string = value as? String else { return rendered(context) }
        text += string
      }
    }
    return text
  }

  /// The whole template rendered (with no partials: a record's template
  /// has none to name).
  func rendered(_ context: RecordContext) -> String {
    var renderer = CompiledRenderer(templates: [:])
    return String(decoding: renderer.render(compiled, object: context), as: UTF8.self)
  }
}
