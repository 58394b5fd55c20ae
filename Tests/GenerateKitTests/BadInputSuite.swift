import Foundation
import Testing

/// The build's safety contract, case by case, through the real `generate`
/// executable: every bad input — data, config, templates, command line,
/// file system — exits with status 1, prints `path:line:column: error: …`
/// pointing into the file that caused it, and leaves the previously
/// published site byte for byte as it was, with no staging folder behind.
/// Long on purpose: one runner and a table of cases, one line or three each.
@Suite struct BadInputSuite {
  /// One way to break the fixture project (`Fixtures/mini`).
  struct Case: Sendable, CustomTestStringConvertible {
    enum Edit: Sendable {
      /// Replaces text in a file; the new text may hold a `1️⃣` marker.
      case replace(String, String, String)
      /// Writes a whole file; the text may hold a `1️⃣` marker.
      case write(String, String)
      case bytes(String, [UInt8])
      case remove(String)
      case makeFolder(String)
      case symlink(String, to: String)
      /// Replaces a file with a named pipe (FIFO).
      case fifo(String)
    }

    var name: String
    var edits: [Edit] = []
    /// Arguments after the usual `--config site.yml --output site --quiet`.
    var arguments: [String] = []
    /// Replaces the usual `--output site`.
    var output: String?
    /// The file the error must point into, or nil for a command-line
    /// problem, which has no file.
    var file: String?
    var message: String

    var testDescription: String { name }
  }

