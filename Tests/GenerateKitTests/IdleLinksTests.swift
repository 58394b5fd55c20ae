import Testing

@testable import GenerateKit

/// The search page's trending links without JavaScript find a record whose
/// title holds a term's words in order: a hand-written byte search, so its
/// edges are checked here.
@Suite struct IdleLinksTests {
  func has(_ title: String, _ term: String) -> Bool {
    IdleLinks.contains(Array(" \(title) ".utf8), Array(" \(term) ".utf8))
  }

  @Test func aTermIsFoundAsWholeWordsAnywhereInTheTitle() {
    #expect(has("the dark side of the moon", "dark side"))
    #expect(has("the dark side of the moon", "the moon"))
    #expect(has("moon", "moon"))
    #expect(has("café del mar", "del mar"))
    #expect(!has("the dark side of the moon", "moo"))
    #expect(!has("the dark side", "side of"))
    #expect(!has("side", "dark side"))
    #expect(IdleLinks.contains([1, 2], []))
    #expect(!IdleLinks.contains([], [1]))
  }
}
