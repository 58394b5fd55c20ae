import Foundation
import NIOConcurrencyHelpers

/// The new site, answered from memory while it is being written to the
/// folder: a preview build hands its files over once they are checked
/// (`PreviewServer.BuildProgress`), open pages reload at once, and
/// requests are answered from here until the folder holds the same bytes.
/// Writing tens of thousands of files then no longer delays the reload.
final class SiteOverlay: Sendable {
  struct Site: Sendable {
    /// Every file of the new site, by site-relative path.
    var files: [String: [UInt8]]
    /// When the files were handed over, for `Last-Modified`.
    var modifiedSeconds: Int64
  }

  private let site = NIOLockedValueBox<Site?>(nil)

  var current: Site? { site.withLockedValue { $0 } }

  func show(_ files: [String: [UInt8]]) {
    let now = Int64(Date().timeIntervalSince1970)
    site.withLockedValue { $0 = Site(files: files, modifiedSeconds: now) }
  }

  /// The folder holds the site again (or the build failed and it still
  /// holds the last good one).
  func clear() { site.withLockedValue { $0 = nil } }
}

extension SiteOverlay.Site {
  enum Resolution: Equatable {
    case file(String)
    /// A folder with an `index.html`, asked for without the trailing slash.
    case folder
    case notFound
  }

  /// As `SiteFolder.resolve` for the folder this site will be.
  func resolve(_ segments: some Collection<String>, trailingSlash: Bool) -> Resolution {
    let path = segments.joined(separator: "/")
    if !path.isEmpty, files[path] != nil { return trailingSlash ? .notFound : .file(path) }
    let index = path.isEmpty ? "index.html" : path + "/index.html"
    guard files[index] != nil else { return .notFound }
    return trailingSlash || path.isEmpty ? .file(index) : .folder
  }
}
