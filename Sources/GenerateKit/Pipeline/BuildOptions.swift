import Foundation

/// What one build reads and where it writes, as the command line sets it.
public struct BuildOptions: Sendable, Hashable {
  /// The site configuration (YAML). Data and template paths inside it are
  /// relative to the folder that holds it.
  public var configPath: String = "Data/site.yml"
  /// The folder the site is published to; replaced atomically on success.
  public var outputPath: String = "site"
  /// Overrides the config's `baseURL` (e.g. `/music/`).
  public var baseURL: String?
  /// Removes every staging folder left beside the output, not only those
  /// of builds that are gone, the kept previous site and the build record,
  /// and builds everything.
  public var clean: Bool = false
  /// Whether `SiteBuilder.build()` keeps a build record beside the output
  /// and, when the inputs and the live site are as it says, reports the
  /// site up to date without building (`BuildRecord`).
  public var usesBuildRecord: Bool = true
  /// Replaces an output folder that holds files `generate` did not write.
  public var force: Bool = false
  /// Fails the build on warnings too (for CI).
  public var strict: Bool = false
  /// When set, every page loads this script (the preview server's live
  /// reload client), written to `__preview/reload.js`. Never set for a
  /// published build.
  public var previewScript: String?
  /// Sites of this many documents or more keep what only pages and the
  /// index's document shards show on disk once prepared (`DocumentStore`);
  /// smaller ones keep it in memory. Either way the site is the same.
  public var documentsOnDiskFrom = DocumentStore.spillThreshold
  /// Sites of this many documents or more render the A–Z pages once the
  /// index is built rather than beside it (`PageRenderer.browsePagesAfterIndexFrom`):
  /// less memory, more time (a 100k build waited 6–8 s more for its index,
  /// 14.5 s against 21–27 s of wall time, so the threshold is higher than
  /// `documentsOnDiskFrom`'s). Either way the site is the same.
  public var browsePagesAfterIndexFrom = Self.browsePagesAfterIndexThreshold
  public static let browsePagesAfterIndexThreshold = 500_000

  public init() {}

  /// The config a command reads without `--config`: `site.yml` in the
  /// current folder, as `generate init` writes it, or else this
  /// repository's `Data/site.yml`.
  public static func defaultConfigPath() -> String {
    FileManager.default.fileExists(atPath: "site.yml") ? "site.yml" : "Data/site.yml"
  }
}

/// The one-line account a build gives at the end.
public struct BuildSummary: Sendable, Hashable {
  public var pages: Int
  public var records: Int
  public var indexBytes: Int
  public var seconds: Double
  /// Mistakes that still gave a working site, to show with the result.
  public var warnings: [Diagnostic]
  /// Nothing was built: the inputs and the published site were as the
  /// last build left them (`BuildRecord`).
  public var upToDate = false
  /// The Content-Security-Policy the site needs: its data's
  /// (`PreparedSite.contentSecurityPolicy`) with the inline stylesheets' hashes.
  public var contentSecurityPolicy = PreparedSite.contentSecurityPolicy(imageOrigins: [])
  /// The site holds pictures copied from local files (`image:`), which the
  /// build record's fingerprint does not cover: no record is written.
  public var copiesLocalImages = false

  public init(pages: Int, records: Int, indexBytes: Int, seconds: Double, warnings: [Diagnostic] = []) {
    self.pages = pages
    self.records = records
    self.indexBytes = indexBytes
    self.seconds = seconds
    self.warnings = warnings
  }
}
