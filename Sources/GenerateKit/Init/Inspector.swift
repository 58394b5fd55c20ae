/// `generate inspect`: the quickest answer to "what is in this file?" —
/// each table's columns with their kind, distinct and empty counts and a
/// few samples, then what `init` would make of the table.
public struct Inspector {
  public init() {}

  public func report(_ files: [String]) throws -> [String] {
    let found = try DataFileReader().read(files)
    let plan = CollectionInference().infer(SchemaInference().infer(found))
    var lines: [String] = []
    for shape in plan.schema.tables {
      if !lines.isEmpty { lines.append("") }
      lines += table(shape, plan: plan)
    }
    // Names and values from the data reach a terminal: with their control
    // characters escaped, a name cannot move the cursor or forge a line.
    return lines.map(YAMLWriter.printable)
  }

  func table(_ shape: Schema.TableShape, plan: SitePlan) -> [String] {
    var source = DatasetLoader.displayPath(shape.found.source.path)
    switch shape.found.source {
    case .json(_, let path, let members) where path != nil || members != nil:
      if let path { source += " at \(path)" }
      if members != nil { source += ", its members" }
    case .sqlite(_, let table), .postgres(_, let table, _): source += ", table \(table)"
    case .csv(let path, let separator) where separator != CSVSeparator.implied(byFile: path):
      source += ", separated by \(CSVSeparator.shown(separator))"
    default: break
    }
    let profile = shape.profile
    var lines = ["\(shape.name) (\(source)): \(profile.rows) \(profile.rows == 1 ? "row" : "rows")"]
    let nameWidth = min(28, max(6, profile.columns.map(\.name.count).max() ?? 0))
    lines.append(
      "  " + Self.pad("column", nameWidth) + "  " + Self.pad("type", 7) + "  "
        + Self.pad("distinct", 8, right: true)
        + "  " + Self.pad("empty", 6, right: true) + "  samples")
    for column in profile.columns {
      let samples = column.samples.map { Self.shorten($0) }.joined(separator: " | ")
      lines.append(
        "  " + Self.pad(column.name, nameWidth) + "  " + Self.pad(column.kind.rawValue, 7) + "  "
          + Self.pad(String(column.distinct), 8, right: true) + "  "
          + Self.pad(String(column.empty), 6, right: true)
          + "  " + samples)
    }
    for column in shape.found.leftOut {
      lines.append(
        "  init: leaves out column \(YAMLWriter.quoted(column)): a config cannot name it (a backquote, an empty part between dots, or a byte-order mark first)"
      )
    }
    lines.append("  init: key " + (shape.key ?? "none") + " — " + shape.keyReason)
    for ref in shape.refs { lines.append("  init: \(ref.column) → \(ref.table) — \(ref.reason)") }
    if let collection = plan.collections.first(where: { $0.table == shape.name }) {
      lines.append("  init: a collection titled by \(collection.title) — \(collection.titleReason)")
      if let subtitle = collection.subtitle { lines.append("  init: subtitle \"\(subtitle)\"") }
      if let image = collection.image { lines.append("  init: image \(image)") }
      if let symbol = collection.symbol { lines.append("  init: symbol \(symbol)") }
      if !collection.search.isEmpty {
        let searched = collection.search.map {
          collection.weighed.contains($0) ? $0 + " (weighed like the title)" : $0
        }
        lines.append("  init: searched " + searched.joined(separator: ", "))
      }
      if let popularity = collection.popularity { lines.append("  init: popularity \(popularity)") }
      for facet in collection.facets { lines.append("  init: facet \(facet.facet) = \(facet.expression)") }
    } else if let reason = plan.tablesOnly.first(where: { $0.table == shape.name })?.reason {
      lines.append("  init: not a collection — \(reason)")
    }
    return lines
  }

  static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let shown = text.count > width ? String(text.prefix(width - 1)) + "…" : text
    let space = String(repeating: " ", count: max(0, width - shown.count))
    return right ? space + shown : shown + space
  }

  /// A sample on one line, at most 24 characters.
  static func shorten(_ text: String) -> String {
    let line = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
    return line.count > 24 ? String(line.prefix(23)) + "…" : line
  }
}
