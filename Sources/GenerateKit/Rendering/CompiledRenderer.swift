import Foundation

/// Renders `CompiledTemplate`s into UTF-8 bytes, exactly as swift-mustache
/// renders the same templates (`Template+Render.swift`, `Context.swift`,
/// `Sequence.swift`, `Transform.swift` of its 2.x sources): the same
/// lookups up the context stack, section truthiness, partial indentation,
/// inheritance, dynamic partials, transforms and escaping — but with the
/// context's values told apart by a switch over the types pages use
/// (`RenderValue`) instead of a cast to each of swift-mustache's
/// protocols, one stack pushed and popped instead of copied, and one byte
/// buffer instead of a string per tag.
///
/// It renders every template and every value: a value of a type pages do
/// not use is read through the same protocols swift-mustache has
/// (`TemplateValueProtocols.swift`), and writes its description.
struct CompiledRenderer {
  /// How a template is being rendered: swift-mustache's `MustacheContext`
  /// but for the stack, which `CompiledRenderer` keeps.
  struct Scope {
    var indentation: [UInt8]?
    var overrides: [String: CompiledTemplate]?
    var html = true
    var sequence: SequencePlace?
    /// Partials and parents entered: a dynamic partial can name itself,
    /// which swift-mustache follows until the stack overflows.
    var depth = 0
  }

  /// How deep partials and blocks may nest before the page stops, with
  /// `endless` set. Cycles with no section on the way are refused at load
  /// (`TemplateSet.cycles`, and `TemplateTags.blocksInTheirOwnOverride`);
  /// a partial that includes itself inside a section whose data does not
  /// end (a name that climbs back to the same list), a dynamic partial
  /// that names itself, or a block reached from its own override through a
  /// partial gets here, where swift-mustache would run out of stack.
  static let maxPartialDepth = 100

  /// Where an iteration is: what `first()`, `last()`, `index()`, `even()`
  /// and `odd()` read.
  struct SequencePlace {
    var first: Bool
    var last: Bool
    var index: Int
  }

  let templates: [String: CompiledTemplate]
  var stack: [RenderValue] = []
  var out: [UInt8] = []
  /// The tags that found a value of a type pages are not made of, read
  /// through swift-mustache's protocols (`RenderValue.other`): the same
  /// bytes, by the slower path. `--verbose` names them (`GenericReads`).
  var genericReads: [GenericReads.Read] = []
  /// The dynamic partials (`{{>*name}}`) whose value named no template.
  var missingPartials: [MissingPartials.Use] = []
  /// The tags that found an object or a list of objects to print.
  var objectTags: [ObjectTags.Use] = []
  /// The partials (and `$blocks`) entered, outermost first.
  private var chain: [String] = []
  /// Set when partials nested past `maxPartialDepth`: the chain then, and
  /// the page stops rendering (what it wrote is not a page to keep).
  private(set) var endless: [String]?

  init(templates: [String: CompiledTemplate]) {
    self.templates = templates
  }

  /// Renders `template` over `object`, as `MustacheTemplate.render(_:library:)` would.
  mutating func render(_ template: CompiledTemplate, object: Any) -> [UInt8] {
    stack = [RenderValue(object)]
    out = []
    chain = []
    endless = nil
    missingPartials = []
    objectTags = []
    out.reserveCapacity(4096)
    render(template, Scope())
    // Pages wait in memory a batch at a time: without the room the buffer
    // grew into, which can be half of it.
    return out.capacity - out.count > out.count / 8 ? Array(out[...]) : out
  }

  mutating func render(_ template: CompiledTemplate, _ scope: Scope) {
    var scope = scope
    let start = out.count
    guard let indentation = scope.indentation, !indentation.isEmpty else {
      for node in template.nodes {
        if endless != nil { return }
        render(node, &scope)
      }
      return
    }
    // A tag's output is indented when this template's output so far ends
    // a line ("\n" as a whole character: not "\r\n").
    for node in template.nodes {
      if endless != nil { return }
      let before = out.count
      render(node, &scope)
      guard out.count > before, before > start, out[before - 1] == 0x0A else { continue }
      if before - 1 > start, out[before - 2] == 0x0D { continue }
      out.insert(contentsOf: indentation, at: before)
    }
  }

