import Foundation
import NIOConcurrencyHelpers

/// What the built-in record page shows of any record, whatever its shape:
/// `detailRows`, every field as a labelled row, and `relatedLists`, the
/// records it refers to and those that refer to it. Everything is text or
/// a link; the template writes it escaped.
extension RecordContext {
  /// How many records a row or a related list shows before "and N more".
  static let listCap = 50

  /// `[{label, text, links: [{title, url}], more}]`: the collection's
  /// fields in config order, then any record its `refs` columns lead to
  /// that no field showed; or, when it declares no fields, the table's
  /// columns (those that follow a reference become links). Empty values
  /// are left out, and so is a column that only repeats the title.
  func detailRows() -> [[String: Any]] {
    guard let index = documentIndex else { return [] }
    let collection = site.collections[site.documents[index].collection]
    // A column the artwork shows (`image: cover`) is not a detail: its URL
    // or emoji is already the picture above.
    let artColumns = Set(
      [collection.config.image?.value, collection.config.symbol?.value].compactMap { $0 }.map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: "` "))
      })
    var rows: [[String: Any]] = []
    if !collection.fields.isEmpty {
      var linked = Set<String>()
      for field in collection.fields {
        let value = site.evaluator.evaluate(field.expression, table: table, row: row)
        for case .record(let target, let targetRow) in value.items {
          linked.insert("\(ObjectIdentifier(target).hashValue):\(targetRow)")
        }
        if let detail = detail(label: Self.readable(field.name), value: value) { rows.append(detail) }
      }
      // The records this one refers to that no field showed yet.
      for (column, target) in table.references.sorted(by: { $0.key < $1.key }) {
        let targetRows = (site.related?.targets(of: table, column: column, row: row) ?? []).filter {
          !linked.contains("\(ObjectIdentifier(target).hashValue):\($0)")
        }
        guard !targetRows.isEmpty else { continue }
        let label = Self.readable(Self.withoutIDSuffix(table.header[column]))
        if let detail = detail(label: label, value: Self.records(target, targetRows)) { rows.append(detail) }
      }
      // Then the table's own columns that no field already shows: "every
      // field" means the record's data, not only what the config derived.
      let shown = Set(rows.compactMap { $0["text"] as? String })
      let fieldNames = Set(collection.fields.map(\.name))
      // A field of `flags(Action, Comedy…)` shows the names of those set:
      // their 0 and 1 are not shown again.
      let flagged = Set(collection.fields.flatMap(\.expression.flagColumns))
      rows += plainColumnRows(title: site.documents[index].title) { name, text in
        !fieldNames.contains(name) && !shown.contains(text) && !artColumns.contains(name)
          && !flagged.contains(name)
      }
      return rows
    }
    let title = site.documents[index].title
    for (column, name) in table.header.enumerated() {
      let text = table.text(row: row, column: column)
      guard !text.isEmpty else { continue }
      if let target = table.references[column] {
        let targetRows = site.related?.targets(of: table, column: column, row: row) ?? []
        guard !targetRows.isEmpty else { continue }
        let label = Self.readable(Self.withoutIDSuffix(name))
        if let detail = detail(label: label, value: Self.records(target, targetRows)) { rows.append(detail) }
        continue
      }
      if text == title || artColumns.contains(name) { continue }
      rows.append(["label": Self.readable(name), "text": text, "links": false, "more": false])
    }
    return rows
  }

  /// Rows for the table's columns that hold plain values (not references),
  /// leaving out empty values, the title, a key of digits only (a row
  /// number says nothing to a reader) and what `include` refuses.
  func plainColumnRows(title: String, include: (String, String) -> Bool) -> [[String: Any]] {
    var rows: [[String: Any]] = []
    for (column, name) in table.header.enumerated() where table.references[column] == nil {
      let text = table.text(row: row, column: column)
      guard !text.isEmpty, text != title, include(name, text) else { continue }
      if column == table.keyColumn && text.allSatisfy(\.isNumber) { continue }
      rows.append(["label": Self.readable(name), "text": text, "links": false, "more": false])
    }
    return rows
  }

  /// `[{id, label, count, items: [{title, url, subtitle, hue, initial,
  /// anchor}], more}]`: per table whose `refs` point at this one, the records that
  /// refer to it, most popular first. (The records this one refers to are
  /// links among its `detailRows`.) A table with no collection of its own that links two
  /// tables (playlist_tracks) is walked through to the records at its other
  /// end.
  func relatedLists() -> [[String: Any]] {
    guard documentIndex != nil, let related = site.related else { return [] }
    var lists: [[String: Any]] = []
    for source in related.sources(pointingAt: table) {
      let rows = related.rows(of: source, referringTo: row)
      guard !rows.isEmpty else { continue }
      let records =
        source.through.map { through in
          rows.flatMap { sourceRow in
            related.targets(of: source.table, column: through.column, row: sourceRow).map {
              (through.table, $0)
            }
          }
        } ?? rows.map { (source.table, $0) }
      let ranked = rankedUnique(records)
      // Records whose link leads into this page (a song at
      // `album/#track-3`) have no page of their own: they are all shown,
      // each with the id its link points at.
      let here = (child(named: "url") as? String).map { $0 + "#" }
      var items: [[String: Any]] = []
      var shown = 0
      for record in ranked {
        guard var item = item(record.0, record.1) else { continue }
        if let here, let url = item["url"] as? String, url.hasPrefix(here) {
          item["anchor"] = String(url.dropFirst(here.count))
        } else {
          guard shown < Self.listCap else { continue }
          shown += 1
        }
        items.append(item)
      }
      guard !items.isEmpty else { continue }
      var list: [String: Any] = [
        "id": "related-\(lists.count + 1)", "label": label(of: source.through?.table ?? source.table),
        "count": Value.format(Double(ranked.count)), "items": items, "more": false,
      ]
      if ranked.count > items.count {
        list["more"] = Value.format(Double(ranked.count - items.count))
        list["moreText"] = site.config.strings.count("andMore", ranked.count - items.count)
      }
      lists.append(list)
    }
    return lists
  }

  /// One record as a value, or several (a list of references) as a list.
  static func records(_ target: Table, _ rows: [Int]) -> Value {
    rows.count == 1 ? .record(target, rows[0]) : .list(rows.map { .record(target, $0) })
  }

  /// A row for one value: text, a link, or a list of links.
  private func detail(label: String, value: Value) -> [String: Any]? {
    switch value {
    case .null: return nil
    case .record(let target, let targetRow):
      guard let item = item(target, targetRow) else { return nil }
      return ["label": label, "text": false, "links": [item], "more": false]
    case .list(let values) where values.contains(where: { if case .record = $0 { true } else { false } }):
      let records = values.compactMap { value -> (Table, Int)? in
        if case .record(let target, let targetRow) = value { return (target, targetRow) }
        return nil
      }
      let items = records.prefix(Self.listCap).compactMap { item($0.0, $0.1) }
      guard !items.isEmpty else { return nil }
      var detail: [String: Any] = ["label": label, "text": false, "links": items, "more": false]
      if records.count > Self.listCap {
        detail["more"] = Value.format(Double(records.count - Self.listCap))
        detail["moreText"] = site.config.strings.count("andMore", records.count - Self.listCap)
      }
      return detail
    default:
      let text = value.text
      return text.isEmpty ? nil : ["label": label, "text": text, "links": false, "more": false]
    }
  }

  /// A record as a link: its title, its page (none when it has no page or
  /// is hidden by `where:`), and its subtitle.
  private func item(_ target: Table, _ targetRow: Int) -> [String: Any]? {
    let context = RecordContext(site: site, table: target, row: targetRow, depth: 1, shared: shared)
    let title =
      (context.child(named: "title") as? String) ?? (context.child(named: "name") as? String)
      ?? target.key(ofRow: targetRow)
    // Every name set, false where there is nothing: a missing name would
    // find the page's own record's url or subtitle instead.
    let initial = title.first(where: { $0.isLetter || $0.isNumber }).map { String($0).uppercased() } ?? ""
    return [
      "title": title, "url": (context.child(named: "url") as? String) ?? false,
      "subtitle": (context.child(named: "subtitle") as? String).flatMap { $0.isEmpty ? nil : $0 } ?? false,
      "hue": (context.child(named: "hue") as? String) ?? "0", "initial": initial, "anchor": false,
      "artwork": context.child(named: "artwork") ?? false,
    ]
  }

  /// Records in order of popularity (then as found), each once.
  private func rankedUnique(_ records: [(Table, Int)]) -> [(Table, Int)] {
    var seen = Set<String>()
    var unique: [(record: (Table, Int), popularity: Double, order: Int)] = []
    for (order, record) in records.enumerated() {
      guard seen.insert("\(ObjectIdentifier(record.0).hashValue):\(record.1)").inserted else { continue }
      let popularity =
        site.documentIndex(table: record.0, row: record.1).map { site.documents[$0].popularity } ?? 0
      unique.append((record, popularity, order))
    }
    unique.sort { ($1.popularity, $0.order) < ($0.popularity, $1.order) }
    return unique.map(\.record)
  }

  /// A table's name as a list's heading: its collection's label, else the
  /// table name made readable.
  private func label(of table: Table) -> String {
    site.collections.first { $0.table === table }?.config.label ?? Self.readable(table.name)
  }

  /// `release_date` → "Release date", `lifeExp` → "Life exp". Each name
  /// is made readable once: a record page asks for every column's label.
  static func readable(_ name: String) -> String {
    labels.label(for: name, made: makeReadable)
  }

  private static let labels = LabelCache()

  /// Labels by name, shared by the pages rendered in parallel.
  private final class LabelCache: Sendable {
    private let byName = NIOLockedValueBox<[String: String]>([:])

    func label(for name: String, made: (String) -> String) -> String {
      if let label = byName.withLockedValue({ $0[name] }) { return label }
      let label = made(name)
      byName.withLockedValue { $0[name] = label }
      return label
    }
  }

  private static func makeReadable(_ name: String) -> String {
    var words: [String] = []
    var word = ""
    var previous: Character?
    for character in name {
      if character == "_" || character == "-" || character == " " {
        if !word.isEmpty { words.append(word) }
        word = ""
      } else if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
        if !word.isEmpty { words.append(word) }
        word = String(character)
      } else {
        word.append(character)
      }
      previous = character
    }
    if !word.isEmpty { words.append(word) }
    // An all-capitals word (GDP) keeps its capitals; an abbreviation is
    // spelt out (`tz` → Time zone), a unit or a language goes last in
    // parentheses (`Weight_in_lbs` → Weight (lbs), `name_ja` → Name (ja)).
    let capitals = Set(words.filter { $0.count > 1 && $0.allSatisfy { $0.isUppercase || $0.isNumber } })
    let (rewritten, suffix) = ReadableWords.rewrite(
      words.map { capitals.contains($0) ? $0 : $0.lowercased() })
    var text = rewritten.enumerated().map { offset, word in
      if capitals.contains(word) { return word }
      if ReadableWords.acronyms.contains(word.lowercased()) { return word.uppercased() }
      return offset == 0 ? word.prefix(1).uppercased() + word.dropFirst().lowercased() : word.lowercased()
    }.joined(separator: " ")
    if let suffix, !text.isEmpty { text += " " + suffix }
    return text.isEmpty ? name : text
  }

  /// `artist_id` → `artist`: the record a reference column leads to.
  static func withoutIDSuffix(_ name: String) -> String {
    for suffix in ["_id", "Id", "ID", "_key"] where name.hasSuffix(suffix) && name.count > suffix.count {
      return String(name.dropLast(suffix.count))
    }
    return name
  }
}

