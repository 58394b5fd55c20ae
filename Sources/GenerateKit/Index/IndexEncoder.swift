/// A value that writes its own JSON: the format's long integer lists, which
/// an `Encoder` would box number by number.
protocol JSONFragment: Encodable {
  func write(into writer: inout JSONWriter)
}

extension JSONFragment {
  /// The bytes `IndexEncoder` writes for this value.
  var jsonBytes: [UInt8] {
    var writer = JSONWriter()
    write(into: &writer)
    return writer.bytes
  }
}

/// Encodes the index's `Codable` shapes (IndexFormat.swift) as FORMAT.md
/// writes them: keys sorted by their UTF-8 bytes, no white space, strings
/// escaped by `JSONWriter`, and a `JSONFragment` spliced in as it writes
/// itself. Foundation's `JSONEncoder` writes the same JSON for the small
/// shapes, but would box every number of a posting list one by one.
///
/// The value is first encoded into a `JSONValue` tree, then written.
enum IndexEncoder {
  /// The bytes come back in a buffer of their own size: every index file
  /// is kept until publishing, and what a writer reserved (a term shard's
  /// 12 KiB) or grew to by doubling was about as much again as the files.
  static func encode<T: Encodable>(_ value: T, capacity: Int = 256) throws -> [UInt8] {
    var writer = JSONWriter(capacity: capacity)
    writer.value(try tree(value, codingPath: []))
    let bytes = writer.bytes
    return bytes.capacity > bytes.count ? bytes.withUnsafeBufferPointer { Array($0) } : bytes
  }

  static func tree<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
    if let leaf = leaf(value) { return leaf }
    let encoder = TreeEncoder(codingPath: codingPath)
    try value.encode(to: encoder)
    return encoder.node.value
  }

  /// Values written without an encoder of their own.
  static func leaf<T: Encodable>(_ value: T) -> JSONValue? {
    // Concrete types first: a cast to one is a compare, a cast to a
    // protocol a conformance lookup.
    switch value {
    case let text as String: .string(text)
    case let number as Int: .int(number)
    case let number as Int32: .int(Int(number))
    case let flag as Bool: .bool(flag)
    case let texts as [String]: .array(texts.map(JSONValue.string))
    case let numbers as [Int]: .fragment(IntList(numbers: numbers))
    case let fragment as any JSONFragment: .fragment(fragment)
    default: nil
    }
  }
}

/// Plain integers (a distinct kind's groups, one per document): written
/// straight, not as one tree node each.
private struct IntList: JSONFragment {
  var numbers: [Int]

  func write(into writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    for (index, number) in numbers.enumerated() {
      if index > 0 { writer.byte(UInt8(ascii: ",")) }
      writer.int(number)
    }
    writer.byte(UInt8(ascii: "]"))
  }

  func encode(to encoder: any Encoder) throws { try numbers.encode(to: encoder) }
}

/// A container being filled: encoders and nested containers share it, so it
/// is a class.
private final class Node {
  enum Content {
    case empty
    case value(JSONValue)
    case object([String: Node])
    case array([Node])
  }

  var content = Content.empty

  init(_ content: Content = .empty) { self.content = content }

  var value: JSONValue {
    switch content {
    case .empty: .object([:])
    case .value(let value): value
    case .object(let members): .object(members.mapValues(\.value))
    case .array(let items): .array(items.map(\.value))
    }
  }

  /// Makes this node an object (keeping members already set) and returns
  /// the node for `key`.
  func member(_ key: String) -> Node {
    var members: [String: Node] = [:]
    if case .object(let existing) = content {
      members = existing
      content = .empty  // so `members` is the only reference, and grows in place
    }
    let child = members[key] ?? Node()
    members[key] = child
    content = .object(members)
    return child
  }

  func append() -> Node {
    var items: [Node] = []
    if case .array(let existing) = content {
      items = existing
      content = .empty
    }
    let child = Node()
    items.append(child)
    content = .array(items)
    return child
  }

  var count: Int {
    if case .array(let items) = content { return items.count }
    return 0
  }
}

private final class TreeEncoder: Encoder {
  let codingPath: [any CodingKey]
  let node: Node
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(codingPath: [any CodingKey], node: Node = Node()) {
    self.codingPath = codingPath
    self.node = node
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.content {} else { node.content = .object([:]) }
    return KeyedEncodingContainer(KeyedTreeContainer<Key>(codingPath: codingPath, node: node))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.content {} else { node.content = .array([]) }
    return UnkeyedTreeContainer(codingPath: codingPath, node: node)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleTreeContainer(codingPath: codingPath, node: node)
  }
}

