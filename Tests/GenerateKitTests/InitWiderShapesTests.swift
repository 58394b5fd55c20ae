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
}
