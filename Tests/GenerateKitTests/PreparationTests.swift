import Foundation
import Testing

@testable import GenerateKit

/// Joins, derived fields and popularity on the small fixture catalogue.
@Suite struct PreparationTests {
  let project: TemporaryProject
  let site: PreparedSite

  init() throws {
    project = try TemporaryProject()
    let config = try ConfigLoader().load(path: project.config)
    let dataset = try DatasetLoader().load(config)
    site = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: "/")
  }

  func document(_ title: String, in collection: String) throws -> Document {
    let found = site.documents.first {
      $0.title == title && site.collections[$0.collection].config.id == collection
    }
    return try #require(found, "no \(collection) document titled \(title)")
  }

  func facetValues(_ title: String, in collection: String, facet: Int) throws -> [String] {
    let found = site.documents.firstIndex {
      $0.title == title && site.collections[$0.collection].config.id == collection
    }
    return site.facetValues(
      of: try #require(found, "no \(collection) document titled \(title)"), facet: facet)
  }

  /// A search link is made again each time it is read, byte by byte: it must be the link
  /// Foundation's percent-encoding made when links were kept, for every character.
  @Test func aSearchLinkEncodesEveryCharacterAsFoundationDoes() {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    let scalars = stride(from: UInt32(0), to: 0x30000, by: 3).compactMap { UnicodeScalar($0) }
    let titles =
      scalars.map { "a" + String($0) + "z" } + [
        "AC/DC", "Back in Black", "Guns N' Roses", "100% Pure (Live) [Remix] #1?", " ~a_b.c-d ",
        "Prá Ride", "Ça va", "",
      ]
    for title in titles {
      let expected = "?q=\(title.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")&kind=songs"
      #expect(
        DocumentBuilder.searchLink(title: title, collection: "songs") == expected, "\(Array(title.utf8))")
    }
  }

  /// Subtitles, links and page paths of text and names are filled in
  /// without Mustache (`RecordTemplate`): the same text Mustache renders,
  /// for every record of the fixture, and for names that are lists,
  /// records, missing or hidden.
  @Test func recordTemplatesRenderWhatMustacheRenders() throws {
    var filled = 0
    for collection in site.collections {
      let extra = try [
        "{{title}} · {{missing}} · {{title.x}}", "{{albums}}", "{{artist}}/{{url}}", "{{#title}}x{{/title}}",
        "a {{ title }}", "{{artist.title}} – {{artist.missing.deeper}}",
      ].map(RecordTemplate.init)
      for template in [collection.subtitle, collection.url, collection.pagePath].compactMap({ $0 }) + extra {
        if template.parts != nil { filled += 1 }
        for document in site.documents
        where document.collection == site.collections.firstIndex(where: { $0 === collection }) {
          let context = RecordContext(site: site, table: collection.table, row: document.row)
          #expect(try template.render(context) == MustacheOracle.renderRecordTemplate(template.text, context))
        }
      }
    }
    #expect(filled > site.collections.count)
  }

  @Test func anAlbumKnowsItsArtistTracksAndDuration() throws {
    let album = try document("Back in Black", in: "albums")
    #expect(album.subtitle == "Album · AC/DC · 9:27")
    #expect(album.url == "albums/11-back-in-black/")
    let index = try #require(site.documents.firstIndex { $0.title == "Back in Black" && $0.url == album.url })
    #expect(site.searchText(of: index).contains("AC/DC"))
  }

  @Test func durationsPastAnHourShowHours() throws {
    #expect(try document("Você É Linda", in: "songs").subtitle == "Song · Caetano Veloso · 1 hr 2 min")
    #expect(ExpressionEvaluator.duration(343_719) == "5:44")
  }

  @Test func songsLinkIntoTheirAlbumPage() throws {
    #expect(try document("Hells Bells", in: "songs").url == "albums/11-back-in-black/#track-102")
  }

  @Test func pluralsAndCounts() throws {
    #expect(try document("Beyoncé", in: "artists").subtitle == "Artist · 1 album")
    #expect(try document("Road Trip", in: "playlists").subtitle == "Playlist · 3 songs")
  }

  @Test func popularityCountsPurchasesThriceAndPlaylistsOnce() throws {
    #expect(try document("Hells Bells", in: "songs").popularity == 7)
    #expect(try document("Formation", in: "songs").popularity == 4)
    #expect(try document("AC/DC", in: "artists").popularity == 8)
    #expect(try document("Livro", in: "albums").popularity == 0)
  }

  @Test func facetsFeedTokensAndTheLibraryScope() throws {
    let genre = try #require(site.facets.firstIndex { $0.id == "genre" })
    let buyer = try #require(site.facets.firstIndex { $0.id == "buyer" })
    #expect(try facetValues("Lemonade", in: "albums", facet: genre) == ["Pop"])
    #expect(try facetValues("Hells Bells", in: "songs", facet: buyer) == ["5"])
    #expect(try facetValues("AC/DC", in: "artists", facet: buyer) == ["5"])
    #expect(try facetValues("Formation", in: "songs", facet: buyer) == ["6"])
  }

  @Test func expressionErrorsPointIntoTheConfig() throws {
    let compiler = ExpressionCompiler(dataset: site.dataset)
    let albums = try #require(site.dataset.tableNamed["albums"])
    #expect(throws: ExpressionCompiler.Failure.self) { try compiler.compile("count(trakcs)", table: albums) }
    do {
      _ = try compiler.compile("sum(tracks.milisecond)", table: albums)
    } catch {
      #expect(error.offset == 4)
      #expect(error.message.contains("no column or related table 'milisecond'"))
    }
  }
}

