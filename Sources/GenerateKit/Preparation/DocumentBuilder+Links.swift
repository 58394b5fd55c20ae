import Foundation

extension DocumentBuilder {
  /// Phase 3: the page path of every record whose collection writes
  /// pages, checked (relative, no `..`, unique even ignoring case) and
  /// reported at the config's `path:` with the record that made it.
  func assignPagePaths(_ site: PreparedSite) throws {
    let collections = site.collections
    var diagnostics: [Diagnostic] = []
    let count = site.documents.count
    let paths = Parallel.map(count: count) { index -> Result<String, RecordLinks.Problem>? in
      let document = site.documents[index]
      let collection = collections[document.collection]
      guard let pagePath = collection.pagePath, collection.writesPages else { return nil }
      return RecordLinks.pagePath(
        pagePath.render(
          RecordContext(site: site, table: collection.table, row: document.row, document: index)))
    }
    // By the file a page is written to as a file system that ignores case
    // sees it (macOS's and Windows' by default): there `genres/Jazz/` and
    // `genres/jazz/` are one file, and the page written second replaces
    // the first. One map for both checks, so a large site keeps one key
    // per page, as before.
    var pageOwners: [String: (index: Int, path: String)] = [:]
    for (index, path) in paths.enumerated() {
      guard let path else { continue }
      let document = site.documents[index]
      let collection = collections[document.collection]
      let location = collection.config.page?.path.location
      switch path {
      case .failure(let problem):
        diagnostics.append(
          .error(at: location, "\(Self.describe(document, in: collection)): \(problem.message)"))
      case .success(let path):
        let file = path.hasSuffix("/") ? path + "index.html" : path
        let key = Self.folded(file)
        guard let other = pageOwners[key] else {
          pageOwners[key] = (index, path)
          site.documents[index].url = path
          continue
        }
        let first = site.documents[other.index]
        let otherFile = other.path.hasSuffix("/") ? other.path + "index.html" : other.path
        if otherFile == file {
          diagnostics.append(
            .error(
              at: location,
              "\(Self.describe(document, in: collection)) and \(Self.describe(first, in: collections[first.collection])) both have the page path '\(path)'; include something unique such as {{slug}} in the path"
            ))
        } else {
          diagnostics.append(
            .error(
              at: location,
              "\(Self.describe(document, in: collection)) has the page path '\(path)' and \(Self.describe(first, in: collections[first.collection])) '\(other.path)', which differ only by case: on a file system that ignores case (macOS, Windows) one page would overwrite the other; give the path something that differs in more than case, such as {{slug}} or a number"
            ))
        }
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(Array(diagnostics.prefix(50))) }
  }

  /// A page's file as a file system that ignores case names it: lowercased,
  /// and the text itself when it has no capital (most paths: `{{slug}}`
  /// is lowercase), so those cost no second string.
  static func folded(_ file: String) -> String {
    let ascii = file.utf8.allSatisfy { $0 < 0x80 }
    if ascii && !file.utf8.contains(where: { (0x41...0x5A).contains($0) }) { return file }
    return file.lowercased()
  }

  /// Phase 4: links for records without a page of their own (`url:`,
  /// which may point into pages, so after phase 3), or a search for them.
  func assignLinks(_ site: PreparedSite) throws {
    let collections = site.collections
    var diagnostics: [Diagnostic] = []
    let count = site.documents.count
    let base = site.baseURL
    let links = Parallel.map(count: count) { index -> Result<String, RecordLinks.Problem>? in
      let document = site.documents[index]
      let collection = collections[document.collection]
      guard document.url.isEmpty else { return nil }
      if let url = collection.url {
        let rendered = url.render(
          RecordContext(site: site, table: collection.table, row: document.row, document: index))
        if let problem = RecordLinks.checkLink(rendered) { return .failure(problem) }
        let relative = rendered.hasPrefix(base) ? String(rendered.dropFirst(base.count)) : rendered
        // `{{album.url}}#track-1` with no album page renders as `#track-1`.
        if !relative.isEmpty && !relative.hasPrefix("#") { return .success(relative) }
      }
      // No page of its own and none to point into (pages switched off for
      // its collection): a link to a search for it, made from its title
      // when read (`PreparedSite.url(of:)`) — at a million records, most
      // records have one, and kept they were 75 bytes a record.
      return nil
    }
    for (index, link) in links.enumerated() {
      switch link {
      case .none: continue
      case .success(let url): site.documents[index].url = url
      case .failure(let problem):
        let document = site.documents[index]
        let collection = collections[document.collection]
        diagnostics.append(
          .error(
            at: collection.config.url?.location,
            "\(Self.describe(document, in: collection)): \(problem.message)"))
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(Array(diagnostics.prefix(50))) }
    site.searchLinksAssigned = true
  }
}
