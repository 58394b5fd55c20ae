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
    case .number(let value): return Value.written(value)
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

  /// A number an expression computed, as a person writes it: at most 15
  /// significant digits (what a `Double` holds for sure), so `0.1 + 0.2`
  /// is `0.3`, never `0.30000000000000004`, and never an exponent (`1e-05`
  /// is `0.00001`). A number read from the data keeps its own text
  /// (`format`, `.numeral`).
  static func written(_ value: Double) -> String {
    if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
    guard value.isFinite else { return String(value) }
    let text = String(format: "%.15g", value)
    guard let marker = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: marker)...]) else {
      return text
    }
    let mantissa = text[..<marker]
    let digits = mantissa.filter(\.isNumber)
    // The mantissa has one digit before its point.
    let point = 1 + exponent
    let plain: String
    if point <= 0 {
      plain = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
      plain = digits + String(repeating: "0", count: point - digits.count)
    } else {
      plain = digits.prefix(point) + "." + digits.dropFirst(point)
    }
    return mantissa.hasPrefix("-") ? "-" + plain : plain
  }

  /// A hashable identity for `distinct`, `mode` and `top`.
  var identity: String {
    switch self {
    case .record(let table, let row): return "\u{1}\(table.name)\u{1}\(row)"
    default: return text
    }
  }
}
