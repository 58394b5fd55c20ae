import Foundation
import GRDB
import PropertyBased
import Testing

@testable import GenerateKit

#if canImport(Glibc)
  import Glibc
#endif

/// `init` copies names from the data — file names, column names, JSON keys
/// — into its config. Whatever they hold, the config says exactly what
/// `init` meant: a name never becomes a key of its own, and the config read
/// back names the same files and columns.
@Suite struct InitNamesTests {
  /// What the three reproductions of issue 29 put in a name: a line break,
  /// then top-level keys that would send the next build to the attacker's
  /// templates.
  static let injection = "a\nsiteURL: \"https://evil.example\"\ntemplates: evil\n#"

  /// A folder with `evil/search.mustache`, which a config must never use.
  func folderWithEvilTemplates() throws -> DataFolder {
    let folder = try DataFolder()
    try folder.write("evil/search.mustache", "EVIL TEMPLATE")
    return folder
  }

  /// The written config as a build reads it: no key from the data.
  func expectNothingInjected(_ folder: DataFolder) throws -> SiteConfig {
    let config = try ConfigLoader().load(path: folder.path("site.yml"))
    #expect(config.siteURL == nil)
    #expect(config.templates.isEmpty)
    #expect(config.builtInTheme)
    return config
  }

  /// The collection's title names `column`, read back by the expression
  /// parser as the same name.
  func expectTitle(_ config: SiteConfig, names column: String) throws {
    let title = try #require(config.collections.first?.title.value)
    guard case .path(let parts, _) = try ExpressionParser.parse(title) else {
      Issue.record("title \(title) is not a column")
      return
    }
    #expect(parts.joined(separator: ".") == column)
  }

  @Test func aFileNameDoesNotBecomeConfiguration() throws {
    let folder = try folderWithEvilTemplates()
    defer { folder.remove() }
    let name = Self.injection + ".csv"
    try folder.write(name, "id,name\n1,Alpha\n2,Beta\n")
    let result = try folder.initialize([name])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let config = try expectNothingInjected(folder)
    // The name's `//` makes folders, and the path is written standardized.
    #expect(config.tables.map(\.file) == [name.replacingOccurrences(of: "//", with: "/")])
    // Nor does a build of it use the attacker's templates.
    let options = {
      var options = BuildOptions()
      options.configPath = folder.path("site.yml")
      options.outputPath = folder.path("site")
      return options
    }()
    _ = try SiteBuilder(options: options, log: { _ in }).build()
    let site = try snapshotFolder(folder.path("site"))
    #expect(site.count > 3)
    #expect(!site.values.contains { String(decoding: $0, as: UTF8.self).contains("EVIL TEMPLATE") })
  }

