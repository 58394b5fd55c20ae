import Foundation
import Testing

@testable import GenerateKit

/// `sort:` and `range:` (docs/configuration.md "Sort and ranges"): what the
/// config accepts, where it points when it does not, and the rank files the
/// index writes (FORMAT.md "Sort and range files").
@Suite struct ValueKeyTests {
  /// The mini project with `lines` added under the songs collection's title.
  func project(adding lines: String) throws -> TemporaryProject {
    let project = try TemporaryProject()
    let config = try project.read("site.yml")
    let start = try #require(config.range(of: "  - id: songs\n"))
    let title = try #require(config.range(of: "    title: ", range: start.upperBound..<config.endIndex))
    let lineEnd = try #require(config[title.upperBound...].firstIndex(of: "\n"))
    var edited = config
    edited.insert(contentsOf: lines, at: config.index(after: lineEnd))
    try project.write("site.yml", edited)
    return project
  }

  /// The error a marked config gives, at the marker.
  func expectError(_ lines: String, _ message: String) throws {
    let marked = Marked(lines)
    let project = try project(adding: marked.text)
    defer { project.remove() }
    let text = try project.read("site.yml")
    let at = try #require(text.range(of: marked.text))
    let line = text[..<at.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count - 1
    let diagnostics = expectBuildFailure(project)
    let match = try #require(diagnostics.first { $0.message.contains(message) }, "\(diagnostics)")
    #expect(match.location?.file.hasSuffix("site.yml") == true)
    #expect(match.location?.line == line + marked.line, "\(match)")
    #expect(match.location?.column == marked.column, "\(match)")
  }

  @Test func badSortAndRangeOptionsPointAtTheirPlace() throws {
    try expectError("    sort: 1️⃣length\n", "sort in collection 'songs' must be a list")
    try expectError(
      "    sort:\n      - { id: length, label: Length, 1️⃣bye: milliseconds }\n", "unknown key 'bye'")
    try expectError("    sort:\n      - 1️⃣{ id: length, label: Length }\n", "missing required key 'by'")
    try expectError(
      "    sort:\n      - { id: length, by: milliseconds, order: 1️⃣upwards }\n",
      "must be ascending or descending")
    try expectError(
      "    range:\n      - { id: length, by: milliseconds, format: 1️⃣minutes }\n",
      "format of range 'length' in collection 'songs' must be one of: number, year, duration, date")
    try expectError(
      "    sort:\n      - { id: a, by: name }\n      - { id: 1️⃣a, by: milliseconds }\n",
      "duplicate sort id 'a'")
    try expectError(
      "    sort:\n      - { id: 1️⃣Length!, by: milliseconds }\n", "id 'Length!' of a sort option")
    try expectError("    range:\n      - { id: length, by: 1️⃣milisecnds, format: duration }\n", "milisecnds")
  }

  @Test func aValueTheFormatCannotReadNamesTheRecord() throws {
    let marked = Marked("    range:\n      - { id: length, by: 1️⃣composer, format: duration }\n")
    let project = try project(adding: marked.text)
    defer { project.remove() }
    let diagnostics = expectBuildFailure(project)
    let match = try #require(
      diagnostics.first { $0.message.contains("not a number of milliseconds") }, "\(diagnostics)")
    // The first record (by document number) whose composer is no number: named, with its value.
    #expect(match.message.hasPrefix("record '"), "\(match.message)")
    #expect(
      match.message.contains("' of collection 'songs': 'composer' is 'Angus Young', which is not"),
      "\(match.message)")
    #expect(match.location?.file.hasSuffix("site.yml") == true)
  }

  /// A sort and a range of one id by the same unreadable field: each
  /// error at its own `by:`, not the sort's twice.
  @Test func aSortAndARangeOfOneIdEachPointAtTheirOwnBy() throws {
    let lines =
      "    sort:\n      - { id: length, by: composer, format: duration }\n    range:\n      - { id: length, by: composer, format: duration }\n"
    let project = try project(adding: lines)
    defer { project.remove() }
    let config = try project.read("site.yml").split(separator: "\n", omittingEmptySubsequences: false)
    let byLines = config.indices.filter { config[$0].contains("{ id: length, by: composer") }.map { $0 + 1 }
    let diagnostics = expectBuildFailure(project).filter {
      $0.message.contains("not a number of milliseconds")
    }
    #expect(Set(diagnostics.compactMap(\.location?.line)) == Set(byLines), "\(diagnostics)")
    #expect(Set(diagnostics).count == diagnostics.count, "a diagnostic is repeated: \(diagnostics)")
  }

  @Test func theIndexHoldsOneRankPerDocumentAndTheManifestNamesTheOptions() throws {
    let project = try project(
      adding: """
            sort:
              - { id: title, label: Title, by: title }
              - { id: length, label: Longest, by: milliseconds, order: descending, format: duration }
            range:
              - { id: length, label: Length, by: milliseconds, format: duration }

        """)
    defer { project.remove() }
    let site = try preparedSite(config: project.config)
    let index = try IndexBuilder().build(site)
    let manifestPath = index.manifestPath
    let manifest = try index.decode(manifestPath, as: Manifest.self)
    let sorts = try #require(manifest.sorts)
    #expect(sorts.map(\.id) == ["title", "length"])
    #expect(sorts[1].descending == true && sorts[0].descending == nil)
    #expect(sorts.allSatisfy { $0.kinds == ["songs"] })
    let range = try #require(manifest.ranges?.first)
    #expect(range.format == "duration" && range.label == "Length")
    // The length sort and the length range read the same values in the same unit: one file.
    #expect(range.file == sorts[1].file)
    let file = try index.decode(range.file, as: ValueKeyFile.self)
    #expect(file.ranks.count == manifest.docCount * file.width)
    let scale = try #require(file.scale).numbers
    #expect(scale == scale.sorted() && Set(scale).count == scale.count)
    // Every song has its length in seconds; every other document has none (the largest rank).
    let titles = site.documents.map(\.title)
    let order = IndexBuilder().rankedDocuments(site)
    let none = String(repeating: "_", count: file.width)
    for (number, documentIndex) in order.enumerated() {
      let start = file.ranks.index(file.ranks.startIndex, offsetBy: number * file.width)
      let digits = String(file.ranks[start..<file.ranks.index(start, offsetBy: file.width)])
      let isSong = site.collections[site.documents[documentIndex].collection].config.id == "songs"
      #expect((digits == none) == !isSong, "\(titles[documentIndex])")
      if isSong {
        let rank = digits.utf8.reduce(0) { $0 * 64 + ValueKeyFile.digits.firstIndex(of: $1)! }
        let track = site.documents[documentIndex]
        let milliseconds = try #require(site.keyValue("milliseconds", of: documentIndex)?.number)
        #expect(scale[rank] == (milliseconds / 1000).rounded(), "\(track.title)")
      }
    }
    // Offers: spans from the lengths' quartiles, counted.
    #expect(!range.offers.isEmpty)
    #expect(range.offers.allSatisfy { $0.count > 0 })
  }

  @Test func chunksHoldTheValueOrderWithoutCuttingARunOfEqualValues() {
    let ranks = [3, -1, 0, 3, 1, 3, 3, 2, 0, -1, 1, 2]
    let chunks = ValueKeyStage.chunks(ranks, size: 3)
    var seen: [(rank: Int, id: Int)] = []
    for chunk in chunks {
      let ids = chunk.ids.numbers.map(Int.init)
      #expect(ids == ids.sorted(), "a chunk lists its documents ascending")
      let digits = Array(chunk.ranks.utf8)
      let relative = (0..<ids.count).map { i in
        digits[i * chunk.width..<(i + 1) * chunk.width].reduce(0) {
          $0 * 64 + ValueKeyFile.digits.firstIndex(of: $1)!
        }
      }
      let members = zip(relative, ids).map { (rank: chunk.base + $0, id: $1) }
      for member in members { #expect(ranks[member.id] == member.rank) }
      // Every rank of a chunk is at least every rank of the chunks before it.
      if let last = seen.map(\.rank).max() { #expect(members.allSatisfy { $0.rank >= last }) }
      #expect(
        !members.contains { m in seen.contains { $0.rank == m.rank } }, "a run of equal values is not cut")
      seen += members
    }
    #expect(seen.map(\.id).sorted() == ranks.indices.filter { ranks[$0] >= 0 }, "every valued document, once")
    // In threes, each stretched to the end of its run: [0 0 1 1], then [2 2 3 3 3 3].
    #expect(chunks.map { $0.ids.numbers.count } == [4, 6])
  }

  @Test func equalValuesShareADenseRankNumbersFirst() {
    let values: [ValueFormatting.Reading] = [
      .text("beta"), .number(3), .missing, .text("alpha"), .number(-0.0), .text("beta"), .number(0),
      .unreadable, .number(3), .text("Ärger"),
    ]
    let dense = ValueKeyStage.denseRanks(values)
    // Numbers ascending (0 and -0 one value, the first kept), then texts by
    // their bytes; none is -1.
    #expect(dense.ranks == [3, 1, -1, 2, 0, 3, 0, -1, 1, 4])
    #expect(dense.scale.map(\.sign) == [.minus, .plus] && dense.scale == [0, 3])
    #expect(dense.text)
    #expect(ValueKeyStage.denseRanks([.number(2), .number(1), .missing]).ranks == [1, 0, -1])
    #expect(!ValueKeyStage.denseRanks([.number(2), .missing]).text)
  }

  /// Texts are compared where they are packed: a shorter text before
  /// the longer one it starts, equal texts one rank, past 15 bytes too.
  @Test func aTextRanksBeforeTheLongerTextsItStarts() {
    let title = "a title longer than fifteen bytes"
    let values: [ValueFormatting.Reading] = [
      .text(title + ", b"), .text(title), .text(title + ", a"), .text(title), .text("é"), .text("e"),
    ]
    #expect(ValueKeyStage.denseRanks(values).ranks == [2, 0, 1, 0, 4, 3])
  }

  @Test func offersAreRoundedSpansThatPartitionTheValues() {
    let lengths = (0..<100).map { Double(120 + $0 * 3) }  // 2:00 … 6:57
    let offers = ValueKeyStage.offers(lengths, .duration)
    #expect(offers.map(\.value) == ["<3:00", "3:00–6:00", ">6:00"])
    #expect(offers.map(\.count).reduce(0, +) == 100)
    let years = (1900..<2000).map(Double.init)
    #expect(ValueKeyStage.offers(years, .year).map(\.value) == ["<1930", "1930–1980", ">1980"])
    #expect(ValueFormatting.text(3723, as: .duration) == "1:02:03")
    #expect(ValueFormatting.days("1975-06-30") == 2006)
    #expect(ValueFormatting.text(2006, as: .date) == "1975-06-30")
    #expect(ValueFormatting.read(.text("1975-06-30"), as: .year) == .number(1975))
    #expect(ValueFormatting.read(.text("soon"), as: .year) == .unreadable)
    #expect(ValueFormatting.read(.text(""), as: .number) == .missing)
  }
}

