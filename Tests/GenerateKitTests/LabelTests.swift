import Foundation
import Testing

@testable import GenerateKit

/// `labels:` maps coded values to what a person reads: a facet's values go
/// through its map before the index sees them, a scope may name the code
/// or the label, and `label(x, 'name')` maps values in expressions.
@Suite struct LabelTests {
  /// The mini fixture with genres coded by their first letter.
  static func project(facetLabels: String, scopeValue: String) throws -> TemporaryProject {
    let project = try TemporaryProject()
    var text = try project.read("site.yml")
    text = text.replacingOccurrences(
      of: "tables:\n", with: "labels:\n  genres: { R: Rock & Roll, P: Popular }\ntables:\n")
    text = text.replacingOccurrences(
      of: "{ id: genre, label: Genre }", with: "{ id: genre, label: Genre, labels: \(facetLabels) }")
    text = text.replacingOccurrences(
      of: "  - { id: library, label: Library, facet: buyer, value: \"5\" }",
      with: "  - { id: library, label: Library, facet: buyer, value: \"5\" }\n"
        + "  - { id: rock, label: Rock, facet: genre, value: \"\(scopeValue)\" }")
    // The data holds codes: the first letter of each genre's name (M for MPB has no label).
    text = text.replacingOccurrences(of: "genre_id.name", with: "genre_id.code")
    try project.write("site.yml", text)
    try project.write("data/genres.csv", "id,name,code\n1,Rock,R\n2,Pop,P\n3,MPB,M\n")
    return project
  }

  static func manifest(_ project: TemporaryProject) throws -> [String: Any] {
    let folder = project.path("site/idx")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("manifest.") })
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func facetValues(_ manifest: [String: Any]) -> [String] {
    let facets = manifest["facets"] as? [[String: Any]] ?? []
    let genre = facets.first { $0["id"] as? String == "genre" }
    return (genre?["values"] as? [[Any]] ?? []).compactMap { $0.first as? String }.sorted()
  }

  static func scopeCount(_ manifest: [String: Any], _ id: String) -> Int? {
    let scopes = manifest["scopes"] as? [[String: Any]] ?? []
    return scopes.first { $0["id"] as? String == id }?["count"] as? Int
  }

  @Test(arguments: ["R", "Rock & Roll"])
  func aNamedMapLabelsAFacetAndAScopeMayNameTheCodeOrTheLabel(_ scopeValue: String) throws {
    let project = try Self.project(facetLabels: "genres", scopeValue: scopeValue)
    defer { project.remove() }
    let summary = try project.build()
    #expect(summary.warnings.isEmpty, "\(summary.warnings)")
    let manifest = try Self.manifest(project)
    // Codes without a label (M) pass through unchanged.
    #expect(Self.facetValues(manifest) == ["M", "Popular", "Rock & Roll"])
    // AC/DC, Back in Black and its two songs.
    #expect(Self.scopeCount(manifest, "rock") == 4)
  }

  @Test func anInlineMapLabelsAFacet() throws {
    let project = try Self.project(facetLabels: "{ M: Música Popular Brasileira }", scopeValue: "R")
    defer { project.remove() }
    _ = try project.build()
    let manifest = try Self.manifest(project)
    #expect(Self.facetValues(manifest) == ["Música Popular Brasileira", "P", "R"])
    #expect(Self.scopeCount(manifest, "rock") == 4)
  }

  @Test func labelMapsValuesInExpressionsItemByItem() throws {
    let project = try Self.project(facetLabels: "genres", scopeValue: "R")
    defer { project.remove() }
    var text = try project.read("site.yml")
    text = text.replacingOccurrences(
      of: "subtitle: \"Artist · {{albums}}\"", with: "subtitle: \"{{genres}}\"")
    text = text.replacingOccurrences(
      of: "      albumList: albums\n",
      with:
        "      albumList: albums\n      genres: join(label(distinct(albums.tracks.genre_id.code), 'genres'), ' / ')\n"
    )
    text = text.replacingOccurrences(
      of: "subtitle: \"Song · {{artistName}} · {{duration}}\"", with: "subtitle: \"{{genre}}\"")
    text = text.replacingOccurrences(
      of: "      composer: composer\n",
      with: "      composer: composer\n      genre: label(genre_id.code, 'genres')\n")
    try project.write("site.yml", text)
    let site = try preparedSite(config: project.config)
    let subtitles = Dictionary(
      site.documents.map { ("\(site.collections[$0.collection].config.id)/\($0.key)", $0.subtitle) },
      uniquingKeysWith: { first, _ in first })
    #expect(subtitles["artists/1"] == "Popular")
    #expect(subtitles["artists/2"] == "Rock & Roll")
    #expect(subtitles["artists/3"] == "M")
    #expect(subtitles["songs/102"] == "Rock & Roll")
    #expect(subtitles["songs/104"] == "M")
  }
}
