import Foundation
import Mustache

/// Renders `CompiledTemplate`s into UTF-8 bytes, exactly as swift-mustache
/// renders the same templates (`Template+Render.swift`, `Context.swift`,
/// `Sequence.swift`, `Transform.swift` of its sources): the same lookups up
/// the context stack, section truthiness, partial indentation, inheritance,
/// transforms and escaping — but with the context's values told apart by a
/// switch over the types pages use (`RenderValue`) instead of a cast to
/// each of swift-mustache's protocols, one stack pushed and popped instead
/// of copied, and one byte buffer instead of a string per tag.
///
/// A value of a type it does not know (a lambda, `NSNull`, a tuple) or a
/// transform it does not render throws `Unsupported`, and the page is
/// rendered through swift-mustache instead (`TemplateSet.render`).
struct CompiledRenderer {
  struct Unsupported: Error {}

  /// How a template is being rendered: swift-mustache's `MustacheContext`
  /// but for the stack, which `CompiledRenderer` keeps.
  struct Scope {
    var indentation: [UInt8]?
    var overrides: [String: CompiledTemplate]?
    var html = true
    var sequence: SequencePlace?
  }

  /// Where an iteration is: what `first()`, `last()`, `index()`, `even()`
  /// and `odd()` read.
  struct SequencePlace {
    var first: Bool
    var last: Bool
    var index: Int
  }

  let templates: [String: CompiledTemplate]
  /// Every name swift-mustache has: a partial it has that did not compile
  /// sends the whole page to swift-mustache.
  let known: Set<String>
  var stack: [RenderValue] = []
  var out: [UInt8] = []

  init(templates: [String: CompiledTemplate], known: Set<String>) {
    self.templates = templates
    self.known = known
  }

  /// Renders `template` over `object`, as `MustacheTemplate.render(_:library:)` would.
  mutating func render(_ template: CompiledTemplate, object: Any) throws -> [UInt8] {
    stack = [try RenderValue(object)]
    out = []
    out.reserveCapacity(4096)
    try render(template, Scope())
    // Pages wait in memory a batch at a time: without the room the buffer
    // grew into, which can be half of it.
    return out.capacity - out.count > out.count / 8 ? Array(out[...]) : out
  }

  mutating func render(_ template: CompiledTemplate, _ scope: Scope) throws {
    var scope = scope
    let start = out.count
    guard let indentation = scope.indentation, !indentation.isEmpty else {
      for node in template.nodes { try render(node, &scope) }
      return
    }
    // A tag's output is indented when this template's output so far ends
    // a line ("\n" as a whole character: not "\r\n").
    for node in template.nodes {
      let before = out.count
      try render(node, &scope)
      guard out.count > before, before > start, out[before - 1] == 0x0A else { continue }
      if before - 1 > start, out[before - 2] == 0x0D { continue }
      out.insert(contentsOf: indentation, at: before)
    }
  }

  private mutating func render(_ node: CompiledTemplate.Node, _ scope: inout Scope) throws {
    switch node {
    case .text(let bytes):
      out.append(contentsOf: bytes)
    case .variable(let name, let escaped):
      guard let value = try lookup(name, scope) else { return }
      try write(value, escaped: escaped && scope.html)
    case .section(let name, let template):
      guard let value = try lookup(name, scope) else { return }
      switch value {
      case .bool(let bool):
        if bool { try render(template, scope) }
      case .dicts(let items):
        try iterate(items.count, template, scope) { try RenderValue(items[$0]) }
      case .list(let items):
        try iterate(items.count, template, scope) { try RenderValue(items[$0]) }
      case .strings(let items):
        try iterate(items.count, template, scope) { .string(items[$0]) }
      default:
        try within(value, template, scope)
      }
    case .inverted(let name, let template):
      guard let value = try lookup(name, scope) else {
        try render(template, scope)
        return
      }
      switch value {
      case .bool(let bool):
        if !bool { try render(template, scope) }
      case .dicts(let items) where items.isEmpty: try within(value, template, scope)
      case .list(let items) where items.isEmpty: try within(value, template, scope)
      case .strings(let items) where items.isEmpty: try within(value, template, scope)
      default: break
      }
    case .block(let name, let fallback, let indentation):
      var inner = scope
      inner.indentation = Self.indent(scope.indentation, indentation)
      inner.sequence = nil
      try render(scope.overrides?[name] ?? fallback, inner)
    case .partial(let name, let indentation, let overrides):
      guard let template = templates[name] else {
        if known.contains(name) { throw Unsupported() }
        return
      }
      var inner = Scope()
      inner.indentation = Self.indent(scope.indentation, indentation)
      inner.overrides = scope.overrides
      if let overrides {
        // The outer template's overrides win over the parent's own.
        inner.overrides = scope.overrides?.merging(overrides) { outer, _ in outer } ?? overrides
      }
      try render(template, inner)
    case .contentType(let html):
      scope.html = html
    }
  }