  private mutating func render(_ node: CompiledTemplate.Node, _ scope: inout Scope) {
    switch node {
    case .text(let bytes):
      out.append(contentsOf: bytes)
    case .variable(let name, let escaped):
      guard let value = lookup(name, scope) else { return }
      if case .other(let object) = value { noteGeneric(name, object) }
      if let object = value.unprintable {
        // An object has no text a person would want on a page (Swift's
        // description of a dictionary, in no fixed order): nothing, and
        // the build fails at the tag (`ObjectTags`).
        let use = ObjectTags.Use(
          tag: name.written, holder: chain.last { !$0.hasPrefix("$") }, names: object.names, list: object.list
        )
        if !objectTags.contains(use) { objectTags.append(use) }
        return
      }
      write(value, escaped: escaped && scope.html)
    case .section(let name, let template):
      guard let value = lookup(name, scope) else { return }
      if case .other(let object) = value { noteGeneric(name, object) }
      switch value {
      case .bool(let bool):
        if bool { render(template, scope) }
      case .dicts(let items):
        iterate(items.count, template, scope) { RenderValue(items[$0]) }
      case .list(let items):
        iterate(items.count, template, scope) { RenderValue(items[$0]) }
      case .strings(let items):
        iterate(items.count, template, scope) { .string(items[$0]) }
      case .items(let list):
        let items = list.items
        iterate(items.count, template, scope) { .string(items[$0]) }
      case .values(let list):
        let items = list.items
        iterate(items.count, template, scope) { RenderValue(items[$0]) }
      case .reversed(let list):
        let count = list.count
        iterate(count, template, scope) { list.element(count - 1 - $0) }
      case .other(let object):
        if let sequence = object as? TemplateSequence {
          let items = sequence.templateElements
          iterate(items.count, template, scope) { RenderValue(items[$0]) }
        } else if let bool = object as? Bool {
          if bool { render(template, scope) }
        } else {
          within(value, template, scope)
        }
      default:
        within(value, template, scope)
      }
    case .inverted(let name, let template):
      guard let value = lookup(name, scope) else {
        render(template, scope)
        return
      }
      if case .other(let object) = value { noteGeneric(name, object) }
      switch value {
      case .bool(let bool):
        if !bool { render(template, scope) }
      case .dicts(let items) where items.isEmpty: within(value, template, scope)
      case .list(let items) where items.isEmpty: within(value, template, scope)
      case .strings(let items) where items.isEmpty: within(value, template, scope)
      case .items(let list) where list.items.isEmpty: within(value, template, scope)
      case .values(let list) where list.items.isEmpty: within(value, template, scope)
      case .reversed(let list) where list.count == 0: within(value, template, scope)
      case .other(let object):
        if let sequence = object as? TemplateSequence {
          if sequence.templateIsEmpty { within(value, template, scope) }
        } else if let bool = object as? Bool, !bool {
          render(template, scope)
        }
      default: break
      }
    case .block(let name, let fallback, let indentation):
      // An override that holds its own block, through a partial the load
      // cannot follow, stops here rather than running out of stack.
      guard scope.depth < Self.maxPartialDepth else {
        stop(at: "$" + name)
        return
      }
      chain.append("$" + name)
      defer { chain.removeLast() }
      var inner = scope
      inner.depth = scope.depth + 1
      inner.indentation = Self.indent(scope.indentation, indentation)
      inner.sequence = nil
      render(scope.overrides?[name] ?? fallback, inner)
    case .partial(let name, let indentation, let overrides):
      partial(name, indentation, overrides, scope)
    case .dynamicPartial(let name, let indentation, let overrides):
      // The value must be text (a `String`, as swift-mustache casts it).
      guard case .string(let target) = lookup(name, scope) else { return }
      guard templates[target] != nil else {
        // Nothing, as swift-mustache renders it; the build fails there
        // (`MissingPartials`), as it does for a static one at load.
        let holder = chain.last { !$0.hasPrefix("$") }
        let missing = MissingPartials.Use(tag: name.text, target: target, holder: holder)
        if !missingPartials.contains(missing) { missingPartials.append(missing) }
        return
      }
      partial(target, indentation, overrides, scope)
    case .contentType(let html):
      scope.html = html
    }
  }

  /// A tag that found a value read through the protocols. `strings`
  /// (`[String: String]`) is read without them (`RenderValue.child`).
  private mutating func noteGeneric(_ name: CompiledTemplate.Name, _ object: Any) {
    if object is [String: String] { return }
    let read = GenericReads.Read(tag: name.text, type: String(describing: Swift.type(of: object)))
    if !genericReads.contains(read) { genericReads.append(read) }
  }

