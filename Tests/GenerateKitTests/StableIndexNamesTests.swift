import Foundation
import Testing

@testable import GenerateKit

/// Every index file is named by its own bytes, or a term shard by the
/// build that last changed them (FORMAT.md "Stable names"): a one-record
/// edit renames the files whose bytes it changed and leaves every other
/// file's name, and so every visitor's cached copy, as it was.
@Suite struct StableIndexNamesTests {
  static let words = [
    "editor", "library", "network", "python", "server", "client", "graphics", "audio", "video", "archive",
    "compiler", "debugger", "shell", "kernel", "driver", "font", "theme", "game", "puzzle", "chess",
    "mail", "browser", "terminal", "database", "parser", "scanner", "printer", "camera", "music", "player",
  ]

  /// 400 packages, each with a title, a summary of three words and a section.
  static func packages(editing edited: Int? = nil) -> String {
    (0..<400).map { i in
      var summary = [words[(i * 7) % 30], words[(i * 13 + 5) % 30], words[(i * 17 + 3) % 30]].joined(
        separator: " ")
      if i == edited { summary += " graphical mailbox" }
      return #"{"name": "pkg-\#(words[i % 30])-\#(i)", "summary": "\#(summary)", "votes": \#(1000 - i), "#
        + #""section": "\#(["admin", "devel", "games", "sound"][i % 4])"}"#
    }.joined(separator: "\n") + "\n"
  }

  static let config = """
    title: Packages
    tables:
      packages: { file: packages.jsonl, key: name }
    facets:
      - { id: section, label: Section }
    collections:
      - id: packages
        label: Packages
        singular: Package
        table: packages
        title: name
        popularity: votes
        search: [summary]
        facets: { section: section }

    """

  /// The index of the 400 packages, with small shards so that there are many of each kind,
  /// built to replace `previous`.
  static func index(editing edited: Int? = nil, replacing previous: SiteIndex? = nil) throws -> SiteIndex {
    let folder = try emptyFolder("stable-names")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(packages(editing: edited).utf8).write(to: folder.appendingPathComponent("packages.jsonl"))
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    var builder = IndexBuilder()
    builder.options.targetShardBytes = 1_500
    builder.options.docsPerShard = 10
    builder.options.maxManifestShards = 16
    builder.previous = previous.flatMap(PreviousTermShards.init(index:))
    return try builder.build(try preparedSite(config: folder.appendingPathComponent("site.yml").path))
  }

  /// A file's name less its hash (`idx/t/slo.3fa9c01d.json` → `idx/t/slo`); typo
  /// shards, named by their hash alone, by the prefix they hold.
  static func logicalName(_ path: String, _ bytes: [UInt8]) throws -> String {
    if path.hasPrefix("idx/y/s.") {
      return "idx/y/s:" + (try JSONDecoder().decode(TypoShard.self, from: Data(bytes))).prefix
    }
    let cut = try #require(path.range(of: #"\.[0-9a-f]{6,10}\.json$"#, options: .regularExpression))
    return String(path[..<cut.lowerBound])
  }

  static func byName(_ index: SiteIndex) throws -> [String: (path: String, bytes: [UInt8])] {
    var files: [String: (path: String, bytes: [UInt8])] = [:]
    for file in index.files where file.path != index.manifestPath {
      let name = try logicalName(file.path, file.bytes)
      #expect(files[name] == nil, "two files are \(name)")
      files[name] = file
    }
    return files
  }

