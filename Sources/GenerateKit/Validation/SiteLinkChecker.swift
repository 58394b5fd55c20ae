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
  /// The path the site is served under, with leading and trailing slash:
  /// `/` or `/music/`.
  public var basePath: String

  /// `basePath` may be given without its slashes (`music`) or as a full URL
  /// (`https://example.org/music/`); only its path is kept.
  public init(files: Set<String>, basePath: String) {
    self.files = files
    self.basePath = URLText.normalizedBasePath(basePath)
  }

  /// Every link that does not resolve, for pages keyed by their
  /// site-relative path; in page order, then link order.
  ///
  /// Skipped: links with a scheme or a host (`https:`, `mailto:`, `//cdn…`),
  /// which are not the site's to check, and `#id` links within a page,
  /// which `HTMLValidator` already checked.
  public func check(pages: [String: PageReport]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var resolved: [ResolutionKey: Resolution] = [:]
    for (page, report) in pages.sorted(by: { $0.key < $1.key }) {
      let folder = URLText.folder(of: page)
      for link in report.links {
        guard let problem = problem(with: link, on: page, in: folder, pages: pages, cache: &resolved) else {
          continue
        }
        diagnostics.append(.error(at: link.location, problem))
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
    with link: PageLink, on page: String, in folder: Substring, pages: [String: PageReport],
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
    guard !fragment.isEmpty, let targetReport = pages[target] else { return nil }
    if targetReport.ids.contains(fragment) { return nil }
    if let decoded = URLText.percentDecoded(fragment), targetReport.ids.contains(decoded) { return nil }
    return "link \"\(link.target)\" points to id \"\(fragment)\", which is not on \(target)"
  }

  /// Maps a URL path (no query, no fragment) to a file of the site.
  private func resolve(_ path: Substring, from folder: Substring) -> Resolution {
    let relative: Substring
    if path.first == "/" {
      if path.count + 1 == basePath.count, basePath.hasPrefix(path) {
        relative = ""
      } else if path.hasPrefix(basePath) {
        relative = path.dropFirst(basePath.count)
      } else {
        return .problem("is outside the site's base path \"\(basePath)\"")
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

extension SiteLinkChecker {
  /// Small URL facts shared by the page and site checks, following the WHATWG
  /// URL rules where they matter for a static site.
  enum URLText {
    /// The value with the leading and trailing spaces a URL parser ignores,
    /// and the tabs and newlines it drops anywhere, removed.
    static func trimmed(_ value: String) -> String {
      guard value.utf8.contains(where: { $0 <= 0x20 }) else { return value }
      var scalars = Substring(value).unicodeScalars
      while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
      while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
      var result = String.UnicodeScalarView()
      for scalar in scalars where scalar != "\t" && scalar != "\n" && scalar != "\r" { result.append(scalar) }
      return String(result)
    }

    /// Whether the URL starts with a scheme: a letter, then letters, digits,
    /// `+`, `-` or `.`, then `:`.
    static func hasScheme(_ url: String) -> Bool {
      var isFirst = true
      for byte in url.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
          break
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
          if isFirst { return false }
        case UInt8(ascii: ":"):
          return !isFirst
        default:
          return false
        }
        isFirst = false
      }
      return false
    }

    /// `%XX` sequences decoded as UTF-8; nil when there are none or they are
    /// not valid UTF-8.
    static func percentDecoded(_ text: String) -> String? {
      let source = Array(text.utf8)
      guard source.contains(UInt8(ascii: "%")) else { return nil }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(source.count)
      var index = 0
      while index < source.count {
        if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
          let high = source[index + 1].hexDigitValue, let low = source[index + 2].hexDigitValue
        {
          bytes.append(high << 4 | low)
          index += 3
        } else {
          bytes.append(source[index])
          index += 1
        }
      }
      let decoded = String(decoding: bytes, as: UTF8.self)
      // Invalid UTF-8 decodes to U+FFFD, which re-encodes differently.
      return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }


    /// The folder a page's relative links resolve against, with its
    /// trailing slash (`artists/1-ac-dc/`), or empty at the root.
    static func folder(of page: String) -> Substring {
      guard let slash = page.lastIndex(of: "/") else { return "" }
      return page[...slash]
    }

    static func normalizedBasePath(_ base: String) -> String {
      var path = Substring(trimmed(base))
      if hasScheme(String(path)), let colon = path.firstIndex(of: ":") {
        let afterScheme = path[path.index(after: colon)...].drop { $0 == "/" }
        path = afterScheme[(afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex)...]
      }
      if path.first != "/" { path = "/" + path }
      if path.last != "/" { path += "/" }
      return String(path)
    }
  }
}
