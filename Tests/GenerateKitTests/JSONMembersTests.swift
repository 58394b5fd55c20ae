import Foundation
import Testing

@testable import GenerateKit

/// Records written as the members of an object, keyed by id or name
/// (`{"2988507": {"name": "Paris", …}, …}`), as geonames' cities, Firebase
/// exports and many API dumps are: `members: id` reads each member as a
/// record with its name in `id`, and `init` finds them on its own.
@Suite struct JSONMembersTests {
  static let cities = """
    {
      "2988507": {"name": "Paris", "countrycode": "FR", "population": 2138551, "alternatenames": ["Parigi", "París"]},
      "2643743": {"name": "London", "countrycode": "GB", "population": 8961989, "alternatenames": ["Londres", "Londra"]},
      "4717560": {"name": "Paris", "countrycode": "US", "population": 24912, "alternatenames": []},
      "3117735": {"name": "Madrid", "countrycode": "ES", "population": 3255944, "alternatenames": ["Madri"]}
    }
    """

  @Test func initReadsAnObjectOfRecordsAndTheSiteBuilds() throws {
    let folder = try DataFolder(["cities.json": Self.cities])
    defer { folder.remove() }
    _ = try folder.initialize(["cities.json"])
    let config = try folder.read("site.yml")
    #expect(config.contains("cities: { file: cities.json, members: key"), "\(config)")
    let site = try folder.prepare()
    #expect(site.documents.count == 4)
    let titles = site.documents.map(\.title)
    #expect(titles.filter { $0 == "Paris" }.count == 2 && titles.contains("Madrid"))
    // The member's name is the record's key: its page and its id.
    let london = try #require(site.documents.firstIndex { $0.title == "London" })
    #expect(site.searchText(of: london).contains("Londres"))
  }

  /// A record is an object's member only where they share a shape: a
  /// document's `meta` and `data` are not a table of two.
  @Test func objectsOfOtherShapesAreNotRecords() throws {
    #expect(
      JSONRecordsFinder.recordFields([["name", "population"], ["name", "population"], ["name"]]) != nil)
    #expect(JSONRecordsFinder.recordFields([["version", "generated"], ["items", "next"]]) == nil)
    #expect(JSONRecordsFinder.recordFields([["name"]]) == nil)
    let document = """
      {"meta": {"version": 2, "source": "x"}, "data": {"items": [{"name": "a"}, {"name": "b"}]}}
      """
    let folder = try DataFolder(["doc.json": document])
    defer { folder.remove() }
    let found = try JSONRecordsFinder.arrays(inFile: folder.path("doc.json"))
    let best = try #require(JSONRecordsFinder.best(found))
    #expect(best.path == "data.items" && best.memberFields == nil)
  }

  /// The member column's name is one no record holds already.
  @Test func theMembersColumnDoesNotClashWithAField() {
    var found = JSONRecordsFinder.Found(path: nil, objects: 2, memberFields: ["key", "id", "name"])
    #expect(found.membersColumn == "code")
    found.memberFields = ["key", "id", "name", "code", "slug"]
    #expect(found.membersColumn == "key2")
  }

  @Test func membersOnAnArrayIsAnErrorAtTheDocument() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("data/artists.json", #"[{"id": 1, "name": "Beyoncé"}]"#)
    let config = try project.read("site.yml").replacingOccurrences(
      of: "  artists: { file: data/artists.csv, key: id }",
      with: "  artists: { file: data/artists.json, members: code, key: code }")
    try project.write("site.yml", config)
    let diagnostics = expectBuildFailure(project)
    #expect(
      diagnostics.contains {
        $0.message.contains(
          "expected an object whose members are the records ('members: code'), found a list")
          && $0.location?.file.hasSuffix("artists.json") == true
      }, "\(diagnostics)")
  }

  @Test func membersOnACSVFileIsAnErrorAtItsLine() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let config = try project.read("site.yml").replacingOccurrences(
      of: "  artists: { file: data/artists.csv, key: id }",
      with: "  artists: { file: data/artists.csv, members: code, key: id }")
    try project.write("site.yml", config)
    let diagnostics = expectBuildFailure(project)
    let line = config.components(separatedBy: "\n").firstIndex { $0.contains("members: code") }.map { $0 + 1 }
    #expect(
      diagnostics.contains {
        $0.message.contains("'members' in table 'artists' applies to a .json or .geojson file only")
          && $0.location?.line == line
      }, "\(diagnostics)")
  }

  /// An object read without `members:` says how to read it.
  @Test func anObjectOfRecordsWithoutMembersSaysHow() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("data/artists.json", #"{"1": {"name": "Beyoncé"}, "2": {"name": "AC/DC"}}"#)
    let config = try project.read("site.yml").replacingOccurrences(
      of: "  artists: { file: data/artists.csv, key: id }", with: "  artists: { file: data/artists.json }")
    try project.write("site.yml", config)
    let diagnostics = expectBuildFailure(project)
    #expect(diagnostics.contains { $0.message.contains("'members: COLUMN'") }, "\(diagnostics)")
  }
}
