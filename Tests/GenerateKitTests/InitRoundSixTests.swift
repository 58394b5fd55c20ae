import Foundation
import Testing

@testable import GenerateKit

/// Classes the strangers' eighth round fixed, each on a few rows shaped as
/// the public data it came from: a release number that names its record
/// (Debian's `version`), dates of any name and number, the facets of wide
/// tables (MASS's Cars93, mendeleev's elements) and messages that name
/// every file format a key applies to.
@Suite struct InitRoundSixTests {
  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  /// A release number each record has its own (`12` is Bookworm) is
  /// searched, and the build finds the record by it; a version many records
  /// share stays a facet (`emojiVersionsAreAFacet` in other suites).
  @Test func aVersionEachRecordHasIsSearched() throws {
    let debian = """
      version,codename,series,created,release
      10,Buster,buster,2017-06-17,2019-07-06
      11,Bullseye,bullseye,2019-07-06,2021-08-14
      12,Bookworm,bookworm,2021-08-14,2023-06-10
      13,Trixie,trixie,2023-06-10,2025-08-09
      ,Sid,sid,1993-08-16,

      """
    let folder = try DataFolder(["debian.csv": debian])
    defer { folder.remove() }
    let result = try folder.initialize(["debian.csv"])
    let releases = try #require(result.plan.collections.first)
    #expect(releases.title == "codename")
    #expect(releases.search.contains("version"), "\(releases.search)")
    let site = try folder.prepare()
    let bookworm = try #require(site.documents.firstIndex { $0.title == "Bookworm" })
    #expect(site.searchText(of: bookworm).split(separator: " ").contains("12"))
  }

  static func timestamps(_ count: Int, days: Int) -> String {
    var text = "title,posted,eol\n"
    for row in 0..<count {
      let day = row * days / count
      let year = 2000 + day / 365
      let month = 1 + day % 365 / 31
      let date = "\(year)-\(month < 10 ? "0" : "")\(month)-1\(row % 10)"
      text += "Note \(row),\(date)T0\(row % 10):00:00Z,\(2030 + row % 60)-01-01\n"
    }
    return text
  }

  /// A column of timestamps, one per record over twenty years, is a facet
  /// by its years (twenty of them), not none because its dates are all
  /// different; and a column of dates is a sort whatever it is named
  /// (`eol`), newest first.
  @Test func datesAreAFacetByTheirYearsAndASortByTheirKind() throws {
    let plan = try plan(["notes.csv": Self.timestamps(400, days: 365 * 20)])
    let notes = try #require(plan.collections.first)
    #expect(notes.facets.map(\.expression) == ["year(posted)"])
    #expect(notes.valueKeys.map(\.by) == ["posted", "eol"])
    #expect(notes.valueKeys.allSatisfy { $0.format == .date && $0.descending })
  }

  /// Dates of a few days of one year (a week of events) are one year: no
  /// facet that filters nothing.
  @Test func datesOfOneYearAreNoFacet() throws {
    let plan = try plan(["notes.csv": Self.timestamps(400, days: 20)])
    #expect(plan.collections.first?.facets.isEmpty == true)
    #expect(plan.facets.isEmpty)
  }

  /// MASS's Cars93 in its shape: the maker the title begins with (`Make`
  /// = `Manufacturer` + " " + `Model`), 32 of them over 93 cars, is a
  /// facet though it is past 30 values and under three cars a value, and
  /// the subtitle does not say it again.
  @Test func theMakerATitleBeginsWithIsAFacet() throws {
    var text = "Manufacturer,Model,Type,Make\n"
    let types = ["Small", "Midsize", "Compact", "Large", "Sporty", "Van"]
    for row in 0..<93 {
      let maker = "Maker\(row % 32)"
      text += "\(maker),Model \(row),\(types[row % 6]),\(maker) Model \(row)\n"
    }
    let plan = try plan(["cars.csv": text])
    let cars = try #require(plan.collections.first)
    #expect(cars.title == "Make")
    #expect(cars.facets.map(\.expression) == ["Manufacturer", "Type"])
    #expect(cars.subtitle?.contains("anufacturer") == false, "\(cars.subtitle ?? "")")
  }

