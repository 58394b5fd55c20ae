import Foundation

/// Pictures and symbols (`image:`, `symbol:`): what each record shows in its
/// artwork tile instead of the initial.
///
/// A value that cannot be shown — a scheme other than `https:`/`http:`, a
/// path leaving the config's folder, a missing file, text longer than one
/// symbol — is a warning, not an error: the record still gets its tile, so
/// the site works (docs/building.md's rule). One warning per collection and
/// reason, naming how many records and the first, so a column of broken
/// links does not print a thousand lines.
extension DocumentBuilder {
  /// Image file extensions a browser shows in `<img>`; the copied file keeps
  /// its extension so a static host sends the right type.
  static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "avif"]

  /// Why a value was refused, worded for the warning.
  enum ArtworkProblem: Hashable, Error {
    case scheme(String)
    case malformed
    case outside
    case missing
    case notImage
    case notOneSymbol

    var reason: String {
      switch self {
      case .scheme(let scheme):
        "its '\(scheme):' URL is not an https: or http: image (only those are shown)"
      case .malformed: "its URL is malformed or names no host (a space must be written %20)"
      case .outside: "its path leads outside the config's folder"
      case .missing: "its file does not exist or is not a regular file"
      case .notImage: "its file is not a .png, .jpg, .jpeg, .gif, .webp, .svg or .avif image"
      case .notOneSymbol: "it is not a single emoji or symbol"
      }
    }
  }

  /// Phase 6: each document's image and symbol. Local files are read once
  /// each and named by their content, like the theme's assets.
  func fillArtwork(_ site: PreparedSite) {
    guard site.collections.contains(where: { $0.image != nil || $0.symbol != nil }) else { return }
    let folder = FileStatus.realPath(site.config.directory) ?? site.config.directory
    var copied: [String: String] = [:]
    var files: (list: [(path: String, bytes: [UInt8])], paths: Set<String>) = ([], [])
    var origins = Set<String>()
    var problems: [(collection: Int, what: String, problem: ArtworkProblem, row: Int, count: Int)] = []
    func refuse(_ collection: Int, _ what: String, _ problem: ArtworkProblem, row: Int) {
      if let at = problems.firstIndex(where: {
        $0.collection == collection && $0.what == what && $0.problem == problem
      }) {
        problems[at].count += 1
      } else {
        problems.append((collection, what, problem, row, 1))
      }
    }
    let values = Parallel.map(count: site.documents.count) { index -> (image: String, symbol: String) in
      let document = site.documents[index]
      let collection = site.collections[document.collection]
      let evaluate = { (expression: CompiledExpression?) -> String in
        guard let expression else { return "" }
        return site.evaluator.evaluate(expression, table: collection.table, row: document.row).text
          .trimmingCharacters(in: .whitespacesAndNewlines)
      }
      return (evaluate(collection.image), evaluate(collection.symbol))
    }
    for (index, value) in values.enumerated() {
      let document = site.documents[index]
      if !value.image.isEmpty {
        switch Self.image(value.image, folder: folder, copied: &copied, files: &files) {
        case .success(let (path, origin)):
          site.documents[index].image = path
          if let origin { origins.insert(origin) }
        case .failure(let problem):
          refuse(document.collection, "image", problem, row: document.row)
        }
      }
      if !value.symbol.isEmpty {
        // One grapheme cluster: 👩‍👩‍👧 and 🇫🇷 are one, "AB" is two.
        if value.symbol.count == 1 {
          site.documents[index].symbol = value.symbol
        } else {
          refuse(document.collection, "symbol", .notOneSymbol, row: document.row)
        }
      }
      let shown = site.documents[index]
      if !shown.image.isEmpty || !shown.symbol.isEmpty {
        site.collectionsWithArtwork.insert(document.collection)
      }
    }
    site.imageOrigins = origins.sorted()
    site.imageFiles = files.list
    for problem in problems {
      let collection = site.collections[problem.collection]
      let spec = collection.config
      guard let located = problem.what == "image" ? spec.image : spec.symbol else { continue }
      let records = problem.count == 1 ? "1 record" : "\(problem.count) records"
      site.warnings.append(
        .warning(
          at: located.location,
          "\(problem.what) '\(Self.quoted(located.value))' of collection '\(spec.id)' is not shown for \(records), which show the initial instead: \(problem.problem.reason); the first is \(Self.describe(row: problem.row, in: collection))"
        ))
    }
  }

  /// An image value as the index and pages name it: a remote URL as it is
  /// (with its origin, for the CSP), or a local file copied as
  /// `images/<hash>.<ext>` (`copied`: real path → site path, each file read
  /// once; `files`: what the site gets).
  static func image(
    _ value: String, folder: String, copied: inout [String: String],
    files: inout (list: [(path: String, bytes: [UInt8])], paths: Set<String>)
  ) -> Result<(path: String, origin: String?), ArtworkProblem> {
    if let scheme = scheme(of: value) {
      guard scheme == "https" || scheme == "http" else { return .failure(.scheme(scheme)) }
      guard let url = URLComponents(string: value), let host = url.host, !host.isEmpty else {
        return .failure(.malformed)
      }
      let port = url.port.map { ":\($0)" } ?? ""
      return .success((value, "\(scheme)://\(host.lowercased())\(port)"))
    }
    // `//host/x` borrows the page's scheme: refused, so the CSP's origins are exact.
    if value.hasPrefix("//") { return .failure(.scheme("//")) }
    let joined = value.hasPrefix("/") ? value : folder + "/" + value
    // The real path, symbolic links and `..` resolved, so neither leads out.
    guard let real = FileStatus.realPath(joined) else {
      let lexical = URL(fileURLWithPath: joined).standardizedFileURL.path
      return .failure(PathContainment.isPath(lexical, inside: folder) ? .missing : .outside)
    }
    guard PathContainment.isPath(real, inside: folder) else { return .failure(.outside) }
    if let path = copied[real] { return .success((path, nil)) }
    let ext = (real as NSString).pathExtension.lowercased()
    guard imageExtensions.contains(ext) else { return .failure(.notImage) }
    guard FileStatus(path: real)?.kind == .file, let data = FileManager.default.contents(atPath: real) else {
      return .failure(.missing)
    }
    let bytes = [UInt8](data)
    let path = "images/\(ContentHash.hex(bytes)).\(ext)"
    // Two paths to the same bytes are one file in the site.
    if !files.paths.contains(path) {
      files.paths.insert(path)
      files.list.append((path, bytes))
    }
    copied[real] = path
    return .success((path, nil))
  }

  /// The lowercased scheme of a URL (`https`, `javascript`), or nil for a
  /// path. A Windows-style drive (`C:`) is no scheme here: it is refused as
  /// a path outside the folder, or missing.
  static func scheme(of value: String) -> String? {
    guard let colon = value.firstIndex(of: ":") else { return nil }
    let scheme = value[..<colon]
    guard scheme.count > 1, let first = scheme.first, first.isASCII, first.isLetter,
      scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return nil }
    return scheme.lowercased()
  }
}
