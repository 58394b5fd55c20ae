/// The sort and range options `init` offers (docs/configuration.md "Sort and
/// ranges"): a column of years, dates, counts, sizes or lengths orders and
/// filters its records in ways a visitor reaches for — books by year,
/// packages by size, songs by length, airports by elevation. Read from each
/// column's kind and name (a column of dates by its kind alone); keys and
/// references are never offered.
extension CollectionContext {
  /// Words a column name ends with, and the format its values are read in.
  static let valueWords: [(words: Set<String>, format: SiteConfig.ValueFormat)] = [
    (["year", "released", "founded", "born"], .year),
    (["milliseconds", "ms", "millis"], .duration),
    (["date", "published", "updated", "created", "modified", "day"], .date),
    (
      [
        "size", "bytes", "count", "length", "pages", "elevation", "altitude", "height", "weight", "price",
        "rating", "score", "population", "pop", "seconds", "duration", "runtime", "minutes", "area", "votes",
        "depends", "dependents",
      ], .number
    ),
  ]

  /// Offers for a table's columns: at most three sorts (Title always, when
  /// there is one) and two ranges, each with the reason the config prints.
  func valueKeys(of shape: Schema.TableShape, title: String) -> [SitePlan.ValueKey] {
    var found: [SitePlan.ValueKey] = []
    for column in shape.profile.columns
    where column.name != shape.key && shape.ref(column.name) == nil && column.filled * 2 >= column.rows
      && column.distinct >= 3
    {
      let words = Naming.words(column.name)
      // A column of dates sorts by date whatever it is named (`release`,
      // `eol`, `timestamp`, `Zeitpunkt`).
      guard let last = words.last,
        let format = Self.valueWords.first(where: { $0.words.contains(last) })?.format
          ?? (column.kind == .date ? .date : nil)
      else { continue }
      let readable: Bool
      switch format {
      case .date: readable = column.kind == .date
      case .year: readable = column.kind == .integer || column.kind == .date
      default: readable = column.kind == .integer || column.kind == .number
      }
      guard readable else { continue }
      let chosen = format == .year && column.kind == .date ? SiteConfig.ValueFormat.year : format
      // A length in milliseconds is shown as m:ss: its label leaves the unit out (`length_ms`,
      // `milliseconds` → Length).
      let named =
        chosen != .duration
        ? column.name : words.count > 1 ? words.dropLast().joined(separator: "_") : "length"

      let id = Naming.id(named, fallback: "value\(found.count + 1)")
      guard !found.contains(where: { $0.id == id }), id != "title" else { continue }
      found.append(
        SitePlan.ValueKey(
          id: id, label: Naming.label(named), by: Naming.expression(column.name), format: chosen,
          descending: chosen == .year || chosen == .date,
          reason: "'\(column.name)' holds \(Self.what(chosen)) in \(column.filled) of \(column.rows) records")
      )
    }
    return Array(found.prefix(2))
  }

  private static func what(_ format: SiteConfig.ValueFormat) -> String {
    switch format {
    case .year: "years"
    case .date: "dates"
    case .duration: "lengths in milliseconds"
    default: "numbers"
    }
  }
}
