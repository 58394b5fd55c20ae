import Foundation
import Testing

@testable import GenerateKit

/// Word forms: the Swift stemmer against the cases the browser's is held to.
struct WordFormsTests {
  struct Cases: Decodable {
    struct Case: Decodable {
      var word: String
      var stem: String
    }
    var cases: [Case]
  }

  @Test func sharedCasesMatchTheBrowserEngine() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Shared/word-forms-cases.json")
    let cases = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: url)).cases
    #expect(cases.count > 40)
    for c in cases { #expect(WordForms.englishStem(c.word) == c.stem, "\(c.word)") }
  }

  @Test func englishHasItsRulesAndSnowballTheOthers() {
    #expect(WordForms.rules(forLanguage: "en") == "en")
    #expect(WordForms.rules(forLanguage: "en-GB") == "en")
    #expect(WordForms.rules(forLanguage: "pt-BR") == "pt")
    #expect(WordForms.rules(forLanguage: "ru") == "ru")
    // No Snowball algorithm: exact words.
    #expect(WordForms.rules(forLanguage: "ja") == nil)
    #expect(WordForms.rules(forLanguage: "zh-Hant") == nil)
    #expect(WordForms.stem("loves", rules: nil) == "loves")
    #expect(WordForms.stem("loves", rules: "en") == "love")
  }

  struct SnowballCases: Decodable {
    struct Case: Decodable {
      var language: String
      var term: String
      var stem: String
    }
    var cases: [Case]
  }

  /// libstemmer through `Snowball` gives what python3-stemmer (the same library) gave when
  /// Tests/tools/snowball_endings.py wrote the cases, Russian's restored `й` included.
  @Test func snowballStemsAsLibstemmerDoes() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Shared/snowball-cases.json")
    let cases = try JSONDecoder().decode(SnowballCases.self, from: Data(contentsOf: url)).cases
    #expect(cases.count > 40)
    for c in cases {
      #expect(WordForms.stem(c.term, rules: c.language) == c.stem, "\(c.language) \(c.term)")
    }
    // Forms a person types meet at one stem.
    #expect(WordForms.stem("canciones", rules: "es") == WordForms.stem("cancion", rules: "es"))
    #expect(WordForms.stem("hauser", rules: "de") == WordForms.stem("haus", rules: "de"))
    #expect(WordForms.stem("странами", rules: "ru") == WordForms.stem("страна", rules: "ru"))
    // A term with a digit is its own stem.
    #expect(WordForms.stem("canciones2", rules: "es") == "canciones2")
  }

  /// Many threads stem at once through the pool of stemmers: each gets its own answer.
  @Test func snowballIsSafeAcrossThreads() {
    let words = ["canciones", "dolares", "libras", "chelines", "monedas", "idiomas"]
    let expected = words.map { WordForms.stem($0, rules: "es") }
    final class Results: @unchecked Sendable {
      let lock = NSLock()
      var stems = [String](repeating: "", count: 600)
    }
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 600) { i in
      let stem = WordForms.stem(words[i % words.count], rules: "es")
      results.lock.withLock { results.stems[i] = stem }
    }
    #expect(results.stems == (0..<600).map { expected[$0 % words.count] })
  }

  /// The manifest's endings: the language's (learnt from Debian's translations) and the site's.
  @Test func endingsJoinTheLanguagesAndTheSites() throws {
    #expect(WordForms.endings(of: ["loves", "love"], rules: "en") == nil)
    #expect(WordForms.endings(of: ["x"], rules: nil) == nil)
    let endings = try #require(WordForms.endings(of: ["canciones", "naciones", "cancion"], rules: "es"))
    #expect(endings.contains("es"))
    #expect(Set(SnowballEndings.byLanguage["es"] ?? []).isSubset(of: Set(endings)))
    #expect(endings == endings.sorted { ($0.unicodeScalars.count, $0) < ($1.unicodeScalars.count, $1) })
  }
}
