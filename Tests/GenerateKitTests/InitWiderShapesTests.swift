import Foundation
import Testing

@testable import GenerateKit

/// Shapes the strangers' seventh round found read wrong, each a few rows of
/// the public data it came from: Debian's `distro-info` (rows that leave
/// out trailing empty fields), a book's `publisher` that is null, GeoJSON
/// (`.geojson`), IEEE's register of MAC address blocks (company names with
/// `S.A.` and `AS`), and a Dutch spreadsheet's export in Windows-1252.
@Suite struct InitWiderShapesTests {
  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  /// Builds `config` over `files` as far as the documents, and returns them.
  func documents(_ config: String, _ files: [String: String]) throws -> DocumentStore {
    let folder = try DataFolder(files.merging(["site.yml": config]) { $1 })
    defer { folder.remove() }
    let loaded = try ConfigLoader().load(path: folder.path("site.yml"))
    return try DocumentBuilder().prepare(loaded, dataset: try DatasetLoader().load(loaded), baseURL: "/")
      .documents
  }

  static let debian = """
    version,codename,series,created,release,eol,eol-lts,eol-elts
    11,Bullseye,bullseye,2019-07-06,2021-08-14,2024-08-14,2026-08-31,2031-06-30
    12,Bookworm,bookworm,2021-08-14,2023-06-10,2026-07-11,2028-06-30,2033-06-30
    14,Forky,forky,2025-08-09
    ,Sid,sid,1993-08-16

    """

