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

  /// A Chinese term is indexed also in the other script (FORMAT.md "Han
  /// variants"): a visitor in Taipei types `德國` for 德国, one in Beijing
  /// `东京` for 東京; a character that is both (`机` is also a traditional
  /// character) takes its usual other form; text without Han has none.
  @Test func hanTermsHaveTheirOtherScript() {
    #expect(HanVariants.variants(of: "德国") == ["德國"])
    #expect(HanVariants.variants(of: "國際") == ["国际"])
    #expect(HanVariants.variants(of: "東京") == ["东京"])
    #expect(HanVariants.variants(of: "机场") == ["機場"])
    #expect(HanVariants.variants(of: "日本").isEmpty)
    #expect(HanVariants.variants(of: "タワー").isEmpty)
    #expect(HanVariants.variants(of: "stockholm").isEmpty)
  }

  /// `normalize` takes common scalars one at a time from a table and the
  /// rest a run at a time: the same text as NFKD over the whole string.
  @Test func normalizingByPiecesIsNormalizingTheWhole() {
    let pieces = [
      "Song", " · ", "Ábaco", "e\u{301}\u{323}", "ĳ", "ŉ", "İstanbul", "ΣΑΣ", "Straße", "L’Arc", "'", "…",
      "½",
      "\u{301}", "ø\u{301}", "東京", "ﬁ", "Ⅻ", "\u{0F71}\u{0F72}", "Œuvre", "—", "x", "&", "👍🏽", "ǅ", "\u{2003}",
      "らーめん", "ﾗｰﾒﾝ", "ΟΔΟΣ", "مكة", "كـتـاب", "ایران", "٢٦", "۱۲", "२०११", "เชียงใหม่", "भारत",
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

  /// What a native speaker types finds what the data writes: the same
  /// normalised text on both sides (`Tests/js/scripts-site.test.js` searches them).
  @Test func lettersTypedOneForTheOtherAreOne() {
    let same: [(typed: String, written: String)] = [
      ("らーめん", "ラーメン"), ("ﾗｰﾒﾝ", "ラーメン"), ("ウドン", "うどん"),
      ("القاهره", "القاهرة"), ("مكه", "مكة"), ("اسبانيا", "إسبانيا"), ("مستشفي", "مستشفى"),
      ("كتاب", "كـتـاب"),
      ("ايران", "ایران"), ("كرمان", "کرمان"),
      ("26", "٢٦"), ("12", "۱۲"), ("2011", "२०११"), ("9", "๙"), ("2020", "２０２０"),
      ("οδος", "ΟΔΟΣ"), ("κυπροσ", "Κύπρος"), ("istanbul", "İstanbul"), ("igdir", "IĞDIR"),
      ("da nang", "Đà Nẵng"),
      ("בראשית", "בְּרֵאשִׁית"), ("फ्रान्स", "फ़्रान्स"),
    ]
    for (typed, written) in same {
      #expect(TextNormalizer.normalize(typed) == TextNormalizer.normalize(written), "\(typed) for \(written)")
    }
    // A vowel sign that takes its own space is part of its word: भारत is not भरत.
    #expect(TextNormalizer.terms("भारत") == ["भारत"])
    #expect(TextNormalizer.normalize("भारत") != TextNormalizer.normalize("भरत"))
  }

  /// Thai, Lao, Khmer and Burmese names are found by a word inside them,
  /// which starts a term; a word that does not start a syllable does not.
  @Test func aWordInsideASpacelessNameStartsATerm() {
    func found(_ word: String, in name: String) -> Bool {
      let typed = TextNormalizer.normalize(word)
      return TextNormalizer.terms(name).contains { $0.hasPrefix(typed) }
    }
    #expect(found("ใหม่", in: "เชียงใหม่"))
    #expect(found("เทพ", in: "กรุงเทพมหานคร"))
    #expect(found("มหานคร", in: "กรุงเทพมหานคร"))
    #expect(found("ธานี", in: "อุดรธานี"))
    #expect(found("ລາວ", in: "ສາທາລະນະລັດປະຊາທິປະໄຕປະຊາຊົນລາວ"))
    #expect(found("អាមេរិក", in: "សហរដ្ឋអាមេរិក"))
    #expect(found("ပြည်ထောင်စု", in: "အမေရိကန်ပြည်ထောင်စု"))
    // A following vowel, or the consonant after a leading vowel, starts no syllable.
    #expect(!found("า", in: "มหานคร"))
    #expect(!found("ชียง", in: "เชียงใหม่"))
    // Thai vowels and tones are kept: shrimp is not the กง of ฮ่องกง.
    #expect(!found("กุ้ง", in: "ฮ่องกง"))
    // A piece is at most 20 characters, and a Latin run has none.
    #expect(
      TextNormalizer.terms(String(repeating: "กข", count: 30)).dropFirst().allSatisfy {
        $0.unicodeScalars.count <= 20
      })
    #expect(TextNormalizer.terms("Chiang Mai") == ["chiang", "mai"])
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
