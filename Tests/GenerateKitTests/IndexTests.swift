import Foundation
import Testing

@testable import GenerateKit

@Suite struct IndexTests {
  let site: PreparedSite

  init() throws {
    let project = try TemporaryProject()
    site = try preparedSite(config: project.config)
  }

  /// A file of the index, decoded as its shape in IndexFormat.swift.
  func file<T: Decodable>(_ index: SiteIndex, _ path: String, as type: T.Type = T.self) throws -> T {
    try index.decode(path)
  }

  @Test func documentsAreNumberedByPopularity() throws {
    let order = IndexBuilder().rankedDocuments(site).map { site.documents[$0] }
    let popularity = order.map(\.popularity)
    #expect(popularity == popularity.sorted(by: >))
    #expect(order.first?.title == "AC/DC")
  }

  /// The rank's sort orders two titles by their first 8 bytes where those
  /// differ, and only there: it must agree with String order (which the
  /// search results' order of equally popular records follows) for every
  /// pair it decides, and decide none it cannot.
  @Test func titlePrefixesOrderAsTheTitlesDo() {
    let titles = [
      "", "a", "ab", "abc", "abcdefgh", "abcdefghi", "abcdefgha", "abcdefgi", "abcdefg", "b", "ba",
      "love", "love song", "love songs", "lovesong", "Love", "100", "1000", "99 red balloons", "a b",
      "a\u{0}b", "beyonce", "beyoncé", "caf\u{E9}", "cafe\u{301}", "zz", "~", "\u{7F}",
    ]
    for title in titles {
      let prefix = IndexBuilder.orderPrefix(title)
      #expect((prefix == nil) == (!title.utf8.allSatisfy { $0 < 0x80 } || title.utf8.prefix(8).contains(0)))
    }
    for a in titles {
      for b in titles {
        let (x, y) = (IndexBuilder.orderPrefix(a), IndexBuilder.orderPrefix(b))
        guard let x, let y, x != y else { continue }
        #expect((x < y) == (a < b), "\(a) and \(b)")
      }
    }
    // Titles that share their first 8 bytes are left to the whole title.
    #expect(IndexBuilder.orderPrefix("abcdefgh") == IndexBuilder.orderPrefix("abcdefghz"))
  }

