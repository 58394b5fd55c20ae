import Foundation

/// The term shards of the index a build replaces, for naming the new ones
/// (FORMAT.md "Stable names"): a shard whose bytes are those of the same
/// prefix's shard there keeps that shard's tag, so its name, and every
/// visitor's cached copy of it, stays. Read from the manifest's copy under
/// the name that stays (`idx/manifest.json`) and, for a large index, its
/// letters' directories; a shard's bytes are read back when the new shard
/// of its prefix is compared with them. Anything that
/// cannot be read, or an index of another format version, is no previous
/// index: every shard gets this build's tag, never an error.
struct PreviousTermShards: Sendable {
  /// Each prefix's tag in the previous index.
  let tags: [String: String]
  /// Each first letter's directory in the previous index (a large one's), its path relative to `idx/`.
  let directories: [String: String]
  /// The term shards' folder, relative to `idx/` (`t/`).
  let folder: String
  /// The bytes of a file of the previous index (its path relative to `idx/`), nil when it cannot be read.
  let read: @Sendable (String) -> [UInt8]?

  /// The index published in `site` (a folder), if it holds a readable one.
  init?(site: String) {
    let root = URL(fileURLWithPath: site).appendingPathComponent("idx")
    let read: @Sendable (String) -> [UInt8]? = { path in
      // Only a plain file of an index's size: never through a link, a device or a FIFO,
      // which could point anywhere or never end.
      readPlainFile(atPath: root.appendingPathComponent(path).path, limit: 64 << 20).map { [UInt8]($0) }
    }
    guard let manifest = read("manifest.json") else { return nil }
    self.init(manifest: manifest, read: read)
  }

  /// An index built earlier in this process (the tests'; the preview keeps its names a
  /// cold build's, as its folder must be).
  init?(index: SiteIndex) {
    // By path once: `SiteIndex.bytes(at:)` searches every file, and every shard is looked up.
    let held = Dictionary(index.files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
    let spooled = Dictionary(
      index.spooled.map { ($0.path, $0.place) }, uniquingKeysWith: { first, _ in first })
    let read: @Sendable (String) -> [UInt8]? = { path in
      if let bytes = held["idx/" + path] { return bytes }
      return spooled["idx/" + path].flatMap { try? index.spool?.read($0) }
    }
    guard let manifest = held[index.manifestPath] else { return nil }
    self.init(manifest: manifest, read: read)
  }

  /// The fields of the manifest that list the term shards.
  private struct Listing: Decodable {
    var version: Int
    var termShardFolder: String
    var termShards: [TermShardRun]?
    var termDirectories: [ShardEntry]?
  }

  init?(manifest: [UInt8], read: @escaping @Sendable (String) -> [UInt8]?) {
    guard let listing = try? JSONDecoder().decode(Listing.self, from: Data(manifest)),
      listing.version == Manifest.formatVersion, listing.termShardFolder == TermShardStage.folder
    else { return nil }
    var runs = listing.termShards ?? []
    var directories: [String: String] = [:]
    for directory in listing.termDirectories ?? [] {
      // A directory's path is read as written: inside the term shards' folder, nowhere else.
      guard directory.path.hasPrefix(listing.termShardFolder), !directory.path.contains(".."),
        let bytes = read(directory.path),
        let file = try? JSONDecoder().decode(TermDirectory.self, from: Data(bytes))
      else { return nil }
      runs += file.termShards
      directories[directory.prefix] = directory.path
    }
    var tags: [String: String] = [:]
    for run in runs {
      guard run.hashes.utf8.count == run.prefixes.count * IndexFiles.shardHashDigits,
        run.hashes.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
      else { return nil }
      for shard in run.shards { tags[shard.prefix] = shard.hash }
    }
    (self.tags, self.directories, folder, self.read) = (tags, directories, listing.termShardFolder, read)
  }

  /// The tag of the previous shard of `prefix` when its file holds exactly `bytes`.
  func tag(of prefix: String, holding bytes: [UInt8]) -> String? {
    guard let tag = tags[prefix], read(folder + TermShardRun.fileName(prefix, hash: tag)) == bytes else {
      return nil
    }
    return tag
  }

  /// The path of the previous directory of `letter` when its file holds exactly `bytes`.
  func directory(of letter: String, holding bytes: [UInt8]) -> String? {
    guard let path = directories[letter], read(path) == bytes else { return nil }
    return path
  }
}
