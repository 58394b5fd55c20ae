import Foundation
import Testing

@testable import GenerateKit

/// `init` on shapes the strangers' set (Tests/relevance/strangers) found
/// read wrong, each a few rows of the public dataset it came from: R's
/// `NA` among numbers (ggplot2's msleep and movies, pydataset), lists of
/// codes and a GeoJSON geometry (countryinfo), a gazetteer's region codes
/// and other names (geonames), and a version in a subtitle (emoji).
@Suite struct InitStrangerShapesTests {
  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  static let msleep = """
    name,genus,vore,order,conservation,sleep_total,sleep_rem,sleep_cycle,brainwt
    Cheetah,Acinonyx,carni,Carnivora,lc,12.1,NA,NA,NA
    Owl monkey,Aotus,omni,Primates,NA,17,1.8,NA,0.0155
    Mountain beaver,Aplodontia,herbi,Rodentia,nt,14.4,2.4,NA,NA
    Greater short-tailed shrew,Blarina,omni,Soricomorpha,lc,14.9,2.3,0.133333333,0.00029
    Cow,Bos,herbi,Artiodactyla,domesticated,4,0.7,0.666666667,0.423
    Three-toed sloth,Bradypus,herbi,Pilosa,NA,14.4,2.2,0.766666667,NA
    Dog,Canis,carni,Carnivora,domesticated,10.1,2.9,0.333333333,0.07
    Roe deer,Capreolus,herbi,Artiodactyla,lc,3,NA,NA,0.0982
    Goat,Capri,herbi,Artiodactyla,lc,5.3,0.6,NA,0.115

    """

  /// R writes `NA` where a number is missing: those columns are numbers
  /// with gaps (not searched, not facets), read so by `missing: [NA]`, and
  /// the site builds with them as numbers.
  @Test func numbersWithNAAreNumbers() throws {
    let folder = try DataFolder(["msleep.csv": Self.msleep])
    defer { folder.remove() }
    _ = try folder.initialize(["msleep.csv"])
    let config = try folder.read("site.yml")
    #expect(config.contains("msleep: { file: msleep.csv, key: name, missing: [NA] }"), "\(config)")
    let plan = try plan(["msleep.csv": Self.msleep])
    let msleep = try #require(plan.collections.first)
    let profile = try #require(plan.schema.table("msleep")?.profile)
    #expect(profile.column(named: "sleep_rem")?.kind == .number)
    #expect(profile.column(named: "sleep_rem")?.empty == 2)
    for number in ["sleep_rem", "sleep_cycle", "brainwt"] {
      #expect(!msleep.search.contains(number), "\(number) is searched: \(msleep.search)")
      #expect(!msleep.facets.contains { $0.expression == number }, "\(number) is a facet: \(msleep.facets)")
    }
    // Among words `NA` stands out as no value too: no "NA" conservation status.
    #expect(profile.column(named: "conservation")?.empty == 2)
    #expect(profile.column(named: "conservation")?.samples.contains("NA") == false)
    let site = try folder.prepare()
    let cheetah = try #require(site.documents.firstIndex { $0.title == "Cheetah" })
    #expect(!site.searchText(of: cheetah).contains("NA"))
  }

  static let movies = """
    title,year,votes,mpaa,Action,Animation,Comedy,Drama,Romance
    Star Wars,1977,104377,PG,1,0,0,0,0
    Toy Story,1995,56000,G,0,1,1,0,0
    Annie Hall,1977,30000,PG,0,0,1,1,1
    Casablanca,1942,66000,,0,0,0,1,1
    Die Hard,1988,60000,R,1,0,0,0,0
    Amélie,2001,50000,R,0,0,1,0,1

    """