/// `init` offers a sort and a range for a column of years, counts, sizes or
/// lengths, and writes them so the site builds with them.
@Suite struct InitValueKeyTests {
  @Test func initOffersYearsAndLengthsAsSortsAndRanges() throws {
    var rows = "id,title,author,year,length_ms,isbn\n"
    for n in 1...40 {
      rows += "\(n),Book number \(n),Author \(n % 7),\(1900 + n * 3),\(120_000 + n * 7_000),978\(n)\n"
    }
    let folder = try DataFolder(["books.csv": rows])
    defer { folder.remove() }
    _ = try folder.initialize(["books.csv"])
    let config = try folder.read("site.yml")
    #expect(config.contains("    # 'year' holds years in 40 of 40 records"), "\(config)")
    #expect(config.contains("      - { id: title, label: Title, by: title }"))
    #expect(config.contains("      - { id: year, label: Year, by: year, order: descending, format: year }"))
    #expect(config.contains("      - { id: length, label: Length, by: length_ms, format: duration }"))
    #expect(!config.contains("by: isbn") && !config.contains("by: id"), "codes and keys are no values")
    // What it wrote builds, with the options in the manifest.
    let index = try IndexBuilder().build(try folder.prepare())
    let manifest = try index.decode(index.manifestPath, as: Manifest.self)
    #expect(manifest.sorts?.map(\.id) == ["title", "year", "length"])
    #expect(manifest.ranges?.map(\.format) == ["year", "duration"])
  }
}