  private static func indent(_ outer: [UInt8]?, _ added: [UInt8]?) -> [UInt8]? {
    guard let added else { return outer }
    return (outer ?? []) + added
  }

  /// A section over one object: it is on the stack while the section renders.
  private mutating func within(_ value: RenderValue, _ template: CompiledTemplate, _ scope: Scope) throws {
    var inner = scope
    inner.sequence = nil
    stack.append(value)
    defer { stack.removeLast() }
    try render(template, inner)
  }

  private mutating func iterate(
    _ count: Int, _ template: CompiledTemplate, _ scope: Scope, element: (Int) throws -> RenderValue
  ) throws {
    var inner = scope
    for index in 0..<count {
      inner.sequence = SequencePlace(first: index == 0, last: index == count - 1, index: index)
      stack.append(try element(index))
      defer { stack.removeLast() }
      try render(template, inner)
    }
  }

  private mutating func write(_ value: RenderValue, escaped: Bool) throws {
    switch value {
    case .string(let string):
      if escaped { HTMLEscape.append(string, to: &out) } else { out.append(contentsOf: string.utf8) }
    case .substring(let substring):
      if escaped {
        HTMLEscape.append(String(substring), to: &out)
      } else {
        out.append(contentsOf: substring.utf8)
      }
    case .bool(let bool):
      out.append(contentsOf: (bool ? "true" : "false").utf8)
    case .int(let int):
      out.append(contentsOf: String(int).utf8)
    case .double(let double):
      let text = String(describing: double)
      if escaped { HTMLEscape.append(text, to: &out) } else { out.append(contentsOf: text.utf8) }
    default:
      // A list, a record, a dictionary written as text: swift-mustache
      // writes its description, which only it should decide.
      throw Unsupported()
    }
  }

  // MARK: Names

  private func lookup(_ name: CompiledTemplate.Name, _ scope: Scope) throws -> RenderValue? {
    var found: RenderValue?
    switch name.kind {
    case .current:
      found = stack.last
    case .sequence:
      guard let place = scope.sequence else { return nil }
      return try Self.transform(place, name.transforms)
    case .local(let path):
      guard let top = stack.last else { return nil }
      found = try Self.descend(top, path[...])
    case .stack(let path):
      guard let first = path.first else {
        found = stack.last
        break
      }
      for object in stack.reversed() {
        if let child = try object.child(first) {
          found = try Self.descend(child, path.dropFirst())
          break
        }
      }
    }
    guard var value = found else { return nil }
    for transform in name.transforms {
      guard let transformed = try value.transform(transform) else { return nil }
      value = transformed
    }
    return value
  }

  private static func descend(_ value: RenderValue, _ path: ArraySlice<String>) throws -> RenderValue? {
    var value = value
    for name in path {
      guard let child = try value.child(name) else { return nil }
      value = child
    }
    return value
  }

  private static func transform(_ place: SequencePlace, _ transforms: [String]) throws -> RenderValue? {
    guard let first = transforms.first else { return nil }
    var value: RenderValue
    switch first {
    case "first": value = .bool(place.first)
    case "last": value = .bool(place.last)
    case "index": value = .int(place.index)
    case "even": value = .bool(place.index & 1 == 0)
    case "odd": value = .bool(place.index & 1 == 1)
    default: return nil
    }
    for transform in transforms.dropFirst() {
      guard let transformed = try value.transform(transform) else { return nil }
      value = transformed
    }
    return value
  }
}

/// A context value as `CompiledRenderer` tells them apart: the types pages
/// are rendered over (`PageContext`, `RecordContext`, `[String: Any]`,
/// arrays, text, numbers, `Bool`). Anything else throws
/// `CompiledRenderer.Unsupported`.
enum RenderValue {
  case string(String)
  case substring(Substring)
  case bool(Bool)
  case int(Int)
  case double(Double)
  case dictionary([String: Any])
  case record(RecordContext)
  case page(PageContext)
  case dicts([[String: Any]])
  case strings([String])
  case list([Any])

