import Foundation
import Testing

@testable import GenerateKit

/// The languages whose words the index stems and `init` picks from the
/// data, each with its own interface: a site in it builds, validates and
/// speaks it, and its counts take the forms its grammar needs.
@Suite struct LocalizationLanguagesTests {
  /// Each language's Cancel, No Results and Not Found, as its own phones say them.
  static let words: [String: [String]] = [
    "fi": [">Kumoa</button>", "Ei tuloksia", "Ei löytynyt"],
    "da": [">Annuller</button>", "Ingen resultater", "Ikke fundet"],
    "nb": [">Avbryt</button>", "Ingen resultater", "Ikke funnet"],
    "cs": [">Zrušit</button>", "Žádné výsledky", "Nenalezeno"],
    "ro": [">Anulați</button>", "Niciun rezultat", "Negăsit"],
    "hu": [">Mégsem</button>", "Nincs találat", "Nem található"],
    "el": [">Ακύρωση</button>", "Κανένα αποτέλεσμα", "Δεν βρέθηκε"],
    "ca": [">Cancel·la</button>", "Cap resultat", "No s’ha trobat"],
    "sr": [">Откажи</button>", "Нема резултата", "Није пронађено"],
  ]

  @Test(arguments: words.keys.sorted())
  func aSiteInTheLanguageSpeaksIt(_ code: String) throws {
    let project = try LocalizationTests.project([("title: Records\n", "title: Records\nlanguage: \(code)\n")])
    defer { project.remove() }
    _ = try project.build()
    let search = try project.read("site/index.html")
    let notFound = try project.read("site/404.html")
    #expect(search.contains("<html lang=\"\(code)\" data-mode"))
    let words = Self.words[code, default: []]
    for text in words.prefix(2) {
      #expect(search.contains(text), "\(code): \(text)")
    }
    #expect(notFound.contains("<h1>\(words.last ?? "")</h1>"), "\(code)")
    for english in [">Cancel</button>", "No Results", "Skip to results", "Recently Searched", "Clear text"] {
      #expect(!search.contains(english), "\(code): \(english) is still English")
    }
    #expect(UIStrings.builtIn(code).fellBack.isEmpty, "\(code)")
  }

  /// Counts as each grammar has them: Czech 2–4 and 5+, Romanian "de"
  /// from 20 on, Serbian 21 like 1, Finnish's partitive after 2.
  @Test func countsTakeTheLanguagesForms() {
    let expected: [(String, Int, String)] = [
      ("cs", 1, "1 výsledek"), ("cs", 3, "3 výsledky"), ("cs", 5, "5 výsledků"), ("cs", 0, "0 výsledků"),
      ("ro", 1, "1 rezultat"), ("ro", 2, "2 rezultate"), ("ro", 20, "20 de rezultate"),
      ("ro", 101, "101 rezultate"), ("sr", 21, "21 резултат"), ("sr", 3, "3 резултата"),
      ("fi", 1, "1 tulos"), ("fi", 2, "2 tulosta"), ("hu", 5, "5 találat"), ("el", 2, "2 αποτελέσματα"),
      ("nb", 2, "2 resultater"), ("da", 1, "1 resultat"), ("ca", 2, "2 resultats"),
    ]
    for (code, count, text) in expected {
      #expect(UIStrings.builtIn(code).count("results", count) == text, "\(code) \(count)")
    }
    // `no` is Norwegian Bokmål's catalogue too.
    #expect(UIStrings.builtIn("no").text("cancel") == "Avbryt")
  }
}