  @Test func aCSVColumnNameDoesNotBecomeConfiguration() throws {
    let folder = try folderWithEvilTemplates()
    defer { folder.remove() }
    let column = Self.injection
    try folder.write(
      "items.csv", "id,\"\(column.replacingOccurrences(of: "\"", with: "\"\""))\"\n1,Alpha\n2,Beta\n")
    let result = try folder.initialize(["items.csv"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let config = try expectNothingInjected(folder)
    try expectTitle(config, names: column)
    #expect(!result.text.contains("\nsiteURL"))
  }

  @Test func aJSONKeyDoesNotBecomeConfiguration() throws {
    let folder = try folderWithEvilTemplates()
    defer { folder.remove() }
    let key = Self.injection
    let escaped = key.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    try folder.write(
      "items.json", "[{\"id\": 1, \"\(escaped)\": \"Alpha\"}, {\"id\": 2, \"\(escaped)\": \"Beta\"}]")
    let result = try folder.initialize(["items.json"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let config = try expectNothingInjected(folder)
    try expectTitle(config, names: key)
  }

  /// U+2028 ends a line (and so a comment) for libyaml, as `\n` does; the
  /// reason comment quoting the column name must not end early.
  @Test func aLineSeparatorInANameStaysInItsComment() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let column = "name\u{2028}siteURL: https://evil.example"
    try folder.write("items.csv", "id,\"\(column)\"\n1,Alpha\n2,Beta\n")
    let result = try folder.initialize(["items.csv"])
    let config = try expectNothingInjected(folder)
    try expectTitle(config, names: column)
    #expect(!result.text.unicodeScalars.contains("\u{2028}"))
  }

  /// A column whose name an expression cannot hold (a backquote ends a
  /// quoted name) is left out, with a warning naming it.
  @Test func aColumnAnExpressionCannotNameIsLeftOut() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    try folder.write("items.csv", "id,name,`odd`name,a..b\n1,Alpha,x,p\n2,Beta,y,q\n")
    let result = try folder.initialize(["items.csv"])
    let left = result.warnings.map(\.message).filter { $0.contains("is left out of the config") }
    #expect(left.count == 2, "\(result.warnings)")
    #expect(left.contains { $0.contains("\"`odd`name\"") })
    #expect(left.contains { $0.contains("\"a..b\"") })
    #expect(!result.text.contains("odd"))
    let config = try ConfigLoader().load(path: folder.path("site.yml"))
    _ = try DocumentBuilder().prepare(config, dataset: try DatasetLoader().load(config), baseURL: "/")
  }

  /// Titles that repeat name the collection for their column, and its
  /// subtitle starts with that name as text: a name holding Mustache tags
  /// is left out of the subtitle, never read as a tag.
  @Test func aColumnNameIsNeverATemplateTagInTheSubtitle() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    var rows = ["\"country {{> x}}\",year,population,continent"]
    for country in ["France", "Chad", "Peru"] {
      for year in 2000...2005 {
        rows.append("\(country),\(year),\(year * 3),\(country == "Chad" ? "Africa" : "Other")")
      }
    }
    try folder.write("pop.csv", rows.joined(separator: "\n") + "\n")
    let result = try folder.initialize(["pop.csv"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let collection = try #require(result.plan.collections.first)
    #expect(collection.singular == "Country {{> X}}")
    let subtitle = try #require(collection.subtitle)
    #expect(!subtitle.contains("Country"), "\(subtitle)")
    #expect(subtitle.contains("{{year}}"), "\(subtitle)")
  }

  /// A database's table name is copied into `table:`, and its column
  /// names into `key:` and the title: neither becomes a key of its own.
  @Test func aDatabaseTableNameDoesNotBecomeConfiguration() throws {
    let folder = try folderWithEvilTemplates()
    defer { folder.remove() }
    let table = Self.injection
    let column = "name\u{2028}siteURL: x"
    let queue = try DatabaseQueue(path: folder.path("m.sqlite"))
    try queue.write { db in
      let quotedTable = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      try db.execute(sql: "CREATE TABLE \(quotedTable) (id INTEGER PRIMARY KEY, \"\(column)\" TEXT)")
      for (id, name) in [(1, "Alpha"), (2, "Beta")] {
        try db.execute(sql: "INSERT INTO \(quotedTable) VALUES (?, ?)", arguments: [id, name])
      }
    }
    try queue.close()
    let result = try folder.initialize(["m.sqlite"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let config = try expectNothingInjected(folder)
    guard case .sqliteTable(_, let name)? = config.tables.first?.source else {
      Issue.record("not a database table: \(config.tables.map(\.name))")
      return
    }
    #expect(name.value == table)
    try expectTitle(config, names: column)
  }

  /// libyaml reads a key before `:` only up to 1,024 characters: longer
  /// table and column names are written as explicit keys (`? name`).
  @Test func longNamesAreWrittenAsExplicitKeys() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let table = "artists_" + String(repeating: "a", count: 1_200)
    let column = "artist_" + String(repeating: "é", count: 700)
    let queue = try DatabaseQueue(path: folder.path("m.sqlite"))
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, name TEXT)")
      try db.execute(
        sql:
          "CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT, \"\(column)\" INTEGER REFERENCES \(table)(id))"
      )
      for id in 1...3 {
        try db.execute(sql: "INSERT INTO \(table) VALUES (?, ?)", arguments: [id, "Artist \(id)"])
        try db.execute(sql: "INSERT INTO albums VALUES (?, ?, ?)", arguments: [id, "Album \(id)", id])
      }
    }
    try queue.close()
    let result = try folder.initialize(["m.sqlite"])
    #expect(result.text.contains("\n  ? \(table)\n"), "the table's name is not an explicit key")
    let config = try ConfigLoader().load(path: folder.path("site.yml"))
    #expect(config.tables.map(\.name).sorted() == ["albums", table])
    let albums = try #require(config.tables.first { $0.name == "albums" })
    #expect(albums.refs.map(\.value.column) == [column])
    #expect(albums.refs.map(\.value.table) == [table])
  }

  /// `inspect` prints names from the data: a carriage return in a column
  /// name (which a build allows) is shown as an escape, so it cannot
  /// overwrite the line it is printed on.
  @Test func inspectShowsLineBreaksInNamesAsEscapes() throws {
    let folder = try DataFolder(["items.csv": "id,\"na\rme\"\n1,Alpha\n2,Beta\n"])
    defer { folder.remove() }
    let lines = try Inspector().report([folder.path("items.csv")])
    #expect(!lines.contains { $0.unicodeScalars.contains { $0.value < 0x20 } }, "\(lines)")
    #expect(lines.contains { $0.contains("na\\rme") }, "\(lines)")
  }

  /// The check behind the writer: a config with a key `init` did not mean
  /// (here `siteURL`) is a difference.
  @Test func aKeyTheTextGainedIsADifference() throws {
    let folder = try DataFolder(["items.csv": "id,name\n1,Alpha\n2,Beta\n"])
    defer { folder.remove() }
    let result = try folder.initialize(["items.csv"])
    let writer = ConfigWriter(directory: folder.root.path, title: "Items", description: "Search 2 items.")
    var meant = writer.meant(result.plan)
    #expect(ConfigWriter.difference(meant: meant, loaded: meant) == nil)
    var gained = meant
    gained.siteURL = "https://evil.example"
    #expect(ConfigWriter.difference(meant: meant, loaded: gained)?.contains("siteURL") == true)
    meant.templates = ["evil"]
    #expect(ConfigWriter.difference(meant: writer.meant(result.plan), loaded: meant) != nil)
  }

  // MARK: Names from the whole of Unicode

  /// The characters YAML, Mustache and the expression language give a
  /// meaning to, and the line breaks libyaml knows.
  static let tokens = [
    "\n", "\r", "\r\n", "\u{2028}", "\u{2029}", "\u{85}", "\"", "'", "#", ":", ": ", "{{", "}}", "&", "*",
    "!",
    "%", "@", "`", " ", "  ", "---", "\t", "\\", "- ", "? ", "[", "]", "{", "}", ",", "|", ">", "\u{FEFF}",
    "\u{FFFE}", "\u{1}", "\u{7F}", "\u{9F}", "true", "null", "~", "1e3", "0x1F", ".", "..", "é", "作家", "😀",
    "\u{301}", "\u{202E}", "siteURL: x", "templates: evil",
  ]

  /// A name: tokens and any Unicode scalar at all, one to eight of them.
  static let names = Gen.oneOf(
    Gen.element(of: tokens),
    Gen.int(in: 0...0x10FFFF).map { Unicode.Scalar(UInt32($0)).map { String(Character($0)) } ?? "?" }
  ).array(of: 1...8).map { $0.compactMap { $0 }.joined() }

  /// A file name the file system takes: no `/` and no NUL, at most 200 bytes.
  static func fileName(_ name: String) -> String {
    var text = name.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\0", with: "_")
    while text.utf8.count > 200 { text.removeLast() }
    return text == "." || text == ".." || text.isEmpty ? "_" + text : text
  }

  /// Runs `init` on one CSV (with a facet holding `value`) and one JSON
  /// file named from the data; its
  /// config loads, names the two files, and titles each collection by the
  /// column the data names (unless that column was left out, with a
  /// warning). An error is only ever one about the data itself.
  /// True when `init` wrote a config.
  @discardableResult
  func check(file: String, column: String, key: String, value: String = "Jazz", build: Bool = false) throws
    -> Bool
  {
    let folder = try DataFolder()
    defer { folder.remove() }
    let csvName = Self.fileName(file) + ".csv"
    let jsonName = Self.fileName(file) + "-2.json"
    let field = "\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    // A column of two values, `value` among them: a facet, its values
    // the scopes' labels, or codes in `labels:`.
    let kind = "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let rows = ["Alpha", "Beta", "Gamma", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"].enumerated().map {
      "\($0.offset + 1),\($0.element),\($0.offset % 2 == 0 ? kind : "Rock")"
    }
    try folder.write(csvName, "id,\(field),genre\n" + rows.joined(separator: "\n") + "\n")
    // Built as dictionaries one key at a time: the key may be "n" itself.
    let records: [[String: Any]] = [(1, "Delta"), (2, "Echo")].map { number, title in
      var record: [String: Any] = ["n": number]
      record[key] = title
      return record
    }
    let json = try JSONSerialization.data(withJSONObject: records)
    try Data(json).write(to: folder.root.appendingPathComponent(jsonName))
    let result: SiteInitializer.Result
    do {
      result = try folder.initialize([csvName, jsonName])
    } catch let error as DiagnosticsError {
      let messages = error.diagnostics.map(\.message)
      #expect(
        !messages.contains { $0.contains("read back") },
        "file \(file.debugDescription), column \(column.debugDescription), key \(key.debugDescription): \(messages)"
      )
      return false
    }
    let config = try ConfigLoader().load(path: folder.path("site.yml"))
    #expect(config.siteURL == nil && config.templates.isEmpty)
    // `./` before a name the reader would otherwise lose a byte-order mark of.
    let files = config.tables.compactMap(\.file).map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
    #expect(Set(files) == [csvName, jsonName])
    let dataset = try DatasetLoader().load(config)
    for collection in config.collections {
      guard case .path(let parts, _) = try ExpressionParser.parse(collection.title.value) else {
        Issue.record("title \(collection.title.value) is not a column")
        continue
      }
      let header = try #require(dataset.tableNamed[collection.table]).header
      #expect(header.contains(parts.joined(separator: ".")), "\(parts) in \(header)")
    }
    // The site the config describes can be prepared, as a build would.
    _ = try DocumentBuilder().prepare(config, dataset: dataset, baseURL: "/")
    if build {
      var options = BuildOptions()
      options.configPath = folder.path("site.yml")
      options.outputPath = folder.path("site")
      _ = try SiteBuilder(options: options, log: { _ in }).build()
      let site = try snapshotFolder(folder.path("site"))
      #expect(site.keys.contains("index.html"))
    }
    let leftOut = Set(result.plan.schema.tables.flatMap(\.found.leftOut))
    #expect(
      result.warnings.filter { $0.message.contains("left out") }.count == leftOut.count, "\(result.warnings)")
    return true
  }

  /// A few names of every kind above, built into a site.
  @Test(arguments: [
    ("a\nsiteURL: x\u{2028}\u{85}#", "name\r\n{{title}} `a` : #", "key\u{2029}& *x !y %z @w"),
    ("--- \"q\" \t", " lead and trail ", "\u{FEFF}bom {{#x}}"),
    ("作家\u{2029}", "a.b", "\\ '' \" ? - [x]"), ("\u{301}é", "e\u{301}", "é"),
  ])
  func aFewHostileNamesBuild(_ names: (String, String, String)) throws {
    #expect(try check(file: names.0, column: names.1, key: names.2, build: true))
  }

  @Test func namesFromAllOfUnicodeReadBackTheSame() async throws {
    await propertyCheck(count: 100, input: Self.names, Self.names, Self.names, Self.names) {
      file, column, key, value in
      try check(file: file, column: column, key: key, value: value)
    }
  }
}