/// The format has no fractional numbers; a shape that tried to write one is a bug.
private func noFractions(_ value: Any, _ codingPath: [any CodingKey]) -> EncodingError {
  EncodingError.invalidValue(
    value, .init(codingPath: codingPath, debugDescription: "the index format has no fractional numbers"))
}

private func integer<I: BinaryInteger>(_ value: I, _ codingPath: [any CodingKey]) throws -> JSONValue {
  guard let number = Int(exactly: value) else {
    throw EncodingError.invalidValue(
      value, .init(codingPath: codingPath, debugDescription: "\(value) does not fit an Int"))
  }
  return .int(number)
}

private struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let codingPath: [any CodingKey]
  let node: Node

  private func set(_ value: JSONValue, _ key: Key) { node.member(key.stringValue).content = .value(value) }
  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { throw noFractions(value, path(key)) }
  mutating func encode(_ value: Float, forKey key: Key) throws { throw noFractions(value, path(key)) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(try integer(value, path(key)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try integer(value, path(key)), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    if let leaf = IndexEncoder.leaf(value) { return set(leaf, key) }
    try value.encode(to: TreeEncoder(codingPath: path(key), node: node.member(key.stringValue)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    TreeEncoder(codingPath: path(key), node: node.member(key.stringValue)).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TreeEncoder(codingPath: path(key), node: node.member(key.stringValue)).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    TreeEncoder(codingPath: codingPath, node: node.member("super"))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    TreeEncoder(codingPath: path(key), node: node.member(key.stringValue))
  }
}

/// The position of an item in an array, as a coding path entry.
private struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { intValue.map(String.init) ?? "" }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
  let codingPath: [any CodingKey]
  let node: Node
  var count: Int { node.count }

  private func append(_ value: JSONValue) { node.append().content = .value(value) }
  private var next: [any CodingKey] { codingPath + [IndexKey(count)] }

  mutating func encodeNil() throws { append(.null) }
  mutating func encode(_ value: Bool) throws { append(.bool(value)) }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws { throw noFractions(value, next) }
  mutating func encode(_ value: Float) throws { throw noFractions(value, next) }
  mutating func encode(_ value: Int) throws { append(.int(value)) }
  mutating func encode(_ value: Int8) throws { append(try integer(value, next)) }
  mutating func encode(_ value: Int16) throws { append(try integer(value, next)) }
  mutating func encode(_ value: Int32) throws { append(try integer(value, next)) }
  mutating func encode(_ value: Int64) throws { append(try integer(value, next)) }
  mutating func encode(_ value: UInt) throws { append(try integer(value, next)) }
  mutating func encode(_ value: UInt8) throws { append(try integer(value, next)) }
  mutating func encode(_ value: UInt16) throws { append(try integer(value, next)) }
  mutating func encode(_ value: UInt32) throws { append(try integer(value, next)) }
  mutating func encode(_ value: UInt64) throws { append(try integer(value, next)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let leaf = IndexEncoder.leaf(value) { return append(leaf) }
    let path = next
    try value.encode(to: TreeEncoder(codingPath: path, node: node.append()))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let path = next
    return TreeEncoder(codingPath: path, node: node.append()).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = next
    return TreeEncoder(codingPath: path, node: node.append()).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = next
    return TreeEncoder(codingPath: path, node: node.append())
  }
}

private struct SingleTreeContainer: SingleValueEncodingContainer {
  let codingPath: [any CodingKey]
  let node: Node

  private func set(_ value: JSONValue) { node.content = .value(value) }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { throw noFractions(value, codingPath) }
  mutating func encode(_ value: Float) throws { throw noFractions(value, codingPath) }
  mutating func encode(_ value: Int) throws { set(.int(value)) }
  mutating func encode(_ value: Int8) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: Int16) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: Int32) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: Int64) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: UInt) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: UInt8) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: UInt16) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: UInt32) throws { set(try integer(value, codingPath)) }
  mutating func encode(_ value: UInt64) throws { set(try integer(value, codingPath)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let leaf = IndexEncoder.leaf(value) { return set(leaf) }
    try value.encode(to: TreeEncoder(codingPath: codingPath, node: node))
  }
}
