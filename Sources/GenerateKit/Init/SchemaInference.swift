/// The relational shape `init` reads off the data: each table's key, the
/// references between tables, and which tables only join two others.
/// Every choice carries the reason the config's comments and the summary
/// give for it.
public struct Schema: Sendable {
  public struct Reference: Sendable, Equatable {
    public var column: String
    public var table: String
    public var reason: String
  }

  public struct TableShape: Sendable {
    public var found: FoundTable
    public var key: String?
    public var keyReason: String
    public var refs: [Reference]
    /// Two references and little else: a relation, not a collection.
    public var isJoin: Bool

    public var name: String { found.name }
    public var profile: TableProfile { found.profile }
    public func ref(_ column: String) -> Reference? { refs.first { $0.column == column } }
  }

  public var tables: [TableShape]

  public func table(_ name: String) -> TableShape? { tables.first { $0.name == name } }

  /// Tables that refer to `name` through exactly one column (so an
  /// expression can name them from it), with that column.
  public func children(of name: String) -> [(table: TableShape, column: String)] {
    tables.compactMap { child in
      let links = child.refs.filter { $0.table == name }
      guard links.count == 1 else { return nil }
      return (child, links[0].column)
    }
  }
}

/// Infers keys, references and join tables.
public struct SchemaInference {
  public init() {}

  /// Column names that say "I am this row's id".
  static let keyNames: Set<String> = ["id", "key", "uuid", "guid", "_id"]
  /// Column-name endings that say "I hold some table's id".
  static let idSuffixes = ["id", "key", "code", "ref", "uuid"]

  public func infer(_ found: [FoundTable]) -> Schema {
    let names = found.map(\.name)
    var shapes = found.map { table -> Schema.TableShape in
      let others = names.filter { $0 != table.name }
      let (key, reason) = Self.key(of: table, otherTables: others)
      return Schema.TableShape(found: table, key: key, keyReason: reason, refs: [], isJoin: false)
    }
    // Each table's keys, made once for every column checked against them.
    var keys: [String: Set<String>] = [:]
    for shape in shapes {
      if let key = shape.key, let column = shape.found.table.column(named: key) {
        keys[shape.name] = Set(shape.found.table.columns[column])
      }
    }
    for index in shapes.indices {
      shapes[index].refs = Self.refs(of: shapes[index], among: shapes, keys: keys)
      shapes[index].refs += Self.listRefs(of: shapes[index], among: shapes, keys: keys)
      shapes[index].isJoin = Self.isJoin(shapes[index])
    }
    return Schema(tables: shapes)
  }

  // MARK: Keys

  static func key(of table: FoundTable, otherTables: [String] = []) -> (String?, String) {
    let profile = table.profile
    let rows = "\(profile.rows) \(profile.rows == 1 ? "row" : "rows")"
    if let declared = table.declaredKey, let column = profile.column(named: declared) {
      if column.isUnique { return (declared, "the declared primary key '\(declared)'") }
    }
    guard profile.rows > 0 else { return (nil, "the table is empty: records are numbered by row") }
    // The column naming an item's parent is never its key (it is unique
    // only where each parent holds one item).
    var candidates = profile.columns
    if case .items(_, _, _, let reference) = table.source { candidates.removeAll { $0.name == reference } }
    let tableName = Naming.squashed(Naming.singularName(table.name))
    // A column named like a key: `id`, `track_id` in tracks, `TrackId`.
    for column in candidates where column.isUnique {
      let squashed = Naming.squashed(column.name)
      if keyNames.contains(column.name.lowercased())
        || idSuffixes.contains(where: { squashed == tableName + $0 })
      {
        return (column.name, "the column '\(column.name)' is unique in all \(rows)")
      }
    }
    // Else the first unique column whose values look like ids: whole
    // numbers or short text without spaces, named like an id, or the first
    // column (a unique count or price elsewhere is chance, not a key).
    // A column named for another table (`product_id` in product_tags)
    // refers to it, whatever its values.
    let otherNames = Set(
      otherTables.flatMap { [Naming.squashed($0), Naming.squashed(Naming.singularName($0))] })
    for (index, column) in candidates.enumerated()
    where column.isUnique && !otherNames.contains(stem(column.name)) {
      let idLike =
        column.kind == .integer
        || (column.kind == .text && column.maxLength <= 64 && column.averageWords <= 1.01)
      let named = idSuffixes.contains { Naming.squashed(column.name).hasSuffix($0) }
      if idLike && (index == 0 || named) {
        return (column.name, "the column '\(column.name)' is unique in all \(rows)")
      }
    }
    // A unique, short name-like column (a country, a code) comes next.
    for (index, column) in candidates.enumerated() where column.isUnique && index == 0 {
      if column.kind == .text && column.maxLength <= 100 {
        return (column.name, "the column '\(column.name)' is unique in all \(rows)")
      }
    }
    return (nil, "no column is unique and named like a key: records are numbered by row")
  }

  // MARK: References

