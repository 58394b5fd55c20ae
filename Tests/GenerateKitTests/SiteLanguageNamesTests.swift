import Foundation
import Testing

@testable import GenerateKit

/// The language of catalogues of names, which have no small words to read
/// it by: a shop's appliances as a person in each country would list them
/// (written here, from no dataset scored in Tests/relevance).
@Suite struct SiteLanguageNamesTests {
  static let appliances: [String: [String]] = [
    "fi": [
      "Kahvinkeitin", "Pölynimuri", "Jääkaappi", "Astianpesukone", "Silitysrauta", "Leivänpaahdin",
      "Pyykinpesukone", "Sähkövatkain", "Mikroaaltouuni", "Liesituuletin", "Pakastin", "Taskulamppu",
      "Puutarhaletku", "Vedenkeitin", "Kuivausrumpu",
    ],
    "nl": [
      "Stofzuiger", "Koelkast", "Vaatwasser", "Strijkijzer", "Broodrooster", "Wasmachine", "Waterkoker",
      "Koffiezetapparaat", "Magnetron", "Afzuigkap", "Droogtrommel", "Diepvriezer", "Zaklamp", "Tuinslang",
      "Fietsbel",
    ],
    "sv": [
      "Dammsugare", "Kylskåp", "Diskmaskin", "Strykjärn", "Brödrost", "Tvättmaskin", "Vattenkokare",
      "Kaffebryggare", "Mikrovågsugn", "Köksfläkt", "Torktumlare", "Frysbox", "Ficklampa",
      "Trädgårdsslang", "Cykelklocka",
    ],
    "en": [
      "Vacuum Cleaner", "Refrigerator", "Dishwasher", "Steam Iron", "Toaster", "Washing Machine",
      "Electric Kettle", "Coffee Maker", "Microwave Oven", "Cooker Hood", "Tumble Dryer", "Chest Freezer",
      "Flashlight", "Garden Hose", "Bicycle Bell",
    ],
  ]

  /// Finnish, Dutch and Swedish names are told by their spelling; English
  /// ones stay English.
  @Test func namesWithoutSmallWordsAreReadByTheirSpelling() {
    for (code, names) in Self.appliances {
      #expect(SiteLanguage.code(forTitles: names) == code, "\(code): \(SiteLanguage.code(forTitles: names))")
    }
  }

  /// The world's cities, each spelt as its own country spells it, are in
  /// no one language: English, as a person would pick.
  @Test func theWorldsNamesStayEnglish() {
    let cities = [
      "Kinshasa", "Shanghai", "Jakarta", "Karachi", "Lagos", "Guangzhou", "Mumbai", "Dhaka", "Istanbul",
      "Tokyo", "Nairobi", "Bangkok", "Hanoi", "Tehran", "Bogotá", "Lima", "Santiago", "Khartoum", "Kabul",
      "Yangon", "Addis Ababa", "Luanda", "Baghdad", "Riyadh", "Chongqing", "Tianjin", "Surabaya",
      "Ouagadougou", "Bamako", "Dakar",
    ]
    #expect(SiteLanguage.code(forTitles: cities) == "en")
    // A few names are too few to tell: English.
    #expect(SiteLanguage.code(forTitles: ["Jääkaappi", "Pakastin"]) == "en")
  }

  /// `init` on a Finnish price list writes `language: fi`, says why, and
  /// titles the search page in Finnish.
  @Test func initWritesTheLanguageOfNames() throws {
    let rows = Self.appliances["fi", default: []].enumerated().map {
      "\($0.offset + 1),\($0.element),\(($0.offset + 3) * 10)"
    }
    let folder = try DataFolder(["tuotteet.csv": "nro,nimi,hinta\n" + rows.joined(separator: "\n") + "\n"])
    defer { folder.remove() }
    let result = try folder.initialize(["tuotteet.csv"])
    #expect(result.text.contains("\nlanguage: fi\n"))
    #expect(result.text.contains("# language: the data's small words, letters and spelling are Finnish"))
    #expect(result.text.contains("  title: Haku\n"))
  }
}
