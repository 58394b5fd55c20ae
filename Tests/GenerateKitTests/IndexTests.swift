import Foundation
import Testing

@testable import GenerateKit

@Suite struct IndexTests {
  let site: PreparedSite

  init() throws {
    let project = try TemporaryProject()
    let config = try ConfigLoader().load(path: project.config)
    site = try DocumentBuilder().prepare(config, dataset: try DatasetLoader().load(config), baseURL: "/")
  }

  func json(_ index: SiteIndex, _ path: String) throws -> [String: Any] {
    let file = try #require(index.files.first { $0.path == path || $0.path == "idx/" + path })
    return try #require(try JSONSerialization.jsonObject(with: Data(file.bytes)) as? [String: Any])
  }

  func decode(_ deltas: [Int]) -> [Int] {
    var total = 0
    return deltas.map {
      total += $0; return total
    }
  }

  @Test func documentsAreNumberedByPopularity() throws {
    let order = IndexBuilder().rankedDocuments(site).map { site.documents[$0] }
    let popularity = order.map(\.popularity)
    #expect(popularity == popularity.sorted(by: >))
    #expect(order.first?.title == "AC/DC")
  }

  @Test func termsPointAtTheirDocumentsWithTitleAndOtherPostingsApart() throws {
    let index = IndexBuilder().build(site)
    let manifest = try json(index, index.manifestPath)
    let shards = try #require(manifest["termShards"] as? [[String]])
    let bShard = try #require(shards.first { $0[0] == "b" })
    let shard = try json(index, bShard[1])
    let terms = try #require(shard["terms"] as? [String: [[Int]]])
    let back = try #require(terms["back"])
    let docs = try docTitles(index, manifest)
    #expect(decode(back[0]).map { docs[$0] }.sorted() == ["Back in Black", "Back in Black"])
    let beyonce = try #require(terms["beyonce"])
    #expect(decode(beyonce[0]).map { docs[$0] } == ["Beyoncé"])
    #expect(Set(decode(beyonce[1]).map { docs[$0] }) == ["Lemonade", "Formation", "Hold Up"])
    let aShard = try #require(shards.first { $0[0] == "a" })
    let acdc = try json(index, aShard[1])
    #expect((acdc["terms"] as? [String: Any])?["acdc"] != nil)
  }

  func docTitles(_ index: SiteIndex, _ manifest: [String: Any]) throws -> [String] {
    var titles: [String] = []
    let folder = try #require(manifest["docShardFolder"] as? String)
    let count = try #require(manifest["docCount"] as? Int)
    let perShard = try #require(manifest["docsPerShard"] as? Int)
    for path in (0..<((count + perShard - 1) / perShard)).map({ "\(folder)\($0).json" }) {
      let shard = try json(index, path)
      for doc in try #require(shard["docs"] as? [[Any]]) { titles.append(doc[1] as? String ?? "") }
    }
    return titles
  }

  @Test func largeShardsSplitIntoLongerPrefixesWithTops() throws {
    var builder = IndexBuilder()
    builder.options.targetShardBytes = 40
    let index = builder.build(site)
    let manifest = try json(index, index.manifestPath)
    let prefixes = try #require(manifest["termShards"] as? [[String]]).map { $0[0] }
    #expect(prefixes.contains("b"))
    #expect(prefixes.contains { $0.hasPrefix("b") && $0.count > 1 })
    let bPath = try #require((manifest["termShards"] as? [[String]])?.first { $0[0] == "b" }?[1])
    let tops = try #require(try json(index, bPath)["tops"] as? [[Int]])
    #expect(tops.count == 2 && !tops[0].isEmpty)
  }

  /// FORMAT.md: tops are the best title matches, then the best others, as
  /// two lists (they were once written as one list in number order, which
  /// made every top a title match).
  @Test func topsKeepTitleMatchesApartFromOthers() throws {
    var builder = IndexBuilder()
    builder.options.targetShardBytes = 40
    let index = builder.build(site)
    let manifest = try json(index, index.manifestPath)
    let shards = try #require(manifest["termShards"] as? [[String]])
    let bPath = try #require(shards.first { $0[0] == "b" }?[1])
    let tops = try #require(try json(index, bPath)["tops"] as? [[Int]])
    var titled = Set<Int>()
    var other = Set<Int>()
    for shard in shards where shard[0].hasPrefix("b") {
      for (term, lists) in try #require(try json(index, shard[1])["terms"] as? [String: [Any]])
      where term.hasPrefix("b") {
        titled.formUnion(decode(lists[0] as? [Int] ?? []))
        other.formUnion(decode(lists[1] as? [Int] ?? []))
      }
    }
    let title = decode(tops[0])
    let rest = decode(tops[1])
    #expect(!title.isEmpty && title.allSatisfy(titled.contains))
    #expect(rest.allSatisfy { other.contains($0) && !titled.contains($0) })
    #expect(title == title.sorted() && rest == rest.sorted())
  }