  static func refs(
    of shape: Schema.TableShape, among shapes: [Schema.TableShape], keys: [String: Set<String>]
  ) -> [Schema.Reference] {
    var refs: [Schema.Reference] = []
    let table = shape.found.table
    // The objects of a list refer to the record that held them (their
    // values here are its row; a build fills in its key).
    if case .items(_, let parent, let list, let reference) = shape.found.source {
      refs.append(
        .init(
          column: reference, table: parent,
          reason: "each record is an object in the list \(YAMLWriter.named(list)) of a \(parent) record"))
    }
    // Declared foreign keys first, where their values all exist.
    for declared in shape.found.declaredRefs {
      guard
        let target = shapes.first(where: {
          switch ($0.found.source, shape.found.source) {
          case (.sqlite(let path, let name), .sqlite(let own, _)),
            (.postgres(let path, let name, _), .postgres(let own, _, _)):
            return path == own && name.lowercased() == declared.table.lowercased()
          default: return false
          }
        }), let targetKey = target.key, declared.targetColumn == nil || declared.targetColumn == targetKey,
        let column = table.column(named: declared.column),
        missing(table.columns[column], keys: keys[target.name] ?? []) == 0
      else { continue }
      refs.append(
        .init(
          column: declared.column, table: target.name,
          reason: "a declared foreign key to \(target.name).\(targetKey)"))
    }
    for (index, profile) in shape.profile.columns.enumerated() {
      // A JSON record must hold every column used in refs; one that some
      // records lack (or hold as null) is left out.
      if case .json = shape.found.source, profile.empty > 0 { continue }
      if case .jsonLines = shape.found.source, profile.empty > 0 { continue }
      if case .items = shape.found.source, profile.empty > 0 { continue }
      guard profile.filled > 0, profile.name != shape.key,
        !refs.contains(where: { $0.column == profile.name }),
        profile.kind == .integer || profile.kind == .text
      else { continue }
      let values = table.columns[index]
      // A column that repeats the key row by row (a package index's `name`
      // beside an `id` holding the same text; airportsdata's `lid`, the
      // ICAO code again where a US airport has one) names the record
      // itself: it would otherwise "refer" to its own table.
      // (Text only: in a few rows, `home_team_id` may equal `id` by chance.)
      if profile.kind == .text, let key = shape.key, let keyColumn = table.column(named: key),
        zip(table.columns[keyColumn], values).allSatisfy({ $1.isEmpty || $0 == $1 })
      {
        continue
      }
      let squashed = Naming.squashed(profile.name)
      let stripped = stem(profile.name)
      var named: [Schema.TableShape] = []
      // Named for a table's role: `home_team_id` → teams.
      var endsNamed: [Schema.TableShape] = []
      var unnamed: [Schema.TableShape] = []
      for target in shapes {
        guard let targetKeys = keys[target.name], profile.distinct <= targetKeys.count,
          missing(values, keys: targetKeys) == 0
        else { continue }
        let names = [Naming.squashed(target.name), Naming.squashed(Naming.singularName(target.name))]
        if names.contains(stripped) || names.contains(squashed) {
          named.append(target)
        } else if stripped != squashed, names.contains(where: { $0.count >= 3 && stripped.hasSuffix($0) }) {
          endsNamed.append(target)
        } else {
          unnamed.append(target)
        }
      }
      if let only = named.count == 1 ? named[0] : named.isEmpty && endsNamed.count == 1 ? endsNamed[0] : nil {
        refs.append(
          .init(
            column: profile.name, table: only.name,
            reason: "every value of '\(profile.name)' is a key of \(only.name)"))
        continue
      }
      // Not named like a table: only text values (small numbers would fit
      // any table numbered from 1), and only when one table fits.
      guard named.isEmpty, endsNamed.isEmpty, unnamed.count == 1, profile.kind == .text else { continue }
      refs.append(
        .init(
          column: profile.name, table: unnamed[0].name,
          reason: "every value of '\(profile.name)' is a key of \(unnamed[0].name)"))
    }
    return refs
  }

  /// A column's name without an id ending: `artist_id` → `artist`.
  static func stem(_ name: String) -> String {
    let squashed = Naming.squashed(name)
    for suffix in idSuffixes where squashed.hasSuffix(suffix) && squashed.count > suffix.count {
      return String(squashed.dropLast(suffix.count))
    }
    return squashed
  }

  /// How many non-empty values are not keys of the target.
  static func missing(_ values: some Collection<String>, keys: Set<String>) -> Int {
    values.reduce(0) { $0 + ($1.isEmpty || keys.contains($1) ? 0 : 1) }
  }

  /// Two references and little else: at most two other columns, none of
  /// them text that could be a title.
  static func isJoin(_ shape: Schema.TableShape) -> Bool {
    guard shape.refs.count == 2 else { return false }
    let others = shape.profile.columns.filter { column in
      column.name != shape.key && !shape.refs.contains { $0.column == column.name }
    }
    return others.count <= 2 && !others.contains { $0.kind == .text }
  }
}
