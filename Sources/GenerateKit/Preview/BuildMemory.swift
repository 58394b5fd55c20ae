import Foundation

/// What `generate preview` keeps between builds, so that the next one redoes
/// only what an edit can change (`PreviewBuild`):
///
/// - the config file edited: everything again, as a cold build;
/// - a data file edited: loading, preparing and indexing again, every page
///   rendered again, and only the files whose bytes changed reported;
/// - only templates edited: the loaded data, prepared documents and index
///   are kept, and only the pages whose template reaches an edited template,
///   partial or parent are rendered again (every page when the assets
///   changed, since each page names their folder).
///
/// Only a good build is kept: after a broken edit the next build compares
/// with the last site that was published.
public final class BuildMemory: @unchecked Sendable {
  /// The config's bytes and each data file's stamp, read before they are loaded.
  struct Inputs: Equatable {
    var config: [UInt8]?
    var data: [String: DataStamp]
  }

  /// A data file's size and content hash: cheaper to keep than its bytes,
  /// and unlike its modification time it ignores a save that changed nothing.
  /// The file's status only spares reading it again when it is unchanged.
  struct DataStamp: Equatable {
    var size: Int
    var hash: UInt64
    var status: FileStatus?

    static func == (a: DataStamp, b: DataStamp) -> Bool { a.size == b.size && a.hash == b.hash }
  }

  /// The last good build.
  struct LastBuild {
    var inputs: Inputs
    var dataset: Dataset
    var site: PreparedSite
    var index: SiteIndex
    var templates: TemplateSet
    var rendered: PageRenderer.Output
    /// Every file of the published site, by site-relative path.
    var files: [String: [UInt8]]
  }

  var last: LastBuild?
  let bundles = AssetBundleCache()
  let reports = PageReportCache()

  public init() {}

  /// A regular file's bytes, opened without waiting on a writer: a named
  /// pipe named as data must not hang a preview build before `DataFile`
  /// says what it is.
  static func read(_ path: String) -> [UInt8]? {
    BuildRecord.readRegular(path).map { [UInt8]($0) }
  }

  /// Every data file the config names, stamped; a file that cannot be read
  /// is left out, and the loader reports it. A file whose status (size,
  /// inode, modification time) is as in `previous` keeps its stamp unread:
  /// a template edit then reads no data.
  static func stamps(of config: SiteConfig, previous: [String: DataStamp] = [:]) -> [String: DataStamp] {
    var stamps: [String: DataStamp] = [:]
    for table in config.tables {
      guard let source = table.source, let named = source.file else { continue }
      let file = config.resolve(named.value)
      // A database's `-wal` and `-journal` too: a change a writer has not
      // checkpointed yet is in them, and the loader reads it.
      for path in [file] + source.companionSuffixes.map({ file + $0 }) {
        let status = FileStatus(path: path)
        if let status, let stamp = previous[path], stamp.status == status {
          stamps[path] = stamp
          continue
        }
        // A companion file that is missing or empty holds nothing.
        guard let bytes = read(path), path == file || !bytes.isEmpty else { continue }
        stamps[path] = DataStamp(size: bytes.count, hash: ContentHash.value(bytes), status: status)
      }
    }
    return stamps
  }

  /// The paths whose bytes differ, appeared or disappeared, sorted.
  static func changes(from old: [String: [UInt8]], to new: [String: [UInt8]]) -> [String] {
    var changed: [String] = []
    for (path, bytes) in new where old[path] != bytes { changed.append(path) }
    for path in old.keys where new[path] == nil { changed.append(path) }
    return changed.sorted()
  }
}

/// What one preview build did.
public struct IncrementalBuild: Sendable {
  public enum Kind: Sendable, Hashable {
    /// The first build, or the config changed: a cold build.
    case full
    /// Data changed: loaded, prepared and indexed again; every page rendered.
    case data
    /// Only templates (or nothing) changed: pages rendered as needed.
    case templates
  }

  public var summary: BuildSummary
  public var kind: Kind
  /// Site-relative paths whose bytes changed, appeared or disappeared since
  /// the last good build, sorted; nil for the first build.
  public var changedFiles: [String]?
}
