/// A value shared by reference: a closure handed to another thread, or a
/// value one holder drops for every other (the index build's postings).
/// Unchecked: whoever shares one orders its reads and writes.
final class Box<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
