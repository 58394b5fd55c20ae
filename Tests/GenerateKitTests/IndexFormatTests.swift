import Foundation
import Testing

@testable import GenerateKit

extension SiteIndex {
  /// The file at `path` (relative to the site or to `idx/`), decoded.
  func decode<T: Decodable>(_ path: String, as type: T.Type = T.self) throws -> T {
    let file = try #require(files.first { $0.path == path || $0.path == "idx/" + path }, "no file \(path)")
    return try JSONDecoder().decode(T.self, from: Data(file.bytes))
  }
}

extension SiteIndex {
  /// Document shard `n`'s path relative to `idx/` (`f`: its field shard's), its hash read from
  /// the `DocumentHashes` file that holds it.
  func docShardPath(_ manifest: Manifest, _ n: Int, _ f: String = "") throws -> String {
    let k = n / manifest.docHashesPerFile
    let file: DocumentHashes = try decode(
      "\(manifest.docShardFolder)h\(k).\(IndexFiles.hash(k, in: manifest.docHashFiles)).json")
    return
      "\(manifest.docShardFolder)\(f)\(n).\(IndexFiles.hash(n % manifest.docHashesPerFile, in: file.hashes)).json"
  }
}

extension Manifest {
  /// The term shards the manifest lists, each with its path.
  var termShardEntries: [ShardEntry]? { termShards.map(entries) }

  /// A listing's runs as shards with their paths (`<termShardFolder><n>.<hash>.json`).
  func entries(_ runs: [TermShardRun]) -> [ShardEntry] {
    runs.flatMap { run in
      run.paths(in: termShardFolder).map { ShardEntry(prefix: $0.prefix, path: $0.path) }
    }
  }
}

/// The types of IndexFormat.swift are the files: every file an index holds
/// reads back as its shape and writes back to the very same bytes.
@Suite struct IndexFormatTests {
  /// The shape of the file at `path`, from its name (FORMAT.md).
  static func shape(of path: String) -> (any Codable.Type)? {
    switch true {
    case path.hasPrefix("idx/manifest."): return Manifest.self
    case path.hasPrefix("idx/t/") && path.split(separator: "/").last?.hasPrefix("dir-") == true:
      return TermDirectory.self
    case path.hasPrefix("idx/t/more-"): return ContinuationFile.self
    case path.hasPrefix("idx/t/"): return TermShard.self
    case path.hasPrefix("idx/y/list."): return TypoList.self
    case path.hasPrefix("idx/y/"): return TypoShard.self
    case path.hasPrefix("idx/d/h"): return DocumentHashes.self
    case path.hasPrefix("idx/d/"):
      return path.split(separator: "/").last?.first == "f" ? FieldShard.self : DocumentShard.self
    case path.hasPrefix("idx/f/") && path.split(separator: "/").last?.hasPrefix("distinct-") == true:
      return DistinctGroups.self
    case path.hasPrefix("idx/f/kinds."): return AllKinds.self
    case path.hasPrefix("idx/f/deferred."): return DeferredFields.self
    case path.hasPrefix("idx/f/"): return IDList.self
    case path.hasPrefix("idx/o/")
      && path.range(of: #"-\d+\.[0-9a-f]+\.json$"#, options: .regularExpression) != nil:
      return ValueChunk.self
    case path.hasPrefix("idx/o/"): return ValueKeyFile.self
    default: return nil
    }
  }

  /// Reads every file as its shape, writes it back with `IndexEncoder`, and
  /// returns how many files of each shape there were.
  func roundTrip(_ index: SiteIndex) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for (path, bytes) in index.files {
      let type = try #require(Self.shape(of: path), "a file of no known shape: \(path)")
      let value = try JSONDecoder().decode(type, from: Data(bytes))
      let written = try IndexEncoder.encode(value)
      #expect(written == bytes, "\(path) does not write back as it was read")
      counts["\(type)", default: 0] += 1
    }
    return counts
  }