/// `init` and `inspect` open data files as a build does: a named pipe is
/// refused at once, a database is left as it was, and the config is never
/// written through a link.
@Suite struct InitFileSafetyTests {
  /// Runs `body` on a thread and waits at most ten seconds. Should it hang
  /// on the FIFO at `fifo` (the bug), a writer opens and closes the pipe so
  /// the reader sees its end and the test finishes, failing.
  func finishesQuickly(unblocking fifo: String, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    if done.wait(timeout: .now() + 10) == .timedOut {
      Issue.record("reading \(fifo) hung")
      let writer = open(fifo, O_WRONLY | O_NONBLOCK)
      if writer >= 0 { close(writer) }
      _ = done.wait(timeout: .now() + 10)
    }
  }

  @Test(arguments: ["data.csv", "data.sqlite", "data.json", "data.jsonl"])
  func aNamedPipeIsRefusedNotWaitedOn(_ name: String) throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let fifo = folder.path(name)
    #expect(mkfifo(fifo, 0o600) == 0)
    final class Messages: @unchecked Sendable {
      private let lock = NSLock()
      private var list: [String] = []
      func append(_ more: [String]) { lock.withLock { list += more } }
      var all: [String] { lock.withLock { list } }
    }
    let messages = Messages()
    finishesQuickly(unblocking: fifo) {
      let runs: [() throws -> Void] = [
        { _ = try DataFileReader().read([fifo]) }, { _ = try Inspector().report([fifo]) },
      ]
      for run in runs {
        do {
          try run()
          messages.append(["no error"])
        } catch let error as DiagnosticsError {
          messages.append(error.diagnostics.map(\.message))
        } catch {
          messages.append(["\(error)"])
        }
      }
    }
    let seen = messages.all
    #expect(
      seen.count == 2 && seen.allSatisfy { $0.contains("is a named pipe (FIFO), not a regular file") },
      "\(seen)")
  }

  /// A WAL-mode database: `inspect` and `init` read it without a `-wal`
  /// or `-shm` file appearing beside it, and with another program writing
  /// it, read its latest rows and leave its files as they were.
  func makeWALDatabase(_ path: String) throws -> DatabaseQueue {
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in
      _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
      try db.execute(sql: "CREATE TABLE artists (id INTEGER PRIMARY KEY, name TEXT)")
      for (id, name) in [(1, "Alpha"), (2, "Beta"), (3, "Gamma")] {
        try db.execute(sql: "INSERT INTO artists VALUES (?, ?)", arguments: [id, name])
      }
    }
    return queue
  }

  @Test func aWALDatabaseIsInspectedWithoutFilesBesideIt() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    try makeWALDatabase(folder.path("m.sqlite")).close()
    let before = try snapshotFolder(folder.root.path)
    #expect(before.keys.sorted() == ["m.sqlite"])
    let lines = try Inspector().report([folder.path("m.sqlite")])
    #expect(lines.first?.hasPrefix("artists (") == true, "\(lines)")
    #expect(try snapshotFolder(folder.root.path) == before, "inspect changed the folder")
    _ = try folder.initialize(["m.sqlite"])
    let after = try snapshotFolder(folder.root.path)
    #expect(after.keys.sorted() == ["m.sqlite", "site.yml"], "init left files beside the database")
    #expect(after["m.sqlite"] == before["m.sqlite"])
  }

  @Test func aDatabaseAnotherProgramIsWritingIsInspectedUntouched() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let writer = try makeWALDatabase(folder.path("m.sqlite"))
    defer { try? writer.close() }
    let before = try snapshotFolder(folder.root.path)
    #expect(before["m.sqlite-wal"]?.isEmpty == false, "the rows are not in the -wal file")
    let lines = try Inspector().report([folder.path("m.sqlite")])
    #expect(lines.first?.hasSuffix(": 3 rows") == true, "\(lines)")
    #expect(lines.contains { $0.contains("init: key id — the declared primary key") }, "\(lines)")
    #expect(try snapshotFolder(folder.root.path) == before, "inspect changed the database's files")
  }

  /// A `site.yml` that is a link to a file outside the folder, to nothing
  /// yet: without `--force` it is refused, and with it the link itself is
  /// replaced; the file it points to is never written.
  @Test func aDanglingConfigLinkIsNeverWrittenThrough() throws {
    let folder = try DataFolder(["items.csv": "id,name\n1,Alpha\n2,Beta\n"])
    defer { folder.remove() }
    let outside = try DataFolder()
    defer { outside.remove() }
    let target = outside.path("target.yml")
    try FileManager.default.createSymbolicLink(atPath: folder.path("site.yml"), withDestinationPath: target)
    #expect(throws: DiagnosticsError.self) { try folder.initialize(["items.csv"]) }
    #expect(!FileManager.default.fileExists(atPath: target), "init wrote through the link")
    _ = try folder.initialize(["items.csv"], force: true)
    #expect(!FileManager.default.fileExists(atPath: target), "init --force wrote through the link")
    let attributes = try FileManager.default.attributesOfItem(atPath: folder.path("site.yml"))
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    #expect(try folder.read("site.yml").contains("items.csv"))
  }

  /// The same with a link to a file that exists: `--force` leaves it as it was.
  @Test func aConfigLinkToAFileElsewhereIsReplacedNotFollowed() throws {
    let folder = try DataFolder(["items.csv": "id,name\n1,Alpha\n2,Beta\n"])
    defer { folder.remove() }
    let outside = try DataFolder(["keep.yml": "precious\n"])
    defer { outside.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("site.yml"), withDestinationPath: outside.path("keep.yml"))
    do {
      _ = try folder.initialize(["items.csv"])
      Issue.record("init replaced an existing link without --force")
    } catch let error as DiagnosticsError {
      #expect(error.diagnostics.first?.message.contains("symbolic link") == true)
    }
    _ = try folder.initialize(["items.csv"], force: true)
    #expect(try outside.read("keep.yml") == "precious\n")
    #expect(try folder.read("site.yml").contains("items.csv"))
  }
}
