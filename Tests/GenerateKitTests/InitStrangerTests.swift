import Foundation
import Testing

@testable import GenerateKit

/// `init` on a stranger's catalogue (issue 31): each case a few rows of a
/// public dataset it chose wrongly before (Tests/relevance/strangers).
@Suite struct InitStrangerTests {
  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  /// pycountry's Russian names: the short name, not the official one,
  /// and the comment says which was passed over.
  @Test func theShortNameBeforeTheOfficialOne() throws {
    let plan = try plan([
      "countries.csv": """
      код,официальное_название,название
      DE,Федеративная Республика Германия,Германия
      FR,Французская Республика,Франция
      AF,Исламская Республика Афганистан,Афганистан
      JP,,Япония

      """
    ])
    let countries = try #require(plan.collections.first)
    #expect(countries.title == "название")
    #expect(countries.titleReason.contains("not 'официальное_название'"))
  }

  /// A package index whose key `id` holds the name again: `name` is the
  /// title, not a reference to its own table, and not `summary`.
  @Test func aColumnEqualToTheKeyIsTheNameNotAReference() throws {
    let plan = try plan([
      "packages.jsonl": """
      {"id": "python3-requests", "name": "python3-requests", "summary": "elegant and simple HTTP library for Python3, built for human beings"}
      {"id": "vim", "name": "vim", "summary": "Vi IMproved - enhanced vi editor"}
      {"id": "gcc", "name": "gcc", "summary": "GNU C compiler"}

      """
    ])
    #expect(plan.schema.tables.first?.refs.isEmpty == true)
    #expect(plan.collections.first?.title == "name")
  }

  /// Unicode's characters: a key of code points whose first values are
  /// all digits (`0041`), letters only further on (`00C9`), is codes a
  /// person types — searched and weighed like the title, as `LAX` is.
  @Test func aKeyOfHexCodesIsSearched() throws {
    let plan = try plan([
      "characters.csv": """
      code,name,category
      0030,DIGIT ZERO,Nd
      0041,LATIN CAPITAL LETTER A,Lu
      0061,LATIN SMALL LETTER A,Ll
      00C9,LATIN CAPITAL LETTER E WITH ACUTE,Lu

      """
    ])
    let characters = try #require(plan.collections.first)
    #expect(plan.schema.tables.first?.key == "code")
    #expect(characters.search.contains("code"), "\(characters.search)")
    #expect(characters.codeKey == "code")
  }

  /// A facet filters: not by a value nine rows in ten share (vega's US
  /// airports: `USA` for 3,363 of 3,376), but by a version of few values
  /// (the emoji package's `E`, 0.6 to 15.1), a number though it is.
  @Test func aNearlyConstantColumnIsNoFacetAndAVersionIs() throws {
    let rows = (0..<40).map { n in
      "Airport \(n),\(["WA", "GA", "TX", "NY"][n % 4]),\(n == 0 ? "Palau" : "USA"),\([0.6, 12.1, 13.1][n % 3])"
    }
    let plan = try plan(["airports.csv": "name,state,country,version\n" + rows.joined(separator: "\n") + "\n"]
    )
    let airports = try #require(plan.collections.first)
    #expect(airports.facets.map(\.expression) == ["state", "version"], "\(airports.facets)")
    // Three of forty in one other value are a few records, not strays.
    let states = (0..<40).map { "State \($0),\($0 < 3 ? "territory" : "state")" }
    let kinds = try self.plan(["states.csv": "name,kind\n" + states.joined(separator: "\n") + "\n"])
    #expect(kinds.collections.first?.facets.map(\.expression) == ["kind"])
  }

  /// An emoji table keyed by its emoji, some of them letters to Unicode
  /// (Ⓜ️): the key is the artwork, neither searched nor weighed.
  @Test func aKeyOfEmojiIsNotWeighed() throws {
    let plan = try plan([
      "emoji.csv": "emoji,name\n🥇,1st place medal\nⓂ️,circled M\n🆎,AB button\n😀,grinning face\n"
    ])
    let emoji = try #require(plan.collections.first)
    #expect(emoji.symbol == "emoji")
    #expect(emoji.codeKey == nil && !emoji.search.contains("emoji"), "\(emoji.search)")
  }

