/// What a site shows, as declared in its YAML configuration. Nothing about
/// a dataset's shape lives in Swift: tables, joins, collections, scopes and
/// facets all come from here.
public struct SiteConfig: Sendable {
  /// A value read from the config together with where it was written, so
  /// later stages can point back at the line that caused a problem.
  public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation
  }

  /// A CSV file's encoding (`encoding:`).
  public enum TextEncoding: Sendable, Equatable {
    case utf8, windows1252
  }

  public struct Table: Sendable {
    /// Where a table's rows come from. Every kind hands rows to the same
    /// table interface (`TableBuilder`), so nothing after loading knows which.
    public enum Source: Sendable {
      /// A CSV file with a header row, its fields separated by `separator`
      /// (a comma; a tab for `.tsv` and `.tab`; or what `separator:` says).
      case csv(file: Located<String>, separator: UInt8)
      /// A JSON document holding an array of objects, at its root or at a
      /// dotted path of keys (`data.items`).
      case json(file: Located<String>, path: Located<String>?)
      /// JSON Lines (`.jsonl`, `.ndjson`): one object per line.
      case jsonLines(file: Located<String>)
      /// Every row of one table or view of a SQLite database.
      case sqliteTable(database: Located<String>, table: Located<String>)
      /// The rows of the user's own SQL query on a SQLite database.
      case sqliteQuery(database: Located<String>, query: Located<String>)
      /// A table or view of a PostgreSQL server, or a read-only query on it
      /// (`PostgresSource`): no file, so a build from it always rebuilds.
      case postgres(Postgres)

      /// The file the rows are read from, relative to the config's folder;
      /// nil for a PostgreSQL server.
      public var file: Located<String>? {
        switch self {
        case .csv(let file, _), .json(let file, _), .jsonLines(let file): return file
        case .sqliteTable(let database, _), .sqliteQuery(let database, _): return database
        case .postgres: return nil
        }
      }
    }

    /// Where a PostgreSQL table's rows come from: `postgres:` (a URL
    /// without a password), `table:` or `query:`, and the environment
    /// variable that holds the password (`passwordEnv:`, else PGPASSWORD).
    public struct Postgres: Sendable {
      public enum Read: Sendable {
        case table(Located<String>)
        case query(Located<String>)
      }
      public var url: Located<String>
      public var read: Read
      public var passwordEnv: Located<String>?
    }

    public var name: String
    public var location: SourceLocation
    /// Where the rows come from; nil for a grouped table.
    public var source: Source?
    /// The column holding each record's unique id; nil means "row number".
    public var key: Located<String>?
    /// Column → name of the table whose key it holds.
    public var refs: [Located<(column: String, table: String)>]
    /// A table made of the distinct values of another table's column.
    public var groupBy: (table: String, column: String)?
    /// A table whose records are the objects in a list of each record of a
    /// JSON table (`itemsOf: books.editions`): a child table, one record
    /// per edition, the column its `refs:` names to the parent holding the
    /// parent's key.
    public var itemsOf: (table: String, list: String)?
    /// A JSON table whose records are the members of an object (`{"7": {…},
    /// "9": {…}}`, at `path:` or the root) rather than the elements of an
    /// array: the column that takes each member's name (`members: id`).
    public var members: Located<String>?
    /// Text columns whose values are lists, each with the text between
    /// its items (`lists: { tags: ";" }`): one field of several values.
    public var lists: [Located<(column: String, separator: String)>] = []
    /// Values that mean "no value" in this table's cells (`missing: [NA]`,
    /// R's and many exports' marker): read as empty, so a column of numbers
    /// with gaps sorts, filters and ranks as numbers. Never in a key or
    /// reference column, where `NA` is an id (Namibia).
    public var missing: [Located<String>] = []
    /// The decimal mark of this table's numbers where a column's values
    /// fit either reading (`decimal: ","`: `1.234` is 1234); without it
    /// they read as the table's other columns write theirs, else with a
    /// point (`Table+Numerals.swift`).
    public var decimal: Located<NumeralFormat.Mark>?
    /// How a CSV file's bytes are text: UTF-8, or Windows-1252 (Latin-1
    /// and its superset, as spreadsheets on Windows save "CSV") when
    /// `encoding: windows-1252` says so.
    public var encoding: TextEncoding = .utf8

    /// The data file, relative to the config's folder; nil for a grouped table.
    public var file: String? { source?.file?.value }
  }

  public struct Collection: Sendable {
    public var id: String
    public var location: SourceLocation
    public var label: String
    public var singular: String
    public var table: String
    public var title: Located<String>
    public var subtitle: Located<String>?
    public var popularity: Located<String>?
    /// Field name → expression, in the order written.
    public var fields: [(name: String, expression: Located<String>)]
    /// Facet id → expression.
    public var facets: [(facet: String, expression: Located<String>)]
    /// Fields whose text is indexed besides the title.
    public var search: [Located<String>]
    /// Whether the collection's records are searchable (a chip).
    public var searchable: Bool
    /// Detail pages: Mustache template name and path template.
    public var page: (template: String, path: Located<String>)?
    /// Link for records without a page of their own (Mustache over fields).
    public var url: Located<String>?
    /// Records for which this expression is false (zero, empty, null) get
    /// no document: not indexed, no page, and links to them print as text.
    public var filter: Located<String>? = nil
    /// Records with the same title whose value of this expression is the
    /// same too are one record (the first); the others link to it.
    public var fold: Located<String>? = nil
    /// An expression whose equal values collapse into one result (the best
    /// ranked record of the group), as Algolia's `distinct` does.
    public var distinct: Located<String>? = nil
    /// Search field name → weight (a number). The title weighs 2, other
    /// searched fields 1; a field of weight 2 or more ranks like the title.
    public var weights: [(name: String, expression: Located<String>)] = []
    /// The record's picture: an expression whose value is an `https:` or
    /// `http:` URL, or a path to an image file relative to the config.
    public var image: Located<String>? = nil
    /// A single emoji or symbol (one grapheme cluster) shown large in the
    /// artwork tile instead of the initial.
    public var symbol: Located<String>? = nil
    /// Orders results can be sorted in besides relevance (`sort:`).
    public var sorts: [ValueKey] = []
    /// Values results can be filtered to a span of (`range:`).
    public var ranges: [ValueKey] = []
  }

  public struct Facet: Sendable {
    public var id: String
    public var label: String
    public var icon: String
    /// Whether its values are offered as search tokens.
    public var token: Bool
    public var location: SourceLocation
    /// What its values are shown as: codes mapped to labels (`L` → `Living`).
    public var labels: Labels? = nil
  }

  /// A facet's `labels:`: the name of a map under the top-level `labels:`,
  /// or a map written in place.
  public enum Labels: Sendable {
    case named(Located<String>)
    case inline([String: String])
  }

  /// One map of the top-level `labels:` — coded values and what to show
  /// for them — usable by facets and by `label(x, 'name')` in expressions.
  public struct LabelMap: Sendable {
    public var name: String
    public var labels: [String: String]
    public var location: SourceLocation
  }

  public struct Scope: Sendable {
    public var id: String
    public var label: String
    public var facet: String?
    public var value: String?
    public var location: SourceLocation
    /// What the scope holds, for a label that cannot say it ("Library"):
    /// the segment's accessible description and its tooltip.
    public var description: String? = nil
  }

  /// How the index is cut into files (`index:`): the defaults suit most
  /// sites; tests use tiny shards to exercise every part of the format.
  public struct Index: Sendable {
    /// A term shard is split by longer prefixes once it grows past this.
    public var termShardBytes = 12 * 1024
    public var documentsPerShard = 50
    /// Postings kept in a term's shard; the rest go to a continuation file.
    public var postingsPerTerm = 2_000
    /// Best documents kept for a short prefix whose terms were split off.
    public var topsPerPrefix = 64
    /// Bytes of document rows a term shard carries for its first answers.
    public var rowBytesPerShard = 3 * 1024
    /// Up to this many documents, every kind's documents are one file: a
    /// search counts every chip, so it needs them all (the engine's
    /// `CHEAP_KINDS`). Past it, each kind has a file of its own.
    public var kindsInOneFile = 50_000
    /// Documents per file of a sort option's value order, written on an
    /// index of more than twice as many (`ValueKeyStage`).
    public var documentsPerSortFile = 4096
  }

  /// How much the inputs may hold (`limits:`): a bound on every dimension
  /// a config or a data source can grow in, so that a path naming
  /// something far larger than a catalogue, a view that never ends, or a
  /// config of a hundred thousand facets is refused with the limit's name
  /// at the line that crossed it instead of exhausting the machine. The
  /// defaults let a 10-million-record catalogue through with room to
  /// spare; each can be raised, up to `Limits.keys`' maximum.
  public struct Limits: Sendable {
    /// The largest CSV, JSON or JSON Lines file read, checked before
    /// reading. 4 GiB: far above any catalogue the site can serve, and
    /// below what would exhaust a build machine. A SQLite database is read
    /// a page at a time as its query needs, so its size is not limited;
    /// what its query returns is (`tableBytes`, `rowsPerTable`).
    public var fileBytes = 4 << 30
    /// The longest value (and column name), in UTF-8 bytes: 1 MiB, a long
    /// book's worth of text for one record.
    public var valueBytes = 1 << 20
    /// Rows (records) of one table, from any source, counted as they are
    /// read: 50 million, five times a 10-million-record catalogue, so a
    /// join table of several rows per record fits. A table costs at least
    /// 16 bytes a cell, so this also stops a SQLite view that never ends:
    /// a debug build stopped a one-column endless view at 1.1 GB resident
    /// (it grew to 2.4 GB and was killed before).
    public var rowsPerTable = 50_000_000
    /// Cells (rows × columns) of one table: 500 million, 10 million
    /// records of 50 columns; at 16 bytes or more each, about 8 GB held.
    public var cellsPerTable = 500_000_000
    /// Columns of one table: a million. A sparse JSON source has a column
    /// per field name any record uses (one object of 200,000 names builds
    /// in 130 MB, `SourceSafetyTests`); every column costs memory whatever
    /// it holds, so a header line of millions of commas is where this stops.
    public var columnsPerTable = 1_000_000
    /// Bytes of text a SQLite table or query returns, counted while the
    /// rows stream: 4 GiB, what `fileBytes` allows a CSV file of it.
    public var tableBytes = 4 << 30
    /// Memory SQLite itself may take to answer one table's query — sorts,
    /// groupings, DISTINCT, kept in memory rather than in temporary files —
    /// counted while it runs: 1 GiB, a sort of 10 million rows of 100
    /// bytes. A view sorting an endless query stopped at 4 GiB of this
    /// after 150 s with 6.3 GB resident; at 1 GiB it stops at a quarter.
    public var sqliteMemoryBytes = 1 << 30
    /// The longest string anywhere in the config (a title, a label, an
    /// expression, a query), in UTF-8 bytes: 64 KiB, many times the longest
    /// SQL query a site needs. A title is written into every page, and 512
    /// pages are rendered at once: a 10 MB title took a build to 3 GB.
    public var configValueBytes = 64 << 10
    /// How deeply the config's mappings and lists may nest: 32, where a
    /// site needs 5 (collections → a collection → page → path).
    public var configDepth = 32
    /// Entries of any one mapping or list in the config not bounded below
    /// (a collection's fields, facets, search fields, refs…): 10,000.
    public var configItems = 10_000
    /// Tables declared (`tables:`): 1,000.
    public var tables = 1_000
    /// Collections (`collections:`): 1,000. Each is a chip on the search
    /// page and a pass over its table.
    public var collections = 1_000
    /// Facets (`facets:`): 1,000, room for `generate init`'s up to 8 a
    /// table over 125 tables. Every document keeps a list of values per
    /// facet and the index makes a pass over the documents per facet, so
    /// a facet costs 8 bytes or more a record: a catalogue of millions of
    /// records wants far fewer. 100,000 facets took a 20-record build to
    /// 3.4 GB.
    public var facets = 1_000
    /// Scopes (`scopes:`): 1,000, each a segment of the scope bar and a
    /// pass over the documents.
    public var scopes = 1_000
    /// Trending terms (`search.trending:`): 1,000, each searched at build time.
    public var trending = 1_000
    /// Entries of one label map (under `labels:`, or a facet's own): one
    /// million coded values, a large taxonomy's worth.
    public var labels = 1_000_000
    /// The config file, as its messages name it.
    public var configFile = "the config file"

    /// Every limit: its key under `limits:`, the values it may be set to,
    /// and where it is kept.
    static var keys: [(name: String, range: ClosedRange<Int>, path: WritableKeyPath<Limits, Int>)] {
      [
        ("fileBytes", 1...(1 << 50), \.fileBytes),
        ("valueBytes", 1...(1 << 30), \.valueBytes),
        ("rowsPerTable", 1...(1 << 40), \.rowsPerTable),
        ("cellsPerTable", 1...(1 << 40), \.cellsPerTable),
        ("columnsPerTable", 1...100_000_000, \.columnsPerTable),
        ("tableBytes", 1...(1 << 50), \.tableBytes),
        ("sqliteMemoryBytes", 1...(1 << 50), \.sqliteMemoryBytes),
        ("configValueBytes", 1...(1 << 30), \.configValueBytes),
        ("configDepth", 8...1_000, \.configDepth),
        ("configItems", 1...100_000_000, \.configItems),
        ("tables", 1...1_000_000, \.tables),
        ("collections", 1...1_000_000, \.collections),
        ("facets", 1...1_000_000, \.facets),
        ("scopes", 1...1_000_000, \.scopes),
        ("trending", 1...1_000_000, \.trending),
        ("labels", 1...100_000_000, \.labels),
      ]
    }

    /// How to raise a limit, for the end of the message that refuses
    /// something over it: "raise limits.rowsPerTable in site.yml (at most …)".
    public func raise(_ name: String) -> String {
      let most = Self.keys.first { $0.name == name }.map { " (at most \($0.range.upperBound))" } ?? ""
      return "raise limits.\(name) in \(configFile)\(most) to allow more"
    }

    /// "over the limit of 1000 (limits.rowsPerTable); raise …".
    public func over(_ name: String) -> String {
      let value = Self.keys.first { $0.name == name }.map { self[keyPath: $0.path] } ?? 0
      return "over the limit of \(value) (limits.\(name)); \(raise(name))"
    }
  }

  public struct Search: Sendable {
    public var title = "Search"
    public var placeholder = "Search"
    public var topResults = "Top Results"
    public var slashFocuses = true
    public var suggestions = 8
    public var trending: [String] = []
    /// Where each trending term was written, for the warning that it finds nothing.
    public var trendingLocations: [SourceLocation] = []
  }

  /// Where the config file is, as given on the command line.
  public var path: String
  /// The folder relative paths inside the config start from.
  public var directory: String
  public var title: String
  public var description: String
  public var language: String
  public var baseURL: String
  /// The site's origin (`https://music.example.org`), for the sitemap.
  public var siteURL: String?
  public var tint: String
  /// The user's template folders, searched in order and before the built-in
  /// theme: a template or asset in an earlier folder overrides one of the
  /// same name in a later one. Empty: the built-in theme alone.
  public var templates: [String]
  /// Whether the built-in theme is searched after `templates`; a site with
  /// a complete theme of its own turns it off so none of its files are
  /// copied.
  public var builtInTheme = true
  /// Whether the build writes the A–Z browse pages (`browse/`): every
  /// record and facet value reachable by plain links, without JavaScript.
  public var browse = true
  /// Whether the search page installs the service worker (`sw.js`) that
  /// keeps what a visit fetched for use offline.
  public var offline = true
  public var search: Search
  public var index = Index()
  public var limits = Limits()
  public var tables: [Table]
  public var collections: [Collection]
  public var facets: [Facet]
  public var scopes: [Scope]
  /// Limits detail pages to these collections (all when nil); scale builds
  /// use it to skip millions of pages while still indexing every record.
  public var pages: [Located<String>]?
  /// Named maps of coded values to labels (`labels:`).
  public var labels: [String: LabelMap] = [:]
  /// The interface's strings in `language` with `strings:` over them
  /// (`Localization/UIStrings`), and the warnings they gave (`--strict`).
  public var strings = UIStrings.builtIn("en")
  public var stringWarnings: [Diagnostic] = []

  /// The map a facet's values go through, if it has one (and, if named,
  /// it is declared; `ConfigChecker` reports one that is not).
  public func labels(of facet: Facet) -> [String: String]? {
    switch facet.labels {
    case .none: return nil
    case .named(let name): return labels[name.value]?.labels
    case .inline(let map): return map
    }
  }
}
