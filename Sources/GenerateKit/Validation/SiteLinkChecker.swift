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
          diagnostics.append(.error(at: Self.location(of: link, in: page, &locator), message))
        }
      }
    }
    return diagnostics
  }

  /// Where `link` is on `page`: its line and column, or the page alone
  /// when its offset is past the page's bytes.
  static func location(of link: PageLink, in page: String, _ locator: inout SourceLocator) -> SourceLocation {
    guard link.offset < locator.source.count else { return SourceLocation(file: page) }
    let (line, column) = locator.lineAndColumn(at: link.offset)
    return SourceLocation(file: page, line: line, column: column)
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
    switch outcome(of: link, on: page, in: folder, cache: &cache) {
    case .fine: return nil
    case .problem(let message): return message
    case .fragment(let target, let fragment):
      return problem(with: link, fragment: fragment, on: target, ids: ids(target))
    }
  }

  /// What a link's check comes to before the ids of other pages are known.
  private enum Outcome {
    case fine
    case problem(String)
    /// Lands on `target`, whose ids must hold `fragment`.
    case fragment(target: String, fragment: String)
  }

  private func outcome(
    of link: PageLink, on page: String, in folder: Substring, cache: inout [ResolutionKey: Resolution]
  ) -> Outcome {
    let url = URLText.trimmed(link.target)
    if url.isEmpty {
      // `href=""` is the page itself; an empty `src` or `action` is a bug.
      return link.attribute.hasSuffix("href") ? .fine : .problem("\(link.attribute) is empty")
    }
    if url.first == "#" || url.hasPrefix("//") || URLText.hasScheme(url) { return .fine }

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
      case .problem(let message): return .problem("link \"\(link.target)\" \(message)")
      case .file(let file): target = file
      }
    }

    guard let hash else { return .fine }
    let fragment = String(url[url.index(after: hash)...])
    return fragment.isEmpty ? .fine : .fragment(target: target, fragment: fragment)
  }

  /// Whether `fragment` names an id of `target` (nil: not a page).
  private func problem(with link: PageLink, fragment: String, on target: String, ids targetIDs: Set<String>?)
    -> String?
  {
    guard let targetIDs else { return nil }
    if targetIDs.contains(fragment) { return nil }
    if let decoded = URLText.percentDecoded(fragment), targetIDs.contains(decoded) { return nil }
    return "link \"\(link.target)\" points to id \"\(fragment)\", which is not on \(target)"
  }

  /// The same check made page by page as pages are rendered (a plain
  /// build's `StagingPageSink`), so that no page's links need be kept: `files`
  /// is every path the site will hold, known before any page is rendered.
  /// A link to an id on another page waits for that page's ids (`finish`).
  /// The problems come out as `check` orders them.
  struct Pass {
    private(set) var checker: SiteLinkChecker
    private var resolved: [ResolutionKey: Resolution] = [:]
    private var found: [(page: String, link: Int, diagnostic: Diagnostic)] = []
    /// Links to ids on other pages, numbered: an A–Z list's hundreds of
    /// pages all link to the same few dozen `page#letter` ids, so the
    /// names are kept once and each link in a few numbers.
    private var waiting: [Waiting] = []
    private var names = Names()

    private struct Waiting {
      var page: Int32
      var link: Int32
      var offset: Int32
      /// The link as written, the page it lands on and the id it names.
      var text: Int32
      var target: Int32
      var fragment: Int32
    }

    /// Each distinct string once, by number.
    private struct Names {
      var numbers: [String: Int32] = [:]
      var strings: [String] = []

      mutating func number(_ string: String) -> Int32 {
        if let number = numbers[string] { return number }
        let number = Int32(strings.count)
        numbers[string] = number
        strings.append(string)
        return number
      }
    }

    init(_ checker: SiteLinkChecker) {
      self.checker = checker
    }

    /// More files of the site (the index, built while the first pages
    /// were checked): links checked from now on may land on them.
    mutating func add(files: [String]) {
      checker.files.formUnion(files)
      resolved = [:]
    }

    /// Checks one page's links; `ids` are its own, `bytes` place a broken link.
    mutating func check(page: String, links: [PageLink], ids: Set<String>, bytes: [UInt8]) {
      let folder = URLText.folder(of: page)
      var problems: [(index: Int, link: PageLink, message: String)] = []
      for (index, link) in links.enumerated() {
        switch checker.outcome(of: link, on: page, in: folder, cache: &resolved) {
        case .fine: continue
        case .problem(let message): problems.append((index, link, message))
        case .fragment(let target, let fragment) where target == page:
          if let message = checker.problem(with: link, fragment: fragment, on: target, ids: ids) {
            problems.append((index, link, message))
          }
        case .fragment(let target, let fragment):
          waiting.append(
            Waiting(
              page: names.number(page), link: Int32(index), offset: Int32(clamping: link.offset),
              text: names.number(link.target), target: names.number(target), fragment: names.number(fragment))
          )
        }
      }
      place(problems, on: page, bytes)
    }

    /// Checks the links to ids on other pages, now that every page's ids
    /// are known; `source` gives a page's bytes (to place a broken link).
    mutating func finish(ids: (String) -> Set<String>?, source: (String) -> [UInt8]?) -> [Diagnostic] {
      var byPage: [String: [(index: Int, link: PageLink, message: String)]] = [:]
      let strings = names.strings
      func name(_ number: Int32) -> String { strings[Int(number)] }
      for link in waiting {
        let pageLink = PageLink(target: name(link.text), attribute: "", offset: Int(link.offset))
        let target = name(link.target)
        if let message = checker.problem(
          with: pageLink, fragment: name(link.fragment), on: target, ids: ids(target))
        {
          byPage[name(link.page), default: []].append((Int(link.link), pageLink, message))
        }
      }
      for (page, problems) in byPage { place(problems, on: page, source(page) ?? []) }
      waiting = []
      return found.sorted { ($0.page, $0.link) < ($1.page, $1.link) }.map(\.diagnostic)
    }

    private mutating func place(
      _ problems: [(index: Int, link: PageLink, message: String)], on page: String, _ bytes: [UInt8]
    ) {
      guard !problems.isEmpty else { return }
      bytes.withUnsafeBufferPointer { buffer in
        var locator = SourceLocator(source: buffer)
        for (index, link, message) in problems.sorted(by: { $0.index < $1.index }) {
          found.append(
            (page, index, .error(at: SiteLinkChecker.location(of: link, in: page, &locator), message)))
        }
      }
    }
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
