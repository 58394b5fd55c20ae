import Mustache

/// A Mustache template as swift-mustache parsed it, turned into nodes this
/// module renders itself (`CompiledRenderer`): names split at their dots
/// once, text as UTF-8 bytes, inheritance overrides compiled too.
///
/// swift-mustache stays the parser of record — its whitespace rules are
/// in the tokens it makes — but its tokens are not public, so they are read
/// through `Mirror` once per template, at load. A token this module does
/// not know (a dynamic partial, a content type other than HTML and TEXT, a
/// shape a newer swift-mustache might give them) leaves the template
/// uncompiled, and it renders through swift-mustache as before.
final class CompiledTemplate: @unchecked Sendable {
  let nodes: [Node]

  init(nodes: [Node]) { self.nodes = nodes }

  /// A name as a tag writes it (`a.b`, `.`, `first(items)`), resolved the
  /// way swift-mustache's `getChild` resolves it.
  struct Name {
    enum Kind {
      /// `.`: the current object.
      case current
      /// `first()` and the like: the sequence being iterated.
      case sequence
      /// `.a.b`: from the current object only, no climbing.
      case local([String])
      /// `a.b`: `a` from the nearest object that has it, then `b` in it.
      case stack([String])
    }
    var kind: Kind
    /// Innermost first, as they are applied: `a(b(x))` is `[b, a]`.
    var transforms: [String]
    /// As written, for messages.
    var text: String

    init(_ name: String, transforms: [String]) {
      text = name
      self.transforms = transforms.reversed()
      if name == "." {
        kind = .current
      } else if name.isEmpty, !transforms.isEmpty {
        kind = .sequence
      } else if name.first == "." {
        kind = .local(name.split(separator: ".").map(String.init))
      } else {
        kind = .stack(name.split(separator: ".").map(String.init))
      }
    }
  }

  enum Node {
    case text([UInt8])
    case variable(Name, escaped: Bool)
    case section(Name, CompiledTemplate)
    case inverted(Name, CompiledTemplate)
    /// `{{$name}}…{{/name}}` outside a parent: the override if any, else this.
    case block(String, default: CompiledTemplate, indentation: [UInt8]?)
    /// `{{> name}}`, or `{{< name}}` with its overrides.
    case partial(String, indentation: [UInt8]?, overrides: [String: CompiledTemplate]?)
    /// `{{% CONTENT_TYPE: … }}`: whether what follows is escaped.
    case contentType(html: Bool)
  }

  /// Nil when the template uses what this module does not render.
  static func compile(_ template: MustacheTemplate) -> CompiledTemplate? {
    guard let tokens = field("tokens", of: template) as? [Any] else { return nil }
    var nodes: [Node] = []
    nodes.reserveCapacity(tokens.count)
    for token in tokens {
      guard let node = node(token) else { return nil }
      nodes.append(node)
    }
    return CompiledTemplate(nodes: nodes)
  }

  private static func node(_ token: Any) -> Node? {
    let mirror = Mirror(reflecting: token)
    guard mirror.displayStyle == .enum, let only = mirror.children.first, let label = only.label else {
      return nil
    }
    let value = only.value
    switch label {
    case "text":
      return (value as? String).map { .text(Array($0.utf8)) }
    case "variable", "unescapedVariable":
      guard let name = field("name", of: value) as? String,
        let transforms = field("transforms", of: value) as? [String]
      else { return nil }
      return .variable(Name(name, transforms: transforms), escaped: label == "variable")
    case "section", "invertedSection":
      guard let name = field("name", of: value) as? String,
        let transforms = field("transforms", of: value) as? [String],
        let inner = field("template", of: value) as? MustacheTemplate, let compiled = compile(inner)
      else { return nil }
      let tag = Name(name, transforms: transforms)
      return label == "section" ? .section(tag, compiled) : .inverted(tag, compiled)
    case "blockExpansion":
      guard let name = field("name", of: value) as? String,
        let inner = field("default", of: value) as? MustacheTemplate, let compiled = compile(inner),
        let indentation = optionalString(field("indentation", of: value))
      else { return nil }
      return .block(name, default: compiled, indentation: indentation.map { Array($0.utf8) })
    case "partial":
      guard let name = field(".0", of: value) as? String,
        let indentation = optionalString(field("indentation", of: value)),
        let inheritsField = field("inherits", of: value),
        let inherits = inheritsField as? [String: MustacheTemplate]?
      else { return nil }
      var overrides: [String: CompiledTemplate]?
      if let inherits {
        var compiled: [String: CompiledTemplate] = [:]
        for (block, template) in inherits {
          guard let made = compile(template) else { return nil }
          compiled[block] = made
        }
        overrides = compiled
      }
      return .partial(name, indentation: indentation.map { Array($0.utf8) }, overrides: overrides)
    case "contentType":
      // The two content types swift-mustache registers; one an app
      // registered itself is rendered by swift-mustache.
      guard let type = value as? MustacheContentType else { return nil }
      switch String(describing: Swift.type(of: type)) {
      case "HTMLContentType": return .contentType(html: true)
      case "TextContentType": return .contentType(html: false)
      default: return nil
      }
    default:
      // `dynamicNamePartial`, `blockDefinition` (only inside a parent's
      // overrides) and anything newer.
      return nil
    }
  }

  /// A stored property or a labelled associated value, by label.
  private static func field(_ label: String, of value: Any) -> Any? {
    Mirror(reflecting: value).children.first { $0.label == label }?.value
  }

  /// `String?` read from a mirror: `.some(nil)` for a nil one, nil when
  /// the value is not a `String?` at all.
  private static func optionalString(_ value: Any?) -> String?? {
    guard let value else { return nil }
    if let string = value as? String { return .some(string) }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return nil }
    guard let wrapped = mirror.children.first?.value else { return .some(nil) }
    return (wrapped as? String).map { .some($0) }
  }
}
