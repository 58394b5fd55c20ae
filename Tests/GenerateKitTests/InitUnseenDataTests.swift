import Foundation
import Testing

@testable import GenerateKit

/// `init` on shapes of data nobody here designed, each reduced to a few
/// rows of the public dataset it came from (vega_datasets' airports and
/// cars, a `;`-separated export, a file of a header alone).
@Suite struct InitUnseenDataTests {
  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  /// The message `init` fails with on these files.
  func failure(_ files: [String: String]) throws -> Diagnostic {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    do {
      _ = try folder.initialize(files.keys.sorted())
    } catch let error as DiagnosticsError {
      #expect(!FileManager.default.fileExists(atPath: folder.path("site.yml")))
      return try #require(error.diagnostics.first)
    }
    Issue.record("init wrote a config")
    throw DiagnosticsError([])
  }

  static let airports = """
    iata,name,city,state,country
    00M,Thigpen,Bay Springs,MS,USA
    00R,Livingston Municipal,Livingston,TX,USA
    LAX,Los Angeles International,Los Angeles,CA,USA
    JFK,John F Kennedy Intl,New York,NY,USA
    ORD,Chicago O'Hare International,Chicago,IL,USA
    SFO,San Francisco International,San Francisco,CA,USA

    """

  /// A key of short codes (`LAX`, `00M`) is what a person types: searched.
  @Test func aKeyOfCodesIsSearched() throws {
    let plan = try plan(["airports.csv": Self.airports])
    let airports = try #require(plan.collections.first)
    #expect(plan.schema.table("airports")?.key == "iata")
    #expect(airports.search.first == "iata")

    let folder = try DataFolder(["airports.csv": Self.airports])
    defer { folder.remove() }
    _ = try folder.initialize(["airports.csv"])
    // Weighed like the title, so `fra` finds French before Frankish.
    #expect(airports.codeKey == "iata")
    #expect(try folder.read("site.yml").contains("    weights: { iata: 2 }\n"))
    let site = try folder.prepare()
    let lax = try #require(site.documents.firstIndex { $0.title == "Los Angeles International" })
    #expect(site.searchText(of: lax).contains("LAX"))
  }

