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

  @Test func onlyEnglishHasRules() {
    #expect(WordForms.rules(forLanguage: "en") == "en")
    #expect(WordForms.rules(forLanguage: "en-GB") == "en")
    #expect(WordForms.rules(forLanguage: "pt-BR") == nil)
    #expect(WordForms.stem("loves", rules: nil) == "loves")
    #expect(WordForms.stem("loves", rules: "en") == "love")
  }
}