  /// A 0/1 column per genre (ggplot2's movies, pandas' one-hot columns) is
  /// one facet of the genres a record has, and one line on its page — not
  /// a facet of 0 and 1 per column, nor a row of 0 or 1 per column.
  @Test func oneHotColumnsAreOneFacetOfTheirNames() throws {
    let folder = try DataFolder(["movies.csv": Self.movies])
    defer { folder.remove() }
    _ = try folder.initialize(["movies.csv"])
    let config = try folder.read("site.yml")
    #expect(config.contains("tags: \"flags(Action, Animation, Comedy, Drama, Romance)\""), "\(config)")
    #expect(config.contains("- { id: tags, label: Tags, icon: tag }"), "\(config)")
    for genre in ["action", "comedy", "romance"] { #expect(!config.contains("id: \(genre),"), "\(config)") }

    let site = try folder.prepare()
    let tags = try #require(site.facets.firstIndex { $0.id == "tags" })
    let annie = try #require(site.documents.firstIndex { $0.title == "Annie Hall" })
    #expect(site.facetValues(of: annie, facet: tags) == ["Comedy", "Drama", "Romance"])
    let collection = site.collections[site.documents[annie].collection]
    let details = RecordContext(site: site, table: collection.table, row: site.documents[annie].row)
      .detailRows()
    let labels = details.compactMap { $0["label"] as? String }
    #expect(
      details.contains {
        $0["label"] as? String == "Tags" && $0["text"] as? String == "Comedy, Drama, Romance"
      })
    #expect(!labels.contains("Comedy") && !labels.contains("Action"), "\(labels)")
  }