/// Every `refs` column resolved both ways, for the record page: which
/// record a row refers to, and which rows refer to a record. Made before
/// the key indexes are released, only when a collection's pages use the
/// `record` template; read-only afterwards, so pages rendered in parallel
/// share it.
final class RelatedRecords: @unchecked Sendable {
  struct Source {
    var table: Table
    var column: Int
    /// For a table with no collection that links to one other table: the
    /// column to follow to the records worth listing.
    var through: (table: Table, column: Int)?
  }

  private var targets: [ObjectIdentifier: [Int: [Int32]]] = [:]
  private var referrers: [ObjectIdentifier: [Int: [Int32: [Int32]]]] = [:]
  private var lists: [ObjectIdentifier: [Int: ListLinks]] = [:]
  private var byTarget: [ObjectIdentifier: [Source]] = [:]

  init(dataset: Dataset, collectionTables: [Table]) {
    let listed = Set(collectionTables.map(ObjectIdentifier.init))
    for table in dataset.tables {
      let id = ObjectIdentifier(table)
      for (column, target) in table.references.sorted(by: { $0.key < $1.key }) {
        var rows = [Int32](repeating: -1, count: table.count)
        var back: [Int32: [Int32]] = [:]
        if table.isList(column) {
          // A list of references: every record it names, and each of
          // those is referred to by this row.
          let links = ListLinks(table: table, column: column, target: target)
          for row in 0..<table.count {
            for targetRow in links.targets(of: row) { back[targetRow, default: []].append(Int32(row)) }
          }
          lists[id, default: [:]][column] = links
        } else {
          for (row, value) in table.columns[column].enumerated() {
            guard let targetRow = target.rowForKey[value] else { continue }
            rows[row] = Int32(targetRow)
            back[Int32(targetRow), default: []].append(Int32(row))
          }
        }
        targets[id, default: [:]][column] = rows
        referrers[id, default: [:]][column] = back
      }
    }
    for table in dataset.tables {
      for (column, target) in table.references.sorted(by: { $0.key < $1.key }) {
        var source = Source(table: table, column: column)
        if !listed.contains(ObjectIdentifier(table)) {
          // A link table: list what is at its other end, or nothing.
          let others = table.references.filter {
            $0.key != column && listed.contains(ObjectIdentifier($0.value))
          }
          guard others.count == 1, let other = others.first else { continue }
          source.through = (other.value, other.key)
        }
        byTarget[ObjectIdentifier(target), default: []].append(source)
      }
    }
  }

  /// The row a reference column of `table` leads to, if it leads anywhere.
  func target(of table: Table, column: Int, row: Int) -> Int? {
    guard let rows = targets[ObjectIdentifier(table)]?[column], row < rows.count, rows[row] >= 0 else {
      return nil
    }
    return Int(rows[row])
  }

  /// Every row a reference column of `table` leads to: one, or for a list
  /// of references each record it names.
  func targets(of table: Table, column: Int, row: Int) -> [Int] {
    if let links = lists[ObjectIdentifier(table)]?[column] {
      guard row < links.offsets.count - 1 else { return [] }
      return links.targets(of: row).map(Int.init)
    }
    return target(of: table, column: column, row: row).map { [$0] } ?? []
  }

  /// The tables (and columns) whose references point at `target`.
  func sources(pointingAt target: Table) -> [Source] {
    byTarget[ObjectIdentifier(target)] ?? []
  }

  /// The rows of a source that refer to row `targetRow` of its target.
  func rows(of source: Source, referringTo targetRow: Int) -> [Int] {
    (referrers[ObjectIdentifier(source.table)]?[source.column]?[Int32(targetRow)] ?? []).map(Int.init)
  }
}
