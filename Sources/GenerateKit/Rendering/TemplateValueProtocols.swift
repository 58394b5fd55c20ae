import Foundation

/// The protocols swift-mustache reads context values through, for the same
/// standard types, so that `CompiledRenderer` treats a value of a type
/// pages do not usually hold (`RenderValue.other`) as swift-mustache did:
/// which values are sequences, which have named children, and which
/// transforms each type has (its `Sequence.swift`, `Parent.swift`,
/// `Transform.swift` and `AnyOptional.swift`).

/// A value a section iterates (swift-mustache's `MustacheSequence`).
protocol TemplateSequence {
  var templateElements: [Any] { get }
  var templateIsEmpty: Bool { get }
}

extension Array: TemplateSequence {
  var templateElements: [Any] { map { $0 } }
  var templateIsEmpty: Bool { isEmpty }
}

extension Set: TemplateSequence {
  var templateElements: [Any] { map { $0 } }
  var templateIsEmpty: Bool { isEmpty }
}

extension ReversedCollection: TemplateSequence {
  var templateElements: [Any] { map { $0 } }
  var templateIsEmpty: Bool { isEmpty }
}

/// A value with named children (swift-mustache's `MustacheParent`, which
/// it gives dictionaries with text keys).
protocol TemplateKeyed {
  func templateChild(_ name: String) -> Any?
  /// Its names, for the error a tag that prints it gets (`ObjectTags`).
  var templateKeys: [String] { get }
}

extension Dictionary: TemplateKeyed where Key == String {
  func templateChild(_ name: String) -> Any? { self[name] }
  var templateKeys: [String] { Array(keys) }
}

/// An `Optional` seen through `Any`, to see what it holds.
protocol OptionalValue {
  var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
  var wrappedValue: Any? { self }
}

/// A value transforms apply to (swift-mustache's `MustacheTransformable`).
protocol TemplateTransformable {
  func templateTransform(_ name: String) -> Any?
}

/// `sorted`, for collections whose elements (or keys) are `Comparable`:
/// decided by the value's own type, as swift-mustache decides it, so an
/// `[Any]` of text is not sorted and a `[String]` is.
private protocol TemplateSortable {
  func templateSorted() -> Any
}

extension StringProtocol {
  fileprivate func textTransform(_ name: String) -> Any? {
    switch name {
    case "empty": return isEmpty
    case "capitalized": return capitalized
    case "lowercased": return lowercased()
    case "uppercased": return uppercased()
    case "reversed": return Substring(reversed())
    default: return nil
    }
  }
}

extension String: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { textTransform(name) }
}

extension Substring: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { textTransform(name) }
}

extension Array: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? {
    switch name {
    case "first": return first
    case "last": return last
    case "reversed": return reversed()
    case "count": return count
    case "empty": return isEmpty
    case "sorted": return (self as? TemplateSortable)?.templateSorted()
    default: return nil
    }
  }
}

extension Array: TemplateSortable where Element: Comparable {
  fileprivate func templateSorted() -> Any { sorted() }
}

extension Set: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? {
    switch name {
    case "count": return count
    case "empty": return isEmpty
    case "sorted": return (self as? TemplateSortable)?.templateSorted()
    default: return nil
    }
  }
}

extension Set: TemplateSortable where Element: Comparable {
  fileprivate func templateSorted() -> Any { sorted() }
}

extension ReversedCollection: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? {
    switch name {
    case "first": return first
    case "last": return last
    // The reversed collection's own `reversed()`: its base, as in swift-mustache.
    case "reversed": return reversed()
    case "count": return count
    case "empty": return isEmpty
    case "sorted": return (self as? TemplateSortable)?.templateSorted()
    default: return nil
    }
  }
}

extension ReversedCollection: TemplateSortable where Element: Comparable {
  fileprivate func templateSorted() -> Any { sorted() }
}

extension Dictionary: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? {
    switch name {
    case "count": return count
    case "empty": return isEmpty
    case "enumerated": return map { (key: $0.key, value: $0.value) }
    case "sorted": return (self as? TemplateSortable)?.templateSorted()
    default: return nil
    }
  }
}

extension Dictionary: TemplateSortable where Key: Comparable {
  fileprivate func templateSorted() -> Any {
    map { (key: $0.key, value: $0.value) }.sorted { $0.key < $1.key }
  }
}

extension FixedWidthInteger {
  fileprivate func integerTransform(_ name: String) -> Any? {
    switch name {
    case "equalzero": return self == 0
    // Wrapping where swift-mustache would trap.
    case "plusone": return self &+ 1
    case "minusone": return self &- 1
    case "even": return (self & 1) == 0
    case "odd": return (self & 1) == 1
    default: return nil
    }
  }
}

extension Int: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension Int8: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension Int16: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension Int32: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension Int64: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension UInt: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension UInt8: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension UInt16: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension UInt32: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
extension UInt64: TemplateTransformable {
  func templateTransform(_ name: String) -> Any? { integerTransform(name) }
}