/// Text from the data stays text: an `&` in a name must reach the index as
/// `&`, and reach a page as `&amp;` exactly once.
@Suite struct TextStaysTextTests {
  @Test func ampersandsAreNotEscapedIntoTheIndexAndOnceInPages() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "data/artists.csv", "id,name\n1,Beyoncé\n2,Simon & Garfunkel <live>\n3,Caetano Veloso\n")
    _ = try project.build()
    let files = try project.snapshot()
    let docs = files.filter { $0.key.hasPrefix("idx/d/") }.map { String(decoding: $0.value, as: UTF8.self) }
      .joined()
    #expect(docs.contains("\"Album · Simon & Garfunkel <live> · 9:27\""))
    #expect(!docs.contains("&amp;") && !docs.contains("&lt;"))
    let page = try #require(
      files["albums/11-back-in-black/index.html"].map { String(decoding: $0, as: UTF8.self) })
    #expect(page.contains(">Simon &amp; Garfunkel &lt;live&gt;</a>"))
    #expect(!page.contains("&amp;amp;"))
  }
}

/// With detail pages switched off for some collections (as scale builds do),
/// every link still leads somewhere: a search for the record.
@Suite struct PagesSwitchedOffTests {
  @Test func recordsWithoutPagesLinkToASearchForThem() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write("site.yml", try project.read("site.yml") + "pages: [artists]\n")
    _ = try project.build()
    let files = try project.snapshot()
    #expect(files["albums/11-back-in-black/index.html"] == nil)
    let artist = try #require(files["artists/2-ac-dc/index.html"].map { String(decoding: $0, as: UTF8.self) })
    #expect(artist.contains("href=\"/?q=Back%20in%20Black&amp;kind=albums\""), "\(artist)")
    let docs = files.filter { $0.key.hasPrefix("idx/d/") }.map { String(decoding: $0.value, as: UTF8.self) }
      .joined()
    #expect(docs.contains("\"?q=Hells%20Bells&kind=songs\""))
  }
}

/// `+` joins text, so a title or subtitle can be made of two columns.
@Suite struct TextJoinedByPlusTests {
  @Test func plusJoinsTextAndStillAddsNumbers() throws {
    let project = try TemporaryProject()
    let config = try project.read("site.yml")
    let line = "      songs: plural(count(playlist_tracks), 'song', 'songs')\n"
    try #require(config.contains(line))
    try project.write(
      "site.yml",
      config.replacingOccurrences(
        of: line,
        with: "      songs: name + ' · ' + (count(playlist_tracks) + 1) + ' songs'\n"))
    let loaded = try ConfigLoader().load(path: project.config)
    let site = try DocumentBuilder().prepare(loaded, dataset: try DatasetLoader().load(loaded), baseURL: "/")
    let playlist = try #require(site.documents.first { $0.title == "Road Trip" })
    #expect(playlist.subtitle == "Playlist · Road Trip · 4 songs")
  }
}