  /// A person's name in two columns (vega_datasets' la-riots): the title
  /// joins them, and people who share a first name stay apart.
  @Test func firstAndLastNamesMakeOneTitle() throws {
    let people = """
      first_name,last_name,age,gender,neighborhood
      Cesar A.,Aguilar,18,Male,Westlake
      George,Alvarez,42,Male,Chinatown
      Wilson,Alvarez,40,Male,Hawthorne
      Brian E.,Andrew,30,Male,Compton
      George,Baker,22,Male,Lincoln Heights
      George,Bell,35,Male,Vermont Square

      """
    let folder = try DataFolder(["la-riots.csv": people])
    defer { folder.remove() }
    _ = try folder.initialize(["la-riots.csv"])
    #expect(try folder.read("site.yml").contains("first_name + ' ' + last_name"))
    let titles = try folder.prepare().documents.map(\.title)
    #expect(
      titles.contains("George Baker") && titles.contains("George Alvarez")
        && titles.contains("Wilson Alvarez"))
    #expect(titles.count == 6)
  }

  /// Ids that are numbers or long tokens are not searched.
  @Test func aKeyOfNumbersOrLongTokensIsNotSearched() throws {
    let numbered = try plan(["things.csv": "id,name\n1,Alpha\n2,Beta\n3,Gamma\n"])
    #expect(numbered.collections.first?.search.contains("id") == false)
    #expect(numbered.collections.first?.codeKey == nil)
    let tokens = try plan([
      "things.csv":
        "id,name\n3f2a9c1e-0b7d-4c55-9e61-0d2b8f1a7c01,Alpha\n8b1c2d3e-4f50-4a6b-9c7d-8e9f0a1b2c3d,Beta\n"
    ])
    #expect(tokens.collections.first?.search.contains("id") == false)
  }

  /// Observations with no name (palmerpenguins) are titled by their
  /// commonest kind of value, the species, not by the shortest (sex).
  @Test func observationsAreTitledByTheirKind() throws {
    var rows = "species,island,bill_length_mm,sex,year\n"
    let species = ["Adelie", "Gentoo", "Chinstrap"]
    let islands = ["Torgersen", "Biscoe", "Dream"]
    for index in 0..<60 {
      rows +=
        "\(species[index % 3]),\(islands[(index / 3) % 3]),\(38 + index % 9).\(index % 10),\(index % 2 == 0 ? "male" : "female"),\(2007 + index % 3)\n"
    }
    let plan = try plan(["penguins.csv": rows])
    #expect(plan.collections.first?.title == "species")
  }

  /// `Weight_in_lbs` is a measure, not how popular a car is; `weight`,
  /// `rating_count` and `population_2020` still are popularity.
  @Test func aMeasureIsNotAPopularity() throws {
    let cars = try plan([
      "cars.csv": """
      Name,Miles_per_Gallon,Weight_in_lbs,Origin
      chevrolet chevelle malibu,18,3504,USA
      buick skylark 320,15,3693,USA
      toyota corona,24,2372,Japan

      """
    ])
    #expect(cars.collections.first?.popularity == nil)
    for name in ["weight", "rating_count", "population_2020", "StarsTotal"] {
      let plan = try plan(["items.csv": "id,name,\(name)\n1,Alpha,3\n2,Beta,5\n"])
      #expect(plan.collections.first?.popularity == name, "\(name)")
    }
    // A weight named for what it weighs is a measure too (mendeleev's
    // elements: `atomic_weight` put Oganesson before Oxygen).
    for name in ["atomic_weight", "net_weight"] {
      let plan = try plan(["items.csv": "id,name,\(name)\n1,Alpha,3\n2,Beta,5\n"])
      #expect(plan.collections.first?.popularity != name, "\(name)")
    }
  }

  /// A spreadsheet's export in the other common shapes (`;` between
  /// fields with a BOM and CRLF, or tabs, in a `.csv`) is read with its own
  /// separator, which the config then declares; `.tsv` is tabs.
  @Test func aFileSeparatedBySemicolonsOrTabsIsReadWithThem() throws {
    let semicolons = try plan(["cities.csv": "\u{FEFF}name;country;pop\r\nParis;FR;2\r\nBerlin;DE;3\r\n"])
    let cities = try #require(semicolons.schema.tables.first)
    #expect(cities.found.source == .csv(path: cities.found.source.path, separator: CSVSeparator.semicolon))
    #expect(cities.found.table.header == ["name", "country", "pop"])
    let tabs = try plan(["cities.csv": "name\tcountry\nParis\tFR\nBerlin\tDE\n"])
    #expect(tabs.schema.tables.first?.found.table.header == ["name", "country"])
    let tsv = try plan(["cities.tsv": "name\tcountry\nParis\tFR\nBerlin\tDE\n"])
    #expect(tsv.schema.tables.first?.found.table.header == ["name", "country"])
    // Quoted names: read with commas, the header is not even valid.
    let quoted = try plan(["cities.csv": "\"name\";\"country\"\n\"Paris\";\"FR\"\n\"Berlin\";\"DE\"\n"])
    #expect(quoted.schema.tables.first?.found.table.header == ["name", "country"])
  }

  /// Detection is strict: a one-column file whose values hold `;`, or a
  /// header that splits on two candidates, is read with commas.
  @Test func anUnclearHeaderKeepsCommas() throws {
    #expect(
      try plan(["notes.csv": "note\n\"a; b\"\nc;d\n"]).schema.tables.first?.found.table.header == ["note"])
    let both = try plan(["notes.csv": "a;b|c\nx\ny\n"])
    #expect(both.schema.tables.first?.found.table.header == ["a;b|c"])
    let empty = try plan(["notes.csv": "a;;b\nx\ny\n"])
    #expect(empty.schema.tables.first?.found.table.header == ["a;;b"])
  }

  /// A header alone, an empty JSON Lines file: "no records", not "no text column".
  @Test func aFileWithoutRecordsSaysSo() throws {
    let header = try failure(["artists.csv": "id,name\n"])
    #expect(header.message.contains("no records"), "\(header.message)")
    let empty = try failure(["artists.jsonl": ""])
    #expect(empty.message.contains("no records"), "\(empty.message)")
  }

  /// A table of thousands of columns (10,000 here took a build past five
  /// minutes for 50 rows) gives a config a person can read: at most 20
  /// searched fields and 6 facets, and a comment saying what was left out.
  @Test func aTableOfThousandsOfColumnsGetsAReadableConfig() throws {
    let columns = 1_000
    var text = "name," + (0..<columns).map { "word\($0),colour\($0)" }.joined(separator: ",") + "\n"
    for row in 0..<12 {
      let colours = ["red", "green", "blue"]
      text +=
        "row \(row),"
        + (0..<columns).map { "w\(row)x\($0),\(colours[(row + $0) % 3])" }.joined(separator: ",")
      text += "\n"
    }
    let folder = try DataFolder(["wide.csv": text])
    defer { folder.remove() }
    let result = try folder.initialize(["wide.csv"])
    let wide = try #require(result.plan.collections.first)
    #expect(wide.search.count == CollectionInference.maxSearched)
    #expect(wide.searchLeftOut == columns - CollectionInference.maxSearched)
    #expect(wide.facets.count == CollectionInference.maxFacetsPerTable)
    #expect(result.plan.facets.count == CollectionInference.maxFacetsPerTable)
    #expect(try folder.read("site.yml").contains("980 more text columns are not searched"))
    #expect(result.warnings.isEmpty)
  }

  /// Cars of one name in several model years read "Car · USA · 1971",
  /// "Car · USA · 1976": the year of a date tells repeated titles apart.
  @Test func repeatedTitlesAreToldApartByTheYear() throws {
    let files = [
      "cars.json": """
      [{"Name": "ford pinto", "Year": "1971-01-01", "Origin": "USA"},
       {"Name": "ford pinto", "Year": "1976-01-01", "Origin": "USA"},
       {"Name": "vw rabbit", "Year": "1976-01-01", "Origin": "Europe"},
       {"Name": "toyota corona", "Year": "1970-01-01", "Origin": "Japan"},
       {"Name": "datsun 510", "Year": "1978-01-01", "Origin": "Japan"},
       {"Name": "fiat 128", "Year": "1973-01-01", "Origin": "Europe"}]
      """
    ]
    let cars = try #require(try plan(files).collections.first)
    #expect(cars.subtitle == "Car · {{origin}} · {{year}}")
    #expect(cars.fields.contains { $0 == ("year", "year(Year)") })
    let folder = try DataFolder(files)
    defer { folder.remove() }
    _ = try folder.initialize(["cars.json"])
    let site = try folder.prepare()
    #expect(
      site.documents.filter { $0.title == "ford pinto" }.map(\.subtitle) == [
        "Car · USA · 1971", "Car · USA · 1976",
      ])
    // Distinct titles need no year.
    let unique = try plan(["cars.csv": "Name,Year\nford pinto,1971-01-01\nvw rabbit,1976-01-01\n"])
    #expect(unique.collections.first?.subtitle == nil)
  }

  /// "Airport · USA" on 3,372 of 3,376 airports says nothing: a facet of
  /// one value in nine rows of ten is left out of the subtitle, and a short
  /// text that repeats a little (the city) takes its place.
  @Test func aSubtitleSaysSomething() throws {
    var text = "iata,name,city,country\n"
    for number in 0..<40 {
      text += "A\(number),Field \(number),Town \(number / 2),\(number == 0 ? "Palau" : "USA")\n"
    }
    let airports = try #require(try plan(["airports.csv": text]).collections.first)
    #expect(airports.subtitle == "Airport · {{city}}")
    // A facet of values that vary still makes the subtitle.
    let varied = text.split(separator: "\n").enumerated().map { number, line in
      number == 0
        ? String(line)
        : line.replacingOccurrences(of: ",USA", with: "," + ["USA", "Canada", "Mexico"][number % 3])
    }.joined(separator: "\n")
    #expect(try plan(["airports.csv": varied]).collections.first?.subtitle == "Airport · {{country}}")
  }

  /// vega_datasets' movies: a score mostly empty (Rotten Tomatoes) loses to
  /// one every record has, and how many voted to how they voted; the
  /// table's records are a Movie each, not a "Movy".
  @Test func moviesArePopularByVotes() throws {
    let plan = try plan([
      "movies.json": """
      [{"Title": "The Land Girls", "Rotten_Tomatoes_Rating": null, "IMDB_Rating": 6.1, "IMDB_Votes": 1071},
       {"Title": "First Love, Last Rites", "Rotten_Tomatoes_Rating": null, "IMDB_Rating": 6.9, "IMDB_Votes": 207},
       {"Title": 1776, "Rotten_Tomatoes_Rating": null, "IMDB_Rating": 7, "IMDB_Votes": 2513},
       {"Title": "Pirates", "Rotten_Tomatoes_Rating": 25, "IMDB_Rating": 5.8, "IMDB_Votes": 3275}]
      """
    ])
    let movies = try #require(plan.collections.first)
    #expect(movies.popularity == "IMDB_Votes")
    #expect(movies.singular == "Movie")
    #expect(Naming.singular("cookies") == "cookie")
    #expect(Naming.singular("series") == "series")
    #expect(Naming.singular("categories") == "category")
  }

  /// pandas' `df.to_csv(path)` and R's `write.csv` write the row numbers as
  /// a first column with an empty name: read as `index`, said in a warning,
  /// and never the title; every pydataset file has one.
  @Test func aPandasIndexColumnIsReadAsIndex() throws {
    let files = ["people.csv": ",name,age\n0,Ann,31\n1,Bob,42\n2,Cy,27\n"]
    let plan = try plan(files)
    let people = try #require(plan.collections.first)
    #expect(people.title == "name")
    let folder = try DataFolder(files)
    defer { folder.remove() }
    // init says so itself, where the column is, before any build.
    let said = try folder.initialize(["people.csv"]).warnings
    #expect(
      said.contains {
        $0.message.contains("has no name") && $0.location?.file.hasSuffix("people.csv") == true
      },
      "\(said.map(\.message))")
    let site = try folder.prepare()
    #expect(site.documents.map(\.title).sorted() == ["Ann", "Bob", "Cy"])
    let warning = try #require(site.dataset.tables.first?.warnings.first)
    #expect(
      warning.message.contains("has no name") && warning.message.contains("'index'"), "\(warning.message)")
    #expect(warning.location?.line == 1 && warning.location?.column == 1)
    // A middle column without a name is still an error: nothing says what it holds.
    let error = try failure(["people.csv": "id,,age\n0,Ann,31\n1,Bob,42\n"])
    #expect(error.message.contains("column 2 of table 'people' has an empty name"), "\(error.message)")
  }
}

