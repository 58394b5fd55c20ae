import Foundation

/// A record as Mustache sees it: built-in names (`title`, `url`, `slug`…),
/// the collection's fields evaluated on demand, and the table's raw columns.
/// Lazy, so a template only pays for the fields it uses.
final class RecordContext: CustomStringConvertible, @unchecked Sendable {
  /// Contexts already opened while rendering one page: a song list names
  /// the same artist and album again and again, and each is evaluated once.
  final class Cache {
    struct Key: Hashable {
      var table: ObjectIdentifier
      var row: Int
      var depth: Int
    }
    var contexts: [Key: RecordContext] = [:]
  }

  let site: PreparedSite
  let table: Table
  let row: Int
  let depth: Int
  let documentIndex: Int?
  let shared: Cache
  private var cache: [String: Any?] = [:]

  /// `document` is the record's own document, for its page, subtitle,
  /// path and link: two collections over one table (a show's page and its
  /// feed) each read their own fields. A record reached from another is
  /// its table's first collection's.
  init(
    site: PreparedSite, table: Table, row: Int, depth: Int = 0, shared: Cache = Cache(), document: Int? = nil
  ) {
    self.site = site
    self.table = table
    self.row = row
    self.depth = depth
    self.shared = shared
    self.documentIndex = document ?? site.documentIndex(table: table, row: row)
  }

  /// The page's root context owns the shared cache, whose contexts point
  /// back at it: without this every rendered page kept its contexts, and
  /// through them the whole prepared site, alive (the preview grew by the
  /// size of a build on every rebuild).
  deinit {
    if depth == 0 { shared.contexts.removeAll() }
  }

  /// What `{{artist}}` prints for a reference to a record: its title, as
  /// a person reads it (the title of a record `where:` hides, else its
  /// key), never the type's name.
  var description: String {
    if let index = documentIndex { return site.documents[index].title }
    return site.title(ofHidden: table, row: row) ?? table.key(ofRow: row)
  }

  var document: Document? {
    documentIndex.map { site.documents[$0] }
  }

  func child(named name: String) -> Any? {
    if let cached = cache[name] { return cached }
    let value = lookup(name)
    cache[name] = value
    return value
  }

  private func lookup(_ name: String) -> Any? {
    if let index = documentIndex {
      let documents = site.documents
      switch name {
      case "id", "key": return table.key(ofRow: row)
      case "title": return documents[index].title
      case "subtitle":
        // Empty is nil on the page's own record, so `{{#subtitle}}` skips
        // it; a nested record keeps "", which stops the lookup climbing to
        // the enclosing record's subtitle.
        let subtitle = documents[index].subtitle
        return depth == 0 && subtitle.isEmpty ? nil : subtitle
      case "slug": return documents[index].slug
      case "hue": return String(documents[index].hue)
      case "url":
        let url = site.url(of: index)
        return url.isEmpty ? nil : site.baseURL + url
      case "kind": return site.collections[documents[index].collection].config.singular
      case "artwork": return artwork(documents[index])
      case "detailRows": return depth == 0 ? detailRows() : nil
      case "relatedLists": return depth == 0 ? relatedLists() : nil
      case "initial":
        return documents[index].title.first(where: { $0.isLetter || $0.isNumber }).map {
          String($0).uppercased()
        }
      default:
        if let field = site.collections[documents[index].collection].field(named: name) {
          // A field this record leaves empty is nothing here (`NSNull`,
          // which ends Mustache's lookup): not an enclosing record's
          // value of the same name, nor the page's (`site`, `url`).
          guard let value = convert(site.evaluator.evaluate(field, table: table, row: row)) else {
            return NSNull()
          }
          // A field that is one column (`active`, `artist.born`) is read as
          // that column is.
          if let text = value as? String, let (end, column) = Self.column(of: field) {
            return Self.typed(text, table: end, column: column)
          }
          return value
        }
      }
    } else if name == "id" || name == "key" {
      return table.key(ofRow: row)
    } else if name == "title", let title = site.title(ofHidden: table, row: row) {
      return title
    } else if name == "url", site.title(ofHidden: table, row: row) != nil {
      // Hidden by `where:`: false, not nil, so `{{#url}}` does not find the
      // enclosing record's url instead.
      return false
    }
    // A JSON object's members are dotted columns (`publisher.name`): the
    // object opens as one, `{{publisher.name}}` and `{{#publisher}}`.
    if table.objects[name] != nil { return ObjectValue.value(table, row: row, path: name) }
    if let column = table.column(named: name) {
      // A list reads as its items joined with commas, so `{{tags}}` in
      // a subtitle or page prints "fantasy, comedy". An empty cell is
      // nothing, as an empty field is.
      return Self.cell(table, row: row, column: column) ?? NSNull()
    }
    return nil
  }

