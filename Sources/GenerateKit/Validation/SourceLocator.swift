#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds where things are in a page's bytes: the `<` of a start tag, the
/// name of one of its attributes, and the line and column of an offset.
///
/// libxml2 gives each element only a line. The parser records where each
/// start tag ends (`LibXML2.Element.startTagEnd`); from there, since the
/// page is well-formed, a small lexer is exact.
struct SourceLocator {
  let source: UnsafeBufferPointer<UInt8>
  private var lineStarts: [Int] = []
  /// The last answer: requests come mostly in source order, so the next
  /// column on the same line is counted on from here rather than from the
  /// line start (a minified page is one long line).
  private var last: (offset: Int, line: Int, column: Int) = (0, 1, 1)

  init(source: UnsafeBufferPointer<UInt8>) {
    self.source = source
  }

  // MARK: Lines and columns

  /// 1-based line and column; columns count Unicode scalars, as libxml2's
  /// own error columns do. The line table is built on the first call, and
  /// only problems are ever located, so a page with none never pays for it.
  mutating func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
    if lineStarts.isEmpty { buildLineTable() }
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    let line = low + 1
    let column =
      last.line == line && last.offset <= offset
      ? last.column + scalarCount(from: last.offset, to: offset)
      : scalarCount(from: lineStarts[low], to: offset) + 1
    last = (offset, line, column)
    return (line, column)
  }

  private mutating func buildLineTable() {
    lineStarts.reserveCapacity(source.count / 32 + 1)
    lineStarts.append(0)
    guard let base = source.baseAddress else { return }
    var index = 0
    while index < source.count,
      let newline = memchr(base + index, Int32(UInt8(ascii: "\n")), source.count - index)
    {
      index = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
      lineStarts.append(index)
    }
  }

  /// Bytes that start a UTF-8 sequence, i.e. are not continuation bytes.
  private func scalarCount(from start: Int, to end: Int) -> Int {
    guard let base = source.baseAddress, start < end else { return 0 }
    var count = 0
    // Branch-free with wrapping arithmetic, so the compiler can vectorize it.
    for index in start..<min(end, source.count) { count &+= base[index] & 0xC0 == 0x80 ? 0 : 1 }
    return count
  }

  // MARK: Tags and attributes

  /// The offset of a start tag's `<`, found by scanning back from the end
  /// of the tag and checked against the element's name.
  func tagStart(endingAt end: Int, prefix: UnsafePointer<UInt8>?, name: UnsafePointer<UInt8>?) -> Int? {
    guard !source.isEmpty else { return nil }
    var index = min(end, source.count - 1)
    while index >= 0, source[index] != UInt8(ascii: "<") { index -= 1 }
    guard index >= 0 else { return nil }
    let nameEnd = skipName(from: index + 1)
    guard matchesQualifiedName(prefix, name, from: index + 1, to: nameEnd) else { return nil }
    return index
  }

  /// The offset where an attribute's name starts inside the start tag that
  /// begins at `start`. The tag is well-formed, so this small lexer is exact.
  func attributeStart(prefix: UnsafePointer<UInt8>?, name: UnsafePointer<UInt8>?, inTagAt start: Int) -> Int?
  {
    var index = skipName(from: start + 1)
    while true {
      while index < source.count, HTMLFacts.isASCIIWhitespace(source[index]) { index += 1 }
      guard index < source.count, source[index] != UInt8(ascii: ">"), source[index] != UInt8(ascii: "/")
      else { return nil }
      let nameStart = index
      while index < source.count, source[index] != UInt8(ascii: "="),
        !HTMLFacts.isASCIIWhitespace(source[index])
      {
        index += 1
      }
      if matchesQualifiedName(prefix, name, from: nameStart, to: index) { return nameStart }
      while index < source.count, source[index] != UInt8(ascii: "=") { index += 1 }
      index += 1
      while index < source.count, HTMLFacts.isASCIIWhitespace(source[index]) { index += 1 }
      guard index < source.count else { return nil }
      let quote = source[index]
      index += 1
      while index < source.count, source[index] != quote { index += 1 }
      index += 1
    }
  }

  private func skipName(from start: Int) -> Int {
    var index = start
    while index < source.count {
      let byte = source[index]
      if HTMLFacts.isASCIIWhitespace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
      index += 1
    }
    return index
  }

  /// Whether `source[from..<to]` spells `prefix:name` (or `name`).
  private func matchesQualifiedName(
    _ prefix: UnsafePointer<UInt8>?, _ name: UnsafePointer<UInt8>?, from: Int, to end: Int
  ) -> Bool {
    guard let name else { return false }
    var index = from
    func consume(_ text: UnsafePointer<UInt8>) -> Bool {
      var pointer = text
      while pointer.pointee != 0 {
        guard index < end, source[index] == pointer.pointee else { return false }
        index += 1
        pointer += 1
      }
      return true
    }
    if let prefix {
      guard consume(prefix), index < end, source[index] == UInt8(ascii: ":") else { return false }
      index += 1
    }
    return consume(name) && index == end
  }
}