  /// A row that leaves out its trailing empty fields (Debian's
  /// `distro-info`, spreadsheets' and R's exports) reads them as empty, in
  /// init and in the build; a row with more fields than the header is
  /// still an error (`BadInputSuite`).
  @Test func aShortRowReadsItsLastFieldsAsEmpty() throws {
    let plan = try plan(["debian.csv": Self.debian])
    #expect(plan.collections.first?.title == "codename")
    let config = """
      title: Releases
      tables:
        releases: { file: debian.csv }
      collections:
        - id: releases
          label: Releases
          table: releases
          title: codename
          subtitle: "{{series}}/{{eol}}/"
      """
    let documents = try documents(config, ["debian.csv": Self.debian])
    #expect(documents.map(\.title) == ["Bullseye", "Bookworm", "Forky", "Sid"])
    #expect(
      documents.map(\.subtitle) == ["bullseye/2024-08-14/", "bookworm/2026-07-11/", "forky//", "sid//"])
  }

  /// A record whose `publisher` is null has no publisher: `refs:` on
  /// `publisher.id` reads it as empty, as a null `publisher.id` would be
  /// (a record without the key at all is still an error: `BadSourceTests`).
  @Test func aNullObjectHasNoneOfItsFields() throws {
    let books = """
      [{"id": 1, "title": "Dune", "publisher": {"id": "p1", "name": "Chilton"}},
       {"id": 2, "title": "Zine", "publisher": null},
       {"id": 3, "title": "Emma", "publisher": {"id": "p2", "name": "Murray"}}]
      """
    let config = """
      title: Books
      tables:
        books: { file: books.json, key: id, refs: { publisher.id: publishers } }
        publishers: { file: publishers.csv, key: id }
      collections:
        - id: books
          label: Books
          table: books
          title: title
          subtitle: "{{publisher}}/"
          fields:
            publisher: publisher.id.name
      """
    let documents = try documents(
      config, ["books.json": books, "publishers.csv": "id,name\np1,Chilton\np2,John Murray\n"])
    #expect(documents.map(\.subtitle) == ["Chilton/", "/", "John Murray/"])
  }

  /// GeoJSON (`.geojson`, a map tool's export) is JSON: its features'
  /// `properties` are the records, to init and to the build.
  @Test func geoJSONIsJSON() throws {
    let airports = """
      {"type": "FeatureCollection", "features": [
       {"type": "Feature", "properties": {"iata": "LHR", "name": "London Heathrow Airport", "country": "GB"},
        "geometry": {"type": "Point", "coordinates": [-0.46, 51.47]}},
       {"type": "Feature", "properties": {"iata": "CDG", "name": "Charles de Gaulle International Airport", "country": "FR"},
        "geometry": {"type": "Point", "coordinates": [2.55, 49.01]}},
       {"type": "Feature", "properties": {"iata": "NRT", "name": "Narita International Airport", "country": "JP"},
        "geometry": {"type": "Point", "coordinates": [140.39, 35.76]}}]}
      """
    let plan = try plan(["airports.geojson": airports])
    #expect(plan.collections.first?.title == "properties.name")
    let config = """
      title: Airports
      tables:
        airports: { file: airports.geojson, path: features }
      collections:
        - { id: airports, label: Airports, table: airports, title: properties.name }
      """
    let documents = try documents(config, ["airports.geojson": airports])
    #expect(
      documents.map(\.title).sorted() == [
        "Charles de Gaulle International Airport", "London Heathrow Airport", "Narita International Airport",
      ])
  }

  /// A facet of the name inside an object (`publisher.name`), or of the
  /// names in a list of objects (`authors.name`), is labelled by what
  /// holds it: "Publisher", "Authors", not "Publisher Name".
  @Test func aFacetOfANameInsideIsLabelledByItsHolder() throws {
    var rows: [String] = []
    let publishers = ["Penguin", "Faber", "Picador", "Vintage"]
    let authors = ["Ann Lee", "Bo Ma", "Cy Twombly", "Di Fox", "Ed Wu"]
    for number in 0..<40 {
      rows.append(
        #"{"id": \#(number), "title": "Book \#(number)", "publisher": {"name": "\#(publishers[number % 4])"}, "#
          + #""authors": [{"name": "\#(authors[number % 5])"}]}"#)
    }
    let plan = try plan(["books.json": "[" + rows.joined(separator: ",\n") + "]"])
    let labels = plan.facets.map(\.label)
    #expect(labels.contains("Publisher"), "\(labels)")
    #expect(!labels.contains { $0.hasSuffix(" Name") }, "\(labels)")
  }

  /// Companies' forms and addresses (`S.A.`, `A/S`, `Co.,Ltd`, `No. 2
  /// Road`, `R.O.C.`: IEEE's register of MAC address blocks) are no
  /// Portuguese or Czech small words: the register is English.
  @Test func abbreviationsAreNoSmallWords() {
    // Every 1,499th row of the register, as it was read (Portuguese).
    let names = [
      "American Micro-Fuel Device Corp.",
      "ASKEY COMPUTER CORP",
      "PrintCounts, LLC",
      "Mirae Technology",
      "Wacom Co.,Ltd.",
      "Samsung Electronics Co.,Ltd",
      "Spire Payments",
      "Crest Audio",
      "Quanta Computer Inc.",
      "Mapper.ai, Inc.",
      "Nexpring Co. LTD.,",
      "Stanford Research Systems",
      "BARRON MCCANN LTD.",
      "YUSUR Technology Co., Ltd.",
      "Sagemcom Broadband SAS",
      "JSC \"Supertel\"",
      "Avision, Inc.",
      "HUAWEI TECHNOLOGIES CO.,LTD",
      "Intel Corporate",
      "Hitachi, Ltd.",
      "Cisco Systems, Inc",
      "Apple, Inc.",
    ]
    let addresses = [
      "2181 Buchanan Loop Ferndale WA US 98248",
      "10F,NO.119.CHIENKANG RD,CHUNG-HO, taipei TAIPEI TW 235",
      "5109 W Lemon St Tampa FL US 33609",
      "211-15, Hon Hyun-dong, Seoul KR",
      "Sumitomo Fudosan Shinjuku Grand Tower 31F,8-17-1 Nishi-shinjuku,Shinjuku-ku Tokyo JP 160-6131",
      "129, Samsung-ro, Youngtongl-Gu Suwon Gyeonggi-Do KR 16677",
      "Units 3 & 6 Milford Trading Estate Salisbury Wiltshire GB SP1 2UD",
      "16-00 Pollitt Drive Fair Lawn NJ US 07410",
      "No.211, Wen Hwa 2nd Rd., Kuei Shan Hsiang Tao Yuan TW 33377",
      "400 Treat Ave, Suite G San Francisco CA US 94110",
      "3rd Floor, Building C, PDC Tower Sungnam City Kyungki-do KR 463400",
      "1290-D Reamwood Ave Sunnyvale CA US 94089",
      "BEMAC HOUSE UNITED GB KINGDOM",
      "Room 1401,building 4,yard 1, Beiqing Road No.81, Haidian District Beijing Beijing CN 100086",
      "Le Ponnant de Paris CEDEX Paris FR 75512",
      "38A Petrogradskaya emb. St.Petersburg RU 197101",
      "No. 20, Creation Rd. 1, Hsinchu Taiwan, TW R.O.C.",
      "No.2 Xin Cheng Road, Room R6,Songshan Lake Technology Park Dongguan CN 523808",
      "Lot 8, Jalan Hi-Tech 2/3 Kulim Kedah MY 09000",
      "27-18, Minami Oi 6-chome, Shinagawa-ku Tokyo JP 140-8572",
      "80 West Tasman Drive San Jose CA US 94568",
      "1 Infinite Loop Cupertino CA US 95014",
    ]
    #expect(SiteLanguage.code(forTitles: names, otherText: addresses) == "en")
    // Small words written as words still count (Portuguese: "o", "a", "do").
    let portuguese = [
      "O Guarani", "A Moreninha", "Memórias de um Sargento de Milícias", "O Cortiço", "A Escrava Isaura",
    ]
    #expect(
      SiteLanguage.code(forTitles: portuguese, otherText: ["Romance do autor", "Romance da autora"]) == "pt")
  }

  /// A spreadsheet's "CSV" saved on Windows (Windows-1252: `België` as
  /// `Belgi\xEB`, `€` as 0x80) is read as such: init writes `encoding:
  /// windows-1252` and the build reads the names as written.
  @Test func aWindows1252ExportReadsAsWritten() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    var bytes = Array("Land;Werelddeel;Bevolking\r\n".utf8)
    for (land, part, people) in [
      ("Belgi\u{EB}", "Europa", "10.392.226"), ("Duitsland", "Europa", "82.400.996"),
      ("Cura\u{E7}ao", "Amerika", "150.563"), ("Nederland", "Europa", "16.570.613"),
    ] {
      bytes += "\(land);\(part);\(people)\r\n".unicodeScalars.map { UInt8($0.value) }
    }
    bytes += [0x80] + Array(" Eurozone;Europa;1\r\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: folder.path("landen.csv")))
    _ = try folder.initialize(["landen.csv"])
    let config = try folder.read("site.yml")
    #expect(config.contains("encoding: windows-1252"), "\(config)")
    let loaded = try ConfigLoader().load(path: folder.path("site.yml"))
    let site = try DocumentBuilder().prepare(loaded, dataset: try DatasetLoader().load(loaded), baseURL: "/")
    #expect(site.documents.map(\.title) == ["België", "Duitsland", "Curaçao", "Nederland", "€ Eurozone"])
  }

  /// ISO country codes are a facet however many countries a table spans:
  /// the world's 7,900 airports with an IATA code are in 231 countries,
  /// more than twice the square root of their rows (177), yet a visitor
  /// filters airports by country (a list every visitor knows).
  @Test func countryCodesAreAFacetOfAnyCount() throws {
    let codes = CountryCodes.names.keys.filter { $0.count == 2 }.sorted().prefix(60)
    var rows = ["iata,name,country"]
    var number = 0
    // 60 countries, 3 airports each: 180 rows, 60 values over 2√180 = 26.
    for code in codes {
      for _ in 0..<3 {
        number += 1
        let iata =
          String(UnicodeScalar(65 + number / 676)!) + String(UnicodeScalar(65 + number / 26 % 26)!)
          + String(UnicodeScalar(65 + number % 26)!)
        rows.append("\(iata),Airport \(number),\(code)")
      }
    }
    let plan = try plan(["airports.csv": rows.joined(separator: "\n") + "\n"])
    #expect(plan.collections.first?.facets.map(\.expression) == ["country"])
  }

  /// A key of names that is not the title (a time zone table in German,
  /// keyed by its unique `city` and titled by `zone`) is searched: "Moskau"
  /// finds Europe/Moscow. A key of identifiers stays out of the search.
  @Test func aKeyOfNamesIsSearchedAndAKeyOfIdentifiersIsNot() throws {
    let zones = """
      city,zone,country
      Moskau,Europe/Moscow,Russland
      Zürich,Europe/Zurich,Schweiz
      Ho-Chi-Minh-Stadt,Asia/Ho_Chi_Minh,Vietnam
      Kairo,Africa/Cairo,Ägypten
      Mexiko-Stadt,America/Mexico_City,Mexiko

      """
    let zonePlan = try plan(["zones.csv": zones]).collections.first
    #expect(zonePlan?.title == "zone")
    #expect(zonePlan?.search.contains("city") == true, "\(zonePlan?.search ?? [])")
    let tracks = """
      track_id,name,composer
      9f1c2a7e-4b00-0001,Blue in Green,Bill Evans
      9f1c2a7e-4b00-0002,So What,Miles Davis
      9f1c2a7e-4b00-0003,Freddie Freeloader,Miles Davis
      9f1c2a7e-4b00-0004,Flamenco Sketches,Bill Evans
      9f1c2a7e-4b00-0005,All Blues,Miles Davis

      """
    let trackPlan = try plan(["tracks.csv": tracks]).collections.first
    #expect(trackPlan?.title == "name")
    #expect(trackPlan?.search.contains("track_id") == false, "\(trackPlan?.search ?? [])")
  }

  /// Titles that are identifiers (`Asia/Tokyo`) say nothing of the site's
  /// language; the names beside them do: a time zone table with its cities
  /// in Japanese is a Japanese site, one with only codes and notes in
  /// English stays English.
  @Test func identifierTitlesLeaveTheLanguageToTheNamesBeside() throws {
    let japanese = """
      city,zone,country
      東京,Asia/Tokyo,日本
      ドバイ,Asia/Dubai,アラブ首長国連邦
      チューリッヒ,Europe/Zurich,スイス
      ニューヨーク,America/New_York,アメリカ合衆国
      カイロ,Africa/Cairo,エジプト

      """
    let japanesePlan = try plan(["zones.csv": japanese])
    #expect(japanesePlan.collections.first?.title == "zone")
    #expect(SiteLanguage.code(for: japanesePlan) == "ja")
    let english = """
      zone,countries,comments
      Asia/Tokyo,JP,
      Asia/Dubai,"AE,OM",
      Europe/Zurich,"CH,DE,LI",Swiss time
      America/New_York,US,Eastern (most areas)
      Africa/Cairo,EG,

      """
    #expect(SiteLanguage.code(for: try plan(["zones.csv": english])) == "en")
  }
}
