import Foundation
import Testing

@testable import GenerateKit

struct NormalizationTests {
  struct Case: Decodable {
    var input: String
    var terms: [String]
  }

  /// The same cases the browser engine's tests run (Tests/Shared), so the
  /// two sides can never drift apart without a failing test.
  @Test func sharedCasesMatchTheBrowserEngine() throws {
    let data = try Data(
      contentsOf: packageRoot.appendingPathComponent("Tests/Shared/normalization-cases.json"))
    let cases = try JSONDecoder().decode([Case].self, from: data)
    #expect(cases.count >= 10)
    for item in cases {
      #expect(TextNormalizer.terms(item.input) == item.terms, "terms of \(item.input.debugDescription)")
    }
  }

  /// `normalize` takes common scalars one at a time from a table and the
  /// rest a run at a time: the same text as NFKD over the whole string.
  @Test func normalizingByPiecesIsNormalizingTheWhole() {
    let pieces = [
      "Song", " · ", "Ábaco", "e\u{301}\u{323}", "ĳ", "ŉ", "İstanbul", "ΣΑΣ", "Straße", "L’Arc", "'", "…",
      "½",
      "\u{301}", "ø\u{301}", "東京", "ﬁ", "Ⅻ", "\u{0F71}\u{0F72}", "Œuvre", "—", "x", "&", "👍🏽", "ǅ", "\u{2003}",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }
      .joined()
      for keeping in [false, true] {
        #expect(
          TextNormalizer.normalize(text, keepingApostrophes: keeping)
            == TextNormalizer.slowNormalize(text, keepingApostrophes: keeping), "\(text.debugDescription)")
      }
    }
  }

  /// ASCII text is cut into terms on its bytes: the same terms, in the
  /// same order, as a scalar at a time.
  @Test func asciiTermsAreTheTermsOfTheScalars() {
    let pieces = [
      "ac", "/", "dc", " ", "&", "l'arc", "  ", "python3-zope.interface", "\t", "x", "-", "42", "\n",
      "a.b.c.d", "&&",
      "é", "q", "\u{1C}", "\u{0B}", "\u{7F}", "\r",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<3000 {
      let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
      var fast: [String] = []
      var scalars: [String] = []
      let normalized = TextNormalizer.normalize(text, keepingApostrophes: true)
      TextNormalizer.forEachTerm(in: text) { fast.append("\($0)\($1)") }
      TextNormalizer.forEachScalarTerm(in: normalized) { scalars.append("\($0)\($1)") }
      #expect(fast == scalars, "\(text.debugDescription)")
    }
  }

  @Test func foldsCaseAndDiacritics() {
    #expect(TextNormalizer.normalize("São Tomé") == "sao tome")
    #expect(TextNormalizer.normalize("BEYONCÉ") == "beyonce")
    #expect(TextNormalizer.normalize("Straße Øresund") == "strasse oresund")
    #expect(TextNormalizer.normalize("ﬁve") == "five")
  }

  @Test func punctuationInsideAChunkAlsoYieldsTheJoinedTermAndItsTails() {
    #expect(TextNormalizer.terms("AC/DC") == ["ac", "dc", "acdc"])
    #expect(TextNormalizer.terms("R.E.M. live") == ["r", "e", "m", "rem", "em", "live"])
    #expect(
      TextNormalizer.terms("python3-zope.interface")
        == ["python3", "zope", "interface", "python3zopeinterface", "zopeinterface"])
    #expect(TextNormalizer.terms("Don't Stop") == ["don", "t", "dont", "stop"])
    #expect(TextNormalizer.terms("L'Arc En Ciel") == ["l", "arc", "larc", "en", "ciel"])
    #expect(TextNormalizer.terms("Page & Plant") == ["page", "and", "plant"])
  }

  @Test func slugsAreReadableAndASCII() {
    #expect(
      TextNormalizer.slug("For Those About To Rock (We Salute You)")
        == "for-those-about-to-rock-we-salute-you")
    #expect(TextNormalizer.slug("Você É Linda") == "voce-e-linda")
    #expect(DocumentBuilder.slug(key: "22", title: "Led Zeppelin") == "22-led-zeppelin")
    #expect(DocumentBuilder.slug(key: "Côte d'Ivoire", title: "x") == "cote-divoire")
  }
}
