import Foundation
import Testing

@testable import GenerateKit

/// A nested JSON object reads as dotted columns, and expressions reach them
/// by the same dotted name.
@Suite struct DottedColumnTests {
  @Test func aNestedFieldIsReachedByItsDottedName() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dotted-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let items = """
      [{"id": 1, "title": "Back in Black", "artist": {"name": "AC/DC", "country": {"code": "AU"}}},
       {"id": 2, "title": "Livro", "artist": {"name": "Caetano Veloso", "country": {"code": "BR"}}}]
      """
    try Data(items.utf8).write(to: folder.appendingPathComponent("items.json"))
    let config = """
      title: Shelf
      tables:
        items: { file: items.json, key: id }
        artists: { groupBy: items.artist.name }
      collections:
        - id: items
          label: Items
          table: items
          title: title
          subtitle: "{{who}} · {{where}}"
          fields:
            who: artist.name
            where: artist.country.code
        - { id: artists, label: Artists, table: artists, title: artist.name }
      """
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    let loaded = try ConfigLoader().load(path: folder.appendingPathComponent("site.yml").path)
    let site = try DocumentBuilder().prepare(loaded, dataset: try DatasetLoader().load(loaded), baseURL: "/")
    #expect(
      site.documents.map(\.subtitle).filter { !$0.isEmpty }.sorted() == ["AC/DC · AU", "Caetano Veloso · BR"])
    // A grouped table may group by a dotted column too.
    #expect(site.documents.map(\.title).sorted() == ["AC/DC", "Back in Black", "Caetano Veloso", "Livro"])
  }
}