  private mutating func partial(
    _ name: String, _ indentation: [UInt8]?, _ overrides: [String: CompiledTemplate]?, _ scope: Scope
  ) {
    // A name with no template renders nothing, as in swift-mustache; the
    // load reports those it can see (`TemplateSet.load`).
    guard let template = templates[name] else { return }
    guard scope.depth < Self.maxPartialDepth else {
      stop(at: name)
      return
    }
    chain.append(name)
    defer { chain.removeLast() }
    var inner = Scope()
    inner.depth = scope.depth + 1
    inner.indentation = Self.indent(scope.indentation, indentation)
    inner.overrides = scope.overrides
    if let overrides {
      // The outer template's overrides win over the parent's own.
      inner.overrides = scope.overrides?.merging(overrides) { outer, _ in outer } ?? overrides
    }
    render(template, inner)
  }

  private mutating func stop(at name: String) {
    if endless == nil { endless = chain + [name] }
  }

  private static func indent(_ outer: [UInt8]?, _ added: [UInt8]?) -> [UInt8]? {
    guard let added else { return outer }
    return (outer ?? []) + added
  }

  /// A section over one object: it is on the stack while the section renders.
  private mutating func within(_ value: RenderValue, _ template: CompiledTemplate, _ scope: Scope) {
    var inner = scope
    inner.sequence = nil
    stack.append(value)
    defer { stack.removeLast() }
    render(template, inner)
  }

  private mutating func iterate(
    _ count: Int, _ template: CompiledTemplate, _ scope: Scope, element: (Int) -> RenderValue
  ) {
    var inner = scope
    for index in 0..<count {
      inner.sequence = SequencePlace(first: index == 0, last: index == count - 1, index: index)
      stack.append(element(index))
      defer { stack.removeLast() }
      render(template, inner)
    }
  }

  private mutating func write(_ value: RenderValue, escaped: Bool) {
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
    default:
      // A list, a record, a number of another type: its description, as
      // swift-mustache writes it.
      let text = value.description
      if escaped { HTMLEscape.append(text, to: &out) } else { out.append(contentsOf: text.utf8) }
    }
  }

  // MARK: Names

  /// swift-mustache's `getChild`: the value a name (and its transforms)
  /// gives, nil for none.
  private func lookup(_ name: CompiledTemplate.Name, _ scope: Scope) -> RenderValue? {
    var found: RenderValue?
    switch name.kind {
    case .current:
      found = stack.last
    case .sequence:
      guard let place = scope.sequence else { return nil }
      return Self.transform(place, name.transforms)
    case .local(let path):
      guard let top = stack.last else { return nil }
      found = Self.descend(top, path[...])
    case .stack(let path):
      guard let first = path.first else {
        found = stack.last
        break
      }
      for object in stack.reversed() {
        if let child = object.child(first) {
          found = Self.descend(child, path.dropFirst())
          break
        }
      }
    }
    // `NSNull` found by name is nothing (its `MustacheCustomRepresentation`);
    // one a transform gives is kept, as swift-mustache keeps it.
    guard var value = found, !value.isNull else { return nil }
    for transform in name.transforms {
      guard let transformed = value.transform(transform) else { return nil }
      value = transformed
    }
    return value
  }

  private static func descend(_ value: RenderValue, _ path: ArraySlice<String>) -> RenderValue? {
    var value = value
    for name in path {
      guard let child = value.child(name) else { return nil }
      value = child
    }
    return value
  }

  private static func transform(_ place: SequencePlace, _ transforms: [String]) -> RenderValue? {
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
      guard let transformed = value.transform(transform) else { return nil }
      value = transformed
    }
    return value
  }
}

/// A context value as `CompiledRenderer` tells them apart: the types pages
/// are rendered over (`PageContext`, `RecordContext`, `[String: Any]`,
/// arrays, text, numbers, `Bool`) each have a case; anything else is
/// `.other`, read through the protocols swift-mustache reads it through.
enum RenderValue: CustomStringConvertible {
  case string(String)
  case substring(Substring)
  case bool(Bool)
  case int(Int)
  case dictionary([String: Any])
  case record(RecordContext)
  case page(PageContext)
  /// A field that holds an object (`publisher.name`, `publisher.url`).
  case object(ObjectValue)
  /// A list column: its items joined with ", " when written, one at a
  /// time in a section.
  case items(ListText)
  /// A list a field computes (records, text): written as its items'
  /// text joined with ", ", one item at a time in a section.
  case values(ValueList)
  case dicts([[String: Any]])
  case strings([String])
  case list([Any])
  /// `reversed(…)` of `.dicts`, `.list` or `.strings`: the list itself,
  /// read back to front (swift-mustache's `ReversedCollection`).
  indirect case reversed(RenderValue)
  /// `NSNull`: nothing when a name finds it, kept when a transform gives it.
  case null
  /// A value of any other type (`Double`, `[String: String]`, a `Set`, a
  /// reversed list, a key–value pair, an `Optional` that is nil).
  case other(Any)