  @Test func everyShapeOfAScaleIndexReadsBackAndWritesTheSameBytes() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    var text = try String(contentsOfFile: project.config, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "    search: [artistName, composer]\n",
      with: "    search: [artistName, composer]\n    distinct: album_id\n")
    try project.write("site.yml", text)
    let site = try preparedSite(config: project.config)
    // Options that make every shape a large index has: split shards with
    // tops, continuation files, and per-letter directories.
    var builder = IndexBuilder()
    builder.options.targetShardBytes = 60
    builder.options.inlinePostings = 1
    builder.options.maxManifestShards = 2
    let counts = try roundTrip(try builder.build(site))
    for shape in [
      "Manifest", "TermDirectory", "ContinuationFile", "TermShard", "TypoList", "TypoShard", "DocumentShard",
      "FieldShard", "DistinctGroups", "IDList", "AllKinds", "DocumentHashes", "DeferredFields",
    ] {
      #expect(counts[shape, default: 0] > 0, "no \(shape) written")
    }
  }

  @Test func theDefaultSitesIndexReadsBackAndWritesTheSameBytes() throws {
    let config = try ConfigLoader().load(path: packageRoot.appendingPathComponent("Data/site.yml").path)
    let site = try DocumentBuilder().prepare(config, dataset: try DatasetLoader().load(config), baseURL: "/")
    let index = try IndexBuilder(config.index).build(site)
    let counts = try roundTrip(index)
    #expect(counts.values.reduce(0, +) == index.files.count)
    // Foundation's encoder, given the same values, writes the same JSON:
    // the fragments' `Codable` path agrees with their hand-written bytes.
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for (path, bytes) in index.files where path.hasPrefix("idx/t/s.") || path.hasPrefix("idx/d/") {
      let type = try #require(Self.shape(of: path))
      let value = try JSONDecoder().decode(type, from: Data(bytes))
      let theirs = try JSONSerialization.jsonObject(with: encoder.encode(value)) as? NSObject
      let ours = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSObject
      let same = theirs == ours
      #expect(same, "Foundation's encoder writes \(path) differently")
    }
  }

  @Test func aRunsPrefixesAreFrontCodedAndReadBack() throws {
    // The example of engine/loader.js's unpackPrefixes, and the music catalogue's kind of list.
    #expect(TermShardRun.packed(["a", "aa", "ab", "b"]) == "a,a.b..b")
    #expect(TermShardRun.packed(["0", "1", "d", "d3", "da"]) == "0.1.d,3.a")
    let lists: [[String]] = [
      ["a", "aa", "ab", "b"], ["l", "lo", "lov", "lu"], [""], ["", "a", "ab"], ["東", "東京", "東北", "л", "ла"],
      ["𝒜", "𝒜b", "𝒜c"],
    ]
    for prefixes in lists {
      let run = TermShardRun(
        first: 3, prefixes: prefixes,
        hashes: String(repeating: "0", count: IndexFiles.shardHashDigits * prefixes.count))
      let bytes = try IndexEncoder.encode(run)
      #expect(try JSONDecoder().decode(TermShardRun.self, from: Data(bytes)) == run, "\(prefixes)")
    }
    // A cut longer than the prefix before it is no list.
    #expect(TermShardRun.unpacked("ab...c") == nil)
  }

  @Test func theEncoderSortsKeysByTheirBytesAndLeavesOutWhatIsNil() throws {
    struct Sample: Encodable {
      var values: [String: Int]
      var missing: String?
      var list: DeltaList
      var text: String
    }
    let sample = Sample(
      values: ["a9": 1, "a10": 2, "B": 3, "é": 4, "a": 5], missing: nil,
      list: DeltaList([3, 5, 12] as [Int32]),
      text: "tab\tquote\"slash/\u{1}")
    let json = String(decoding: try IndexEncoder.encode(sample), as: UTF8.self)
    #expect(
      json
        == #"{"list":[3,2,7],"text":"tab\tquote\"slash/\u0001","values":{"B":3,"a":5,"a10":2,"a9":1,"é":4}}"#)
  }

  @Test func aFractionIsAnErrorNamingWhereItWas() throws {
    struct Bad: Encodable {
      var inner: [String: Double]
    }
    #expect {
      _ = try IndexEncoder.encode(Bad(inner: ["ratio": 0.5]))
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["inner", "ratio"]
    }
  }
}
