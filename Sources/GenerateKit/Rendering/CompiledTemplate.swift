/// A Mustache template as `MustacheParser` reads it, in nodes
/// `CompiledRenderer` renders: names split at their dots once, text as
/// UTF-8 bytes with the standalone lines' whitespace already taken out,
/// a parent's overrides read too.
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

    /// The name with its transforms, as the tag writes it (`first(kinds)`).
    var written: String {
      transforms.reduce(text) { inner, transform in "\(transform)(\(inner))" }
    }

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
    /// `{{> name}}`, or `{{< name}}` with its overrides. The indentation
    /// is a standalone partial's, which its later lines get too.
    case partial(String, indentation: [UInt8]?, overrides: [String: CompiledTemplate]?)
    /// `{{>*name}}` or `{{<*name}}`: the partial the value of `name` names.
    case dynamicPartial(Name, indentation: [UInt8]?, overrides: [String: CompiledTemplate]?)
    /// `{{% CONTENT_TYPE: … }}`: whether what follows is escaped.
    case contentType(html: Bool)
  }
}