  @Test func shardsListTitleStartsWholeTitlesAndRunTogetherForms() throws {
    let index = IndexBuilder().build(site)
    let manifest = try json(index, index.manifestPath)
    let shards = try #require(manifest["termShards"] as? [[String]])
    let aPath = try #require(shards.first { $0[0] == "a" }?[1])
    let shard = try json(index, aPath)
    // AC/DC is document 0: its title starts with `ac` (and `acdc`), and is wholly `acdc`.
    let starts = try #require(shard["starts"] as? [String: [Int]])
    let whole = try #require(shard["whole"] as? [String: [Int]])
    let joined = try #require(shard["joined"] as? [String])
    let startsAC = decode(starts["ac"] ?? [])
    let startsACDC = decode(starts["acdc"] ?? [])
    let wholeACDC = decode(whole["acdc"] ?? [])
    #expect(startsAC.contains(0))
    #expect(startsACDC.contains(0))
    #expect(wholeACDC == [0])
    #expect(joined.contains("acdc"))
    #expect(!joined.contains("ac"))
  }

  @Test func termShardsCarryTheRowsOfTheirFirstAnswersWithinTheirBudget() throws {
    let index = IndexBuilder().build(site)
    let manifest = try json(index, index.manifestPath)
    let shards = try #require(manifest["termShards"] as? [[String]])
    let aShard = try json(index, try #require(shards.first { $0[0] == "a" }?[1]))
    let rows = try #require(aShard["docs"] as? [[Any]])
    // AC/DC, document 0, is the first answer to `a`; its row is the document shard's, numbered.
    let first = try #require(rows.first)
    let folder = try #require(manifest["docShardFolder"] as? String)
    let shard0 = try #require(try json(index, folder + "0.json")["docs"] as? [[Any]])
    #expect(first[0] as? Int == 0)
    #expect(first[2] as? String == "AC/DC")
    #expect(NSArray(array: Array(first.dropFirst())).isEqual(to: shard0[0]))
    let numbers = rows.compactMap { $0[0] as? Int }
    #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)

    // The budget bounds the rows; none at 0.
    var small = IndexBuilder()
    small.options.leadBytes = 0
    let none = small.build(site)
    let noneShards = try #require(try json(none, none.manifestPath)["termShards"] as? [[String]])
    for (_, path) in noneShards.map({ ($0[0], $0[1]) }) { #expect(try json(none, path)["docs"] == nil) }
  }

  @Test func leadQueriesComePrefixFirstThenByPostingsReached() {
    var postings: [String: Postings] = [:]
    postings["love"] = Postings(title: [1, 2, 3], other: [4])
    postings["lovely"] = Postings(title: [0])
    postings["lost"] = Postings(title: [6, 7])
    let terms = ["lost", "love", "lovely"][...]
    let queries = LeadDocuments.queries(prefix: "lo", terms: terms, postings: postings)
    #expect(Array(queries.prefix(3)) == ["lo", "lov", "love"])
    #expect(queries.firstIndex(of: "los")! < queries.firstIndex(of: "lovel")!)
    // One word's first answers: the exact word in the title before a more popular prefix match.
    let lead = LeadDocuments(postings: postings, limit: 3, inline: 2_000)
    #expect(lead.first("love", terms: terms) == [1, 2, 3])
    #expect(
      lead.select(prefix: "lo", terms: terms, tops: nil, budget: 1_000) { _ in 10 } == [0, 1, 2, 3, 6, 7])
    // Rows stop at the budget: `lo`'s three fit, `love`'s one more does not.
    #expect(lead.select(prefix: "lo", terms: terms, tops: nil, budget: 33) { _ in 10 } == [0, 1, 2])
  }

  @Test func theTypoDictionaryListsLongWordsUnderTheirMiddleLetters() throws {
    let index = IndexBuilder().build(site)
    let manifest = try json(index, index.manifestPath)
    let list = try #require(manifest["typoList"] as? String)
    let typos = try #require(try json(index, list)["typoShards"] as? [[String]])
    #expect(TypoShardStage.keys(of: "beyonce") == ["yon", "onc", "nce"])
    let path = try #require(typos.filter { "onc".hasPrefix($0[0]) }.max { $0[0].count < $1[0].count }?[1])
    let keys = try #require(try json(index, path)["keys"] as? [String: [String]])
    #expect(keys["onc"]?.contains("beyonce") == true)
  }

  @Test func distinctAndWeightsComeFromTheConfig() throws {
    let project = try TemporaryProject()
    var text = try String(contentsOfFile: project.config, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "    search: [artistName, composer]\n",
      with: "    search: [artistName, composer]\n    weights: { artistName: 2 }\n    distinct: album_id\n")
    try project.write("site.yml", text)
    let config = try ConfigLoader().load(path: project.config)
    let songs = try #require(config.collections.first { $0.id == "songs" })
    #expect(songs.distinct?.value == "album_id")
    #expect(songs.weights.map(\.name) == ["artistName"])
    let weighted = try DocumentBuilder().prepare(
      config, dataset: try DatasetLoader().load(config), baseURL: "/")
    let index = IndexBuilder().build(weighted)
    let manifest = try json(index, index.manifestPath)
    let kinds = try #require(manifest["kinds"] as? [[String: Any]])
    let kind = try #require(kinds.first { $0["id"] as? String == "songs" })
    let groupsPath = try #require(kind["distinct"] as? String)
    let groups = try #require(try json(index, groupsPath)["groups"] as? [Int])
    let count = try #require(kind["count"] as? Int)
    #expect(groups.count == count)
    #expect(Set(groups).count < groups.count, "songs of one album share a group")
    #expect(kinds.filter { $0["distinct"] != nil }.count == 1)
  }

  @Test func aWeightForAFieldThatIsNotSearchedIsAnError() throws {
    let project = try TemporaryProject()
    var text = try String(contentsOfFile: project.config, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "    search: [artistName, composer]\n",
      with: "    search: [artistName, composer]\n    weights: { duration: 2 }\n")
    try project.write("site.yml", text)
    let messages = expectBuildFailure(project).map(\.message)
    #expect(messages.contains { $0.contains("weight for 'duration'") })
  }

  @Test func longPostingListsContinueInAnotherFile() throws {
    var builder = IndexBuilder()
    builder.options.inlinePostings = 1
    let index = builder.build(site)
    let manifest = try json(index, index.manifestPath)
    let bPath = try #require((manifest["termShards"] as? [[String]])?.first { $0[0] == "b" }?[1])
    let entry = try #require((try json(index, bPath)["terms"] as? [String: [Any]])?["back"])
    #expect(entry.count == 4)
    #expect(entry[2] as? Int == 2, "both Back in Black titles")
    let morePath = try #require(entry[3] as? String)
    let more = try json(index, morePath)
    #expect((more["terms"] as? [String: Any])?["back"] != nil)
  }

  @Test func theSameInputGivesTheSameBytes() throws {
    let first = IndexBuilder().build(site)
    let second = IndexBuilder().build(site)
    #expect(first.files.map(\.path) == second.files.map(\.path))
    #expect(first.files.map(\.bytes) == second.files.map(\.bytes))
    #expect(first.manifestPath.hasPrefix("idx/manifest."))
  }

  @Test func scopesAndFacetsListTheirDocuments() throws {
    let index = IndexBuilder().build(site)
    let manifest = try json(index, index.manifestPath)
    let scopes = try #require(manifest["scopes"] as? [[String: Any]])
    let library = try #require(scopes.first { $0["id"] as? String == "library" })
    let file = try #require(library["file"] as? String)
    let ids = try #require(try json(index, file)["ids"] as? [Int])
    let titles = try docTitles(index, manifest)
    #expect(Set(decode(ids).map { titles[$0] }) == ["AC/DC", "Back in Black", "Hells Bells"])
    let facets = try #require(manifest["facets"] as? [[String: Any]])
    #expect(facets.map { $0["id"] as? String } == ["genre"], "non-token facets stay out of the manifest")
  }
}

@Suite struct TermDirectoryTests {
  @Test func manyShardsAreListedThroughOneDirectoryPerFirstLetter() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let config = try ConfigLoader().load(path: project.config)
    let site = try DocumentBuilder().prepare(config, dataset: try DatasetLoader().load(config), baseURL: "/")
    var builder = IndexBuilder()
    builder.options.maxManifestShards = 2
    let index = builder.build(site)
    func json(_ path: String) throws -> [String: Any] {
      let file = try #require(index.files.first { $0.path == path || $0.path == "idx/" + path })
      return try #require(try JSONSerialization.jsonObject(with: Data(file.bytes)) as? [String: Any])
    }
    let manifest = try json(index.manifestPath)
    #expect(manifest["termShards"] == nil)
    let directories = try #require(manifest["termDirectories"] as? [[String]])
    #expect(directories.map { $0[0] } == directories.map { $0[0] }.sorted())
    let b = try #require(directories.first { $0[0] == "b" })
    let listing = try #require(try json(b[1])["termShards"] as? [[String]])
    #expect(listing.allSatisfy { $0[0].hasPrefix("b") })
    let shard = try json(try #require(listing.first)[1])
    #expect((shard["terms"] as? [String: Any])?["back"] != nil)
  }
}
