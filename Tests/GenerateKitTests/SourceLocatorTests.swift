import Testing

@testable import GenerateKit

/// Source positions from bytes alone: no parser involved.
@Suite struct SourceLocatorTests {
  private func withLocator<T>(_ text: String, _ body: (inout SourceLocator) -> T) -> T {
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      var locator = SourceLocator(source: buffer)
      return body(&locator)
    }
  }

  /// A NUL-terminated copy of `text`, as libxml2 hands names over.
  private func withName<T>(_ text: String?, _ body: (UnsafePointer<UInt8>?) -> T) -> T {
    guard let text else { return body(nil) }
    return Array(text.utf8 + [0]).withUnsafeBufferPointer { body($0.baseAddress) }
  }

  @Test func countsLinesAndColumnsInUnicodeScalars() {
    let text = "ab\nçé<x>\n\n😀z"
    withLocator(text) { locator in
      #expect(locator.lineAndColumn(at: 0) == (1, 1))
      #expect(locator.lineAndColumn(at: 1) == (1, 2))
      // `ç` and `é` are two bytes each: `<` is byte 7, column 3.
      #expect(locator.lineAndColumn(at: 7) == (2, 3))
      #expect(locator.lineAndColumn(at: 11) == (3, 1))
      // Out of order works too (the cache of the last answer is not reused).
      #expect(locator.lineAndColumn(at: 3) == (2, 1))
      #expect(locator.lineAndColumn(at: 16) == (4, 2))
    }
  }

  @Test func findsTheStartTagFromItsEnd() {
    let text = #"<p><svg:use a="1" xlink:href='#i' /></p>"#
    let useEnd = Array(text.utf8).firstIndex(of: UInt8(ascii: "/"))! + 1
    withLocator(text) { locator in
      withName("svg") { prefix in
        withName("use") { name in
          #expect(locator.tagStart(endingAt: useEnd, prefix: prefix, name: name) == 3)
          // The wrong name finds nothing rather than the wrong place.
          #expect(locator.tagStart(endingAt: useEnd, prefix: nil, name: name) == nil)
          withName("xlink") { xlink in
            withName("href") { href in
              #expect(locator.attributeStart(prefix: xlink, name: href, inTagAt: 3) == 18)
            }
          }
          withName("a") { a in #expect(locator.attributeStart(prefix: nil, name: a, inTagAt: 3) == 12) }
          withName("b") { b in #expect(locator.attributeStart(prefix: nil, name: b, inTagAt: 3) == nil) }
        }
      }
    }
  }

  @Test func aQuotedGreaterThanDoesNotEndTheTag() {
    let text = #"<a title="x > y" href="/z">"#
    withLocator(text) { locator in
      withName("href") { href in
        #expect(locator.attributeStart(prefix: nil, name: href, inTagAt: 0) == 17)
      }
    }
  }
}

/// Name lookups by pointer identity, as the parser's dictionary allows.
@Suite struct InternedNamesTests {
  @Test func findsKnownNamesByIdentityNotText() {
    let interned = Array("aria-controls".utf8 + [0])
    let lookalike = Array("aria-controls".utf8 + [0])
    interned.withUnsafeBufferPointer { internedBuffer in
      lookalike.withUnsafeBufferPointer { lookalikeBuffer in
        let names = InternedNames { $0 == .ariaControls ? internedBuffer.baseAddress : nil }
        #expect(names.lookup(internedBuffer.baseAddress) == .ariaControls)
        // Same text, another copy: not a name this document interned.
        #expect(names.lookup(lookalikeBuffer.baseAddress) == nil)
        #expect(names.lookup(nil) == nil)
      }
    }
  }

  @Test func withoutADictionaryComparesText() {
    let names = InternedNames(comparesText: true) { _ in nil }
    Array("xlink:href".utf8 + [0]).withUnsafeBufferPointer {
      #expect(names.lookup($0.baseAddress) == .xlinkHref)
    }
    Array("nosuch".utf8 + [0]).withUnsafeBufferPointer { #expect(names.lookup($0.baseAddress) == nil) }
  }

  @Test func everyKnownNameIsFoundAmongManyOthers() {
    // More names than slots would be a table bug; all known ones at once is
    // the worst realistic load.
    let buffers = KnownName.allCases.map { Array($0.rawValue.utf8 + [0]) }
    let pointers = buffers.map { buffer -> UnsafeMutablePointer<UInt8> in
      let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: buffer.count)
      pointer.initialize(from: buffer, count: buffer.count)
      return pointer
    }
    defer { pointers.forEach { $0.deallocate() } }
    let byName = Dictionary(uniqueKeysWithValues: zip(KnownName.allCases, pointers))
    let names = InternedNames { byName[$0].map { UnsafePointer($0) } }
    for (name, pointer) in byName { #expect(names.lookup(pointer) == name) }
  }
}
