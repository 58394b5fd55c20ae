import Foundation
import Testing

@testable import GenerateKit

/// A record found by a word outside its title says where (FORMAT.md "Field
/// shards"): its rows carry the searched fields' texts that the title and
/// subtitle do not already show, and nothing else.
@Suite struct SearchedFieldsTests {
  let index: SiteIndex
  let manifest: Manifest

  init() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    index = try IndexBuilder().build(try preparedSite(config: project.config))
    manifest = try index.decode(index.manifestPath)
  }

  /// Every document's title, with its field shard's texts.
  func documents() throws -> [(title: String, fields: [String])] {
    let shards = (manifest.docCount + manifest.docsPerShard - 1) / manifest.docsPerShard
    return try (0..<shards).flatMap { number in
      let rows: DocumentShard = try index.decode(try index.docShardPath(manifest, number))
      let fields: FieldShard = try index.decode(try index.docShardPath(manifest, number, "f"))
      #expect(rows.first == fields.first && rows.docs.count == fields.fields.count)
      #expect(rows.docs.allSatisfy { $0.fields == nil }, "a document shard's rows stay as they were")
      return zip(rows.docs, fields.fields).map { ($0.title, $1) }
    }
  }

  @Test func aKindListsTheFieldsItsSubtitleDoesNotName() throws {
    let kinds = Dictionary(uniqueKeysWithValues: manifest.kinds.map { ($0.id, $0.fields) })
    // Songs search [artistName, composer]; the subtitle prints {{artistName}}.
    #expect(kinds["songs"] == ["Composer"])
    #expect(kinds["artists"] == .some(nil), "no searched fields, no labels")
  }

  @Test func aFieldShardHoldsOnlyTextTheRowDoesNotShow() throws {
    let fields = Dictionary(try documents().map { ($0.title, $0.fields) }, uniquingKeysWith: { x, _ in x })
    #expect(fields["Hells Bells"] == ["Angus Young"])
    #expect(fields["Formation"] == ["Beyoncé Knowles, \"Swae\" Lee"])
    // Caetano Veloso wrote the song he sings: the subtitle already shows every word.
    #expect(fields["Você É Linda"] == [])
    #expect(fields["Hold Up"] == [], "no composer")
    #expect(fields["AC/DC"] == [], "artists search no field")
  }

  @Test func aTermShardCarriesTheTextsOfRowsItsWordsFindOutsideTheTitle() throws {
    let shards = try #require(manifest.termShardEntries)
    let a: TermShard = try index.decode(try #require(shards.first { $0.prefix == "a" }).path)
    let rows = Dictionary((a.docs ?? []).map { ($0.title, $0) }, uniquingKeysWith: { x, _ in x })
    // `angus` finds Hells Bells by its composer; `acdc` finds AC/DC by its title.
    #expect(rows["Hells Bells"]?.fields == ["Angus Young"])
    let acdc = try #require(rows["AC/DC"])
    #expect(acdc.fields == nil)
  }

  @Test func rowsWithFieldsEncodeAsOneMoreListAndReadBack() throws {
    let row = DocumentRow(
      kind: 2, title: "Hells Bells", subtitle: "Song · AC/DC", url: "albums/11/#track-102", hue: 3,
      fields: ["", "Angus Young"])
    let bytes = String(decoding: row.jsonBytes, as: UTF8.self)
    #expect(bytes == #"[2,"Hells Bells","Song · AC/DC","albums/11/#track-102",3,["","Angus Young"]]"#)
    var numbered = row
    numbered.number = 7
    #expect(String(decoding: numbered.jsonBytes, as: UTF8.self).hasPrefix("[7,2,"))
    var plain = numbered
    plain.fields = nil
    // Six elements either way: a number in front, or the fields at the end.
    for value in [row, numbered, plain] {
      #expect(try JSONDecoder().decode(DocumentRow.self, from: Data(value.jsonBytes)) == value)
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(DocumentRow.self, from: Data(#"[2,"a","b","c",3,["x"],1]"#.utf8))
    }
  }

  @Test func labelsComeFromTheFieldNames() {
    #expect(SearchedFields.label("composer") == "Composer")
    #expect(SearchedFields.label("albumTitle") == "Album")
    #expect(SearchedFields.label("album_title") == "Album")
    #expect(SearchedFields.label("artistNames") == "Artist names")
    #expect(SearchedFields.label("artist_id.name") == "Artist id")
    #expect(SearchedFields.label("title") == "Title")
  }

  @Test func longTextsAreCutAtAWord() {
    let long = String(repeating: "word ", count: 60)
    let cut = SearchedFields.cut(long)
    #expect(cut.count <= SearchedFields.maxLength + 1 && cut.hasSuffix("word…"))
    #expect(SearchedFields.cut("two\nlines") == "two lines")
  }
}
