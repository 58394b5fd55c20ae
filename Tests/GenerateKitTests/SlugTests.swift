import Testing

@testable import GenerateKit

/// Every record gets a readable page path, whatever its script.
@Suite struct SlugTests {
  @Test func titlesInOtherScriptsAreTransliterated() {
    #expect(TextNormalizer.slug("Москва") == "moskva")
    #expect(TextNormalizer.slug("Αθήνα") == "athena")
    #expect(TextNormalizer.slug("東京") == "dong-jing")
    #expect(TextNormalizer.slug("한국어") == "hangug-eo")
    #expect(TextNormalizer.slug("Beyoncé – 東京") == "beyonce-dong-jing")
  }

  @Test func latinTitlesKeepTheirSlugs() {
    #expect(TextNormalizer.slug("AC/DC") == "ac-dc")
    #expect(TextNormalizer.slug("Røyksopp & Straße") == "royksopp-strasse")
    #expect(TextNormalizer.slug(String(repeating: "ab ", count: 40)).count <= 60)
    #expect(!TextNormalizer.slug(String(repeating: "ab ", count: 40)).hasSuffix("-"))
  }

  @Test func keysAndTitlesMakeTheRecordsSlug() {
    #expect(DocumentBuilder.slug(key: "12", title: "Back in Black") == "12-back-in-black")
    #expect(DocumentBuilder.slug(key: "12", title: "🎸") == "12")
    #expect(DocumentBuilder.slug(key: "ru", title: "Русский") == "ru")
    #expect(DocumentBuilder.slug(key: "Санкт-Петербург", title: "Санкт-Петербург") == "sankt-peterburg")
    #expect(DocumentBuilder.slug(key: "🎸", title: "🎻") != "")
    #expect(DocumentBuilder.slug(key: "🎸", title: "🎻") != DocumentBuilder.slug(key: "🎺", title: "🎻"))
  }
}

/// init writes the language its titles are written in.
@Suite struct SiteLanguageTests {
  @Test func theScriptOfTheTitlesDecides() {
    #expect(SiteLanguage.code(forTitles: ["日本", "アメリカ合衆国", "ドイツ"]) == "ja")
    #expect(SiteLanguage.code(forTitles: ["中国", "德国", "美国"]) == "zh")
    #expect(SiteLanguage.code(forTitles: ["대한민국", "미국"]) == "ko")
    #expect(SiteLanguage.code(forTitles: ["Ελλάδα", "Κίνα"]) == "el")
    #expect(SiteLanguage.code(forTitles: ["Москва", "Berlin"]) == "en")
    #expect(SiteLanguage.code(forTitles: ["AC/DC", "Beyoncé", "東京"]) == "en")
    #expect(SiteLanguage.code(forTitles: ["", "123"]) == "en")
  }
}
