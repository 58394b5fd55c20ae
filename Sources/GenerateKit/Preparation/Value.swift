import Foundation

/// What a field expression yields for one record.
enum Value {
  case null
  case text(String)
  case number(Double)
  /// A number written in a column's own format (`31.889.923`, `43,8`:
  /// `Table.numerals`): the text as written, and the number it is.
  case numeral(String, Double)
  case list([Value])
  case record(Table, Int)

  var items: [Value] {
    switch self {
    case .null: return []
    case .list(let values): return values
    default: return [self]
    }
  }

  var number: Double? {
    switch self {
    case .number(let value): return value
    case .numeral(_, let value): return value
    // "nan" and "inf" are text, not numbers.
    case .text(let text): return Double(text).flatMap { $0.isFinite ? $0 : nil }
    case .list(let values) where values.count == 1: return values[0].number
    default: return nil
    }
  }

  /// Text that is not a number (`'Ann'`, not `'12'` or empty): what `+`
  /// joins instead of adding.
  var isWords: Bool {
    switch self {
    case .text(let text): return !text.isEmpty && number == nil
    case .list(let values) where values.count == 1: return values[0].isWords
    case .record: return true
    default: return false
    }
  }

  /// Text for display and indexing; lists join with ", ".
  var text: String {
    switch self {
    case .null: return ""
    case .text(let text): return text
    case .number(let value): return Value.format(value)
    case .numeral(let text, _): return text
    case .list(let values): return values.map(\.text).filter { !$0.isEmpty }.joined(separator: ", ")
    case .record(let table, let row): return table.key(ofRow: row)
    }
  }

  /// Whole numbers print without a fraction; others as Swift's shortest form.
  static func format(_ value: Double) -> String {
    if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }

  /// A hashable identity for `distinct`, `mode` and `top`.
  var identity: String {
    switch self {
    case .record(let table, let row): return "\u{1}\(table.name)\u{1}\(row)"
    default: return text
    }
  }
}
