import Foundation
import Testing

@testable import GenerateKit

/// A–Z in the reader's language: ICU's collation through Foundation, the
/// letter index the language uses, and counts grouped as it writes numbers.
@Suite struct CollationTests {
  func sorted(_ titles: [String], _ language: String) -> [String] {
    let collation = Collation(language: language)
    return titles.sorted {
      let (a, b) = (BrowsePages.sortKey($0), BrowsePages.sortKey($1))
      return BrowsePages.order(a, b, letters: (collation.letter(a), collation.letter(b)), collation) ?? false
    }
  }

  @Test func eachLanguageFilesItsOwnLetters() {
    #expect(
      sorted(["Oso", "Ñandú", "Nube", "Árbol", "Zorro"], "es") == ["Árbol", "Nube", "Ñandú", "Oso", "Zorro"])
    // German files Ä with A; Swedish after Z.
    #expect(sorted(["Zypern", "Ägypten", "Albanien"], "de") == ["Ägypten", "Albanien", "Zypern"])
    #expect(sorted(["Örebro", "Oslo", "Zürich", "Åland"], "sv") == ["Oslo", "Zürich", "Åland", "Örebro"])
    // Kana in gojūon order, katakana with hiragana, then kanji.
    #expect(sorted(["東京", "ドイツ", "あおもり", "カナダ"], "ja") == ["あおもり", "カナダ", "ドイツ", "東京"])
    // Word by word: nothing before something, as before collation.
    #expect(
      sorted(
        ["Ainda É Cedo", "Ain't My Bitch", "A Kind Of Magic", "À Francesa", "100% HardCore", "1/2 Full"], "en"
      ) == [
        "1/2 Full", "100% HardCore", "À Francesa", "A Kind Of Magic", "Ainda É Cedo", "Ain't My Bitch",
      ])
  }

  @Test func theLetterIndexIsTheLanguages() {
    let letter = { (title: String, language: String) in
      Collation(language: language).letter(BrowsePages.sortKey(title))
    }
    #expect(letter("Ñandú", "es") == "Ñ")
    #expect(letter("Ñandú", "en") == "N")
    #expect(letter("Österreich", "de") == "O")
    #expect(letter("Örebro", "sv") == "Ö")
    #expect(letter("ёлка", "ru") == "Е")
    #expect(letter("Москва", "ru") == "М")
    #expect(letter("أستراليا", "ar") == "ا")
    // The definite article is no letter to file under (Arabic catalogues skip it); a name whose
    // first letters only look like it is filed as written.
    #expect(letter("الجزائر", "ar") == "ج")
    #expect(letter("الإمارات العربية المتحدة", "ar") == "ا")
    #expect(letter("ال", "ar") == "ا")
    #expect(letter("البحرين", "ar") == "ب")
    #expect(
      sorted(["الجزائر", "بلجيكا", "جزر القمر", "أستراليا"], "ar") == [
        "أستراليا", "بلجيكا", "الجزائر", "جزر القمر",
      ])
    #expect(letter("ガーナ", "ja") == "か")
    #expect(letter("ちゃ", "ja") == "た")
    #expect(letter("ヨルダン", "ja") == "や")
    #expect(letter("ンゴマ", "ja") == "わ")
    #expect(letter("京都", "ja") == "漢")
    #expect(letter("北京", "zh") == "…")
    #expect(letter("1999", "en") == "#")
    #expect(letter("\"?\"", "en") == "#")
  }

  /// A long list is sorted with its keys prepared once (`Collation.Keys`):
  /// code points decide between plain ASCII keys only where the language
  /// orders them so. Danish files `aa` as `å`, after `z`; Czech `ch` after
  /// `h`; Hungarian `cs` after `c`; Lithuanian `y` with `i`: each must come
  /// out as ICU, asked pair by pair, orders it.
  @Test func preparedKeysSortAsICUAskedPairByPair() {
    let titles = [
      "Aalborg", "Azur", "Ab", "Chata", "Cihla", "Hrad", "Csók", "Cz", "Yra", "Ilgas", "Jonas", "Vin", "Wien",
      "Ägypten", "Zürich", "100% HardCore", "1/2 Full", "À Francesa", "A Kind Of Magic", "Ain't My Bitch",
      "Ainda É Cedo", "Ñandú", "Nube", "Llama", "Luz", "Åland", "Oslo", "Örebro", "Москва", "ёлка", "東京",
      "カナダ", "الجزائر", "بلجيكا", "İstanbul", "Izmir", "Łódź", "Lublin", "a b", "ab", "a", "Ab", "AB",
    ]
    for language in ["en", "de", "es", "sv", "da", "cs", "hu", "lt", "fr", "tr", "pl", "ru", "ja", "ar"] {
      let collation = Collation(language: language)
      let reference = titles.indices.sorted { i, j in
        let (a, b) = (BrowsePages.sortKey(titles[i]), BrowsePages.sortKey(titles[j]))
        if let order = BrowsePages.order(a, b, letters: (collation.letter(a), collation.letter(b)), collation)
        {
          return order
        }
        return titles[i] != titles[j] ? titles[i] < titles[j] : i < j
      }
      let keys = Collation.Keys(titles.map(BrowsePages.sortKey), collation)
      let prepared = titles.indices.sorted { i, j in
        keys.ascending(i, j) ?? (titles[i] != titles[j] ? titles[i] < titles[j] : i < j)
      }
      #expect(prepared.map { titles[$0] } == reference.map { titles[$0] }, "\(language)")
    }
    #expect(Collation(language: "en").plainKeysInCodePointOrder)
    #expect(!Collation(language: "da").plainKeysInCodePointOrder)
  }

  @Test func countsAreGroupedAsTheLanguageWritesNumbers() {
    #expect(Collation(language: "en").count(3503, "song") == "3,503 songs")
    #expect(Collation(language: "de").number(3503) == "3.503")
    #expect(Collation(language: "en").count(1) == "1 record")
  }

  @Test func aSpanishSitesAToZFilesÑAfterN() throws {
    let folder = try emptyFolder("browse-es")
    defer { try? FileManager.default.removeItem(at: folder) }
    let titles = ["Oso", "Ñandú", "Nube", "Árbol", "Zorro"]
    let rows = ["id,title"] + titles.enumerated().map { "\($0.offset + 1),\($0.element)" }
    try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("books.csv"))
    try Data(
      """
      title: Biblioteca
      language: es
      tables:
        books: { file: books.csv, key: id }
      collections:
        - id: books
          label: Libros
          singular: Libro
          table: books
          title: title
          page: { template: record, path: "books/{{slug}}/" }

      """.utf8
    ).write(to: folder.appendingPathComponent("site.yml"))
    let (files, _) = try BrowsePageTests.build(folder)
    let list = try #require(files["browse/books/index.html"])
    #expect(
      BrowsePageTests.recordLinks(list).map { String($0.prefix { $0 != "-" }) } == ["4", "3", "2", "1", "5"])
    #expect(list.contains("<a href=\"/browse/books/#letter-ud1\">Ñ</a>"), "\(list)")
    #expect(list.contains("id=\"letter-ud1\""))
  }
}