  /// A cell as a template reads it: nil when empty, a list's items
  /// (`ListText`), else `typed`.
  static func cell(_ table: Table, row: Int, column: Int) -> Any? {
    if table.lists.contains(column) {
      let items = table.items(row: row, column: column)
      return items.isEmpty ? nil : ListText(items: items)
    }
    let value = table.text(row: row, column: column)
    return value.isEmpty ? nil : typed(value, table: table, column: column)
  }

  /// A value of a column of JSON booleans as a `Bool`, so `{{#active}}`
  /// skips a `false` and `{{^active}}` shows it; one of a column of JSON
  /// numbers as an `Int` where it is a whole number written as `Int`
  /// prints it, so `{{count.plusone}}` and `{{#equalzero(count)}}` work.
  /// A whole number of a column that writes its numbers its own way
  /// (`31.889.923`) prints as written and counts as the number.
  /// `{{active}}` and `{{count}}` print what they printed as text.
  static func typed(_ text: String, table: Table, column: Int) -> Any {
    if table.booleanColumns.contains(column) {
      if text == "true" { return true }
      if text == "false" { return false }
    } else if table.numberColumns.contains(column), let number = Int(text), String(number) == text {
      return number
    } else if let number = table.numeral(text, column: column), number.rounded() == number,
      abs(number) < 1e15
    {
      return WrittenNumber(text: text, value: Int(number))
    }
    return text
  }

  /// The table and column a field names when it is one column of one
  /// record (not a list, not a computation).
  private static func column(of expression: CompiledExpression) -> (Table, Int)? {
    switch expression {
    case .located(let inner, _, _): return column(of: inner)
    case .path(_, .column(let column), let table, many: false): return (table, column)
    default: return nil
    }
  }

  /// `image` (its URL as the page links it) and `symbol`, for `{{> art}}`;
  /// false, not nil, without either, so a nested record never shows the
  /// enclosing record's picture.
  private func artwork(_ document: Document) -> Any {
    // Read once: on disk for a large site (`DocumentStore`).
    let shown = document.shown
    guard !shown.image.isEmpty || !shown.symbol.isEmpty else { return false }
    var artwork: [String: Any] = [:]
    if !shown.image.isEmpty {
      artwork["image"] =
        DocumentBuilder.scheme(of: shown.image) == nil ? site.baseURL + shown.image : shown.image
    }
    if !shown.symbol.isEmpty { artwork["symbol"] = shown.symbol }
    return artwork
  }

  /// Values as Mustache wants them: text, lists to iterate, records to open.
  func convert(_ value: Value) -> Any? {
    switch value {
    case .null: return nil
    case .text(let text): return text.isEmpty ? nil : text
    case .number(let number): return Value.written(number)
    case .numeral(let text, _): return text
    case .list(let values):
      let converted = values.compactMap { convert($0) }
      return converted.isEmpty ? nil : ValueList(items: converted)
    case .record(let table, let row):
      guard depth < 3 else { return nil }
      let key = Cache.Key(table: ObjectIdentifier(table), row: row, depth: depth)
      if let existing = shared.contexts[key] { return existing }
      // A record of a collection with no title (mendeleev's unnamed groups
      // 3–12) is nothing to show as a reference: absent, so `{{#group}} ·
      // {{group.title}}{{/group}}` leaves no " · " behind. Asked once per
      // record a page refers to, not on every reference (the cache above).
      if let index = site.documentIndex(table: table, row: row) {
        if site.documents[index].title.isEmpty { return nil }
      } else if site.collections.contains(where: { $0.table === table }),
        site.title(ofHidden: table, row: row) == nil
      {
        return nil
      }
      let context = RecordContext(site: site, table: table, row: row, depth: depth + 1, shared: shared)
      shared.contexts[key] = context
      return context
    }
  }
}
