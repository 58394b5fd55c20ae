import Foundation
import Testing

@testable import GenerateKit

/// A term shard is named by its prefix and the build that last changed its
/// bytes (FORMAT.md "Stable names"): a shard the edit left alone keeps its
/// name, every changed shard takes the one tag of the new build, and a name
/// never stands for two contents. The page embeds one tag per shard, so the
/// fewer distinct tags, the fewer bytes it costs.
@Suite struct TermShardTagsTests {
  typealias Packages = StableIndexNamesTests

  /// Each term shard's file, by prefix, of an index in memory.
  static func termShards(_ index: SiteIndex) throws -> [String: (path: String, bytes: [UInt8])] {
    let manifest: Manifest = try index.decode(index.manifestPath)
    var runs = manifest.termShards ?? []
    for directory in manifest.termDirectories ?? [] {
      runs += (try index.decode(directory.path, as: TermDirectory.self)).termShards
    }
    var shards: [String: (path: String, bytes: [UInt8])] = [:]
    for (prefix, path) in runs.flatMap({ $0.paths(in: manifest.termShardFolder) }) {
      let file = try #require(index.files.first { $0.path == "idx/" + path }, "no file \(path)")
      shards[prefix] = ("idx/" + path, file.bytes)
    }
    return shards
  }