  /// `flags()` names columns: anything else is an error at the expression.
  @Test func flagsTakeColumns() throws {
    let folder = try DataFolder(["movies.csv": Self.movies])
    defer { folder.remove() }
    _ = try folder.initialize(["movies.csv"])
    let site = try folder.prepare()
    let compiler = ExpressionCompiler(dataset: site.dataset)
    let movies = try #require(site.dataset.tables.first)
    #expect(throws: ExpressionCompiler.Failure.self) {
      try compiler.compile("flags('Action')", table: movies)
    }
    #expect(throws: ExpressionCompiler.Failure.self) { try compiler.compile("flags(Acton)", table: movies) }
    _ = try compiler.compile("flags(Action, `Comedy`)", table: movies)
  }

  /// `NA` among two-letter codes is Namibia: no marker, the codes stay.
  @Test func nAAmongCodesIsAValue() throws {
    let plan = try plan([
      "countries.csv": """
      code,name,area
      DE,Germany,357022
      NA,Namibia,NA
      FR,France,643801
      NL,Netherlands,41543
      BE,Belgium,30528
      AT,Austria,83879

      """
    ])
    let table = try #require(plan.schema.table("countries"))
    #expect(table.found.missing.isEmpty)
    #expect(table.found.table.columns[0].contains("NA"))
  }

  static let countries = """
    [{"name": "Andorra", "region": "Europe", "borders": ["FRA", "ESP"], "languages": ["ca"], "timezones": ["UTC+01:00"], "tags": ["microstate", "landlocked"]},
     {"name": "Austria", "region": "Europe", "borders": ["CZE", "DEU", "HUN", "ITA", "LIE", "SVK", "SVN", "CHE"], "languages": ["de"], "timezones": ["UTC+01:00"], "tags": ["landlocked", "alpine"]},
     {"name": "Belgium", "region": "Europe", "borders": ["FRA", "DEU", "LUX", "NLD"], "languages": ["nl", "fr", "de"], "timezones": ["UTC+01:00"], "tags": ["coastal"]},
     {"name": "Switzerland", "region": "Europe", "borders": ["AUT", "FRA", "ITA", "LIE", "DEU"], "languages": ["de", "fr", "it"], "timezones": ["UTC+01:00"], "tags": ["landlocked", "alpine"]},
     {"name": "Germany", "region": "Europe", "borders": ["AUT", "BEL", "CZE", "DNK", "FRA", "LUX", "NLD", "POL", "CHE"], "languages": ["de"], "timezones": ["UTC+01:00"], "tags": ["coastal"]},
     {"name": "France", "region": "Europe", "borders": ["AND", "BEL", "DEU", "ITA", "LUX", "MCO", "ESP", "CHE"], "languages": ["fr"], "timezones": ["UTC-10:00", "UTC+01:00", "UTC+04:00"], "tags": ["coastal"]},
     {"name": "Chile", "region": "Americas", "borders": ["ARG", "BOL", "PER"], "languages": ["es"], "timezones": ["UTC-06:00", "UTC-04:00"], "tags": ["coastal"]},
     {"name": "Peru", "region": "Americas", "borders": ["BOL", "BRA", "CHL", "COL", "ECU"], "languages": ["es"], "timezones": ["UTC-05:00"], "tags": ["coastal", "andean"]},
     {"name": "Bolivia", "region": "Americas", "borders": ["ARG", "BRA", "CHL", "PRY", "PER"], "languages": ["es", "ay", "qu"], "timezones": ["UTC-04:00"], "tags": ["landlocked", "andean"]}]
    """

  /// Lists of codes per record (neighbours, languages, time zones) are no
  /// facets; a list of words (tags) still is.
  @Test func listsOfCodesAreNoFacets() throws {
    let plan = try plan(["countries.json": Self.countries])
    let countries = try #require(plan.collections.first)
    let facets = countries.facets.map(\.expression)
    #expect(facets.contains("region"))
    #expect(facets.contains("tags"))
    for codes in ["borders", "languages", "timezones"] { #expect(!facets.contains(codes), "\(facets)") }
  }

  /// A GeoJSON geometry's type (Polygon, MultiPolygon) is a map's, not a
  /// visitor's filter.
  @Test func aGeometryIsNoFacet() throws {
    let features = (0..<12).map { index in
      #"{"id": "F\#(index)", "properties": {"name": "Feature \#(index)", "kind": "\#(index % 2 == 0 ? "lake" : "river")"}, "geometry": {"type": "\#(index % 3 == 0 ? "Polygon" : "MultiPolygon")"}}"#
    }
    let plan = try plan(["features.json": "[" + features.joined(separator: ",\n") + "]"])
    let facets = try #require(plan.collections.first).facets.map(\.expression)
    #expect(facets.contains("properties.kind"), "\(facets)")
    #expect(!facets.contains("geometry.type"), "\(facets)")
  }

  /// A gazetteer's region codes, digits among letters (`07`, `ENG`), say
  /// nothing as tokens; two-letter codes of letters (`TX`) do.
  @Test func codesOfDigitsAreNoFacet() throws {
    let regions = ["01", "02", "03", "07", "11", "ENG", "SCT", "TX", "CA", "A8"]
    let states = ["TX", "CA", "NY", "WA", "IL"]
    var rows = ["name,admin1code,state"]
    for index in 0..<90 {
      rows.append("Place \(index),\(regions[index % regions.count]),\(states[index % states.count])")
    }
    let plan = try plan(["places.csv": rows.joined(separator: "\n") + "\n"])
    let facets = try #require(plan.collections.first).facets.map(\.expression)
    #expect(!facets.contains("admin1code"), "\(facets)")
    #expect(facets.contains("state"), "\(facets)")
  }

  /// A version is shown with its label: "Emoji · Version 12.1", not "· 12.1".
  @Test func aVersionInASubtitleHasItsLabel() throws {
    var rows = ["emoji,name,version"]
    let emoji = ["😀", "😃", "😄", "😁", "😆", "🥹", "😅", "😂", "🤣", "🥲", "😊", "😇"]
    for (index, symbol) in emoji.enumerated() {
      rows.append("\(symbol),face \(index),\(["1", "3", "12.1", "13"][index % 4])")
    }
    let plan = try plan(["emoji.csv": rows.joined(separator: "\n") + "\n"])
    let subtitle = try #require(plan.collections.first?.subtitle)
    #expect(subtitle == "Emoji · Version {{version}}", "\(subtitle)")
  }

  /// A flag of 0 and 1 (ggplot2's movies: a column per genre) is no part
  /// of a subtitle, labelled or not: "Movie · 1971", not "· Comedy 1".
  @Test func aFlagIsNoPartOfASubtitle() throws {
    var rows = ["title,year,votes,Comedy"]
    for index in 0..<40 {
      rows.append("Film \(index),\(1960 + index % 7),\(index * 13),\(index % 3 == 0 ? 1 : 0)")
    }
    let plan = try plan(["movies.csv": rows.joined(separator: "\n") + "\n"])
    let subtitle = try #require(plan.collections.first?.subtitle)
    #expect(subtitle == "Movie · {{year}}", "\(subtitle)")
  }

  /// geonames' `alternatenames`: other names of the record, searched and
  /// weighed like the title, so `munchen` ranks Munich by its popularity.
  @Test func otherNamesWeighLikeTheTitle() throws {
    let cities = """
      [{"id": 1, "name": "Ottobrunn bei München", "population": 21000, "alternatenames": ["Ottobrunn"]},
       {"id": 2, "name": "Munich", "population": 1260000, "alternatenames": ["München", "Muenchen", "Monaco di Baviera"]},
       {"id": 3, "name": "Garching bei München", "population": 17000, "alternatenames": ["Garching"]},
       {"id": 4, "name": "Paris", "population": 2138551, "alternatenames": ["Lutece", "Parigi", "Parii"]}]
      """
    let folder = try DataFolder(["cities.json": cities])
    defer { folder.remove() }
    _ = try folder.initialize(["cities.json"])
    let config = try folder.read("site.yml")
    #expect(config.contains("    weights: { alternatenames: 2 }\n"), "\(config)")
    #expect(config.contains("'alternatenames' holds the record's other names"))
    #expect(
      InferenceNames.other("aliases") && InferenceNames.other("alt_names") && !InferenceNames.other("names"))
  }

  /// A name beside its translation (the holidays package's Greek `name`
  /// and its `name_en`): the record's own name is the title, in its
  /// language, though the English one is shorter.
  @Test func aTranslationIsNotTheTitle() throws {
    let holidays = """
      [{"date": "2026-01-01", "name": "Πρωτοχρονιά", "name_en": "New Year's Day"},
       {"date": "2026-01-06", "name": "Θεοφάνεια", "name_en": "Epiphany"},
       {"date": "2026-04-13", "name": "Δευτέρα του Πάσχα", "name_en": "Easter Monday"},
       {"date": "2026-10-28", "name": "Ημέρα του Όχι", "name_en": "Ohi Day"},
       {"date": "2026-12-25", "name": "Χριστούγεννα", "name_en": "Christmas Day"}]
      """
    let plan = try plan(["holidays.json": holidays])
    #expect(plan.collections.first?.title == "name", "\(plan.collections.first?.title ?? "none")")
    #expect(plan.language == "el")
    // A column named like another with no language's code after it is no translation.
    let shop = try self.plan(["p.csv": "name,name_short\nBlue widget,Blue\nRed widget,Red\n"])
    #expect(shop.collections.first?.title == "name_short", "\(shop.collections.first?.title ?? "none")")
  }

  /// pycountry's Hindi country list: `नाम` names the record, and the
  /// three-letter codes beside it, unique and shorter, are what a person
  /// types, not what a list reads — in a language whose word for "name"
  /// init does not know too.
  @Test func aNameInAnyScriptComesBeforeCodes() throws {
    let hindi = """
      कोड,नाम,आधिकारिक_नाम,कोड3
      AF,अफ़ग़ानिस्तान,अफ़ग़ानिस्तान इस्लामी गणराज्य,AFG
      DE,जर्मनी,जर्मनी संघीय गणराज्य,DEU
      IN,भारत,भारतीय गणराज्य,IND
      JP,जापान,,JPN
      CN,चीन,चीनी जनवादी गणराज्य,CHN

      """
    let plan = try plan(["countries.csv": hindi])
    #expect(plan.collections.first?.title == "नाम", "\(plan.collections.first?.title ?? "none")")
    #expect(plan.language == "hi")
    let unnamed = hindi.replacingOccurrences(of: "नाम", with: "स्तंभ")
    let other = try self.plan(["countries.csv": unnamed])
    #expect(other.collections.first?.title == "स्तंभ", "\(other.collections.first?.title ?? "none")")
  }

  /// Debian's installed packages (`/var/lib/dpkg/status` as JSON lines):
  /// a package is titled by its name (`bash`), not by its one-line
  /// summary ("GNU Bourne Again SHell"), though the name is its key.
  @Test func aSummaryIsNotTheTitle() throws {
    let status = """
      {"package": "bash", "section": "utils", "summary": "GNU Bourne Again SHell", "homepage": "http://tiswww.case.edu/php/chet/bash/bashtop.html"}
      {"package": "coreutils", "section": "utils", "summary": "GNU core utilities", "homepage": "https://www.gnu.org/software/coreutils/"}
      {"package": "tzdata", "section": "utils", "summary": "time zone and daylight-saving time data", "homepage": "https://www.iana.org/time-zones"}
      {"package": "python3", "section": "utils", "summary": "interactive high-level object-oriented language (default python3 version)", "homepage": "https://www.python.org/"}
      {"package": "sqlite3", "section": "utils", "summary": "Command line interface for SQLite 3", "homepage": "https://www.sqlite.org/"}

      """
    let plan = try plan(["status.jsonl": status])
    #expect(plan.collections.first?.title == "package", "\(plan.collections.first?.title ?? "none")")
  }

  /// An address is no title: a unique `url` of `javascript:` links beside
  /// names of markup (hostile data: `&amp;` in each, whose `;` once made
  /// them lists) leaves the names the title.
  @Test func aLinkIsNoTitle() throws {
    let markup = "<script>alert(1)</script><img src=x onerror=alert(2)>\"\"'&amp;{{title}}"
    let rows = (1...5).map { "\"\(markup) \($0)\",javascript:alert(\($0))" }
    let plan = try plan(["d.csv": "name,url\n" + rows.joined(separator: "\n") + "\n"])
    #expect(plan.collections.first?.title == "name", "\(plan.collections.first?.title ?? "none")")
  }

  /// MASS's Cars93: `Passengers` (2 to 8) is how many a car seats, not how
  /// many chose it; a count of a dozen at most over twenty records or more
  /// is no popularity.
  @Test func aCapacityIsNoPopularity() throws {
    let models = ["Acura Integra", "Chevrolet Corvette", "Dodge Caravan", "Honda Civic", "Ford Aerostar"]
    let rows = (0..<25).map { "\(models[$0 % 5]) \($0),\([5, 2, 7, 4, 7][$0 % 5])" }
    let plan = try plan(["cars.csv": "Make,Passengers\n" + rows.joined(separator: "\n") + "\n"])
    let popularity = plan.collections.first?.popularity ?? ""
    #expect(!popularity.contains("Passengers"), "\(popularity)")
    let airports = "name,passengers\nHeathrow,80000000\nGatwick,46000000\nLuton,18000000\n"
    #expect(try self.plan(["airports.csv": airports]).collections.first?.popularity == "passengers")
  }

  /// mendeleev's elements: `cpk_color` (16 colours over 118 elements) is
  /// a swatch's value, not a facet; `block` beside it is one.
  @Test func coloursAreNoFacet() throws {
    let colours = ["#ffffff", "#d9ffff", "#cc80ff", "#c2ff00", "#ffb5b5", "#909090"]
    let blocks = ["s", "p", "d", "f"]
    let rows = (0..<60).map { "Element \($0),\(blocks[$0 % 4]),\(colours[$0 % 6])" }
    let plan = try plan(["elements.csv": "name,block,cpk_color\n" + rows.joined(separator: "\n") + "\n"])
    let facets = try #require(plan.collections.first?.facets.map(\.expression))
    #expect(facets == ["block"], "\(facets)")
    #expect(
      CollectionContext.isColour("#FFF") && !CollectionContext.isColour("#1")
        && !CollectionContext.isColour("#hashtag"))
  }

  /// A title of no words (a zero-width space alone) is no trending search:
  /// tapped, it would find nothing.
  @Test func aTitleOfNoWordsIsNotTrending() throws {
    let folder = try DataFolder(["d.csv": "name,kind\n\u{200B},x\n\u{202E}…,y\nApple,x\nBanana,y\n"])
    defer { folder.remove() }
    _ = try folder.initialize(["d.csv"])
    let config = try folder.read("site.yml")
    let trending = config.split(separator: "\n").first { $0.hasPrefix("  trending: ") }
    #expect(trending == "  trending: [Apple, Banana]", "\(config)")
  }
}

/// The naming rules of `CollectionContext` asked one by one.
enum InferenceNames {
  static func other(_ name: String) -> Bool { CollectionContext.isOtherNames(name) }
}
