import Foundation
import Testing

@testable import GenerateKit

/// Numbers written the way a locale writes them (`31.889.923`, `1,234,567`,
/// `12 345`, `3,5`): a column is one format, found from all its values,
/// and read as numbers wherever the build needs a number, while
/// `{{field}}` prints what the file wrote.
@Suite struct NumeralTests {
  /// The table a CSV file reads as (through the loader a build uses).
  func table(_ csv: String, decimal: NumeralFormat.Mark? = nil) throws -> Table {
    let folder = try DataFolder(["t.csv": csv])
    defer { folder.remove() }
    var spec = DataFileReader.spec(
      name: "t", source: .csv(path: folder.path("t.csv"), separator: UInt8(ascii: ",")))
    spec.decimal = decimal.map { .init(value: $0, location: spec.location) }
    let config = SiteConfig(
      path: "", directory: folder.root.path, title: "", description: "", language: "en", baseURL: "/",
      tint: "", templates: [], search: .init(), tables: [spec], collections: [], facets: [], scopes: [])
    return try DatasetLoader().loadSource(spec, config: config)
  }

  /// Each column's values as numbers (nil: the column is not read in a format of its own).
  func numbers(_ table: Table, _ column: String) throws -> [Double?]? {
    let index = try #require(table.column(named: column))
    guard table.numerals[index] != nil else { return nil }
    return table.columns[index].map { table.numeral($0, column: index) }
  }