  /// A books file: 3.8 million ratings counted before their average.
  @Test func aCountOfRatingsBeforeTheRating() throws {
    let plan = try plan([
      "books.csv": """
      id,title,rating,ratings_count
      1,The Hunger Games,4.34,4780653
      2,Twilight,3.57,3866839
      3,The Great Gatsby,3.89,2683664

      """
    ])
    let books = try #require(plan.collections.first)
    #expect(books.popularity == "ratings_count")
    #expect(books.popularityReason?.contains("'rating' only grades") == true)
    // A grade word counts when its numbers are counts (GitHub's stars).
    let repos = try self.plan(["repos.csv": "id,name,stars\n1,swift,67000\n2,vapor,24000\n3,tiny,3\n"])
    #expect(repos.collections.first?.popularity == "stars")
  }

  /// airportsdata: two airports called Heathrow; the one with an IATA code
  /// (which a third of airports have) ranks first, the Texas strip with
  /// only a local code second: that code (`lid`, the FAA's) is a field of
  /// the US airports, which every one of them has and no other airport,
  /// so it says where a record is, not how complete it is.
  @Test func howCompleteARecordIsBreaksATie() throws {
    let folder = try DataFolder([
      "airports.csv": """
      icao,iata,name,city,subd,country,tz,lid
      TE17,,Heathrow Airport,Robinson,Texas,US,America/Chicago,TE17
      EGLL,LHR,London Heathrow Airport,London,England,GB,Europe/London,
      00AA,,Aero B Ranch Airport,Leoti,Kansas,US,America/Chicago,00AA
      00AK,,Lowell Field,Anchor Point,Alaska,US,America/Anchorage,00AK
      EDDF,FRA,Frankfurt am Main Airport,Frankfurt am Main,Hesse,DE,Europe/Berlin,
      KFFT,FFT,Capital City Airport,Frankfort,Kentucky,US,America/New_York,FFT

      """
    ])
    defer { folder.remove() }
    let result = try folder.initialize(["airports.csv"])
    let airports = try #require(result.plan.collections.first)
    #expect(airports.popularity == "count(iata) * 5")
    #expect(airports.popularityReason?.contains("only breaks ties") == true)
    #expect(
      airports.popularityReason?.contains("'lid' is a field of the records whose 'country' is US") == true,
      "\(airports.popularityReason ?? "")")
    let site = try folder.prepare()
    let london = try #require(site.documents.first { $0.title == "London Heathrow Airport" })
    let texas = try #require(site.documents.first { $0.title == "Heathrow Airport" })
    #expect(london.popularity > texas.popularity)
    // The trending searches, the most complete records, hold London.
    let trending = try #require(result.text.split(separator: "\n").first { $0.contains("trending:") })
    #expect(trending.contains("London Heathrow Airport") && !trending.contains("Lowell Field"))
  }

  /// A field most records of one group have and others too is no field of
  /// that group: it still counts (ISO's `alpha_2`, which 184 of 7,900
  /// languages have, most of them living ones, and few living ones have).
  @Test func aFieldSomeOfAGroupHaveCounts() throws {
    var rows = "name,type,alpha_2\n"
    for n in 0..<40 {
      rows += "Language \(n),\(n % 4 == 0 ? "extinct" : "living"),\(n % 3 == 0 ? "l\(n)" : "")\n"
    }
    let plan = try plan(["languages.csv": rows])
    #expect(
      plan.collections.first?.popularity == "count(alpha_2) * 7",
      "\(plan.collections.first?.popularity ?? "")")
  }

  /// countryinfo's `code`: no key, since three codes are there twice, but a
  /// column of codes all the same, weighed like the title so `DE` finds
  /// Germany as a key of codes would.
  @Test func aColumnOfCodesNearlyUniqueIsWeighed() throws {
    var rows = "code,name,capital\n"
    let names = [
      "Germany", "Denmark", "France", "Spain", "Italy", "Japan", "China", "India", "Peru", "Chile",
    ]
    for (n, name) in names.enumerated() {
      rows += "\(name.prefix(2).uppercased())\(n),\(name),Capital \(n)\n"
    }
    for n in 0..<30 { rows += "X\(n),Country \(n),City \(n)\n" }
    rows += "X0,Country X,City X\n"
    let plan = try plan(["countries.csv": rows])
    let countries = try #require(plan.collections.first)
    #expect(plan.schema.tables.first?.key == nil)
    #expect(countries.codeKey == "code", "\(countries.search)")
    // Names are no codes: several words, or no letter.
    let numbered = try self.plan(["things.csv": "id,name\n1,one thing\n2,another thing\n3,a third\n"])
    #expect(numbered.collections.first?.codeKey == nil)
  }

  /// Two informative parts in the subtitle: a city and a region, not a
  /// bare country code (airportsdata's `GB`) nor the time zone.
  @Test func aSubtitleOfTwoInformativeParts() throws {
    var rows = "icao,name,city,subd,country,tz\n"
    let places = [
      ("London", "England", "GB", "Europe/London"), ("Leeds", "England", "GB", "Europe/London"),
      ("Dallas", "Texas", "US", "America/Chicago"), ("Austin", "Texas", "US", "America/Chicago"),
    ]
    for number in 0..<12 {
      let (city, region, country, zone) = places[number % 4]
      rows += "X\(number),Field \(number),\(city),\(region),\(country),\(zone)\n"
    }
    let plan = try plan(["airports.csv": rows])
    #expect(plan.collections.first?.subtitle == "Airport · {{city}} · {{subd}}")
  }

  /// vega_datasets' cars: a few small whole numbers (`Cylinders`) and a
  /// date of few values (the model `Year`, 1970-01-01) are facets, the
  /// date by its year, after the words and years (as a subtitle takes
  /// them); a score and an id are not.
  @Test func smallNumbersAndYearsAreFacets() throws {
    var rows = "id,Name,Cylinders,Year,Origin,Miles_per_Gallon\n"
    for number in 0..<18 {
      let cylinders = [4, 6, 8][number % 3]
      rows +=
        "\(number),car \(number),\(cylinders),\(1970 + number % 4)-01-01,"
        + "\(["USA", "Japan"][number % 2]),\(10 + number)\n"
    }
    let plan = try plan(["cars.csv": rows])
    let cars = try #require(plan.collections.first)
    #expect(cars.facets.map(\.expression) == ["year(Year)", "Origin", "Cylinders"])
    #expect(cars.subtitle == "Car · {{year}} · {{origin}}")
  }

  /// A part some records leave empty leaves no " · " behind.
  @Test func anEmptyPartOfTheSubtitleIsDropped() throws {
    let folder = try DataFolder([
      "airports.csv": """
      iata,name,city,state
      AAA,Alpha Field,Springfield,IL
      BBB,Beta Field,Springfield,MO
      CCC,Gamma Field,Shelbyville,IL
      DDD,Delta Field,Shelbyville,MO
      EEE,Epsilon Field,Capital City,IL
      FFF,Zeta Field,Capital City,MO
      GGG,Eta Field,Ogdenville,IL
      HHH,Theta Field,Ogdenville,MO
      III,Iota Field,North Haverbrook,IL
      JJJ,Kappa Field,,MO

      """
    ])
    defer { folder.remove() }
    let result = try folder.initialize(["airports.csv"])
    #expect(result.plan.collections.first?.subtitle == "Airport{{#city}} · {{city}}{{/city}}")
    let site = try folder.prepare()
    #expect(site.documents.first { $0.title == "Kappa Field" }?.subtitle == "Airport")
    #expect(site.documents.first { $0.title == "Alpha Field" }?.subtitle == "Airport · Springfield")
  }

  /// A reference some records leave empty drops with its " · " too; and
  /// a column holding the key again where filled (airportsdata's `lid`)
  /// is not a reference to its own table.
  @Test func anEmptyReferenceInTheSubtitleIsDropped() throws {
    let plan = try plan([
      "artists.csv": "id,name\n1,Miles Davis\n2,Nina Simone\n",
      "albums.csv": "id,title,artist_id\n1,Kind of Blue,1\n2,Pastel Blues,2\n3,Jazz Sampler,\n",
      "airports.csv": "icao,name,lid\n00AA,Aero B Ranch Airport,00AA\nEGLL,London Heathrow Airport,\n",
    ])
    let albums = try #require(plan.collections.first { $0.table == "albums" })
    #expect(albums.subtitle == "Album{{#artist}} · {{artist.title}}{{/artist}}")
    #expect(plan.schema.table("airports")?.refs.isEmpty == true)
  }

  /// The `us` package's states: a `kind` of "state" or "territory" is not
  /// said again after "State".
  @Test func theKindIsSaidOnce() throws {
    var rows = "abbr,name,kind,time_zone\n"
    for (index, zone) in ["America/Chicago", "America/New_York", "America/Denver"].enumerated() {
      for number in 0..<4 {
        rows += "S\(index)\(number),State \(index)-\(number),state,\(zone)\n"
      }
    }
    rows += "PR,Puerto Rico,territory,America/Puerto_Rico\nGU,Guam,territory,Pacific/Guam\n"
    let plan = try plan(["states.csv": rows])
    let states = try #require(plan.collections.first)
    #expect(states.subtitle?.contains("kind") == false)
    #expect(states.subtitle?.contains("{{timeZone}}") == true)
  }

  /// Column labels a reader knows: codes in capitals, abbreviations spelt
  /// out, a unit and a language in parentheses.
  @Test func readableLabels() {
    let labels = [
      "iata": "IATA", "icao": "ICAO", "tz": "Time zone", "lat": "Latitude", "lon": "Longitude",
      "subd": "Subdivision", "elevation_ft": "Elevation (ft)", "Weight_in_lbs": "Weight (lbs)",
      "name_ja": "Name (ja)", "release_date": "Release date", "lifeExp": "Life exp",
      "IMDB_Rating": "IMDB rating",
    ]
    for (name, label) in labels {
      #expect(RecordContext.readable(name) == label, "\(name)")
    }
    #expect(Naming.label("time_zone") == "Time Zone")
    #expect(Naming.label("tz") == "Time Zone")
    #expect(Naming.label("iata") == "IATA")
    #expect(Naming.label("media_types") == "Media Types")
  }

  /// The language from the script, and from the words where it is Latin.
  @Test func theSiteLanguageFromItsData() {
    #expect(SiteLanguage.code(forTitles: ["Германия", "Франция", "Япония"]) == "ru")
    #expect(SiteLanguage.code(forTitles: ["Україна", "Київ", "Львів", "Їжак"]) == "uk")
    #expect(SiteLanguage.code(forTitles: ["भारत", "नेपाल"]) == "hi")
    #expect(SiteLanguage.code(forTitles: ["مصر", "العراق"]) == "ar")
    let latin = [
      "fr": [
        "La République française et les territoires d'outre-mer",
        "Royaume-Uni de Grande-Bretagne et d'Irlande du Nord", "la France des villes et des champs",
      ],
      "de": [
        "Bundesrepublik Deutschland und die Länder", "Königreich der Niederlande",
        "Vereinigte Staaten von Amerika", "das Haus am See mit dem Garten",
      ],
      "es": [
        "Reino de España y las islas", "Estados Unidos de América", "República del Perú y los Andes",
        "el mar",
      ],
      "it": ["pollice in su", "mano con indice e pollice", "bandiera della Italia", "il gatto e il cane"],
      "pt": [
        "mão com dedo indicador e polegar", "coração vermelho", "sinal de polegar para a esquerda",
        "os olhos do gato", "uma casa com um jardim",
      ],
      "nl": [
        "Koninkrijk der Nederlanden", "het huis van de koning", "een fiets met een bel", "de kat op het dak",
      ],
      "en": [
        "Republic of France", "The United Kingdom of Great Britain and Northern Ireland",
        "Aeroporto de Lisboa",
        "the city of London",
      ],
    ]
    for (code, titles) in latin {
      #expect(SiteLanguage.code(forTitles: titles) == code, "\(code)")
    }
    // More Latin-script languages, told by their small words and letters
    // (names a person in each would write; none from a dataset scored here).
    let more: [String: [String]] = [
      "pl": ["Zamek w Malborku", "Pałac Kultury i Nauki", "Kościół Mariacki", "Muzeum Narodowe w Krakowie"],
      "sv": [
        "Slottet och parken", "Kungliga operan i Stockholm", "Vägen till havet", "Huset på ängen",
        "Museet för modern konst", "Kyrkan som brann",
      ],
      "tr": [
        "Ayasofya Camii", "Topkapı Sarayı ve bahçesi", "Kız Kulesi", "Çırağan Sarayı", "Yeşil Cami",
        "Galata Kulesi ve çevresi", "Dolmabahçe Sarayı", "Kapalıçarşı için rehber", "Ağrı Dağı",
      ],
      "vi": ["Hồ Hoàn Kiếm", "Chùa Một Cột", "Vịnh Hạ Long", "Phố cổ Hội An", "Cầu Vàng của Đà Nẵng"],
      "id": [
        "Candi Borobudur dan sekitarnya", "Taman Nasional Komodo", "Pantai Kuta di Bali",
        "Museum yang ada di Jakarta",
      ],
      "cs": [
        "Pražský hrad", "Karlův most", "Chrám svatého Víta", "Staroměstské náměstí v Praze",
        "Zámek Český Krumlov", "Hrad Karlštejn a okolí", "Národní divadlo", "Kostel sv. Mikuláše",
      ],
    ]
    for (code, titles) in more {
      #expect(
        SiteLanguage.code(forTitles: titles) == code, "\(code): \(SiteLanguage.code(forTitles: titles))")
    }
    // A world's place names hold every language's small words, none far
    // ahead: English, as a person would pick (geonames' cities got `pt`).
    #expect(
      SiteLanguage.code(forTitles: [
        "São Paulo", "Rio de Janeiro", "Belo Horizonte", "San José", "San Juan de los Lagos",
        "Santa Cruz de la Sierra",
        "Saint-Denis", "Fort-de-France", "La Paz", "Porto Alegre", "Vila do Conde", "Ciudad del Este",
        "Villa de Leyva", "Los Angeles", "Le Havre", "São José dos Campos", "Foz do Iguaçu", "Pointe-à-Pitre",
        "Bois-des-Filion", "Santiago de Compostela", "Reggio nell'Emilia", "Castel di Sangro", "Val-d'Or",
      ]) == "en")
    // Names alone say little: the official names beside them decide.
    #expect(
      SiteLanguage.code(
        forTitles: ["Deutschland", "Frankreich", "Japan"],
        otherText: [
          "Bundesrepublik Deutschland", "Französische Republik", "Vereinigte Staaten von Amerika",
          "Königreich der Niederlande", "Republik Österreich und die Länder",
        ]) == "de")
  }

  /// A Russian list gets `language: ru`, and a description without
  /// English words.
  @Test func aRussianCatalogueIsWrittenInRussian() throws {
    let folder = try DataFolder([
      "страны.csv": "код,название\nDE,Германия\nFR,Франция\nJP,Япония\n"
    ])
    defer { folder.remove() }
    let result = try folder.initialize(["страны.csv"])
    #expect(result.text.contains("\nlanguage: ru\n"))
    #expect(
      result.text.contains("description: \"Страны: 3\"") || result.text.contains("description: Страны: 3"))
    #expect(!result.text.contains("Search 3"))
  }

  /// With no popularity at all, the site focused with an empty field still
  /// shows trending searches, and its facets as tokens.
  @Test func anInitSiteIsNeverBlank() throws {
    let folder = try DataFolder([
      "currencies.csv": """
      code,name,kind
      EUR,Euro,fiat
      USD,US Dollar,fiat
      JPY,Yen,fiat
      XAU,Gold,metal
      XAG,Silver,metal
      GBP,Pound Sterling,fiat

      """
    ])
    defer { folder.remove() }
    let result = try folder.initialize(["currencies.csv"])
    #expect(result.plan.collections.first?.popularity == nil)
    #expect(result.text.contains("# The first titles (nothing ranks them)"))
    #expect(result.text.contains("trending: [Euro, US Dollar, Yen]"))
    #expect(result.text.contains("\nfacets:\n"))
    let site = try folder.prepare()
    #expect(site.config.search.trending == ["Euro", "US Dollar", "Yen"])
    #expect(!site.config.facets.isEmpty)
  }

  /// The strangers' emoji.csv, keyed by its emoji: the key is the artwork
  /// (`symbol:`) and the name, not the emoji or its version, the title.
  @Test func anEmojiKeyIsTheArtwork() throws {
    let plan = try plan([
      "emoji.csv": """
      emoji,name,version
      🥇,1st place medal,3
      🥈,2nd place medal,3
      🥉,3rd place medal,3
      ❤️,red heart,0.6
      🇫🇷,flag: France,2

      """
    ])
    let emoji = try #require(plan.collections.first)
    #expect(emoji.title == "name")
    #expect(emoji.symbol == "emoji")
  }
}
