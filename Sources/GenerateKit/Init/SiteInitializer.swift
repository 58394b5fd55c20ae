import Foundation

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
    /// Problems the written config has when loaded (a bug in `init`, or
    /// data it cannot describe); the config is written all the same.
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
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: configPath, isDirectory: &isFolder), isFolder.boolValue {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: configPath), "\(configPath) is a folder; name the config file to write"))
    }
    if FileManager.default.fileExists(atPath: configPath) && !force {
      throw DiagnosticsError(
        .error(
          at: SourceLocation(file: configPath),
          "\(configPath) already exists; pass --force to replace it, or --config to write another file"))
    }
    let directory = URL(fileURLWithPath: configPath).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      throw DiagnosticsError(
        .error(at: SourceLocation(file: configPath), "the folder '\(directory)' does not exist"))
    }
    let found = try DataFileReader().read(files)
    let plan = CollectionInference().infer(SchemaInference().infer(found))
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
    var writer = ConfigWriter(directory: directory, title: siteTitle(found), description: description(plan))
    var warnings: [Diagnostic] = []
    // Load and prepare the config as a build would: from a file in a
    // temporary folder, read as if it were already where it goes (its data
    // paths are relative to that folder), so nothing is left beside it.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-init-\(UUID().uuidString)")
    let trial = scratch.appendingPathComponent("site.yml").path
    do {
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: scratch) }
      try Data(writer.write(plan).utf8).write(to: URL(fileURLWithPath: trial))
      var config = try ConfigLoader().load(path: trial)
      config.directory = directory
      let site = try DocumentBuilder().prepare(
        config, dataset: try DatasetLoader().load(config), baseURL: "/")
      writer.trending = Self.trending(site)
      if !site.documents.contains(where: { $0.popularity > 0 }) {
        writer.trendingComment = "The first titles (nothing ranks them); put the searches you expect here."
      }
    } catch let error as DiagnosticsError {
      warnings = error.diagnostics.map { diagnostic in
        var warning = diagnostic
        warning.severity = .warning
        if warning.location?.file == trial { warning.location?.file = configPath }
        warning.message = warning.message.replacingOccurrences(of: trial, with: configPath)
        return warning
      }
    } catch {
      warnings = [.warning(at: nil, "the config could not be checked: \(error.localizedDescription)")]
    }
    let text = writer.write(plan)
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    } catch {
      throw DiagnosticsError(
        .error(at: SourceLocation(file: configPath), "cannot write the config: \(error.localizedDescription)")
      )
    }
    return Result(
      configPath: configPath, text: text, plan: plan, summary: Self.summary(plan), warnings: warnings)
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
    if SiteLanguage.code(for: plan) != "en" {
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
      lists.append(best.map(\.title).filter { !$0.isEmpty && seen.insert($0).inserted }.prefix(3).map { $0 })
    }
    var trending: [String] = []
    for index in 0..<3 {
      for list in lists where index < list.count && !trending.contains(list[index]) {
        trending.append(list[index])
      }
    }
    return trending
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