  @Test func termsPointAtTheirDocumentsWithTitleAndOtherPostingsApart() throws {
    let index = try IndexBuilder().build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let shards = try #require(manifest.termShardEntries)
    let bShard: TermShard = try file(index, try #require(shards.first { $0.prefix == "b" }).path)
    let back = try #require(bShard.terms["back"])
    let docs = try docTitles(index, manifest)
    #expect(back.title.numbers.map { docs[Int($0)] }.sorted() == ["Back in Black", "Back in Black"])
    let beyonce = try #require(bShard.terms["beyonce"])
    #expect(beyonce.title.numbers.map { docs[Int($0)] } == ["Beyoncé"])
    #expect(Set(beyonce.other.numbers.map { docs[Int($0)] }) == ["Lemonade", "Formation", "Hold Up"])
    let aShard: TermShard = try file(index, try #require(shards.first { $0.prefix == "a" }).path)
    #expect(aShard.terms["acdc"] != nil)
  }

  func docTitles(_ index: SiteIndex, _ manifest: Manifest) throws -> [String] {
    let shardCount = (manifest.docCount + manifest.docsPerShard - 1) / manifest.docsPerShard
    return try (0..<shardCount).flatMap { number in
      try file(index, try index.docShardPath(manifest, number), as: DocumentShard.self).docs.map(\.title)
    }
  }

  @Test func largeShardsSplitIntoLongerPrefixesWithTops() throws {
    var builder = IndexBuilder()
    builder.options.targetShardBytes = 40
    let index = try builder.build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let shards = try #require(manifest.termShardEntries)
    #expect(shards.contains { $0.prefix == "b" })
    #expect(shards.contains { $0.prefix.hasPrefix("b") && $0.prefix.count > 1 })
    let bShard: TermShard = try file(index, try #require(shards.first { $0.prefix == "b" }).path)
    let tops = try #require(bShard.tops)
    #expect(tops.count == 2 && !tops[0].numbers.isEmpty)
  }

  /// FORMAT.md: tops are the best title matches, then the best others, as
  /// two lists (they were once written as one list in number order, which
  /// made every top a title match).
  @Test func topsKeepTitleMatchesApartFromOthers() throws {
    var builder = IndexBuilder()
    builder.options.targetShardBytes = 40
    let index = try builder.build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let shards = try #require(manifest.termShardEntries)
    let bShard: TermShard = try file(index, try #require(shards.first { $0.prefix == "b" }).path)
    let tops = try #require(bShard.tops)
    var titled = Set<Int32>()
    var other = Set<Int32>()
    for shard in shards where shard.prefix.hasPrefix("b") {
      for (term, entry) in try file(index, shard.path, as: TermShard.self).terms where term.hasPrefix("b") {
        titled.formUnion(entry.title.numbers)
        other.formUnion(entry.other.numbers)
      }
    }
    let title = Array(tops[0].numbers)
    let rest = Array(tops[1].numbers)
    #expect(!title.isEmpty && title.allSatisfy(titled.contains))
    #expect(rest.allSatisfy { other.contains($0) && !titled.contains($0) })
    #expect(title == title.sorted() && rest == rest.sorted())
  }

  @Test func shardsListTitleStartsWholeTitlesAndRunTogetherForms() throws {
    let index = try IndexBuilder().build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let shards = try #require(manifest.termShardEntries)
    let shard: TermShard = try file(index, try #require(shards.first { $0.prefix == "a" }).path)
    // AC/DC is document 0: its title starts with `ac` (and `acdc`), and is wholly `acdc`.
    let starts = try #require(shard.starts)
    let whole = try #require(shard.whole)
    let joined = try #require(shard.joined)
    #expect(starts["ac"]?.numbers.contains(0) == true)
    #expect(starts["acdc"]?.numbers.contains(0) == true)
    #expect(whole["acdc"].map { Array($0.numbers) } == [0])
    #expect(joined.contains("acdc"))
    #expect(!joined.contains("ac"))
  }

  /// Large (no kinds file) or small (one kinds file, which a final search's rows never wait for).
  @Test(arguments: [1, 50_000])
  func shardsCarryTheFirstRowsOnEnterOfTheirCommonestWord(kindsInOneFile: Int) throws {
    var builder = IndexBuilder()
    builder.options.kindsInOneFile = kindsInOneFile
    builder.options.leadBytes = 300  // too few for most shards' typing rows; 150 for the first row on Enter
    builder.options.enterRows = 1
    let index = try builder.build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    #expect((manifest.kindsFile == nil) == (kindsInOneFile == 1))
    let postings = PostingsStage(site: site, order: IndexBuilder().rankedDocuments(site)).run()
    let count = { (term: String) in postings[term]?.count ?? 0 }
    var checked = 0
    for entry in try #require(manifest.termShardEntries) {
      let shard: TermShard = try file(index, entry.path)
      let common = shard.terms.keys.filter { postings[$0]?.plain == true }.sorted {
        (count($0), $1) > (count($1), $0)
      }
      guard let word = common.first, let list = postings[word] else { continue }
      let carried = Set((shard.docs ?? []).compactMap(\.number))
      let first = LeadDocuments.firstOnEnter(list, count: 1)
      #expect(
        first.allSatisfy { carried.contains(Int($0)) }, "\(word): \(first) not all in \(carried.sorted())")
      checked += 1
    }
    #expect(checked > 5)
    // Whole titles first, then titles that start with the word, then by number: `back` is
    // Back in Black (whole title "back in black" is not the word), so popularity decides.
    let back = try #require(postings["back"])
    #expect(LeadDocuments.firstOnEnter(back, count: 2) == Array(back.title.prefix(2)))
  }

  /// Each block's terms go through a table of its own and join the build's
  /// lists at the block's end: the lists must be as one pass over every
  /// document makes them, whatever the block, a term first seen in a later
  /// block, one that only starts or ends a title there, non-ASCII terms and a
  /// Snowball language's stems included (the Arabic fixture).
  @Test(arguments: ["mini", "arabic"])
  func postingsAreTheSameWhateverTheBlock(fixture: String) throws {
    let project = try TemporaryProject(copying: fixture)
    let site = try preparedSite(config: project.config)
    let stage = PostingsStage(site: site, order: IndexBuilder().rankedDocuments(site))
    func lists(_ postings: [String: Postings]) -> [String: [[Int32]]] {
      postings.mapValues {
        [
          $0.title, $0.other, $0.starts, $0.ends, $0.whole, $0.parts, $0.compounds, $0.mentions,
          [$0.plain ? 1 : 0, $0.stem ? 1 : 0],
        ]
      }
    }
    let whole = lists(stage.run(block: site.documents.count + 1))
    #expect(whole.count > 20)
    #expect(whole.values.contains { !$0[2].isEmpty } && whole.values.contains { !$0[3].isEmpty })
    if fixture == "arabic" {
      #expect(whole.keys.contains { !$0.allSatisfy(\.isASCII) })
      #expect(whole.values.contains { $0[8][1] == 1 })
    }
    for block in [1, 2, 3, 7] {
      let blocked = lists(stage.run(block: block))
      #expect(blocked.keys.sorted() == whole.keys.sorted(), "block \(block)")
      for (term, expected) in whole where blocked[term] != expected {
        Issue.record("block \(block), \(term): \(blocked[term] ?? []) against \(expected)")
      }
    }
  }

  @Test func termShardsCarryTheRowsOfTheirFirstAnswersWithinTheirBudget() throws {
    let index = try IndexBuilder().build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let shards = try #require(manifest.termShardEntries)
    let aShard: TermShard = try file(index, try #require(shards.first { $0.prefix == "a" }).path)
    let rows = try #require(aShard.docs)
    // AC/DC, document 0, is the first answer to `a`; its row is the document shard's, numbered.
    let first = try #require(rows.first)
    let shard0: DocumentShard = try file(index, try index.docShardPath(manifest, 0))
    #expect(first.number == 0)
    #expect(first.title == "AC/DC")
    var unnumbered = first
    unnumbered.number = nil
    #expect(unnumbered == shard0.docs.first)
    let numbers = rows.compactMap(\.number)
    #expect(numbers.count == rows.count)
    #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)

    // The budget bounds the rows; none at 0.
    var small = IndexBuilder()
    small.options.leadBytes = 0
    let none = try small.build(site)
    let noneManifest: Manifest = try file(none, none.manifestPath)
    for shard in try #require(noneManifest.termShardEntries) {
      #expect(try file(none, shard.path, as: TermShard.self).docs == nil)
    }
  }

  @Test func leadQueriesComePrefixFirstThenByPostingsReached() {
    var postings: [String: Postings] = [:]
    postings["love"] = Postings(title: [1, 2, 3], other: [4])
    postings["lovely"] = Postings(title: [0])
    postings["lost"] = Postings(title: [6, 7])
    let terms = ["lost", "love", "lovely"][...]
    let queries = LeadDocuments.queries(prefix: "lo", terms: terms, postings: postings).map(\.prefix)
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

  @Test func aWordAndANumberCountAsTheWordWholeInLeadRows() {
    #expect(LeadDocuments.numbered("python3", "python"))
    #expect(LeadDocuments.numbered("gtk4", "gtk"))
    #expect(!LeadDocuments.numbered("python3x", "python"))
    #expect(!LeadDocuments.numbered("python", "python"))
    #expect(!LeadDocuments.numbered("1977", "197"), "a number after digits is a longer number")
    var postings: [String: Postings] = [:]
    postings["python"] = Postings(other: [0, 1])
    postings["python3"] = Postings(title: [5])
    postings["pythonic"] = Postings(title: [2])
    let terms = ["python", "python3", "pythonic"][...]
    // python3's title holds `python` whole as a version; pythonic's only begins with it.
    let lead = LeadDocuments(postings: postings, limit: 2, inline: 2_000)
    #expect(lead.first("python", terms: terms) == [5, 2])
  }

  @Test func aNameHoldsItsPartsApartFromItsWords() {
    // simple-revision-control is one name: its runs and tails are parts, the name run together
    // is a word; a word of its own elsewhere in the title is not a part (FORMAT.md "Parts of names").
    #expect(
      PostingsStage.parts(of: ["simple-revision-control"], forms: nil)
        == ["simple", "revision", "control", "revisioncontrol"])
    #expect(PostingsStage.parts(of: ["AC/DC Live"], forms: nil) == ["ac", "dc"])
    #expect(PostingsStage.parts(of: ["Control Freak", "revision-control"], forms: nil) == ["revision"])
    #expect(PostingsStage.parts(of: ["Led Zeppelin"], forms: nil).isEmpty)
    // Stems go with their terms: `compilers` is a part, and so is its stem `compiler`.
    #expect(PostingsStage.parts(of: ["zeroc-ice-compilers"], forms: "en").contains("compiler"))
    // Lead rows rank a part as another field, as the engine does: simple-revision-control's
    // title holds `revision` only as a part, so git, found by its summary and more popular, leads.
    var postings: [String: Postings] = [:]
    postings["revision"] = Postings(title: [7], other: [3], starts: [7], parts: [7])
    postings["revisioncontrol"] = Postings(title: [7], starts: [7], parts: [7])
    let lead = LeadDocuments(postings: postings, limit: 2, inline: 2_000)
    #expect(lead.first("revision", terms: ["revision", "revisioncontrol"][...]) == [3, 7])
  }

  @Test func partsComeOnlyFromAChunkOfTwoRunsInAnyScript() {
    // A chunk of two runs makes parts whether its letters are ASCII or not, and an apostrophe
    // or an ampersand joins runs as a hyphen does; a title of plain words has none.
    #expect(PostingsStage.parts(of: ["Café-Crème Bar"], forms: nil) == ["cafe", "creme"])
    #expect(PostingsStage.parts(of: ["Cafe-Creme Bar"], forms: nil) == ["cafe", "creme"])
    #expect(PostingsStage.parts(of: ["Don't Stop"], forms: nil) == ["don", "t"])
    #expect(PostingsStage.parts(of: ["Tom&Jerry"], forms: nil) == ["tom", "jerry"])
    #expect(PostingsStage.parts(of: ["Led Zeppelin!", "(Live) 1973"], forms: "en").isEmpty)
    #expect(PostingsStage.parts(of: ["Sigur Rós", "Ágætis byrjun"], forms: nil).isEmpty)
  }

  @Test func aTitleStartsAndEndsWithTheTermsOfItsFirstAndLastWords() {
    // The first and last words are the first and last chunks that have terms: punctuation
    // standing alone is no word, and a title of one word has no last word.
    #expect(PostingsStage.firstWordTerms("- Toquinho & Vinícius") == ["toquinho"])
    #expect(PostingsStage.firstWordTerms("\tpython3-numpy stl") == ["python3", "numpy", "python3numpy"])
    #expect(PostingsStage.lastWordTerms("Toquinho & Vinícius !") == ["vinicius"])
    #expect(PostingsStage.lastWordTerms("AC/DC Live-Live") == ["live", "livelive"])
    #expect(PostingsStage.lastWordTerms("Zeppelin !").isEmpty)
    #expect(PostingsStage.lastWordTerms("Zeppelin").isEmpty)
  }

  @Test func leadRowsPutAKindTheWordNamesBeforeItsMentions() {
    // Document 0, a maintainer whose description lists `requests`, is more popular than 4, a
    // package holding it as a part of its name, and 6, a package whose summary says it: the
    // maintainers' kind holds it in no title, so 0 is a mention (FORMAT.md "Kinds the words name").
    var postings: [String: Postings] = [:]
    postings["requests"] = Postings(title: [4], other: [0, 6], parts: [4], mentions: [0])
    let lead = LeadDocuments(postings: postings, limit: 3, inline: 2_000)
    #expect(lead.first("requests", terms: ["requests"][...]) == [4, 6, 0])
    #expect(LeadDocuments.firstOnEnter(postings["requests"]!, count: 3) == [4, 6, 0])
  }

  @Test func theTypoDictionaryListsLongWordsUnderTheirMiddleLetters() throws {
    let index = try IndexBuilder().build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let typos: TypoList = try file(index, manifest.typoList)
    #expect(TypoShardStage.keys(of: "beyonce") == ["yon", "onc", "nce"])
    let entry = try #require(
      typos.typoShards.filter { "onc".hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count })
    let shard: TypoShard = try file(index, entry.path)
    #expect(shard.keys["onc"]?.contains("beyonce") == true)
  }

  @Test func aTypoKeyListsItsCommonestTermsFirstThenInStringOrder() throws {
    // Five plain terms under `onc` (offset 2): one with three documents, then four ties of two,
    // two of them not ASCII, in String order (`é` after `z`), cut at four (`ñaonce` falls);
    // a term only run together (not `plain`) is left out.
    var postings: [String: Postings] = [:]
    postings["beyonce"] = Postings(title: [0, 1, 2], plain: true)
    for term in ["zzonce", "ééonce", "abonce", "ñaonce"] {
      postings[term] = Postings(title: [3, 4], plain: true)
    }
    postings["qqonce"] = Postings(title: [0, 1, 2, 3, 4, 5])
    var options = IndexBuilder.Options()
    options.typoTermsPerKey = 4
    var files = IndexFiles()
    let listPath = try TypoShardStage(options: options, postings: postings).run(into: &files)
    let index = files.index(manifestPath: "idx/none.json", extra: [], warnings: [])
    let list: TypoList = try file(index, listPath)
    let entry = try #require(
      list.typoShards.filter { "onc".hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count })
    let shard: TypoShard = try file(index, entry.path)
    #expect(shard.keys["onc"] == ["beyonce", "abonce", "zzonce", "ééonce"])
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
    let index = try IndexBuilder().build(weighted)
    let manifest: Manifest = try file(index, index.manifestPath)
    let kind = try #require(manifest.kinds.first { $0.id == "songs" })
    let groups = try file(index, try #require(kind.distinct), as: DistinctGroups.self).groups
    #expect(groups.count == kind.count)
    #expect(Set(groups).count < groups.count, "songs of one album share a group")
    #expect(manifest.kinds.filter { $0.distinct != nil }.count == 1)
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
    let index = try builder.build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let bPath = try #require(manifest.termShardEntries?.first { $0.prefix == "b" }?.path)
    let entry = try #require(try file(index, bPath, as: TermShard.self).terms["back"])
    #expect(entry.total == 2, "both Back in Black titles")
    #expect(entry.title.numbers.count + entry.other.numbers.count == 1)
    let more: ContinuationFile = try file(index, try #require(entry.more))
    let rest = try #require(more.terms["back"])
    #expect(rest.map(\.numbers.count).reduce(0, +) == 1)
  }

  @Test func theSameInputGivesTheSameBytes() throws {
    let first = try IndexBuilder().build(site)
    let second = try IndexBuilder().build(site)
    #expect(first.files.map(\.path) == second.files.map(\.path))
    #expect(first.files.map(\.bytes) == second.files.map(\.bytes))
    #expect(first.manifestPath.hasPrefix("idx/manifest."))
  }

  /// A plain build makes the index a few shards at a time and keeps its files in a spool on
  /// disk until publishing: the files must be the ones a build that holds them all makes.
  @Test func anIndexMadeABlockAtATimeIntoASpoolIsTheSameIndex() throws {
    var whole = IndexBuilder()
    (whole.options.docsPerShard, whole.options.targetShardBytes) = (2, 300)
    var blocks = whole
    blocks.options.shardsPerBlock = 3
    blocks.spool = try IndexSpool()
    let held = try whole.build(site)
    let spooled = try blocks.build(site)
    #expect(held.spooled.isEmpty)
    #expect(spooled.files.map(\.path) == [spooled.manifestPath], "only the manifest stays in memory")
    #expect(held.paths.filter { $0.hasPrefix("idx/d/") }.count > 6, "more document shards than a block")
    #expect(held.paths.filter { $0.hasPrefix("idx/t/s") }.count > 6, "more term shards than a block")
    #expect(Set(spooled.paths) == Set(held.paths))
    #expect(spooled.byteCount == held.byteCount)
    for file in held.files { #expect(try spooled.bytes(at: file.path) == file.bytes, "\(file.path)") }
    var readBack: [String: [UInt8]] = [:]
    try spooled.forEachSpooledBatch(batchBytes: 1024) { for file in $0 { readBack[file.path] = file.bytes } }
    #expect(readBack.count == spooled.spooled.count)
  }

  @Test func theSpoolGivesBackWhatEachWriterWroteAndLeavesNoFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let spool = try IndexSpool(in: folder.path)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    let chunks = (0..<200).map { n in
      [UInt8]((0..<(n * 37 % 5000)).map { UInt8(truncatingIfNeeded: $0 &* n) })
    }
    let places = try Parallel.map(count: chunks.count) { n in Result { try spool.write(chunks[n]) } }
      .map { try $0.get() }
    for (n, place) in places.enumerated() { #expect(try spool.read(place) == chunks[n]) }
    #expect(spool.byteCount == chunks.reduce(0) { $0 + $1.count })
  }

  @Test func scopesAndFacetsListTheirDocuments() throws {
    let index = try IndexBuilder().build(site)
    let manifest: Manifest = try file(index, index.manifestPath)
    let library = try #require(manifest.scopes.first { $0.id == "library" })
    let ids: IDList = try file(index, try #require(library.file))
    let titles = try docTitles(index, manifest)
    #expect(Set(ids.ids.numbers.map { titles[Int($0)] }) == ["AC/DC", "Back in Black", "Hells Bells"])
    #expect(library.count == ids.ids.numbers.count)
    #expect(manifest.facets.map(\.id) == ["genre"], "non-token facets stay out of the manifest")
  }
}

@Suite struct TermDirectoryTests {
  @Test func manyShardsAreListedThroughOneDirectoryPerFirstLetter() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let site = try preparedSite(config: project.config)
    var builder = IndexBuilder()
    builder.options.maxManifestShards = 2
    builder.options.targetShardBytes = 60  // letters split into several shards each
    let index = try builder.build(site)
    let manifest: Manifest = try index.decode(index.manifestPath)
    let directories = try #require(manifest.termDirectories)
    #expect(directories.map(\.prefix) == directories.map(\.prefix).sorted())
    // A letter with one shard is listed in the manifest itself, never also in a directory.
    let letters = Set(directories.map(\.prefix))
    for alone in manifest.termShardEntries ?? [] {
      #expect(!letters.contains(String(alone.prefix.prefix(1))), "\(alone.prefix) is listed twice")
    }
    #expect(manifest.termShardEntries?.contains { $0.prefix.hasPrefix("b") } != true)
    let b = try #require(directories.first { $0.prefix == "b" })
    let listing: TermDirectory = try index.decode(b.path)
    let listed = manifest.entries(listing.termShards)
    #expect(listed.allSatisfy { $0.prefix.hasPrefix("b") })
    let back = try #require(
      listed.filter { "back".hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count })
    let shard: TermShard = try index.decode(back.path)
    #expect(shard.terms["back"] != nil)
  }
}

/// `LeadDocuments.mark` goes through the shorter side: either way, the
/// documents scored already and in the list get the bits, no others.
@Suite struct LeadDocumentsMarkTests {
  @Test func markingThroughEitherSideScoresTheSame() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      var score: [Int32: UInt8] = [:]
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        score[Int32.random(in: 0...500, using: &generator)] = UInt8.random(in: 0...15, using: &generator)
      }
      let numbers = Array(
        Set(
          (0..<Int.random(in: 0...600, using: &generator)).map { _ in
            Int32.random(in: 0...500, using: &generator)
          })
      ).sorted()
      var expected = score
      for number in numbers where expected[number] != nil { expected[number, default: 0] |= 16 }
      LeadDocuments.mark(numbers, in: &score, with: 16)
      #expect(score == expected)
    }
  }
}