  /// A wide table offers six facets at most: words first, then numbers,
  /// then yes and no (Cars93's `Man.trans.avail`, mendeleev's
  /// `is_radioactive`), each in column order.
  @Test func aWideTableOffersSixFacetsWordsFirstFlagsLast() throws {
    let names = ["radioactive", "manual", "period", "type", "origin", "drive", "airbags", "block", "series"]
    var text = "name," + names.joined(separator: ",") + "\n"
    for row in 0..<60 {
      let values = [
        row % 2 == 0 ? "Yes" : "No", row % 3 == 0 ? "1" : "0", "\(1 + row % 7)",
        ["Small", "Large", "Van"][row % 3],
        ["USA", "non-USA"][row % 2], ["Front", "Rear", "All wheels"][row % 3],
        ["None", "Driver only"][row % 2],
        ["s", "p", "d", "f"][row % 4], ["Metals", "Gases", "Halogens"][row % 3],
      ]
      text += "Car \(row)," + values.joined(separator: ",") + "\n"
    }
    let plan = try plan(["wide.csv": text])
    let facets = try #require(plan.collections.first).facets.map(\.expression)
    #expect(facets == ["type", "origin", "drive", "airbags", "block", "series"], "\(facets)")
  }

  /// `init` names every file it reads when it cannot tell what one holds,
  /// `.tab` among them.
  @Test func initNamesEveryFormatItReads() throws {
    let folder = try DataFolder(["notes.txt": "a,b\n1,2\n"])
    defer { folder.remove() }
    do {
      _ = try folder.initialize(["notes.txt"])
      Issue.record("init wrote a config")
    } catch let error as DiagnosticsError {
      let message = try #require(error.diagnostics.first).message
      #expect(message.contains(".csv, .tsv, .tab, .json, .geojson, .jsonl or .ndjson"), "\(message)")
    }
  }