  init(_ object: Any) {
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
    } else if type == ObjectValue.self, let value = object as? ObjectValue {
      self = .object(value)
    } else if type == ListText.self, let list = object as? ListText {
      self = .items(list)
    } else if type == ValueList.self, let list = object as? ValueList {
      self = .values(list)
    } else if type == [String: String].self {
      // `strings.*` on every page: what `init(cast:)` makes of it, without
      // its casts (each bridged the dictionary; 47 % of a build's cycles
      // on a user's page with the theme's topbar and footer).
      self = .other(object)
    } else {
      self.init(cast: object)
    }
  }

  /// Any other value. An `Optional` holding one is that value, as
  /// swift-mustache's casts see through it; a nil one stays itself (it
  /// opens a section and writes "nil" there). Other arrays and
  /// dictionaries stay as they are: converting `[String: String]` to
  /// `[String: Any]` could change the order `enumerated` gives.
  private init(cast object: Any) {
    if let optional = object as? OptionalValue {
      if let wrapped = optional.wrappedValue {
        self.init(wrapped)
      } else {
        self = .other(object)
      }
      return
    }
    switch object {
    case let string as String: self = .string(string)
    case let substring as Substring: self = .substring(substring)
    case let bool as Bool: self = .bool(bool)
    case let int as Int: self = .int(int)
    case let record as RecordContext: self = .record(record)
    case let value as ObjectValue: self = .object(value)
    case let list as ListText: self = .items(list)
    case let list as ValueList: self = .values(list)
    case let page as PageContext: self = .page(page)
    case is NSNull: self = .null
    default: self = .other(object)
    }
  }

  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A value a tag cannot print: an object (its names, sorted) or a list
  /// of objects; nil for any other value.
  var unprintable: (names: [String], list: Bool)? {
    switch self {
    case .string, .substring, .bool, .int, .record, .object, .items, .values, .strings, .null: return nil
    case .dictionary(let dictionary): return (dictionary.keys.sorted(), false)
    case .page(let page): return (Set(page.page.keys).union(page.shared.keys).sorted(), false)
    case .dicts: return ([], true)
    case .reversed(let list): return list.unprintable == nil ? nil : ([], true)
    case .list(let items): return items.contains { $0 is [String: Any] } ? ([], true) : nil
    case .other(let object):
      if let keyed = object as? TemplateKeyed { return (keyed.templateKeys.sorted(), false) }
      if let sequence = object as? TemplateSequence,
        sequence.templateElements.contains(where: { $0 is TemplateKeyed })
      {
        return ([], true)
      }
      return nil
    }
  }

  /// The value as swift-mustache keeps it, for what is read through protocols.
  var object: Any {
    switch self {
    case .string(let string): return string
    case .substring(let substring): return substring
    case .bool(let bool): return bool
    case .int(let int): return int
    case .dictionary(let dictionary): return dictionary
    case .record(let record): return record
    case .page(let page): return page
    case .object(let value): return value
    case .items(let list): return list
    case .values(let list): return list
    case .dicts(let dicts): return dicts
    case .strings(let strings): return strings
    case .list(let list): return list
    case .reversed(.dicts(let dicts)): return dicts.reversed()
    case .reversed(.strings(let strings)): return strings.reversed()
    case .reversed(.list(let list)): return list.reversed()
    case .reversed(let other): return other.object
    case .null: return NSNull()
    case .other(let object): return object
    }
  }

  /// What swift-mustache writes for a value that is not text:
  /// `String(describing:)`.
  var description: String {
    switch self {
    case .string(let string): return string
    case .substring(let substring): return String(substring)
    case .bool(let bool): return bool ? "true" : "false"
    case .int(let int): return String(int)
    default: return String(describing: object)
    }
  }

  /// swift-mustache's `_getImmediateChild`: a `MustacheParent`'s child, a
  /// key–value pair's `key` and `value`, and nothing for other values
  /// (which swift-mustache reads through `Mirror`; no context value here
  /// has fields of its own to read that way).
  func child(_ name: String) -> RenderValue? {
    switch self {
    case .dictionary(let dictionary): return dictionary[name].map { RenderValue($0) }
    case .record(let record): return record.child(named: name).map { RenderValue($0) }
    case .page(let page): return page.child(named: name).map { RenderValue($0) }
    case .object(let value): return value.child(named: name).map { RenderValue($0) }
    case .other(let object):
      // `strings`: what `TemplateKeyed` gives, without the protocol cast.
      if let texts = object as? [String: String] { return texts[name].map { .string($0) } }
      if let keyed = object as? TemplateKeyed { return keyed.templateChild(name).map { RenderValue($0) } }
      if let pair = object as? (key: Any, value: Any) {
        switch name {
        // A field read through `Mirror` loses one `Optional`.
        case "key": return Self.unwrapped(pair.key).map { RenderValue($0) }
        case "value": return Self.unwrapped(pair.value).map { RenderValue($0) }
        default: return nil
        }
      }
      return nil
    case .string, .substring, .bool, .int, .dicts, .strings, .list, .reversed, .null, .items, .values:
      return nil
    }
  }

  /// The number of elements of `.dicts`, `.list` and `.strings`; 0 for others.
  var count: Int {
    switch self {
    case .dicts(let items): return items.count
    case .list(let items): return items.count
    case .strings(let items): return items.count
    default: return 0
    }
  }

  /// An element of `.dicts`, `.list` or `.strings` (`index` below `count`).
  func element(_ index: Int) -> RenderValue {
    switch self {
    case .dicts(let items): return RenderValue(items[index])
    case .list(let items): return RenderValue(items[index])
    case .strings(let items): return .string(items[index])
    default: return .null
    }
  }

  private static func unwrapped(_ value: Any) -> Any? {
    guard let optional = value as? OptionalValue else { return value }
    return optional.wrappedValue
  }

  /// swift-mustache's transforms (`Transform.swift`): nil where it gives nil.
  func transform(_ name: String) -> RenderValue? {
    switch self {
    case .string(let string): return Self.transform(string, name)
    case .substring(let substring): return Self.transform(substring, name)
    case .int(let int):
      switch name {
      case "equalzero": return .bool(int == 0)
      // Wrapping where swift-mustache would trap.
      case "plusone": return .int(int &+ 1)
      case "minusone": return .int(int &- 1)
      case "even": return .bool(int & 1 == 0)
      case "odd": return .bool(int & 1 == 1)
      default: return nil
      }
    case .dicts(let items):
      return name == "reversed" ? .reversed(self) : Self.transform(items, name) ?? generic(name)
    case .list(let items):
      return name == "reversed" ? .reversed(self) : Self.transform(items, name) ?? generic(name)
    case .strings(let items):
      return name == "reversed" ? .reversed(self) : Self.transform(items, name) ?? generic(name)
    case .items(let list):
      // A list again for `reversed` and `sorted`, printing as one;
      // otherwise what the items' array gives.
      switch name {
      case "reversed": return .items(ListText(items: list.items.reversed()))
      case "sorted": return .items(ListText(items: list.items.sorted()))
      default: return RenderValue.strings(list.items).transform(name)
      }
    case .values(let list):
      switch name {
      case "reversed", "sorted": return list.templateTransform(name).map { RenderValue($0) }
      default: return Self.transform(list.items, name)
      }
    case .reversed(let list):
      let count = list.count
      switch name {
      case "first": return count == 0 ? nil : list.element(count - 1)
      case "last": return count == 0 ? nil : list.element(0)
      case "count": return .int(count)
      case "empty": return .bool(count == 0)
      // A reversed list's own `reversed()` is the list, as in swift-mustache.
      case "reversed": return list
      default: return generic(name)
      }
    case .dictionary, .other: return generic(name)
    case .bool, .record, .page, .object, .null: return nil
    }
  }

  private func generic(_ name: String) -> RenderValue? {
    guard let transformable = object as? TemplateTransformable else { return nil }
    return transformable.templateTransform(name).map { RenderValue($0) }
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

  /// The transforms every array has, without boxing it; `reversed` and
  /// `sorted` go through `TemplateTransformable`, which knows the
  /// array's element type.
  private static func transform<Element>(_ items: [Element], _ name: String) -> RenderValue? {
    switch name {
    case "first": return items.first.map { RenderValue($0) }
    case "last": return items.last.map { RenderValue($0) }
    case "count": return .int(items.count)
    case "empty": return .bool(items.isEmpty)
    default: return nil
    }
  }
}