/// An application's database given to `init` as it is (mendeleev's
/// elements.db: elements, their groups, and tables of measurements per
/// element beside a migration tool's bookkeeping).
@Suite struct InitApplicationDatabaseTests {
  static let files = [
    "elements.csv": """
    id,name,symbol,group_id
    1,Hydrogen,H,1
    2,Helium,He,18
    6,Carbon,C,14
    8,Oxygen,O,16
    26,Iron,Fe,8
    29,Copper,Cu,11

    """,
    "groups.csv": """
    id,name
    1,Alkali metals
    8,
    11,Coinage metals
    14,Carbon group
    16,Chalcogens
    18,Noble gases

    """,
    "isotopes.csv": """
    id,element_id,mass_number,decay_mode,parity
    1,1,1,stable,+
    2,1,2,stable,+
    3,1,3,beta-,+
    4,2,3,stable,-
    5,2,4,stable,+
    6,6,12,stable,+
    7,6,13,stable,-
    8,6,14,beta-,+
    9,8,16,stable,+
    10,8,17,stable,-
    11,26,56,stable,+
    12,26,55,EC,-

    """,
    "alembic_version.csv": "version_num\n4f2e9a1b7c3d\n",
  ]

  func plan() throws -> SitePlan {
    let folder = try DataFolder(Self.files)
    defer { folder.remove() }
    let found = try DataFileReader().read(Self.files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  /// Rows of details whose best title repeats (an isotope by its decay
  /// mode) and a migration tool's table are no collections.
  @Test func detailsAndBookkeepingAreNoCollections() throws {
    let plan = try plan()
    #expect(Set(plan.collections.map(\.table)) == ["elements", "groups"])
    let reasons = Dictionary(plan.tablesOnly, uniquingKeysWith: { first, _ in first })
    #expect(reasons["isotopes"]?.contains("details of elements") == true, "\(reasons)")
    #expect(reasons["alembic_version"]?.contains("bookkeeping") == true, "\(reasons)")
    // Their columns are no facets of the elements either.
    let elements = try #require(plan.collections.first { $0.table == "elements" })
    #expect(!elements.facets.contains { $0.expression.contains("parity") })
    #expect(plan.scopes.isEmpty, "'+' and '-' are no scope bar: \(plan.scopes)")
  }

  /// An element whose group has no name reads "Element", not "Element · ".
  @Test func aReferencedRecordWithoutATitleLeavesNoDot() throws {
    let folder = try DataFolder(Self.files)
    defer { folder.remove() }
    _ = try folder.initialize(Self.files.keys.sorted())
    let site = try folder.prepare()
    #expect(site.documents.first { $0.title == "Iron" }?.subtitle == "Element")
    #expect(site.documents.first { $0.title == "Copper" }?.subtitle == "Element · Coinage metals")
  }

  /// Scopes only from values that read as words.
  @Test func scopesAreWords() {
    func facet(_ values: [String], names: [String: String] = [:]) -> SitePlan.Facet {
      var facet = SitePlan.Facet(id: "f", label: "F", icon: "tag", reason: "", values: values)
      facet.names = names
      return facet
    }
    #expect(CollectionInference.scopes([facet(["0", "1"])]).isEmpty)
    #expect(CollectionInference.scopes([facet(["d", "f", "p", "s"])]).isEmpty)
    #expect(CollectionInference.scopes([facet(["+", "-"])]).isEmpty)
    #expect(
      CollectionInference.scopes([facet(["Living", "Extinct"])]).map(\.label) == ["All", "Living", "Extinct"])
    #expect(
      CollectionInference.scopes([facet(["GB", "FR"], names: ["GB": "United Kingdom", "FR": "France"])]).map(
        \.label)
        == ["All", "United Kingdom", "France"])
  }
}