  @Test func aOneRecordEditRenamesOnlyTheFilesWhoseBytesItChanged() throws {
    let before = try Self.index()
    let after = try Self.index(editing: 137, replacing: before)
    #expect(before.manifestPath != after.manifestPath)
    let old = try Self.byName(before)
    let new = try Self.byName(after)
    // A name never stands for two contents, across the builds either.
    let oldBytes = Dictionary(before.files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
    for file in after.files where oldBytes[file.path] != nil {
      #expect(oldBytes[file.path] == file.bytes, "\(file.path) names new bytes")
    }
    var kept = 0
    var changed: [String] = []
    var renamed: [String] = []
    for (name, file) in new {
      guard let was = old[name] else { continue }
      if was.path != file.path { renamed.append(name) }
      if was.bytes == file.bytes {
        kept += was.path == file.path ? 1 : 0
      } else {
        #expect(was.path != file.path, "\(name) changed its bytes but kept its name")
        changed.append(name)
      }
    }
    // Typo shards are split by how many words share a piece, so new words may add one; every
    // other file is there before and after.
    let cameOrWent = Set(old.keys).symmetricDifference(new.keys)
    #expect(cameOrWent.allSatisfy { $0.hasPrefix("idx/y/") }, "\(cameOrWent.sorted())")
    // Package 137 is document 137 (popularity by votes): its summary is in
    // field shard 13, which shares its name's hash with document shard 13
    // (one hash per number), so both are renamed, no other; the file of
    // document shard hashes holds the new one.
    #expect(changed.filter { $0.hasPrefix("idx/d/") }.sorted() == ["idx/d/f13", "idx/d/h0"])
    #expect(renamed.filter { $0.hasPrefix("idx/d/") }.sorted() == ["idx/d/13", "idx/d/f13", "idx/d/h0"])
    // Only the document shard that shares a hash with a changed one is renamed with the same bytes.
    #expect(Set(renamed).subtracting(changed) == ["idx/d/13"], "\(renamed.sorted())")
    // The term shards of the new words and the directories listing them; the typo shards of
    // their pieces.
    let terms = changed.filter { $0.hasPrefix("idx/t/") }
    #expect(!terms.isEmpty && terms.count <= 6, "\(terms)")
    #expect(changed.count <= 13, "\(changed.sorted())")
    // Nearly every file keeps its name: a visitor's cache keeps nearly all of the index.
    #expect(
      new.count > 200 && kept * 10 >= new.count * 9,
      "\(kept) of \(new.count) kept: \(changed.sorted()) \(cameOrWent.sorted())")
  }

  @Test func theManifestResolvesEveryShardToAFileOfTheIndex() throws {
    let index = try Self.index()
    let manifest: Manifest = try index.decode(index.manifestPath)
    let paths = Set(index.files.map(\.path))
    let shards = (manifest.docCount + manifest.docsPerShard - 1) / manifest.docsPerShard
    // The manifest holds one hash per file of document shard hashes, not one per shard.
    #expect(manifest.docHashFiles.count == IndexFiles.shardHashDigits && shards == 40)
    for n in 0..<shards {
      #expect(paths.contains("idx/" + (try index.docShardPath(manifest, n))))
      #expect(paths.contains("idx/" + (try index.docShardPath(manifest, n, "f"))))
    }
    var runs = manifest.termShards ?? []
    for directory in manifest.termDirectories ?? [] {
      runs += (try index.decode(directory.path, as: TermDirectory.self)).termShards
    }
    let listed = runs.flatMap { $0.paths(in: manifest.termShardFolder) }
    #expect(
      listed.count
        == index.files.filter { $0.path.range(of: #"^idx/t/s"#, options: .regularExpression) != nil }.count)
    for shard in listed {
      let file: TermShard = try index.decode(shard.path)
      #expect(file.prefix == shard.prefix)
    }
  }
}

extension StableIndexNamesTests {
  /// The engine cuts the packed hashes at the width the index writes them.
  @Test func theEngineReadsHashesOfTheWidthTheIndexWrites() throws {
    let loader = try String(
      contentsOf: packageRoot.appendingPathComponent("Templates/assets/js/engine/loader.js"), encoding: .utf8)
    #expect(loader.contains("export const HASH_DIGITS = \(IndexFiles.shardHashDigits)\n"))
  }
}