  static var executable: String { packageRoot.appendingPathComponent(".build/debug/generate").path }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)), arguments: cases)
  func failsAtItsSourceAndKeepsTheSite(_ bad: Case) throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let first = try runProcess(
      Self.executable, ["--config", "site.yml", "--output", "site", "--quiet"], in: project.root)
    try #require(first.status == 0, "the fixture must build first: \(first.output)")
    let before = try project.snapshot()

    var marker: (file: String, line: Int, column: Int)?
    for edit in bad.edits {
      switch edit {
      case .replace(let file, let old, let new):
        let text = try project.read(file)
        try #require(text.contains(old), "\(file) has no \(old.debugDescription)")
        let marked = Marked(text.replacingOccurrences(of: old, with: new))
        if marked.line > 0 { marker = (file, marked.line, marked.column) }
        try project.write(file, marked.text)
      case .write(let file, let text):
        let marked = Marked(text)
        if marked.line > 0 { marker = (file, marked.line, marked.column) }
        try FileManager.default.createDirectory(
          at: project.root.appendingPathComponent(file).deletingLastPathComponent(),
          withIntermediateDirectories: true)
        try project.write(file, marked.text)
      case .bytes(let file, let bytes):
        try Data(bytes).write(to: project.root.appendingPathComponent(file))
      case .remove(let file):
        try FileManager.default.removeItem(atPath: project.path(file))
      case .makeFolder(let folder):
        try FileManager.default.createDirectory(
          atPath: project.path(folder), withIntermediateDirectories: true)
      case .symlink(let link, let target):
        try FileManager.default.createSymbolicLink(atPath: project.path(link), withDestinationPath: target)
      case .fifo(let file):
        let path = project.path(file)
        try? FileManager.default.removeItem(atPath: path)
        try #require(mkfifo(path, 0o644) == 0, "mkfifo \(path)")
        // Never a hang: should generate ever wait on the pipe, a writer
        // arriving after 20 s ends the wait (with an empty file: a failure).
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) {
          let writer = open(path, O_WRONLY | O_NONBLOCK)
          if writer >= 0 { close(writer) }
        }
      }
    }

    let arguments = ["--config", "site.yml", "--output", bad.output ?? "site", "--quiet"] + bad.arguments
    let result = try runProcess(Self.executable, arguments, in: project.root)
    #expect(result.status == 1, "exit status \(result.status): \(result.err)")
    let errors = result.err.split(separator: "\n").map(String.init).filter { $0.contains("error: ") }
    let match = errors.first { $0.contains(bad.message) }
    #expect(match != nil, "no error containing \(bad.message.debugDescription) in:\n\(result.err)")
    if let match, let file = bad.file {
      let place = marker.map { "\(file):\($0.line):\($0.column): error: " } ?? "\(file):"
      #expect(match.hasPrefix(place), "expected the error at \(place) but got:\n\(match)")
    }
    #expect(result.err.contains("generate: "), "no summary line:\n\(result.err)")
    #expect(
      !result.err.contains("Fatal error") && !result.err.contains("NSCocoaErrorDomain"), "\(result.err)")
    #expect(try project.snapshot() == before, "the published site changed")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.root.path)
      .filter { $0.contains(".staging-") || $0.contains(".old-") || $0.hasPrefix(".generate-index.") }
    #expect(leftovers.isEmpty, "left behind: \(leftovers)")
  }

  /// Odd but valid input builds: a byte-order mark, CRLF line ends, quoted
  /// newlines and commas, a trailing blank line.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func validOdditiesBuild() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    var artists = Array("\u{FEFF}id,name\r\n1,Beyoncé\r\n2,\"AC/DC\"\r\n".utf8)
    artists += Array("3,\"Caetano\nVeloso, \"\"the\"\" one\"\r\n\r\n".utf8)
    try Data(artists).write(to: project.root.appendingPathComponent("data/artists.csv"))
    let result = try runProcess(
      Self.executable, ["--config", "site.yml", "--output", "site", "--quiet"], in: project.root)
    #expect(result.status == 0, "\(result.err)")
    let page = try project.read("site/artists/3-caetano-veloso-the-one/index.html")
    #expect(
      page.contains("Caetano\nVeloso, \"the\" one") || page.contains("Caetano\nVeloso, &quot;the&quot; one"))
  }

  static let config = "site.yml"
  static let configFile = "site.yml"

  static let cases: [Case] =
    dataCases + configCases + expressionCases + recordPathCases + templateCases
    + commandLineCases + fileSystemCases + safetyCases + sourceSafetyCases + limitCases

  // MARK: Data

  static let dataCases: [Case] = [
    Case(
      name: "unterminated quoted field",
      edits: [.write("data/albums.csv", "id,title,artist_id\n10,Lemonade,1\n11,1️⃣\"Back in Black,2\n")],
      file: "data/albums.csv", message: "unterminated quoted field"),
    Case(
      name: "a record with too many fields",
      edits: [.write("data/albums.csv", "id,title,artist_id\n10,Lemonade,1\n11,Back in Black,2,1️⃣extra\n")],
      file: "data/albums.csv", message: "record has 4 fields; the header has 3"),
    Case(
      name: "an empty id",
      edits: [.write("data/artists.csv", "id,name\n1,Beyoncé\n1️⃣,AC/DC\n3,Caetano Veloso\n")],
      file: "data/artists.csv", message: "empty id"),
    Case(
      name: "a duplicate id",
      edits: [.write("data/artists.csv", "id,name\n1,Beyoncé\n2,AC/DC\n1️⃣2,Caetano Veloso\n")],
      file: "data/artists.csv", message: "duplicate id '2' in table 'artists' (first on line 3)"),
    Case(
      name: "a reference to a missing record",
      edits: [
        .write("data/albums.csv", "id,title,artist_id\n10,Lemonade,1\n11,Back in Black,1️⃣999\n12,Livro,3\n")
      ],
      file: "data/albums.csv", message: "record 11: artist_id refers to artists '999', which does not exist"),
    Case(
      name: "invalid UTF-8",
      edits: [
        .bytes(
          "data/artists.csv", Array("id,name\n1,Beyonc".utf8) + [0xE9] + Array("\n2,AC/DC\n3,Caetano\n".utf8))
      ],
      file: "data/artists.csv:2:9", message: "invalid UTF-8"),
    Case(
      name: "a missing data file", edits: [.remove("data/genres.csv")], file: configFile,
      message: "genres.csv' of table 'genres' does not exist"),
    Case(
      name: "an empty data file", edits: [.write("data/genres.csv", "")], file: "data/genres.csv",
      message: "needs a header row"),
    Case(
      name: "a quote inside an unquoted field",
      edits: [.write("data/genres.csv", "id,name\n1,Ro1️⃣\"ck\n2,Pop\n3,MPB\n")],
      file: "data/genres.csv", message: "a quote inside an unquoted field"),
    Case(
      name: "text after a closing quote",
      edits: [.write("data/genres.csv", "id,name\n1,\"Rock\"1️⃣x\n2,Pop\n3,MPB\n")],
      file: "data/genres.csv", message: "unexpected character after a closing quote"),
    Case(
      name: "the key column is missing from the header",
      edits: [.write("data/genres.csv", "ident,name\n1,Rock\n2,Pop\n3,MPB\n")],
      file: configFile, message: "table 'genres' has no key column 'id' (its columns: ident, name)"),
    Case(
      name: "a refs column the table does not have",
      edits: [.replace(configFile, "refs: { artist_id: artists }", "refs: { artist: 1️⃣artists }")],
      file: configFile,
      message: "table 'albums' has no column 'artist'"),
    Case(
      name: "refs naming an undeclared table",
      edits: [.replace(configFile, "refs: { artist_id: artists }", "refs: { artist_id: 1️⃣singers }")],
      file: configFile,
      message: "name table 'singers', which is not declared"),
    Case(
      name: "a grouped table of an undeclared table",
      edits: [.replace(configFile, "tables:\n", "tables:\n  1️⃣decades: { groupBy: nosuch.year }\n")],
      file: configFile,
      message: "groups table 'nosuch', which is not declared"),
    Case(
      name: "a grouped table by a missing column",
      edits: [.replace(configFile, "tables:\n", "tables:\n  1️⃣decades: { groupBy: albums.year }\n")],
      file: configFile,
      message: "table 'albums' has no column 'year' to group by"),
    Case(
      name: "grouped tables grouping each other",
      edits: [
        .replace(
          configFile, "tables:\n", "tables:\n  1️⃣ga: { groupBy: gb.name }\n  gb: { groupBy: ga.name }\n")
      ], file: configFile,
      message: "tables group each other in a cycle: ga → gb → ga"),
    Case(
      name: "a table declared twice",
      edits: [
        .replace(
          configFile, "  genres: { file: data/genres.csv, key: id }\n",
          "  genres: { file: data/genres.csv, key: id }\n  1️⃣genres: { file: data/genres.csv, key: id }\n")
      ],
      file: configFile, message: "duplicate key 'genres'"),
  ]

  // MARK: Config

  static let configCases: [Case] = [
    Case(
      name: "an unknown top-level key",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\n1️⃣colour: red\n")], file: configFile,
      message: "unknown key 'colour' in the site config"),
    Case(
      name: "malformed YAML",
      edits: [.replace(configFile, "  trending: [Beyoncé]\n", "  trending: [Beyoncé\ntables21️⃣: x\n")],
      file: configFile,
      message: "invalid YAML"),
    Case(
      name: "a duplicate YAML key",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\n1️⃣title: Again\n")], file: configFile,
      message: "duplicate key 'title' (first on line 1)"),
    Case(
      name: "a collection without a title",
      edits: [
        .replace(configFile, "    title: title\n", ""),
        .replace(configFile, "  - id: albums\n", "  - 1️⃣id: albums\n"),
      ], file: configFile,
      message: "missing required key 'title' in collection 'albums'"),
    Case(
      name: "no tables", edits: [.replace(configFile, "tables:\n", "1️⃣tablez:\n")], file: configFile,
      message: "unknown key 'tablez'"),
    Case(
      name: "a config that is not UTF-8",
      edits: [.bytes(configFile, Array("title: Mini".utf8) + [0xFF, 0xFE] + Array("\n".utf8))],
      file: "site.yml:1:12", message: "not valid UTF-8"),
    // Each level ten aliases of the one before: a billion values, which
    // as a value the readers meet once; as a key, Yams hashed them all.
    Case(
      name: "a billion laughs used as a mapping key",
      edits: [
        .replace(
          configFile, "title: Mini\n",
          "title: Mini\na0: &a0 [\(Array(repeating: "lol", count: 10).joined(separator: ", "))]\n"
            + (1..<10).map { level in
              "a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]\n"
            }.joined() + "k: { ? 1️⃣*a9 : 1 }\n")
      ],
      file: configFile, message: "once their aliases (*name) are expanded, past here at *a9"),
    Case(
      name: "a control character written as a YAML escape",
      edits: [.replace(configFile, "title: Mini\n", "title: 1️⃣\"Mi\\0ni\"\n")], file: configFile,
      message:
        "'title' contains the control character U+0000 (NUL); only tab and line breaks may appear in the config"
    ),
    Case(
      name: "an empty config", edits: [.write(configFile, "")], file: configFile,
      message: "the config file is empty"),
    Case(
      name: "a config file that does not exist", arguments: ["--config", "nosuch.yml"], file: "nosuch.yml",
      message: "cannot read the config file"),
    Case(
      name: "search is not a mapping",
      edits: [.replace(configFile, "search:\n  trending: [Beyoncé]\n", "search: 1️⃣yes\n")], file: configFile,
      message: "search must be a mapping"),
    Case(
      name: "collections is not a list",
      edits: [.replace(configFile, "collections:\n", "collections: 1️⃣nope\nunused:\n")], file: configFile,
      message: "collections must be a list"),
    Case(
      name: "a tint that is not a colour",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\ntint: 1️⃣red\n")], file: configFile,
      message: "tint must be a hex colour"),
    Case(
      name: "a baseURL that is not a path",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\nbaseURL: 1️⃣music\n")], file: configFile,
      message: "baseURL must be a path starting with '/'"),
    Case(
      name: "a baseURL with markup",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\nbaseURL: 1️⃣\"/a<b>/\"\n")], file: configFile,
      message: "a base URL cannot contain '<'"),
    Case(
      name: "a siteURL that is not http",
      edits: [.replace(configFile, "siteURL: https://mini.example.org", "siteURL: 1️⃣ftp://mini.example.org")],
      file: configFile, message: "siteURL must be an absolute http(s) URL"),
    Case(
      name: "a siteURL with markup",
      edits: [
        .replace(configFile, "siteURL: https://mini.example.org", "siteURL: 1️⃣\"https://x.example/<b>\"")
      ],
      file: configFile, message: "siteURL holds '<', which a URL cannot; percent-encode it (%3C)"),
    Case(
      name: "too many suggestions",
      edits: [
        .replace(configFile, "  trending: [Beyoncé]\n", "  trending: [Beyoncé]\n  suggestions: 1️⃣5000\n")
      ], file: configFile, message: "suggestions must be a whole number from 1 to 50"),
    Case(
      name: "an index shard size too small to hold a term",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\nindex: { termShardBytes: 1️⃣12 }\n")],
      file: configFile, message: "index.termShardBytes must be a whole number from 256 to 1048576"),
    Case(
      name: "an unknown index key",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\nindex: { 1️⃣shardSize: 1000 }\n")],
      file: configFile, message: "shardSize"),
    Case(
      name: "pages naming no collection",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\npages: [albums, 1️⃣nosuch]\n")],
      file: configFile, message: "pages lists 'nosuch', which is not a collection"),
    Case(
      name: "pages naming a collection without pages",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\npages: [1️⃣songs]\n")], file: configFile,
      message: "collection 'songs' has no page: template"),
    Case(
      name: "a scope filtering by an undeclared facet",
      edits: [
        .replace(
          configFile, "  - { id: library, label: Library, facet: buyer, value: \"5\" }",
          "  - 1️⃣{ id: library, label: Library, facet: payer, value: \"5\" }")
      ], file: configFile,
      message: "scope 'library' filters by facet 'payer', which is not declared"),
    Case(
      name: "a scope with a misspelt description",
      edits: [
        .replace(
          configFile, "  - { id: library, label: Library, facet: buyer, value: \"5\" }",
          "  - { id: library, label: Library, facet: buyer, value: \"5\", 1️⃣descripton: Bought }")
      ], file: configFile,
      message: "unknown key 'descripton' in a scope; expected one of: description, facet, id, label, value"),
    Case(
      name: "a scope with a facet but no value",
      edits: [
        .replace(
          configFile, "  - { id: library, label: Library, facet: buyer, value: \"5\" }",
          "  - 1️⃣{ id: library, label: Library, facet: buyer }")
      ], file: configFile,
      message: "a scope needs both 'facet' and 'value'"),
    Case(
      name: "a facet naming an undeclared label map",
      edits: [
        .replace(configFile, "tables:\n", "labels:\n  genres: { Rock: Rock & Roll }\ntables:\n"),
        .replace(configFile, "{ id: genre, label: Genre }", "{ id: genre, label: Genre, labels: 1️⃣genre }"),
      ], file: configFile,
      message:
        "facet 'genre' uses labels 'genre', which is not declared under labels (labels: genres) (did you mean 'genres'?)"
    ),
    Case(
      name: "a label map that is not a mapping",
      edits: [.replace(configFile, "tables:\n", "labels:\n  genres: 1️⃣[Rock, Pop]\ntables:\n")],
      file: configFile, message: "labels 'genres' must be a mapping of values to labels"),
    Case(
      name: "a facet declared twice",
      edits: [
        .replace(
          configFile, "  - { id: buyer, label: Buyer, token: false }\n",
          "  - { id: buyer, label: Buyer, token: false }\n  - 1️⃣{ id: genre, label: Again }\n")
      ], file: configFile, message: "duplicate facet 'genre'"),
    Case(
      name: "a collection declared twice",
      edits: [.replace(configFile, "  - id: playlists\n", "  - 1️⃣id: albums\n")], file: configFile,
      message: "duplicate collection 'albums'"),
    Case(
      name: "a collection named top", edits: [.replace(configFile, "  - id: playlists\n", "  - 1️⃣id: top\n")],
      file: configFile, message: "'top' is reserved"),
    Case(
      name: "a collection on an undeclared table",
      edits: [
        .replace(configFile, "    table: playlists\n", "    table: mixtapes\n"),
        .replace(configFile, "  - id: playlists\n", "  - 1️⃣id: playlists\n"),
      ], file: configFile, message: "uses table 'mixtapes', which is not declared"),
    Case(
      name: "a collection setting an undeclared facet",
      edits: [.replace(configFile, "      genre: genre_id.name\n", "      mood: 1️⃣genre_id.name\n")],
      file: configFile,
      message: "collection 'songs' sets facet 'mood', which is not declared"),
    Case(
      name: "a missing templates folder",
      edits: [.replace(configFile, "templates: templates", "templates: nosuch")], file: "nosuch",
      message: "templates folder does not exist"),
    Case(
      name: "a page template that does not exist",
      edits: [
        .replace(
          configFile, "page: { template: playlist, path: \"playlists/{{slug}}/\" }",
          "page: { template: mixtape, path: 1️⃣\"playlists/{{slug}}/\" }")
      ], file: configFile,
      message: "uses template 'mixtape', but there is no mixtape.mustache"),
    Case(
      name: "a subtitle template that does not parse",
      edits: [
        .replace(configFile, "subtitle: \"Playlist · {{songs}}\"", "subtitle: \"Playlist · {{#songs}}\"")
      ], file: configFile,
      message: "in template 'Playlist · {{#songs}}'"),
  ]

  // MARK: Expressions

  /// The playlists' `songs` field, which every playlist's subtitle shows,
  /// so faults found only when evaluating it for a record show up too.
  static func field(_ expression: String) -> Edit {
    .replace(
      configFile, "      songs: plural(count(playlist_tracks), 'song', 'songs')\n",
      "      songs: \(expression)\n")
  }

  typealias Edit = Case.Edit

  static let expressionCases: [Case] = [
    Case(
      name: "label() naming an undeclared map", edits: [field("1️⃣label(name, 'moods')")], file: configFile,
      message: "label() names 'moods', which is not declared under labels (none are declared)"),
    Case(
      name: "label() without a map name in quotes", edits: [field("1️⃣label(name, name)")], file: configFile,
      message: "label()'s second argument is the name of a map under labels, in quotes"),
    Case(
      name: "an unknown column in an expression", edits: [field("1️⃣playlist_tracks.millis")], file: configFile,
      message: "has no column or related table 'millis'"),
    Case(
      name: "an unknown function", edits: [field("1️⃣shout(name)")], file: configFile,
      message: "unknown function 'shout'"),
    Case(
      name: "a function with too many arguments", edits: [field("1️⃣count(name, name)")], file: configFile,
      message: "count() takes 1 argument(s)"),
    Case(
      name: "an expression that ends too soon", edits: [field("count(1️⃣")], file: configFile,
      message: "expression ends too soon"),
    Case(
      name: "a negative limit", edits: [field("1️⃣limit(playlist_tracks, 0 - 1)")], file: configFile,
      message: "limit() needs a whole number from 0 to 1000000, not -1"),
    Case(
      name: "a negative top", edits: [field("1️⃣top(playlist_tracks, 0 - 5)")], file: configFile,
      message: "top() needs a whole number from 0 to 1000000, not -5"),
    Case(
      name: "a limit too large for an integer",
      edits: [field("1️⃣limit(playlist_tracks, 100000000000000000000000)")], file: configFile,
      message: "limit() needs a whole number"),
    Case(
      name: "a limit computed negative for a record",
      edits: [field("1️⃣limit(playlist_tracks, count(playlist_tracks) - 10)")], file: configFile,
      message: "for record 7 of table 'playlists'"),
    Case(
      name: "thousands of a number too large",
      edits: [field("1️⃣thousands(count(playlist_tracks) * 1000000000000000000000)")], file: configFile,
      message: "thousands() needs a number below"),
    Case(
      name: "a duration too long",
      edits: [field("1️⃣duration(count(playlist_tracks) * 1000000000000000000000)")], file: configFile,
      message: "duration() needs milliseconds below"),
    Case(
      name: "a division by zero", edits: [field("1️⃣count(playlist_tracks) / 0")], file: configFile,
      message: "division by zero"),
    Case(
      name: "a division by zero for a record (NaN)",
      edits: [field("1️⃣count(playlist_tracks) / (count(playlist_tracks) - 3)")], file: configFile,
      message: "division by zero"),
    Case(
      name: "subtracting from text",
      edits: [field("1️⃣name - 1")], file: configFile,
      message: "'-' takes numbers, and 'Road Trip' is text"),
    Case(
      name: "20,000 nested parentheses",
      edits: [field(String(repeating: "(", count: 20_000) + "1" + String(repeating: ")", count: 20_000))],
      file: configFile, message: "nests more than 64 levels deep"),
    Case(
      name: "a chain of 10,000 additions",
      edits: [field(Array(repeating: "1", count: 10_000).joined(separator: " + "))], file: configFile,
      message: "more than 256 operators"),
  ]

  // MARK: Paths and links made from records

  static let recordPathCases: [Case] = [
    Case(
      name: "a page path that climbs out of the site",
      edits: [
        .write("data/playlists.csv", "id,name\n7,../../../../outside/x\n"),
        .replace(configFile, "path: \"playlists/{{slug}}/\"", "path: 1️⃣\"playlists/{{name}}/\""),
      ],
      file: configFile,
      message: "record 7 of playlists (data/playlists.csv:2:1): the page path has a '..' segment"),
    Case(
      name: "a page path with a name too long for a file system",
      edits: [
        .write("data/playlists.csv", "id,name\n7,\(String(repeating: "k", count: 300))\n"),
        .replace(configFile, "path: \"playlists/{{slug}}/\"", "path: 1️⃣\"playlists/{{name}}/\""),
      ],
      file: configFile,
      message: "record 7 of playlists (data/playlists.csv:2:1): the page path has a name of 300 bytes"),
    Case(
      name: "a page path that is the same for every record",
      edits: [.replace(configFile, "path: \"artists/{{slug}}/\"", "path: 1️⃣\"artists/all/\"")],
      file: configFile,
      message: "both have the page path 'artists/all/'"),
    Case(
      name: "a page path taking a name the site uses",
      edits: [.replace(configFile, "path: \"artists/{{slug}}/\"", "path: 1️⃣\"assets/{{slug}}/\"")],
      file: configFile,
      message: "the page path starts with 'assets'"),
    Case(
      name: "a control character in a field",
      edits: [
        .write("data/playlists.csv", "id,name\n7,1️⃣\"Road\u{1}Trip\"\n"),
        .replace(configFile, "path: \"playlists/{{slug}}/\"", "path: \"playlists/{{name}}/\""),
      ],
      file: "data/playlists.csv", message: "record 7: field 'name' contains the control character U+0001"),
    Case(
      name: "a record link to javascript:",
      edits: [
        .write(
          "data/tracks.csv",
          "id,name,album_id,genre_id,composer,milliseconds\n100,Formation,10,2,javascript:alert(1),206000\n101,Hold Up,10,2,,221000\n102,Hells Bells,11,1,Angus Young,312000\n103,Back in Black,11,1,Angus Young,255000\n"
        ),
        .replace(configFile, "url: \"{{album.url}}#track-{{id}}\"", "url: 1️⃣\"{{composer}}\""),
      ],
      file: configFile, message: "uses the scheme 'javascript:'; only http, https and mailto"),
    Case(
      name: "a record link to another host without a scheme",
      edits: [.replace(configFile, "url: \"{{album.url}}#track-{{id}}\"", "url: 1️⃣\"//evil.example/{{id}}\"")],
      file: configFile,
      message: "leaves the site without a scheme"),
  ]

  // MARK: Templates

  static let templateCases: [Case] = [
    Case(
      name: "a template that does not parse",
      edits: [
        .write(
          "templates/album.mustache",
          "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1>\n<ol>{{#tracks}}<li>{{title}}</li>1️⃣{{/track}}</ol>{{/record}}{{/body}}{{/layout}}\n"
        )
      ],
      file: "templates/album.mustache", message: "template syntax"),
    Case(
      name: "a missing partial",
      edits: [
        .write(
          "templates/album.mustache",
          "{{<layout}}{{$body}}{{#record}}<h1>{{title}}</h1>\n<ol>{{#tracks}}1️⃣{{> trackrow}}{{/tracks}}</ol>{{/record}}{{/body}}{{/layout}}\n"
        )
      ],
      file: "templates/album.mustache", message: "partial 'trackrow' does not exist"),
    Case(
      name: "a partial that includes itself",
      edits: [.write("templates/partials/row.mustache", "<li>{{title}} 1️⃣{{> row}}</li>")],
      file: "templates/partials/row.mustache", message: "template 'row' includes itself: row → row"),
    Case(
      name: "partials that include each other",
      edits: [
        .write("templates/partials/row.mustache", "<li>{{title}} {{> cell}}</li>"),
        .write("templates/partials/cell.mustache", "<span>1️⃣{{> row}}</span>"),
      ],
      file: "templates/partials/cell.mustache", message: "partials include themselves: row → cell → row"),
    Case(
      name: "a block inside its own override (a 'super' Mustache does not have)",
      edits: [
        .write(
          "templates/artist.mustache",
          "{{<layout}}\n{{$head}}1️⃣{{$head}}{{/head}}<meta name=\"x\" content=\"y\" />{{/head}}\n{{$body}}<main id=\"main\">{{#record}}<h1>{{title}}</h1>{{/record}}</main>{{/body}}\n{{/layout}}\n"
        )
      ],
      file: "templates/artist.mustache",
      message: "block 'head' inside an override of 'head' renders that override again"),
    Case(
      name: "an unknown template function",
      edits: [
        .write(
          "templates/artist.mustache",
          "{{<layout}}{{$body}}{{#record}}<h1>1️⃣{{shout(title)}}</h1>{{/record}}{{/body}}{{/layout}}\n")
      ],
      file: "templates/artist.mustache", message: "unknown template function 'shout'"),
    Case(
      name: "sections nested 1,000 deep",
      edits: [
        .write(
          "templates/artist.mustache",
          "{{<layout}}{{$body}}" + String(repeating: "{{#record}}", count: 1_000)
            + String(repeating: "{{/record}}", count: 1_000) + "{{/body}}{{/layout}}\n")
      ],
      file: "templates/artist.mustache", message: "sections nest more than 100 deep"),
    Case(
      name: "no search template", edits: [.remove("templates/search.mustache")], file: configFile,
      message: "missing template 'search.mustache'"),
    Case(
      name: "no 404 template", edits: [.remove("templates/404.mustache")], file: configFile,
      message: "missing template '404.mustache'"),
    Case(
      name: "a template that is not UTF-8",
      edits: [.bytes("templates/artist.mustache", Array("<h1>".utf8) + [0xC3, 0x28])],
      file: "templates/artist.mustache:1:5", message: "not valid UTF-8"),
    Case(
      name: "an asset template that does not parse",
      edits: [.write("templates/assets/theme.css.mustache", "a { color: {{/tint}} }\n")],
      file: "templates/assets/theme.css.mustache", message: "template syntax"),
  ]

  // MARK: Command line

  static let commandLineCases: [Case] = [
    Case(name: "--base-url with quotes", arguments: ["--base-url", "/a\"b/"], message: "--base-url"),
    Case(
      name: "--base-url with markup", arguments: ["--base-url", "/<script>/"],
      message: "a base URL cannot contain '<'"),
    Case(
      name: "--base-url climbing out", arguments: ["--base-url", "/a/../b/"],
      message: "cannot contain '..' segments"),
    Case(
      name: "--output onto the data folder", output: "data",
      message: "refusing to publish there: it is the data folder of table"),
    Case(name: "--output onto the current folder", output: ".", message: "it is the current folder"),
    Case(name: "--output empty", output: "", message: "the output folder name is empty"),
    Case(name: "--output onto the templates", output: "templates", message: "it is the template folder"),
    Case(name: "--output onto a parent folder", output: "..", message: "contains the current folder"),
    Case(
      name: "--output inside the templates", output: "templates/assets/site",
      message: "it is inside the template folder"),
    Case(name: "--output onto /", output: "/", message: "refusing to publish to '/'"),
  ]

  // MARK: File system

  static let fileSystemCases: [Case] = [
    Case(
      name: "an output that is a file", edits: [.write("public", "notes\n")], output: "public",
      message: "--output 'public' exists and is not a folder"),
    Case(
      name: "an output folder holding someone else's files",
      edits: [.makeFolder("mine"), .write("mine/notes.txt", "keep me\n")], output: "mine",
      message: "holds files generate did not write"),
    Case(
      name: "an output that is a symlink to a file",
      edits: [.write("target.txt", "x\n"), .symlink("linked", to: "target.txt")], output: "linked",
      message: "is a symbolic link to 'target.txt', which is not a folder"),
    Case(
      name: "an output under a file", edits: [.write("plain", "x\n")], output: "plain/site",
      message: "'plain' is a file, not a folder"),
  ]
}