  init(_ object: Any) throws {
    // The value's own type first, compared as a metatype: a failed
    // `as? RecordContext` (a class) on an array or a dictionary bridges it
    // to an `NSArray` or `NSDictionary` first, the most expensive part of
    // swift-mustache's lookups.
    let type = Swift.type(of: object)
    if type == String.self, let string = object as? String {
      self = .string(string)
    } else if type == [String: Any].self, let dictionary = object as? [String: Any] {
      self = .dictionary(dictionary)
    } else if type == RecordContext.self, let record = object as? RecordContext {
      self = .record(record)
    } else if type == Bool.self, let bool = object as? Bool {
      self = .bool(bool)
    } else if type == [[String: Any]].self, let dicts = object as? [[String: Any]] {
      self = .dicts(dicts)
    } else if type == [Any].self, let list = object as? [Any] {
      self = .list(list)
    } else if type == [String].self, let strings = object as? [String] {
      self = .strings(strings)
    } else if type == Int.self, let int = object as? Int {
      self = .int(int)
    } else if type == PageContext.self, let page = object as? PageContext {
      self = .page(page)
    } else {
      try self.init(cast: object)
    }
  }

  /// Any other value: one wrapped in an `Optional`, an array or a
  /// dictionary of another element type.
  private init(cast object: Any) throws {
    switch object {
    case let string as String: self = .string(string)
    case let dictionary as [String: Any]: self = .dictionary(dictionary)
    case let bool as Bool: self = .bool(bool)
    case let dicts as [[String: Any]]: self = .dicts(dicts)
    case let strings as [String]: self = .strings(strings)
    case let list as [Any]: self = .list(list)
    case let int as Int: self = .int(int)
    case let page as PageContext: self = .page(page)
    case let substring as Substring: self = .substring(substring)
    case let double as Double: self = .double(double)
    case let record as RecordContext: self = .record(record)
    default: throw CompiledRenderer.Unsupported()
    }
  }

  /// swift-mustache's `_getImmediateChild`: a `MustacheParent`'s child,
  /// and nothing for values whose mirror has no labelled children.
  func child(_ name: String) throws -> RenderValue? {
    switch self {
    case .dictionary(let dictionary): return try dictionary[name].map { try RenderValue($0) }
    case .record(let record): return try record.child(named: name).map { try RenderValue($0) }
    case .page(let page): return try page.child(named: name).map { try RenderValue($0) }
    case .string, .substring, .bool, .int, .double, .dicts, .strings, .list: return nil
    }
  }

  /// swift-mustache's transforms (`Transform.swift`) on these types: nil
  /// where it gives nil.
  func transform(_ name: String) throws -> RenderValue? {
    switch self {
    case .string(let string): return Self.transform(string, name)
    case .substring(let substring): return Self.transform(substring, name)
    case .int(let int):
      switch name {
      case "equalzero": return .bool(int == 0)
      case "plusone": return .int(int + 1)
      case "minusone": return .int(int - 1)
      case "even": return .bool(int & 1 == 0)
      case "odd": return .bool(int & 1 == 1)
      default: return nil
      }
    case .dicts(let items): return try Self.transform(items, name) { try RenderValue($0) }
    case .list(let items): return try Self.transform(items, name) { try RenderValue($0) }
    case .strings(let items): return try Self.transform(items, name) { .string($0) }
    case .dictionary(let dictionary):
      switch name {
      case "count": return .int(dictionary.count)
      case "empty": return .bool(dictionary.isEmpty)
      // Key–value pairs, which only swift-mustache renders.
      case "enumerated", "sorted": throw CompiledRenderer.Unsupported()
      default: return nil
      }
    case .bool, .double, .record, .page: return nil
    }
  }

  private static func transform<S: StringProtocol>(_ text: S, _ name: String) -> RenderValue? {
    switch name {
    case "empty": return .bool(text.isEmpty)
    case "capitalized": return .string(text.capitalized)
    case "lowercased": return .string(text.lowercased())
    case "uppercased": return .string(text.uppercased())
    case "reversed": return .substring(Substring(text.reversed()))
    default: return nil
    }
  }

  private static func transform<Element>(
    _ items: [Element], _ name: String, element: (Element) throws -> RenderValue
  ) throws -> RenderValue? {
    switch name {
    case "first": return try items.first.map(element)
    case "last": return try items.last.map(element)
    case "count": return .int(items.count)
    case "empty": return .bool(items.isEmpty)
    // A reversed collection, which only swift-mustache iterates; and
    // `sorted`, which depends on the array's static element type (an
    // `[Any]` of text is not sorted, a `[String]` is), which a value read
    // from `Any` no longer tells.
    case "reversed", "sorted": throw CompiledRenderer.Unsupported()
    default: return nil
    }
  }
}
