import Foundation
import Testing

@testable import GenerateKit

/// The documents' store (`DocumentStore`): what pages and document shards
/// show goes to a temporary file for a large site, and the site is the
/// same either way.
@Suite struct DocumentStoreTests {
  /// What the fixture's folder holds beside the output, other than the
  /// project's own files: a temporary file left behind would be here.
  func leftovers(_ project: TemporaryProject) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
      $0.hasPrefix(".generate-")
    }
  }

  @Test func aSiteIsTheSameWithItsDocumentsOnDisk() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    var options = project.options()
    options.usesBuildRecord = false
    options.documentsOnDiskFrom = Int.max
    let inMemory = try SiteBuilder(options: options, log: { _ in }).build()
    let memorySite = try project.snapshot()
    options.documentsOnDiskFrom = 0
    let onDisk = try SiteBuilder(options: options, log: { _ in }).build()
    let diskSite = try project.snapshot()
    #expect(inMemory.pages > 0 && inMemory.records > 0)
    #expect(onDisk.pages == inMemory.pages && onDisk.records == inMemory.records)
    let differing = Set(memorySite.keys).union(diskSite.keys).filter { memorySite[$0] != diskSite[$0] }
    #expect(differing.isEmpty, "differ with the documents on disk: \(differing.sorted().prefix(10))")
    #expect(try leftovers(project).isEmpty)
  }

  @Test func aPreparedSiteReadsTheSameFieldsFromDiskAndFromMemory() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let config = try ConfigLoader().load(path: project.config)
    let dataset = try DatasetLoader().load(config)
    let spilled = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: "/")
    let packed = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: "/")
    let before = spilled.documents.map(\.shown)
    #expect(before.contains { !$0.subtitle.isEmpty } && before.contains { !$0.url.isEmpty })
    spilled.documents.seal(spillingTo: project.root.path, from: 0)
    packed.documents.seal(spillingTo: project.root.path, from: Int.max)
    #expect(spilled.documents.isSpilled && !packed.documents.isSpilled)
    #expect(spilled.documents.map(\.shown) == before)
    #expect(packed.documents.map(\.shown) == before)
    #expect(spilled.documents.map(\.subtitle) == before.map(\.subtitle))
    #expect(
      spilled.documents.indices.map { spilled.url(of: $0) }
        == packed.documents.indices.map { packed.url(of: $0) })
    // Unlinked as soon as made: nothing to clean up, even if the build dies.
    #expect(try leftovers(project).isEmpty)
  }

  @Test func fieldsOfAnyTextReadBackAsWritten() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let values: [DocumentStore.Shown] = [
      .init(subtitle: "Motörhead · 🇫🇷 · 東京", url: "artists/1-motorhead/", image: "", symbol: "👩‍👩‍👧"),
      .init(),
      .init(
        subtitle: String(repeating: "long subtitle ", count: 40), url: "",
        image: "https://covers.example/a b.png"),
      .init(subtitle: "a\u{0}b\nc", url: "#track-1"),
    ]
    for threshold in [0, Int.max] {
      let store = DocumentStore()
      for (number, value) in values.enumerated() {
        store.append(
          collection: 0, row: number, key: "\(number)", title: "Title \(number)", slugSuffix: 0, hue: number,
          popularity: Double(number))
        store[number].subtitle = value.subtitle
        store[number].url = value.url
        store[number].image = value.image
        store[number].symbol = value.symbol
      }
      store.finishAdding()
      store.seal(spillingTo: folder.path, from: threshold)
      #expect(store.isSpilled == (threshold == 0))
      #expect(store.map(\.shown) == values)
      #expect(store.map(\.title) == values.indices.map { "Title \($0)" })
      #expect(store.map(\.popularity) == values.indices.map(Double.init))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}

/// Where each value was read is dropped once the site is prepared, but for
/// the key column, which every later problem names a record by.
@Suite struct ReleasedPlacesTests {
  @Test func aReleasedFieldIsPlacedAtItsRecordAndTheKeyKeepsItsPlace() throws {
    let fixture = try SourceFixture(files: ["t.csv": "id,name,note\n1,Ann,x\n22,Bob,\"two\nlines\"\n"])
    defer { fixture.remove() }
    let dataset = try fixture.load("t: { file: t.csv, key: id }")
    let table = try #require(dataset.tableNamed["t"])
    let file = table.file
    #expect(table.location(row: 1, column: 0) == SourceLocation(file: file, line: 3, column: 1))
    #expect(table.location(row: 1, column: 1) == SourceLocation(file: file, line: 3, column: 4))
    #expect(table.location(row: 1, column: 2) == SourceLocation(file: file, line: 3, column: 8))
    dataset.releasePlaces()
    #expect(table.location(row: 1, column: 0) == SourceLocation(file: file, line: 3, column: 1))
    #expect(table.location(row: 1, column: 1) == SourceLocation(file: file, line: 3, column: 1))
    #expect(table.location(row: 1, column: 2) == SourceLocation(file: file, line: 3, column: 1))
    // The values themselves stay.
    #expect(table.columns[2][1] == "two\nlines" && table.key(ofRow: 1) == "22")
  }
}
