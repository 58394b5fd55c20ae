/// Checks, across the whole built site, that every internal link on every
/// page lands on a file — and, for `page#id`, on an id of that page.
///
/// Works on the facts `HTMLValidator` collected, not on the pages again: one
/// set lookup or two per link, and each distinct URL is resolved once per
/// folder, so thousands of pages cost little.
public struct SiteLinkChecker: Sendable {
  /// Site-relative paths of every file in the built site (`index.html`,
  /// `artists/1-ac-dc/index.html`, `assets/abc/app.js`).
  public var files: Set<String>
  /// The path the site is served under: `/` or `/music/`.
  public var basePath: BasePath
  /// `basePath.path`, compared with every absolute link.
  private let basePathText: String

  public init(files: Set<String>, basePath: BasePath) {
    self.files = files
    self.basePath = basePath
    self.basePathText = basePath.path
  }

  /// Every link that does not resolve, for pages keyed by their
  /// site-relative path; in page order, then link order. `source` gives a
  /// page's bytes, read only to put a line and column on a broken link.
  ///
  /// Skipped: links with a scheme or a host (`https:`, `mailto:`, `//cdn…`),
  /// which are not the site's to check, and `#id` links within a page,
  /// which `HTMLValidator` already checked.
  public func check(pages: [String: PageReport], source: (String) -> [UInt8]?) -> [Diagnostic] {
    check(pages: pages.keys, ids: { pages[$0]?.ids }, links: { pages[$0]?.links ?? [] }, source: source)
  }

  /// The same check over pages whose facts are kept apart: `ids` gives a
  /// page's ids (nil for a file that is not a page), `links` a page's
  /// links, asked for one page at a time.
  func check(
    pages: some Collection<String>, ids: (String) -> Set<String>?, links: (String) -> [PageLink],
    source: (String) -> [UInt8]?
  ) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var resolved: [ResolutionKey: Resolution] = [:]
    for page in pages.sorted() {
      let folder = URLText.folder(of: page)
      var problems: [(link: PageLink, message: String)] = []
      for link in links(page) {
        guard let problem = problem(with: link, on: page, in: folder, ids: ids, cache: &resolved) else {
          continue
        }
        problems.append((link, problem))
      }
      guard !problems.isEmpty else { continue }
      let bytes = source(page) ?? []
      bytes.withUnsafeBufferPointer { buffer in
        var locator = SourceLocator(source: buffer)
        for (link, message) in problems {
          let location: SourceLocation
          if link.offset < buffer.count {
            let (line, column) = locator.lineAndColumn(at: link.offset)
            location = SourceLocation(file: page, line: line, column: column)
          } else {
            location = SourceLocation(file: page)
          }
          diagnostics.append(.error(at: location, message))
        }
      }
    }
    return diagnostics
  }

  private struct ResolutionKey: Hashable {
    /// Empty for absolute paths, which resolve the same from every folder.
    var folder: Substring
    var path: Substring
  }

  private enum Resolution {
    case file(String)
    case problem(String)
  }

  private func problem(
    with link: PageLink, on page: String, in folder: Substring, ids: (String) -> Set<String>?,
    cache: inout [ResolutionKey: Resolution]
  ) -> String? {
    let url = URLText.trimmed(link.target)
    if url.isEmpty {
      // `href=""` is the page itself; an empty `src` or `action` is a bug.
      return link.attribute.hasSuffix("href") ? nil : "\(link.attribute) is empty"
    }
    if url.first == "#" || url.hasPrefix("//") || URLText.hasScheme(url) { return nil }

    let hash = url.firstIndex(of: "#")
    let beforeFragment = url[..<(hash ?? url.endIndex)]
    let path = beforeFragment[..<(beforeFragment.firstIndex(of: "?") ?? beforeFragment.endIndex)]

    let target: String
    if path.isEmpty {
      target = page  // `?sort=year` or `?q#x`: the same page
    } else {
      let key = ResolutionKey(folder: path.first == "/" ? "" : folder, path: path)
      let resolution: Resolution
      if let known = cache[key] {
        resolution = known
      } else {
        resolution = resolve(path, from: folder)
        cache[key] = resolution
      }
      switch resolution {
      case .problem(let message): return "link \"\(link.target)\" \(message)"
      case .file(let file): target = file
      }
    }

    guard let hash else { return nil }
    let fragment = String(url[url.index(after: hash)...])
    guard !fragment.isEmpty, let targetIDs = ids(target) else { return nil }
    if targetIDs.contains(fragment) { return nil }
    if let decoded = URLText.percentDecoded(fragment), targetIDs.contains(decoded) { return nil }
    return "link \"\(link.target)\" points to id \"\(fragment)\", which is not on \(target)"
  }

  /// Maps a URL path (no query, no fragment) to a file of the site.
  private func resolve(_ path: Substring, from folder: Substring) -> Resolution {
    let relative: Substring
    if path.first == "/" {
      if path.count + 1 == basePathText.count, basePathText.hasPrefix(path) {
        relative = ""
      } else if path.hasPrefix(basePathText) {
        relative = path.dropFirst(basePathText.count)
      } else {
        return .problem("is outside the site's base path \"\(basePathText)\"")
      }
    } else {
      relative = folder + path
    }

    var segments: [Substring] = []
    var isFolder = relative.isEmpty
    for segment in relative.split(separator: "/", omittingEmptySubsequences: false) {
      isFolder = false
      switch segment {
      case "", ".":
        isFolder = true
      case "..":
        guard !segments.isEmpty else { return .problem("goes above the site's root") }
        segments.removeLast()
        isFolder = true
      default:
        segments.append(segment)
      }
    }
    let joined = segments.map { URLText.percentDecoded(String($0)) ?? String($0) }.joined(separator: "/")
    let folderIndex = joined.isEmpty ? "index.html" : joined + "/index.html"
    if isFolder {
      return files.contains(folderIndex)
        ? .file(folderIndex) : .problem("does not resolve to a file in the site")
    }
    if files.contains(joined) { return .file(joined) }
    if files.contains(folderIndex) { return .file(folderIndex) }
    return .problem("does not resolve to a file in the site")
  }
}
