import Foundation
import Testing

@testable import GenerateKit

/// A column of ISO 3166-1 country codes (airportsdata's `country`: `GB`)
/// gets a `labels:` map with the countries' English names, so tokens and
/// subtitles say "United Kingdom"; codes that only look like countries
/// (sizes, languages, states) keep a map to fill in by hand, or none.
@Suite struct InitCountryCodesTests {
  static let countries = ["GB", "FR", "DE", "US", "JP", "BO", "IR", "NO", "ES", "IT", "CA", "BR"]

  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  /// 48 airports in 12 countries, like airportsdata's columns.
  static var airports: String {
    var csv = "iata,name,city,country\n"
    for index in 0..<48 {
      csv += "A\(index)X,Airport \(index),City \(index),\(countries[index % countries.count])\n"
    }
    return csv
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BadInputSuite.executable)))
  func countryCodesAreNamedInTheConfigTheTokensAndTheSubtitle() throws {
    let folder = try emptyFolder("countries")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(Self.airports.utf8).write(to: folder.appendingPathComponent("airports.csv"))
    let initResult = try runProcess(BadInputSuite.executable, ["init", "airports.csv"], in: folder)
    #expect(initResult.status == 0, "\(initResult.err)")
    let config = try String(contentsOf: folder.appendingPathComponent("site.yml"), encoding: .utf8)
    #expect(config.contains("labels: country }"), "\(config)")
    #expect(config.contains("  # English names of the ISO 3166-1 country codes, from Debian's iso-codes."))
    #expect(config.contains("    \"GB\": \"United Kingdom\"\n"), "\(config)")
    // iso-codes' common name where it has one; Norway's code stays a string.
    #expect(config.contains("    \"BO\": \"Bolivia\"\n"), "\(config)")
    #expect(config.contains("    \"NO\": \"Norway\"\n"), "\(config)")
    #expect(config.contains("label(country, 'country')"), "\(config)")

    let build = try runProcess(
      BadInputSuite.executable, ["--config", "site.yml", "--output", "site", "--strict", "-q"], in: folder)
    #expect(build.status == 0, "\(build.err)")
    let page = try String(
      contentsOf: folder.appendingPathComponent("site/airports/a0x/index.html"), encoding: .utf8)
    #expect(page.contains("United Kingdom"), "\(page)")
    // The facet's values, as the search tokens offer them.
    let files =
      FileManager.default.enumerator(atPath: folder.appendingPathComponent("site").path)?
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".json") } ?? []
    let index = try files.map {
      try String(contentsOf: folder.appendingPathComponent("site/\($0)"), encoding: .utf8)
    }.joined()
    #expect(index.contains("United Kingdom") && index.contains("Iran"))
    #expect(!index.contains("\"GB\""))
  }

  /// A site in Russian (Cyrillic titles) reads the countries in Russian,
  /// iso-codes' translation, and the comment says so.
  @Test func countryNamesInTheSiteLanguage() throws {
    var csv = "name,country\n"
    for index in 0..<36 { csv += "Аэропорт \(index),\(Self.countries[index % Self.countries.count])\n" }
    let folder = try DataFolder(["airports.csv": csv])
    defer { folder.remove() }
    let found = try DataFileReader().read([folder.path("airports.csv")])
    let plan = CollectionInference().infer(SchemaInference().infer(found))
    let config = ConfigWriter(directory: folder.root.path, title: "Аэропорты", description: "").write(plan)
    #expect(config.contains("language: ru"), "\(config)")
    #expect(config.contains("    \"GB\": \"Соединённое Королевство\"\n"), "\(config)")
    #expect(config.contains("codes in 'ru', from Debian's iso-codes"), "\(config)")
  }

  /// Alpha-3 codes under a name that says countries are named too.
  @Test func alpha3CodesAreNamed() throws {
    let codes = ["GBR", "FRA", "DEU", "USA", "JPN", "RUS"]
    var csv = "name,iso_country\n"
    for index in 0..<30 { csv += "Place \(index),\(codes[index % codes.count])\n" }
    let facet = try #require(try plan(["places.csv": csv]).facets.first { $0.id == "iso_country" })
    #expect(facet.names["GBR"] == "United Kingdom")
    #expect(facet.names["RUS"] == "Russian Federation")
  }

  /// Sizes S/M/L keep a map to fill in; languages `en`, `de`, `fr` (or
  /// capitals under a name that says languages) and US states get no
  /// country names.
  @Test func codesThatAreNotCountriesAreNotNamed() throws {
    let sizes = ["S", "M", "L", "M", "XL"]
    let languages = ["en", "de", "fr", "es", "it", "pt", "nl", "ru"]
    let states = ["CA", "TX", "NY", "FL", "GA", "WA", "IL", "PA", "OH", "MI"]
    var csv = "name,size,lang,language,state,spoken\n"
    let spoken = ["EN", "DE", "FR", "ES", "IT", "JA", "ZH", "KO"]
    for index in 0..<60 {
      csv +=
        "Item \(index),\(sizes[index % sizes.count]),\(languages[index % languages.count]),"
        + "\(languages[index % languages.count].uppercased()),\(states[index % states.count]),"
        + "\(spoken[index % spoken.count])\n"
    }
    let plan = try plan(["items.csv": csv])
    #expect(plan.facets.contains { $0.id == "size" && $0.codes.contains("M") })
    #expect(plan.facets.contains { $0.id == "lang" })
    for facet in plan.facets { #expect(facet.names.isEmpty, "\(facet.id): \(facet.names)") }
    #expect(CountryCodes.names(of: languages, column: "lang") == nil)
    #expect(CountryCodes.names(of: languages.map { $0.uppercased() }, column: "language") == nil)
    #expect(CountryCodes.names(of: spoken, column: "spoken") == nil)
    #expect(CountryCodes.names(of: states, column: "code") == nil)
    // Twelve countries' capitals are named under any name; lower case
    // only under a name that says countries.
    #expect(CountryCodes.names(of: Self.countries, column: "code")?["GB"] == "United Kingdom")
    #expect(CountryCodes.names(of: ["gb", "fr", "de"], column: "cc")?["gb"] == "United Kingdom")
  }
}