  @Test func aColumnIsReadInTheFormatAllItsValuesFit() throws {
    let table = try table(
      """
      de,en,fr,comma,india,plain,words,address,version
      "31.889.923","1,234,567",12\u{A0}345,"43,8","12,34,567",1.5,a,192.168.1.1,1.2.3
      "812","12,345",1\u{202F}234\u{202F}567,"3,5","1,000",2,b,10.0.0.1,1.10.0
      "3.600.523","-7","-5 000,25","-0,5","99",-3,c,127.0.0.1,2.0.0

      """)
    #expect(try numbers(table, "de") == [31_889_923, 812, 3_600_523])
    #expect(try numbers(table, "en") == [1_234_567, 12_345, -7])
    #expect(try numbers(table, "fr") == [12_345, 1_234_567, -5_000.25])
    #expect(try numbers(table, "comma") == [43.8, 3.5, -0.5])
    #expect(try numbers(table, "india") == [1_234_567, 1000, 99])
    // What `Double` reads as it is needs no format; the rest are text.
    for column in ["plain", "words", "address", "version"] { #expect(try numbers(table, column) == nil) }
  }

  /// `1.234` alone is 1.234 or 1234: the column's other values decide,
  /// then the table's other columns (a file is written in one locale),
  /// then `decimal:` in the config, and else the point is a decimal point.
  @Test func anAmbiguousColumnReadsAsItsTableWrites() throws {
    let alone = try table("weight,name\n\"1.234\",a\n\"12.500\",b\n")
    #expect(try numbers(alone, "weight") == nil, "Double reads 1.234 as it is")
    let decidedByItsValues = try table("weight,name\n\"1.234\",a\n\"1.234.567\",b\n")
    #expect(try numbers(decidedByItsValues, "weight") == [1234, 1_234_567])
    let besideACommaColumn = try table("weight,life\n\"1.234\",\"43,8\"\n\"12.500\",\"71,2\"\n")
    #expect(try numbers(besideACommaColumn, "weight") == [1234, 12_500])
    let configured = try table("weight,name\n\"1.234\",a\n\"12.500\",b\n", decimal: .comma)
    #expect(try numbers(configured, "weight") == [1234, 12_500])
    let commas = try table("count,name\n\"1,234\",a\n\"12,500\",b\n")
    #expect(try numbers(commas, "count") == [1234, 12_500])
    let commasConfigured = try table("count,name\n\"1,234\",a\n\"12,500\",b\n", decimal: .comma)
    #expect(try numbers(commasConfigured, "count") == [1.234, 12.5])
  }

  static let laender = """
    \u{FEFF}Land;Kontinent;Lebenserwartung;Bevölkerung\r
    Afghanistan;Asien;43,8;31.889.923\r
    Albanien;Europa;76,4;3.600.523\r
    Deutschland;Europa;79,4;82.400.996\r
    China;Asien;73,0;1.318.683.096\r
    Island;Europa;81,8;301.931\r
    Indien;Asien;64,7;1.110.396.331\r

    """

  /// A German export: init takes `Bevölkerung` for the popularity, and the
  /// build ranks, sorts and filters by it as numbers.
  @Test func initAndTheBuildReadALocalesNumbers() throws {
    let folder = try DataFolder(["länder.csv": Self.laender])
    defer { folder.remove() }
    _ = try folder.initialize(["länder.csv"])
    let config = try folder.read("site.yml")
    #expect(config.contains("    popularity: Bevölkerung\n"), "\(config)")
    let site = try folder.prepare()
    let byPopularity = site.documents.indices.sorted {
      site.documents[$0].popularity > site.documents[$1].popularity
    }
    #expect(byPopularity.prefix(3).map { site.documents[$0].title } == ["China", "Indien", "Deutschland"])
  }

  /// `sort:` and `range:` read the column as numbers (before, `range:` was
  /// an error: `31.889.923` is not a number), and a template prints the
  /// value as written while `plusone` counts on from it.
  @Test func sortsRangesAndTemplatesReadTheNumbers() throws {
    let folder = try DataFolder([
      "länder.csv": Self.laender,
      "templates/land.mustache": """
      <!DOCTYPE html>
      <html lang="de"><head><meta charset="utf-8"/><meta name="description" content="{{page.description}}"/><title>{{page.title}}</title></head><body>
      <p class="people">{{record.people}} {{plusone(record.people)}} {{#odd(record.people)}}odd{{/odd(record.people)}}</p>
      <p class="life">{{record.life}}</p>
      </body></html>

      """,
      "site.yml": """
      title: Länder
      baseURL: /
      language: de
      templates: templates
      tables:
        laender: { file: länder.csv, separator: ";", key: Land }
      collections:
        - id: laender
          label: Länder
          singular: Land
          table: laender
          title: Land
          popularity: Bevölkerung
          fields:
            people: Bevölkerung
            life: Lebenserwartung
          sort:
            - { id: people, label: Einwohner, by: Bevölkerung, order: descending }
          range:
            - { id: life, label: Lebenserwartung, by: Lebenserwartung, format: number }
          page: { template: land, path: "laender/{{slug}}/" }

      """,
    ])
    defer { folder.remove() }
    var options = BuildOptions()
    options.configPath = folder.path("site.yml")
    options.outputPath = folder.path("site")
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    let page = try folder.read("site/laender/deutschland/index.html")
    #expect(page.contains("<p class=\"people\">82.400.996 82400997 </p>"), "\(page)")
    #expect(page.contains("<p class=\"life\">79,4</p>"))
    let island = try folder.read("site/laender/island/index.html")
    #expect(island.contains("<p class=\"people\">301.931 301932 odd</p>"), "\(island)")
  }

  /// `decimal:` on a table decides a column that fits both readings, and
  /// any other value is an error at its place.
  @Test func decimalInTheConfigDecidesAnAmbiguousColumn() throws {
    func config(_ decimal: String) -> String {
      """
      title: Weights
      baseURL: /
      tables:
        parcels: { file: parcels.csv, key: name, decimal: \(decimal) }
      collections:
        - id: parcels
          label: Parcels
          singular: Parcel
          table: parcels
          title: name
          popularity: weight

      """
    }
    let folder = try DataFolder([
      "parcels.csv": "name,weight\nsmall,\"1.500\"\nlarge,\"12.250\"\n", "site.yml": config("\",\""),
    ])
    defer { folder.remove() }
    let site = try folder.prepare()
    #expect(site.documents.map(\.popularity).sorted() == [1500, 12_250])
    try folder.write("site.yml", config("x"))
    do {
      _ = try folder.prepare()
      Issue.record("decimal: x was accepted")
    } catch let error as DiagnosticsError {
      let first = try #require(error.diagnostics.first)
      #expect(first.message.contains("decimal in table 'parcels' must be \".\" or \",\""), "\(first)")
      #expect(first.location?.line == 4)
    }
  }
}
