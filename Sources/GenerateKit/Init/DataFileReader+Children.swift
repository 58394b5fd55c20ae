import Foundation

/// A JSON table's lists of objects (a book's `editions`, each with an
/// `isbn`, a `year` and a `publisher`): a child table of their own
/// (`itemsOf:`), one record per object referring to its parent, when their
/// objects hold two fields or more that say something; a list with one
/// such field (a book's `authors`, each a `name`) stays a list field of
/// the parent, as a person would search and filter it.
extension DataFileReader {
  /// The child tables of `parent`, loaded as a build loads them; their
  /// columns leave `parent`, which keeps the other lists.
  func childTables(of parent: inout FoundTable, name uniqueName: (String) -> String) -> [FoundTable] {
    switch parent.source {
    case .json, .jsonLines: break
    default: return []
    }
    let table = parent.table
    var arrays: [String] = []
    var columnsOf: [String: [Int]] = [:]
    for column in table.header.indices {
      guard let array = table.listArrays[column] else { continue }
      if columnsOf[array] == nil { arrays.append(array) }
      columnsOf[array, default: []].append(column)
    }
    var children: [FoundTable] = []
    var moved = Set<String>()
    for array in arrays {
      let columns = columnsOf[array] ?? []
      guard columns.filter({ Self.saysSomething(table, column: $0) }).count >= Self.childFields,
        Self.namedColumn(of: array, in: table, columns: columns) == nil
      else {
        continue
      }
      let fields = Set(columns.map { String(table.header[$0].dropFirst(array.count + 1)) })
      var reference = Naming.singularName(parent.name)
      while fields.contains(reference) { reference += "_ref" }
      let last = array.split(separator: ".").last.map(String.init) ?? array
      let name = uniqueName(Naming.tableName(last))
      let source = FoundTable.Source.items(
        path: parent.source.path, parent: parent.name, list: array, reference: reference)
      var spec = Self.spec(name: name, source: source)
      spec.location = SourceLocation(file: DatasetLoader.displayPath(parent.source.path))
      let config = SiteConfig(
        path: "", directory: FileManager.default.currentDirectoryPath, title: "", description: "",
        language: "en", baseURL: "/", tint: "", templates: [], search: .init(),
        tables: [Self.spec(name: parent.name, source: parent.source), spec], collections: [], facets: [],
        scopes: [])
      // A list whose items are not all objects (`[{…}, "x"]`) cannot be a
      // table: it stays a list field.
      guard var child = try? DatasetLoader().loadItems(spec, of: table, list: array, config: config) else {
        continue
      }
      let leftOut = child.header.filter { !Self.isWritable($0) }
      if !leftOut.isEmpty { child = Self.table(child, without: Set(leftOut)) }
      children.append(
        FoundTable(name: name, source: source, table: child, profile: TableProfile(child), leftOut: leftOut))
      moved.formUnion(columns.map { table.header[$0] } + [array])
    }
    if !moved.isEmpty {
      parent.table = Self.table(table, without: moved)
      parent.profile = TableProfile(parent.table)
    }
    return children
  }

  /// The field that names the objects of a list of references to other
  /// things (a book's `authors`, each a `name` and an `id`): a field named
  /// like a name whose every other field that says something goes with it
  /// one to one (an author's id is always the same for the same name). A
  /// person searches, reads and filters the book by those names; the
  /// objects are no records of their own. Nil when the objects say more
  /// (an edition's year and publisher repeat across ISBNs).
  static func namedColumn(of array: String, in table: Table, columns: [Int]) -> Int? {
    let named = columns.filter { column in
      Naming.words(String(table.header[column].dropFirst(array.count + 1))).map(Naming.singular)
        .contains(where: CollectionInference.titleWords.contains)
    }
    guard named.count == 1, let name = named.first else { return nil }
    for other in columns where other != name && saysSomething(table, column: other) {
      var forward: [String: String] = [:]
      var backward: [String: String] = [:]
      for row in 0..<table.count {
        let names = table.items(row: row, column: name)
        let values = table.items(row: row, column: other)
        guard names.count == values.count else { return nil }
        for (item, value) in zip(names, values) {
          if forward[item, default: value] != value || backward[value, default: item] != item { return nil }
          forward[item] = value
          backward[value] = item
        }
      }
    }
    return name
  }

  /// Two fields that say something make a record: one is only a list of
  /// values (`authors.name`).
  static let childFields = 2

  /// A field of the list's objects that tells them apart: two different
  /// values at least, over all records (a constant `"type": "edition"`
  /// says nothing).
  static func saysSomething(_ table: Table, column: Int) -> Bool {
    var first: String?
    for cell in table.columns[column] where !cell.isEmpty {
      for item in Table.items(of: cell) {
        if first == nil { first = item } else if item != first { return true }
      }
    }
    return false
  }
}
