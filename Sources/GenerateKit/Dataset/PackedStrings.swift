import Foundation

/// Strings kept end to end as UTF-8 in one buffer, with where each ends: a
/// column's values as a few arrays instead of a String each.
///
/// A String costs 16 bytes in its array, and one longer than 15 bytes of
/// UTF-8 a heap object besides (a 32-byte header, its bytes, malloc's
/// rounding): about 96 bytes for a 40-byte song title, against 44 here. At a
/// million records the tables were a quarter of the build's peak memory.
/// Reading a value makes a String again (without allocating for one of 15
/// bytes or fewer), with the same bytes that were stored.
struct PackedStrings: Equatable, Sendable {
  private var bytes: [UInt8] = []
  /// The end of each string in `bytes`, while they fit in 32 bits.
  private var ends: [UInt32] = []
  /// Every end, once `bytes` has passed 4 GiB (then `ends` is empty).
  private var wideEnds: [Int]?

  init() {}

  init(_ strings: some Sequence<String>) {
    for string in strings { append(string) }
  }

  var count: Int { wideEnds?.count ?? ends.count }
  var isEmpty: Bool { count == 0 }

  subscript(index: Int) -> String {
    let start = index == 0 ? 0 : end(of: index - 1)
    let stop = end(of: index)
    return bytes.withUnsafeBufferPointer { buffer in
      String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<stop]), as: UTF8.self)
    }
  }

  mutating func append(_ string: String) {
    var string = string
    string.withUTF8 { bytes.append(contentsOf: $0) }
    let end = bytes.count
    if wideEnds == nil && end > Int(UInt32.max) {
      wideEnds = ends.map(Int.init)
      ends = []
    }
    if wideEnds != nil {
      wideEnds?.append(end)
    } else {
      ends.append(UInt32(end))
    }
  }

  /// Gives back what growing by doubling reserved beyond the last value.
  mutating func trimCapacity() {
    // A copy from a buffer is allocated for its count; `Array(array)` may
    // share the old buffer instead.
    if bytes.capacity > bytes.count { bytes = bytes.withUnsafeBufferPointer { Array($0) } }
    if ends.capacity > ends.count { ends = ends.withUnsafeBufferPointer { Array($0) } }
    if let wide = wideEnds, wide.capacity > wide.count {
      wideEnds = wide.withUnsafeBufferPointer { Array($0) }
    }
  }

  /// How many bytes of UTF-8 value `index` has.
  func utf8Count(_ index: Int) -> Int {
    end(of: index) - (index == 0 ? 0 : end(of: index - 1))
  }

  /// Whether value `a`'s UTF-8 sorts before value `b`'s, byte by byte (as
  /// `a.utf8.lexicographicallyPrecedes(b.utf8)`), without making either a
  /// String.
  func utf8Precedes(_ a: Int, _ b: Int) -> Bool {
    compareBytes(a, b) < 0
  }

  /// Whether values `a` and `b` hold the same bytes.
  func sameBytes(_ a: Int, _ b: Int) -> Bool {
    compareBytes(a, b) == 0
  }

  /// Values `a` and `b` in String order (`a < b`, Unicode's canonical
  /// equivalence), nil when they are equal as Strings. Two ASCII values
  /// are compared by their bytes, as String compares them, without making
  /// either a String: sorting millions of titles, most of them ASCII, made
  /// two Strings a comparison (and a heap copy of each past 15 bytes).
  func stringOrder(_ a: Int, _ b: Int) -> Bool? {
    let order = compareBytes(a, b)
    if order == 0 { return nil }
    if isASCII(a) && isASCII(b) { return order < 0 }
    let (x, y) = (self[a], self[b])
    return x == y ? nil : x < y
  }

  /// Whether value `index` is ASCII alone.
  func isASCII(_ index: Int) -> Bool {
    let (start, stop) = (index == 0 ? 0 : end(of: index - 1), end(of: index))
    return bytes.withUnsafeBufferPointer { buffer in
      var at = start
      // Eight bytes at a time, then the rest.
      if let base = buffer.baseAddress {
        while at + 8 <= stop {
          if UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
            return false
          }
          at += 8
        }
      }
      while at < stop {
        if buffer[at] >= 0x80 { return false }
        at += 1
      }
      return true
    }
  }

  /// Value `index`'s UTF-8, without making it a String.
  func withBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let (start, stop) = (index == 0 ? 0 : end(of: index - 1), end(of: index))
    return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<stop])) }
  }

  private func compareBytes(_ a: Int, _ b: Int) -> Int {
    let (startA, stopA) = (a == 0 ? 0 : end(of: a - 1), end(of: a))
    let (startB, stopB) = (b == 0 ? 0 : end(of: b - 1), end(of: b))
    let (countA, countB) = (stopA - startA, stopB - startB)
    let shared = Swift.min(countA, countB)
    let order = bytes.withUnsafeBufferPointer { buffer -> Int32 in
      guard shared > 0, let base = buffer.baseAddress else { return 0 }
      return memcmp(base + startA, base + startB, shared)
    }
    if order != 0 { return Int(order) }
    return countA - countB
  }

  private func end(of index: Int) -> Int {
    if let wideEnds { return wideEnds[index] }
    return Int(ends[index])
  }
}
