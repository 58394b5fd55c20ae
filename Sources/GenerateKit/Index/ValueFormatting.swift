import Foundation

/// A `sort:` or `range:` value read from the data in its format's unit, and a
/// bound written as a token shows it (`3:00`, `1975`, `1975-06-30`). The
/// browser reads and writes the same text (`engine/ranges.js`).
enum ValueFormatting {
  enum Reading: Equatable {
    case missing
    case number(Double)
    case text(String)
    case unreadable
  }

  /// The value in the format's unit: seconds for a duration (milliseconds in
  /// the data, rounded as `duration()` rounds), days since 1970-01-01 for a
  /// date, the year for a year (a date's first four digits count).
  static func read(_ value: Value, as format: SiteConfig.ValueFormat) -> Reading {
    let text = value.text.trimmingCharacters(in: .whitespaces)
    if text.isEmpty { return .missing }
    switch format {
    case .text: return value.number.map(Reading.number) ?? .text(TextNormalizer.normalize(text))
    case .number: return value.number.map(Reading.number) ?? .unreadable
    case .duration: return value.number.map { .number(($0 / 1000).rounded()) } ?? .unreadable
    case .year:
      if let number = value.number, number.rounded() == number { return .number(number) }
      let head = text.prefix(5)
      guard head.count == 5, head.last == "-", let year = Int(head.prefix(4)) else { return .unreadable }
      return .number(Double(year))
    case .date: return days(text).map(Reading.number) ?? .unreadable
    }
  }

  /// Days since 1970-01-01 of a text beginning `YYYY-MM-DD`.
  static func days(_ text: String) -> Double? {
    let parts = text.prefix(10).split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return Double(era * 146_097 + dayOfEra - 719_468)
  }

  /// A value as a bound on a token shows it.
  static func text(_ value: Double, as format: SiteConfig.ValueFormat) -> String {
    switch format {
    case .duration:
      let total = Int(value)
      let (hours, minutes, seconds) = (total / 3600, total % 3600 / 60, total % 60)
      let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
      if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)" }
      return "\(minutes):\(ss)"
    case .date:
      // Hinnant's civil_from_days.
      let z = Int(value) + 719_468
      let era = (z >= 0 ? z : z - 146_096) / 146_097
      let dayOfEra = z - era * 146_097
      let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
      let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
      let mp = (5 * dayOfYear + 2) / 153
      let day = dayOfYear - (153 * mp + 2) / 5 + 1
      let month = mp < 10 ? mp + 3 : mp - 9
      let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
      func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
      return "\(year)-\(two(month))-\(two(day))"
    default: return Value.format(value)
    }
  }

  /// A bound near `value` that reads well: whole minutes, a decade, the
  /// first of a year, two significant digits.
  static func round(_ value: Double, spread: Double, as format: SiteConfig.ValueFormat) -> Double {
    switch format {
    case .duration: return spread >= 120 ? (value / 60).rounded() * 60 : (value / 10).rounded() * 10
    case .year: return spread >= 30 ? (value / 10).rounded() * 10 : value.rounded()
    case .date:
      let year = Int(text(value, as: .date).prefix(4)) ?? 1970
      return days(String(format: "%04d-01-01", year)) ?? value
    default:
      guard value != 0 else { return 0 }
      // Two significant digits; a fraction is scaled up, not divided, so 0.99 stays 0.99.
      let digits = (log10(abs(value))).rounded(.down) - 1
      if digits >= 0 { return (value / pow(10, digits)).rounded() * pow(10, digits) }
      return (value * pow(10, -digits)).rounded() / pow(10, -digits)
    }
  }
}