  /// Each letter's directory file, of an index in memory.
  static func directories(_ index: SiteIndex) throws -> [String: (path: String, bytes: [UInt8])] {
    let manifest: Manifest = try index.decode(index.manifestPath)
    var directories: [String: (path: String, bytes: [UInt8])] = [:]
    for directory in manifest.termDirectories ?? [] {
      let file = try #require(
        index.files.first { $0.path == "idx/" + directory.path }, "no \(directory.path)")
      directories[directory.prefix] = (file.path, file.bytes)
    }
    return directories
  }

  /// A shard's tag: its name's last part before `.json`.
  static func tag(_ path: String) -> String {
    String(path.split(separator: ".").dropLast().last ?? "")
  }

  @Test func aBuildWithNoPreviousIndexGivesEveryShardOneTag() throws {
    let index = try Packages.index()
    let tags = Set(try Self.termShards(index).values.map { Self.tag($0.path) })
    #expect(tags.count == 1, "\(tags)")
    // The letters' directories too (the page embeds their names, past 256 shards).
    let directories = try Self.directories(index)
    #expect(directories.count > 5 && Set(directories.values.map { Self.tag($0.path) }).count == 1)
    // And the same tag, to the byte, every time.
    let again = try Packages.index()
    #expect(again.files.map(\.path) == index.files.map(\.path))
    #expect(again.files.map(\.bytes) == index.files.map(\.bytes))
  }

  @Test func anEditKeepsTheNameOfEveryShardItLeftAlone() throws {
    let before = try Packages.index()
    let after = try Packages.index(editing: 137, replacing: before)
    let old = try Self.termShards(before)
    let new = try Self.termShards(after)
    #expect(Set(old.keys) == Set(new.keys))
    var changedTags: Set<String> = []
    var kept = 0
    for (prefix, shard) in new {
      let was = try #require(old[prefix])
      if was.bytes == shard.bytes {
        #expect(was.path == shard.path, "\(prefix): the same bytes, renamed")
        kept += 1
      } else {
        #expect(Self.tag(was.path) != Self.tag(shard.path), "\(prefix): new bytes under the old name")
        changedTags.insert(Self.tag(shard.path))
      }
    }
    // The new words' shards changed, all under this build's one tag; the rest kept their names.
    #expect(changedTags.count == 1 && kept >= new.count - 6 && kept < new.count, "\(kept) of \(new.count)")
    // So did the directories listing them: one new tag for those that changed, the old names for the rest.
    let oldDirectories = try Self.directories(before)
    let newDirectories = try Self.directories(after)
    var renamed: Set<String> = []
    for (letter, directory) in newDirectories {
      let was = try #require(oldDirectories[letter])
      if was.bytes == directory.bytes {
        #expect(was.path == directory.path, "directory \(letter): the same bytes, renamed")
      } else {
        #expect(was.path != directory.path, "directory \(letter): new bytes under the old name")
        renamed.insert(Self.tag(directory.path))
      }
    }
    #expect(renamed.count == 1 && newDirectories.count - oldDirectories.count == 0)
    // The same edit over the same previous index names every file alike.
    let again = try Packages.index(editing: 137, replacing: before)
    #expect(again.files.map(\.path) == after.files.map(\.path))
    #expect(again.files.map(\.bytes) == after.files.map(\.bytes))
  }

  @Test func anIndexBuiltAgainTakesBackItsNamesAndNoNameHoldsTwoContents() throws {
    let a = try Packages.index()
    let b = try Packages.index(editing: 137, replacing: a)
    let aAgain = try Packages.index(replacing: b)
    // Back to A's data: the shards B changed take A's tag again (a tag is a hash of the whole
    // term index), and the files are A's, name for name and byte for byte.
    #expect(try Self.termShards(aAgain).mapValues(\.path) == (try Self.termShards(a)).mapValues(\.path))
    #expect(aAgain.files.map(\.path) == a.files.map(\.path))
    // B's edit undone by C, which makes another: a shard whose bytes go back to A's takes C's
    // tag (C's is another whole index), and D, A's data again, leaves it so.
    let c = try Packages.index(editing: 250, replacing: b)
    let d = try Packages.index(replacing: c)
    var seen: [String: [UInt8]] = [:]
    for index in [a, b, aAgain, c, d] {
      for file in index.files {
        if let bytes = seen[file.path] { #expect(bytes == file.bytes, "\(file.path) names two contents") }
        seen[file.path] = file.bytes
      }
    }
    #expect(try Self.termShards(d).mapValues(\.bytes) == (try Self.termShards(a)).mapValues(\.bytes))
  }

  @Test func aPreviousIndexOfAnotherVersionOrUnreadableIsNone() throws {
    let index = try Packages.index()
    let manifest = try #require(try index.bytes(at: index.manifestPath))
    let read: @Sendable (String) -> [UInt8]? = { try? index.bytes(at: "idx/" + $0) }
    #expect(PreviousTermShards(manifest: manifest, read: read) != nil)
    let text = String(decoding: manifest, as: UTF8.self)
    for broken in [
      text.replacingOccurrences(of: #""version":1"#, with: #""version":2"#),
      String(text.dropLast(40)), "", "null",
      // A directory outside the term shards' folder, and a directory that is not there.
      text.replacingOccurrences(of: #""t/dir-"#, with: #""../t/dir-"#),
      text.replacingOccurrences(of: #""t/dir-0."#, with: #""t/dir-0.0"#),
    ] {
      #expect(broken != text)
      #expect(PreviousTermShards(manifest: Array(broken.utf8), read: read) == nil, "\(broken.prefix(60))")
    }
  }
}

/// The same through the whole build: the previous index is the published
/// site the build replaces, read from disk.
extension TermShardTagsTests {
  /// A project of the 400 packages, its term shards small.
  static func project() throws -> URL {
    let folder = try emptyFolder("term-shard-tags")
    try Data(Packages.packages().utf8).write(to: folder.appendingPathComponent("packages.jsonl"))
    try Data((Packages.config + "index: { termShardBytes: 1500 }\n").utf8).write(
      to: folder.appendingPathComponent("site.yml"))
    return folder
  }

  static func build(_ project: URL, editing edited: Int? = nil, into output: String = "site") throws {
    try Data(Packages.packages(editing: edited).utf8).write(
      to: project.appendingPathComponent("packages.jsonl"))
    var options = BuildOptions()
    options.configPath = project.appendingPathComponent("site.yml").path
    options.outputPath = project.appendingPathComponent(output).path
    _ = try SiteBuilder(options: options, log: { _ in }).build()
  }

  /// Each term shard's file, by prefix, of a site on disk; every file the manifest names must be there.
  static func termShards(site: URL) throws -> [String: (path: String, bytes: Data)] {
    let idx = site.appendingPathComponent("idx")
    let manifest = try JSONDecoder().decode(
      Manifest.self, from: try Data(contentsOf: idx.appendingPathComponent("manifest.json")))
    var runs = manifest.termShards ?? []
    for directory in manifest.termDirectories ?? [] {
      runs += try JSONDecoder().decode(
        TermDirectory.self, from: try Data(contentsOf: idx.appendingPathComponent(directory.path))
      ).termShards
    }
    var shards: [String: (path: String, bytes: Data)] = [:]
    for (prefix, path) in runs.flatMap({ $0.paths(in: manifest.termShardFolder) }) {
      shards[prefix] = (path, try Data(contentsOf: idx.appendingPathComponent(path)))
    }
    return shards
  }

  @Test func aRebuildKeepsThePublishedNamesOfUnchangedShards() throws {
    let project = try Self.project()
    defer { try? FileManager.default.removeItem(at: project) }
    let site = project.appendingPathComponent("site")
    try Self.build(project)
    let old = try Self.termShards(site: site)
    try Self.build(project, editing: 137)
    let new = try Self.termShards(site: site)
    let kept = new.filter { old[$0.key]?.path == $0.value.path }
    let changed = new.filter { old[$0.key]?.bytes != $0.value.bytes }
    #expect(kept.count + changed.count == new.count && !changed.isEmpty && kept.count > new.count / 2)
    #expect(Set(changed.values.map { Self.tag($0.path) }).count == 1)
    // Built into a folder of its own, the edited data has no previous index: one tag for all.
    try Self.build(project, editing: 137, into: "fresh")
    let fresh = try Self.termShards(site: project.appendingPathComponent("fresh"))
    #expect(Set(fresh.values.map { Self.tag($0.path) }).count == 1)
    #expect(fresh.mapValues(\.bytes) == new.mapValues(\.bytes))
  }

  @Test func aCorruptPreviousManifestGivesFreshTagsAndTheBuildGoesOn() throws {
    let project = try Self.project()
    defer { try? FileManager.default.removeItem(at: project) }
    let site = project.appendingPathComponent("site")
    try Self.build(project)
    try Data(#"{"version":1,"termShards":[[0,"#.utf8).write(
      to: site.appendingPathComponent("idx/manifest.json"))
    try Self.build(project, editing: 137)
    try Self.build(project, editing: 137, into: "fresh")
    let rebuilt = try Self.termShards(site: site)
    #expect(
      rebuilt.mapValues(\.path)
        == (try Self.termShards(site: project.appendingPathComponent("fresh"))).mapValues(\.path))
  }

  @Test func aPreviousShardMissingFromDiskIsNotKeptAndTheNewSiteHoldsIt() throws {
    let project = try Self.project()
    defer { try? FileManager.default.removeItem(at: project) }
    let site = project.appendingPathComponent("site")
    try Self.build(project)
    let old = try Self.termShards(site: site)
    // A shard the edit leaves alone (its bytes are the same after it), gone from the live site.
    try Self.build(project, editing: 137, into: "probe")
    let probe = try Self.termShards(site: project.appendingPathComponent("probe"))
    let (prefix, gone) = try #require(
      old.filter { probe[$0.key]?.bytes == $0.value.bytes }.min { $0.key < $1.key })
    try FileManager.default.removeItem(at: site.appendingPathComponent("idx/" + gone.path))
    try Self.build(project, editing: 137)
    let new = try Self.termShards(site: site)
    let shard = try #require(new[prefix])
    #expect(shard.path != gone.path && shard.bytes == gone.bytes)
    #expect(
      new.filter { $0.key != prefix && old[$0.key]?.bytes == $0.value.bytes }.allSatisfy {
        old[$0.key]?.path == $0.value.path
      })
  }
}

extension TermShardTagsTests {
  /// A named pipe where the live site had a shard (a user's `mkfifo`, or a
  /// hostile checkout) is never opened to wait for a writer: the build goes on
  /// and the new site holds a plain file of that shard's bytes.
  @Test(.timeLimit(.minutes(1))) func aPipeWhereAShardWasNeitherHangsTheBuildNorSurvivesIt() throws {
    let project = try Self.project()
    defer { try? FileManager.default.removeItem(at: project) }
    let site = project.appendingPathComponent("site")
    try Self.build(project)
    // Built again unchanged, every shard's name is the same, the piped one's too.
    let (prefix, piped) = try #require(try Self.termShards(site: site).min { $0.key < $1.key })
    let path = site.appendingPathComponent("idx/" + piped.path).path
    try FileManager.default.removeItem(atPath: path)
    #expect(mkfifo(path, 0o644) == 0)
    try Self.build(project)
    let shard = try #require(try Self.termShards(site: site)[prefix])
    let kind =
      try FileManager.default.attributesOfItem(
        atPath: site.appendingPathComponent("idx/" + shard.path).path)[.type] as? FileAttributeType
    #expect(kind == .typeRegular && shard.bytes == piped.bytes)
  }
}