  /// `members:` on a file that is not JSON names both JSON extensions it
  /// applies to: a `.geojson` takes it as a `.json` does.
  @Test func membersNamesBothJSONExtensions() throws {
    let config = """
      title: Places
      tables:
        places: { file: places.csv, members: code }
      collections:
        - { id: places, label: Places, table: places, title: name }
      """
    let folder = try DataFolder(["site.yml": config, "places.csv": "code,name\nfr,France\n"])
    defer { folder.remove() }
    do {
      _ = try ConfigLoader().load(path: folder.path("site.yml"))
      Issue.record("the config loaded")
    } catch let error as DiagnosticsError {
      #expect(
        error.diagnostics.contains {
          $0.message.contains("'members' in table 'places' applies to a .json or .geojson file only")
        }, "\(error.diagnostics)")
    }
  }

  /// vcd's Baseball names each player in `name1` ("Al") and `name2`
  /// ("Newman"): a name in two numbered parts is titled by both, as
  /// `first_name` and `last_name` are.
  @Test func aNameInTwoNumberedPartsTitlesByBoth() throws {
    let players = """
      name1,name2,hits86,team86
      Al,Newman,37,Mon
      Alan,Ashby,81,Hou
      Alvin,Davis,114,Sea
      Andre,Dawson,141,Chi
      Andre,Thornton,84,Chi
      Don,Mattingly,238,NY

      """
    let plan = try plan(["players.csv": players])
    let players_ = try #require(plan.collections.first)
    #expect(players_.title == "name1 + ' ' + name2")
    #expect(!players_.search.contains("name1") && !players_.search.contains("name2"))
  }

  /// A table of a name in every language (pycountry's `name_de`,
  /// `name_or`, `name_ace`, `name_bn` and `name_bn_IN`, `name_sr@latin`…)
  /// is titled by the plain `name`, and each translation is searched, past
  /// the 20 fields other text is held to: "deutschland" finds Germany.
  @Test func aTableOfTranslationsIsTitledByTheNameAndSearchedInEach() throws {
    let codes =
      "abcdefghijklmnopqrstuvwxyz".map { "a\($0)" } + [
        "or", "ace", "bn", "bn_IN", "sr@latin", "zh_Hans", "de",
      ]
    var text = "code,name," + codes.map { "name_\($0)" }.joined(separator: ",") + "\n"
    for (code, name) in [("DE", "Germany"), ("FR", "France"), ("JP", "Japan"), ("NL", "Netherlands")] {
      text += "\(code),\(name)," + codes.map { "\(name) \($0)" }.joined(separator: ",") + "\n"
    }
    let plan = try plan(["countries.csv": text])
    let countries = try #require(plan.collections.first)
    #expect(countries.title == "name")
    #expect(
      countries.search.contains("name_de") && countries.search.contains("name_bn_IN"), "\(countries.search)")
    #expect(countries.search.contains("`name_sr@latin`") && countries.search.contains("name_zh_Hans"))
    #expect(countries.searchLeftOut == 0)
  }

  /// Debian's "Reverse dependencies" counts who chose a package, as
  /// `dependents` does: its popularity.
  @Test func reverseDependenciesAreAPopularity() throws {
    let packages = """
      Package,Section,Reverse dependencies
      bash,shells,5120
      zsh,shells,40
      curl,web,910
      wget,web,230
      vim,editors,310

      """
    let plan = try plan(["packages.csv": packages])
    #expect(plan.collections.first?.popularity == "`Reverse dependencies`")
  }

  /// A column of `True` and `False` (pandas' booleans) reads as nothing in
  /// a subtitle ("Character · Basic Latin · False").
  @Test func aYesOrNoColumnIsNoPartOfASubtitle() throws {
    var text = "code,name,block,Alphabetic\n"
    for row in 0..<40 {
      text +=
        "00\(40 + row),CHARACTER \(row),\(["Basic Latin", "Latin-1 Supplement"][row % 2]),\(row % 3 == 0 ? "True" : "False")\n"
    }
    let plan = try plan(["characters.csv": text])
    let subtitle = try #require(plan.collections.first?.subtitle)
    #expect(!subtitle.lowercased().contains("alphabetic"), "\(subtitle)")
  }

  static let families = """
    [
     ["code", "name"],
     ["aav", "Austro-Asiatic languages"],
     ["gem", "Germanic languages"],
     ["roa", "Romance languages"],
     ["sem", "Semitic languages"]
    ]
    """

  /// A JSON array of arrays whose first names the columns (a sheet's
  /// values, as Google Sheets' API and pandas' `orient="values"` write
  /// them) is a table: init titles it and the build reads it.
  @Test func anArrayOfArraysUnderAHeaderRowIsATable() throws {
    let folder = try DataFolder(["families.json": Self.families])
    defer { folder.remove() }
    let result = try folder.initialize(["families.json"])
    #expect(result.plan.collections.first?.title == "name")
    let site = try folder.prepare()
    #expect(
      site.documents.map(\.title) == [
        "Austro-Asiatic languages", "Germanic languages", "Romance languages", "Semitic languages",
      ])
  }

  /// A row of a sheet that holds an object, or more values than the header
  /// names, is an error at its place naming the record (and the field),
  /// and init writes no config; so is a file cut short.
  @Test func aBrokenSheetRowIsAnErrorAtItsPlace() throws {
    let cases: [(String, String)] = [
      (
        Self.families.replacingOccurrences(
          of: #"["gem", "Germanic languages"]"#, with: #"["gem", {"en": "Germanic"}]"#),
        "families.json:4:10: error: record 2, field 'name': expected text, a number, true, false or null, found an object"
      ),
      (
        Self.families.replacingOccurrences(
          of: #"["roa", "Romance languages"]"#, with: #"["roa", "Romance", 3]"#),
        "families.json:5:21: error: record 3 has more values than the 2 columns its header row names"
      ),
      (String(Self.families.prefix(80)), "families.json:"),
    ]
    for (text, expected) in cases {
      let folder = try DataFolder(["families.json": text])
      defer { folder.remove() }
      do {
        _ = try folder.initialize(["families.json"])
        Issue.record("init wrote a config for \(expected)")
      } catch let error as DiagnosticsError {
        let shown = try #require(error.diagnostics.first).description
        #expect(shown.contains(expected), "\(shown)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site.yml")))
      }
    }
  }

  /// Amounts and shares written as a web API writes them, with their sign
  /// (`"$974.58"`, `"26.2%"`, `"9,99 €"`), are numbers, as `"31,889,923"`
  /// is: not searched as text, read as numbers by a sort.
  @Test func amountsAndSharesWithTheirSignsAreNumbers() throws {
    let json = """
      [{"country": "Afghanistan", "population": "31,889,923", "gdp": "$974.58", "growth": "26.2%", "price": "9,99 €"},
       {"country": "Albania", "population": "3,600,523", "gdp": "$5,937.03", "growth": "2.6%", "price": "1.299,50 €"},
       {"country": "Algeria", "population": "33,333,216", "gdp": "$6,223.37", "growth": "-6.5 %", "price": "12 €"}]
      """
    let folder = try DataFolder(["countries.json": json])
    defer { folder.remove() }
    let found = try DataFileReader().read([folder.path("countries.json")])
    let profile = try #require(SchemaInference().infer(found).tables.first).profile
    #expect(profile.column(named: "gdp")?.kind == .number)
    #expect(profile.column(named: "growth")?.kind == .number)
    #expect(profile.column(named: "price")?.kind == .number)
    let table = try #require(found.first?.table)
    let growth = try #require(table.column(named: "growth"))
    #expect(table.numeral("-6.5 %", column: growth) == -6.5)
    #expect(table.numeral("$5,937.03", column: try #require(table.column(named: "gdp"))) == 5937.03)
    let plan = CollectionInference().infer(SchemaInference().infer(found))
    #expect(plan.collections.first?.search.isEmpty == true, "\(plan.collections.first?.search ?? [])")
  }

  /// A database of countries, each in a subregion of a region and joined
  /// to its languages and currencies by two join tables: the countries come
  /// first, not the five regions at the root of the chain (Chinook's
  /// artists, albums and tracks keep their order: one join table there).
  @Test func aTableJoinedToTwoOthersComesFirst() throws {
    let files = [
      "regions.csv": "id,name\n1,Europe\n2,Asia\n",
      "subregions.csv": "id,name,region_id\n1,Western Europe,1\n2,Eastern Asia,2\n3,Northern Europe,1\n",
      "countries.csv": """
      code,name,capital,subregion_id
      DE,Germany,Berlin,1
      FR,France,Paris,1
      JP,Japan,Tokyo,2
      CN,China,Beijing,2
      SE,Sweden,Stockholm,3
      NO,Norway,Oslo,3

      """,
      "languages.csv": "code,name\nde,German\nfr,French\nja,Japanese\nzh,Chinese\nsv,Swedish\nno,Norwegian\n",
      "currencies.csv":
        "code,name\nEUR,Euro\nJPY,Yen\nCNY,Yuan Renminbi\nSEK,Swedish Krona\nNOK,Norwegian Krone\n",
      "country_languages.csv":
        "country_code,language_code\nDE,de\nFR,fr\nJP,ja\nCN,zh\nSE,sv\nNO,no\nDE,fr\n",
      "country_currencies.csv":
        "country_code,currency_code\nDE,EUR\nFR,EUR\nJP,JPY\nCN,CNY\nSE,SEK\nNO,NOK\nSE,EUR\n",
    ]
    let plan = try plan(files)
    #expect(plan.collections.first?.table == "countries", "\(plan.collections.map(\.table))")
  }
}
