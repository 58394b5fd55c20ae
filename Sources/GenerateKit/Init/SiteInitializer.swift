import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `generate init`: reads the files, infers a site and writes its config,
/// then checks the config loads and prepares as a build would (and takes
/// the trending searches from the records it ranks first).
public struct SiteInitializer {
  public struct Result: Sendable {
    public var configPath: String
    public var text: String
    public var plan: SitePlan
    /// A few lines per table saying what was chosen.
    public var summary: [String]
    /// Columns left out of the config, and problems the written config has
    /// when a build loads and prepares it (data it cannot describe); the
    /// config is written all the same. One that does not read back as
    /// meant is an error instead, and nothing is written.
    public var warnings: [Diagnostic]
  }

  public var files: [String]
  /// Where the config goes; data paths in it are relative to its folder.
  public var configPath = "site.yml"
  public var force = false

  public init(files: [String]) {
    self.files = files
  }

  public func run() throws -> Result {
    let shown = SourceLocation(file: configPath)
    // What is at the config's path, the path itself (a link is not
    // followed): a link, even one to nothing or to a file elsewhere, is
    // something there already.
    var info = stat()
    if lstat(configPath, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR {
        throw DiagnosticsError(.error(at: shown, "\(configPath) is a folder; name the config file to write"))
      }
      if !force {
        let link =
          info.st_mode & S_IFMT == S_IFLNK
          ? " (it is a symbolic link: --force replaces the link, not the file it points to)" : ""
        throw DiagnosticsError(
          .error(
            at: shown,
            "\(configPath) already exists; pass --force to replace it, or --config to write another file\(link)"
          ))
      }
    }
    let directory = URL(fileURLWithPath: configPath).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      throw DiagnosticsError(.error(at: shown, "the folder '\(directory)' does not exist"))
    }
    let reader = DataFileReader()
    let found = try reader.read(files)
    var warnings = reader.warnings(found)
    let plan = Self.writable(CollectionInference().infer(SchemaInference().infer(found)))
    if plan.collections.isEmpty, let empty = found.first, found.allSatisfy({ $0.profile.rows == 0 }) {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: DatasetLoader.displayPath(empty.source.path)),
          "\(found.count == 1 ? "the file holds" : "none of the files holds") no records, so there is nothing to search"
        ))
    }
    guard !plan.collections.isEmpty else {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: DatasetLoader.displayPath(files.first ?? configPath)),
          "no table has a text column to title its records, so there is nothing to search; see what the files hold with generate inspect"
        ))
    }
    var writer = ConfigWriter(
      directory: directory, title: YAMLWriter.readable(siteTitle(found)),
      description: YAMLWriter.readable(description(plan)))
    // Load and prepare the config as a build would: from a file in a
    // temporary folder, read as if it were already where it goes (its data
    // paths are relative to that folder), so nothing is left beside it.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-init-\(UUID().uuidString)")
    let trial = scratch.appendingPathComponent("site.yml").path
    do {
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    } catch {
      throw DiagnosticsError(
        .error(at: shown, "cannot make a temporary folder to check the config: \(error.localizedDescription)")
      )
    }
    defer { try? FileManager.default.removeItem(at: scratch) }
    let config = try readBack(writer, plan, trial: trial)
    do {
      let dataset = try DatasetLoader().load(config)
      // What the data itself holds that a build will warn about (control
      // characters dropped, a pandas row-number column read as `index`):
      // said now, not first at the build.
      warnings += dataset.warnings
      let site = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: "/")
      writer.trending = Self.trending(site)
      if !site.documents.contains(where: { $0.popularity > 0 }) {
        writer.trendingComment = "The first titles (nothing ranks them); put the searches you expect here."
      }
    } catch let error as DiagnosticsError {
      warnings += error.diagnostics.map { diagnostic in
        var warning = diagnostic
        warning.severity = .warning
        if warning.location?.file == trial { warning.location?.file = configPath }
        warning.message = warning.message.replacingOccurrences(of: trial, with: configPath)
        return warning
      }
    } catch {
      warnings.append(.warning(at: nil, "the config could not be checked: \(error.localizedDescription)"))
    }
    // The trending titles are data too: the text that holds them is read
    // back as well.
    if !writer.trending.isEmpty { _ = try readBack(writer, plan, trial: trial) }
    let text = writer.write(plan)
    try Self.create(configPath, text: text, replacing: force)
    return Result(
      configPath: configPath, text: text, plan: plan, summary: Self.summary(plan).map(YAMLWriter.printable),
      warnings: warnings)
  }

  /// Writes the config for `plan` to `trial` and reads it back with
  /// `ConfigLoader`, as a build will: it must load, and say exactly what
  /// `init` meant (`ConfigWriter.meant`). Otherwise a name in the data has
  /// changed what the config says, and nothing is written.
  func readBack(_ writer: ConfigWriter, _ plan: SitePlan, trial: String) throws -> SiteConfig {
    let shown = SourceLocation(file: configPath)
    let text = writer.write(plan)
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: trial))
    } catch {
      throw DiagnosticsError(
        .error(at: shown, "cannot write the config to check it: \(error.localizedDescription)"))
    }
    var loaded: SiteConfig
    do {
      loaded = try ConfigLoader().load(path: trial)
    } catch let error as DiagnosticsError {
      throw DiagnosticsError(
        error.diagnostics.map { diagnostic in
          var moved = diagnostic
          if moved.location?.file == trial { moved.location?.file = configPath }
          moved.message =
            "init wrote a config it cannot read back, so nothing was written: "
            + moved.message.replacingOccurrences(of: trial, with: configPath)
          return moved
        })
    }
    loaded.directory = writer.directory
    if let difference = ConfigWriter.difference(meant: writer.meant(plan), loaded: loaded) {
      throw DiagnosticsError(
        .error(
          at: shown,
          "init wrote a config that does not read back as meant, so nothing was written (\(YAMLWriter.printable(difference)))"
        ))
    }
    return loaded
  }

  /// Creates the config file. Without `replacing`, with
  /// `O_CREAT | O_EXCL | O_NOFOLLOW`: it fails if anything is at the path —
  /// a file, or a link even to nothing — so a `site.yml` link to a file
  /// elsewhere is never written through, and a file made meanwhile is never
  /// overwritten. With `replacing` (`--force`), the text goes to a new file
  /// beside it, made the same way, which is then renamed over the path: the
  /// rename replaces a link itself, never the file it points to, and a
  /// reader sees the old config or the new one, never half of one.
  static func create(_ path: String, text: String, replacing: Bool) throws {
    let shown = SourceLocation(file: path)
    let url = URL(fileURLWithPath: path)
    let target =
      replacing
      ? url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.lastPathComponent).\(UUID().uuidString)"
      ).path
      : path
    let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      let code = errno
      if code == EEXIST {
        throw DiagnosticsError(
          .error(
            at: shown, "\(path) already exists; pass --force to replace it, or --config to write another file"
          ))
      }
      throw DiagnosticsError(.error(at: shown, "cannot write the config: \(String(cString: strerror(code)))"))
    }
    let bytes = Array(text.utf8)
    var written = 0
    var failure: Int32 = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      written += count
    }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure == 0 && replacing && rename(target, path) != 0 { failure = errno }
    if failure != 0 {
      unlink(target)
      throw DiagnosticsError(
        .error(at: shown, "cannot write the config: \(String(cString: strerror(failure)))"))
    }
  }

  /// The plan with what a config cannot give back as written left out
  /// (`YAMLWriter.readsBack`): a byte-order mark at the start of a label
  /// `init` composed is dropped; scopes and a facet's codes, which are
  /// values from the data, are left out when one of them starts with one;
  /// and a subtitle's text that Mustache would read as tags.
  static func writable(_ plan: SitePlan) -> SitePlan {
    var plan = plan
    for index in plan.collections.indices {
      let singular = plan.collections[index].singular
      plan.collections[index].label = YAMLWriter.readable(plan.collections[index].label)
      plan.collections[index].singular = YAMLWriter.readable(singular)
      // The subtitle is a Mustache template that starts with the singular
      // as text; named for a column (titles that repeat), that text is
      // data, and Mustache has no way to write `{{` or a standalone line
      // as text. Such a singular is left out of the subtitle.
      if let subtitle = plan.collections[index].subtitle, subtitle.hasPrefix(singular + " · "),
        singular.contains("{{") || singular.contains("}}")
          || singular.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" })
      {
        plan.collections[index].subtitle = String(subtitle.dropFirst(singular.count + 3))
      }
    }
    for index in plan.facets.indices {
      plan.facets[index].label = YAMLWriter.readable(plan.facets[index].label)
      if !plan.facets[index].codes.allSatisfy(YAMLWriter.readsBack) {
        plan.facets[index].codes = []
        plan.facets[index].names = [:]
      }
    }
    if !plan.scopes.allSatisfy({ YAMLWriter.readsBack($0.label) && YAMLWriter.readsBack($0.value ?? "") }) {
      plan.scopes = []
    }
    return plan
  }

  /// The folder the files share (`Data/chinook` → Chinook), or a single
  /// file's name.
  func siteTitle(_ found: [FoundTable]) -> String {
    let paths = Set(found.map { $0.source.path })
    if paths.count == 1, let path = paths.first {
      return Naming.label(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
    }
    let folders = Set(
      paths.map { URL(fileURLWithPath: $0).standardizedFileURL.deletingLastPathComponent().path })
    if folders.count == 1, let folder = folders.first {
      let name = URL(fileURLWithPath: folder).lastPathComponent
      if !name.isEmpty && name != "/" { return Naming.label(name) }
    }
    return "Search"
  }

  func description(_ plan: SitePlan) -> String {
    let counts = plan.collections.compactMap { collection -> String? in
      guard let table = plan.schema.table(collection.table) else { return nil }
      // One result per title: count the titles.
      let rows =
        collection.distinct == nil
        ? table.profile.rows
        : table.profile.columns.first { Naming.expression($0.name) == collection.title }?.distinct ?? 0
      let noun = rows == 1 ? collection.singular : collection.label
      return "\(Self.thousands(rows)) \(noun.lowercased())"
    }
    guard !counts.isEmpty else { return "Search" }
    // In another language, no English glue ("Search 249 страны."): each
    // collection and its count, which reads the same in any language.
    if plan.language != "en" {
      return plan.collections.compactMap { collection -> String? in
        guard let table = plan.schema.table(collection.table) else { return nil }
        let rows =
          collection.distinct == nil
          ? table.profile.rows
          : table.profile.columns.first { Naming.expression($0.name) == collection.title }?.distinct ?? 0
        return "\(collection.label): \(rows)"
      }.joined(separator: ", ")
    }
    let list =
      counts.count == 1
      ? counts[0] : counts.dropLast().joined(separator: ", ") + " and " + (counts.last ?? "")
    return "Search \(list)."
  }

  static func thousands(_ number: Int) -> String {
    let digits = Array(String(number))
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
      out.append(digit)
    }
    return out
  }

  /// The most popular titles of the first two collections, alternately;
  /// with no popularity at all, their first titles, so that the search
  /// page focused with an empty field is never blank (US states, ISO
  /// currencies: every field of every record filled, nothing to rank by).
  static func trending(_ site: PreparedSite) -> [String] {
    let ranked = site.documents.contains(where: { $0.popularity > 0 })
    var lists: [[String]] = []
    for collection in 0..<min(2, site.config.collections.count) {
      let documents = site.documents.filter { $0.collection == collection && (!ranked || $0.popularity > 0) }
      let best =
        ranked ? documents.sorted { ($0.popularity, $1.title) > ($1.popularity, $0.title) } : documents
      var seen = Set<String>()
      // A title of no words (a zero-width space, punctuation) finds nothing when tapped.
      var searchable: [String] = []
      for document in best where searchable.count < 3 && !seen.contains(document.title) {
        var words = 0
        TextNormalizer.forEachTerm(in: document.title) { _, _ in words += 1 }
        if words > 0 { searchable.append(document.title) }
        seen.insert(document.title)
      }
      lists.append(searchable)
    }
    var trending: [String] = []
    for index in 0..<3 {
      for list in lists where index < list.count && !trending.contains(list[index]) {
        trending.append(list[index])
      }
    }
    return trending.filter(YAMLWriter.readsBack)
  }

  /// A few lines per table: its key and references, and for a collection
  /// its title, popularity and facets.
  static func summary(_ plan: SitePlan) -> [String] {
    var lines: [String] = []
    let width = min(24, plan.schema.tables.map(\.name.count).max() ?? 0)
    for shape in plan.schema.tables {
      let name = shape.name.padding(toLength: max(width, shape.name.count), withPad: " ", startingAt: 0)
      var parts = [
        "\(thousands(shape.profile.rows)) \(shape.profile.rows == 1 ? "row" : "rows")",
        shape.key.map { "key \($0)" } ?? "no key",
      ]
      if !shape.refs.isEmpty {
        parts.append("refs " + shape.refs.map { "\($0.column) → \($0.table)" }.joined(separator: ", "))
      }
      if let collection = plan.collections.first(where: { $0.table == shape.name }) {
        parts.append("title \(collection.title)")
        if let popularity = collection.popularity {
          parts.append("popularity " + (popularity.count > 40 ? popularity.prefix(39) + "…" : popularity))
        }
        if !collection.facets.isEmpty {
          parts.append("facets " + collection.facets.map(\.facet).joined(separator: ", "))
        }
      } else if let reason = plan.tablesOnly.first(where: { $0.table == shape.name })?.reason {
        parts.append("not a collection: \(reason)")
      }
      lines.append("  \(name)  \(parts.joined(separator: " · "))")
    }
    if !plan.scopes.isEmpty {
      lines.append("  scopes: " + plan.scopes.map(\.label).joined(separator: ", "))
    }
    return lines
  }
}
