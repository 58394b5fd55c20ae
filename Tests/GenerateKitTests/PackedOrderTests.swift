import Testing

@testable import GenerateKit

/// The orders made without Strings or comparisons (issue 34 item 5): each
/// must be the order the Strings or the comparison sort gave, or the
/// ranking, the A–Z pages and the sort files of a large site would change.
@Suite struct PackedOrderTests {
  /// Texts whose bytes and String order disagree, or that are equal as
  /// Strings with other bytes: precomposed and decomposed é, the Kelvin
  /// sign (canonically a K), a combining accent after an ASCII letter.
  static let texts = [
    "", "a", "b", "ab", "abc", "B", "K", "\u{212A}", "caf\u{E9}", "cafe\u{301}", "cafe", "caff", "e\u{301}",
    "f",
    "zo\u{EB}", "zoe", "Zoe", "z", "\u{E9}", "e", "a b", "a  b", "ß", "ss", "日本", "x\u{301}y",
  ]

  @Test func packedTextsOrderAsTheirStringsDo() {
    let packed = PackedStrings(Self.texts)
    for (i, a) in Self.texts.enumerated() {
      for (j, b) in Self.texts.enumerated() {
        let expected: Bool? = a == b ? nil : a < b
        #expect(packed.stringOrder(i, j) == expected, "\(a.debugDescription) vs \(b.debugDescription)")
      }
    }
    // The decomposed forms are the same texts as the precomposed ones, so
    // a sort by title keeps them one run, as String equality did.
    #expect(packed.stringOrder(8, 9) == nil)
    #expect(packed.stringOrder(6, 7) == nil)
    // Bytes say `cafe\u{301}` before `caff`; Strings (and so the order) say after.
    #expect(packed.stringOrder(9, 11) == false)
  }

  @Test func asciiIsToldByEveryByte() {
    let texts = ["", "abcdefgh", "abcdefghi", "abcdefg\u{E9}", "\u{E9}abcdefgh", "abcdefghijklmno\u{E9}"]
    let packed = PackedStrings(texts)
    #expect(texts.indices.map(packed.isASCII) == [true, true, true, false, false, false])
  }

  /// The A–Z places: runs sorted on all cores and merged give the order a
  /// single sort gives, for a count past one run and an odd number of runs.
  @Test func sortedInRunsIsOneSort() {
    var generator = SystemRandomNumberGenerator()
    let numbers = (0..<200_003).map { _ in Int32.random(in: 0..<1_000_000, using: &generator) }
    let unique = Array(Set(numbers))
    // Many ties on the first key, broken by the number: a total order, as the A–Z one is.
    let ascending = { (a: Int32, b: Int32) -> Bool in a % 97 != b % 97 ? a % 97 < b % 97 : a > b }
    #expect(BrowsePages.sorted(unique, by: ascending) == unique.sorted(by: ascending))
    #expect(BrowsePages.sorted([3, 1, 2], by: <) == [1, 2, 3])
    #expect(BrowsePages.sorted([], by: <) == [])
  }

  /// A sort's chunks, its documents counted into rank order, are what the
  /// comparison sort made: rank, then document; none for a document without a value.
  @Test func chunksCountedAreChunksCompared() {
    var generator = SystemRandomNumberGenerator()
    let ranks = (0..<20_000).map { _ in Int.random(in: -1..<300, using: &generator) }
    let ordered = ranks.indices.filter { ranks[$0] >= 0 }.sorted {
      ranks[$0] != ranks[$1] ? ranks[$0] < ranks[$1] : $0 < $1
    }
    let chunks = ValueKeyStage.chunks(ranks, size: 1000)
    #expect(chunks.flatMap { $0.ids.numbers.map(Int.init) }.sorted() == ordered.sorted())
    // Each chunk holds a run of `ordered`: its documents, ascending.
    var start = 0
    for chunk in chunks {
      let members = chunk.ids.numbers.map(Int.init)
      #expect(members == ordered[start..<start + members.count].sorted())
      #expect(chunk.base == ranks[ordered[start]])
      start += members.count
    }
    #expect(start == ordered.count)
    #expect(ValueKeyStage.chunks([-1, -1], size: 4).isEmpty)
    #expect(ValueKeyStage.chunks([], size: 4).isEmpty)
  }
}
