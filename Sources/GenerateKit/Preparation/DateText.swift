import Foundation

/// `date(x)`, `date(x, 'style')` and `date(x, 'style', 'language')`: an
/// ISO date (`2024-03-05`), month (`2024-03`) or timestamp
/// (`2024-03-05T14:30:00Z`, `2024-03-05 14:30`) written as the site's
/// language writes dates, with its month and day names — what Hugo's
/// `time.Format ":date_long"` and Jekyll's `date_to_long_string` give a
/// template. The style is `long` (the default: "March 5, 2024", "5. März
/// 2024"), `full` (with the weekday), `medium` ("Mar 5, 2024"), `short`
/// ("3/5/24"), `rfc822` (an RSS feed's `pubDate`, always in English:
/// "Tue, 05 Mar 2024 14:30:00 +0000") or a pattern of ICU's date letters
/// (`'MMMM y'`, `'d MMM'`, `'EEEE'`, `'HH:mm'`), which the language orders
/// and punctuates itself ("März 2024"). A timestamp shows the time its
/// text gives, as written: its offset is not applied (but `rfc822`
/// writes it). Formatters are shared by every thread, under a lock.
final class DateText: @unchecked Sendable {
  /// A date as the data writes it, its fields checked.
  struct Parsed: Equatable {
    var year: Int
    var month: Int
    var day: Int?
    var hour: Int?
    var minute = 0
    var second = 0
    /// `+0100` as RFC 822 writes it; `+0000` for `Z` or none.
    var offset = "+0000"
  }

  /// The styles by name: `DateFormatter`'s own.
  static func dateStyle(_ name: String) -> DateFormatter.Style? {
    switch name {
    case "short": return .short
    case "medium": return .medium
    case "long": return .long
    case "full": return .full
    default: return nil
    }
  }

  /// ICU's pattern letters a style's pattern may use (besides spaces and
  /// `, . / - :`, which the language replaces with its own).
  static let patternLetters = Set("GyYuUQqMLwWdDFgEecabBhHkKjJmsSAzZOvVxX")

  let language: String
  private let lock = NSLock()
  private var formatters: [String: DateFormatter] = [:]

  init(language: String) {
    self.language = language
  }

  /// Why `style` is not one `date()` takes, if it is not.
  static func problem(style: String) -> String? {
    if dateStyle(style) != nil || style == "rfc822" { return nil }
    let letters = style.filter { !" ,./-:".contains($0) }
    if !letters.isEmpty, letters.allSatisfy(patternLetters.contains) { return nil }
    return
      "date()'s second argument is 'long', 'full', 'medium', 'short', 'rfc822' or a pattern of date letters such as 'MMMM y' or 'd MMM', not '\(style)'"
  }

  /// Why `language` is not one `date()` can take, if it is not.
  static func problem(language: String) -> String? {
    let valid =
      !language.isEmpty && language.count <= 35
      && language.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    return valid
      ? nil
      : "date()'s third argument is a language code such as 'de' or 'pt-BR', not '\(language)'"
  }

  /// The value's dates written in `style` (item by item for a list), or
  /// why one of them is not a date.
  func format(_ value: Value, style: String, language: String?) -> Result<Value, Arithmetic.Fault> {
    switch value {
    case .null: return .success(.null)
    case .list(let values):
      var written: [Value] = []
      for item in values {
        switch format(item, style: style, language: language) {
        case .success(let text): written.append(text)
        case .failure(let fault): return .failure(fault)
        }
      }
      return .success(.list(written))
    default:
      let text = value.text.trimmingCharacters(in: .whitespaces)
      if text.isEmpty { return .success(.null) }
      guard let parsed = Self.parse(text) else {
        return .failure(
          Arithmetic.Fault(
            message:
              "date() needs an ISO date such as 2024-03-05, a month such as 2024-03 or a timestamp such as 2024-03-05T14:30:00Z, not '\(text)'"
          ))
      }
      return .success(.text(write(parsed, style: style, language: language ?? self.language)))
    }
  }

  /// `YYYY-MM`, `YYYY-MM-DD`, then `T` or a space and `HH:MM`, `:SS`, a
  /// fraction of a second, and `Z` or an offset (`+01:00`, `+0100`).
  static func parse(_ text: String) -> Parsed? {
    let bytes = Array(text.utf8)
    var at = 0
    func number(_ count: Int) -> Int? {
      guard at + count <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[at..<at + count] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      at += count
      return value
    }
    func skip(_ byte: UInt8) -> Bool {
      guard at < bytes.count, bytes[at] == byte else { return false }
      at += 1
      return true
    }
    guard let year = number(4), skip(UInt8(ascii: "-")), let month = number(2), (1...12).contains(month)
    else { return nil }
    var parsed = Parsed(year: year, month: month)
    if at == bytes.count { return parsed }
    guard skip(UInt8(ascii: "-")), let day = number(2), day >= 1, day <= daysIn(month, of: year) else {
      return nil
    }
    parsed.day = day
    if at == bytes.count { return parsed }
    guard skip(UInt8(ascii: "T")) || skip(UInt8(ascii: " ")), let hour = number(2), hour < 24,
      skip(UInt8(ascii: ":")), let minute = number(2), minute < 60
    else { return nil }
    (parsed.hour, parsed.minute) = (hour, minute)
    if skip(UInt8(ascii: ":")) {
      guard let second = number(2), second <= 60 else { return nil }
      parsed.second = min(second, 59)
      if skip(UInt8(ascii: ".")) {
        let start = at
        while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 { at += 1 }
        guard at > start else { return nil }
      }
    }
    if skip(UInt8(ascii: "Z")) { return at == bytes.count ? parsed : nil }
    guard at < bytes.count else { return parsed }
    let sign = bytes[at]
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
    at += 1
    guard let hours = number(2), hours < 24 else { return nil }
    _ = skip(UInt8(ascii: ":"))
    guard let minutes = number(2), minutes < 60, at == bytes.count else { return nil }
    let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
    parsed.offset = "\(Character(Unicode.Scalar(sign)))\(two(hours))\(two(minutes))"
    return parsed
  }

  static func daysIn(_ month: Int, of year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  private static let gmt = TimeZone(identifier: "GMT") ?? TimeZone(secondsFromGMT: 0) ?? .current

  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = gmt
    return calendar
  }()

  private func write(_ parsed: Parsed, style: String, language: String) -> String {
    let components = DateComponents(
      year: parsed.year, month: parsed.month, day: parsed.day ?? 1, hour: parsed.hour ?? 0,
      minute: parsed.minute, second: parsed.second)
    guard let date = Self.calendar.date(from: components) else { return "" }
    lock.lock()
    defer { lock.unlock() }
    let monthOnly = parsed.day == nil
    let key = "\(language)\u{1}\(style)\u{1}\(monthOnly)"
    let formatter: DateFormatter
    if let made = formatters[key] {
      formatter = made
    } else {
      formatter = Self.formatter(style: style, language: language, monthOnly: monthOnly)
      formatters[key] = formatter
    }
    let text = formatter.string(from: date)
    return style == "rfc822" ? text + " " + parsed.offset : text
  }

  private static func formatter(style: String, language: String, monthOnly: Bool) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.calendar = calendar
    formatter.timeZone = gmt
    if style == "rfc822" {
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss"
      return formatter
    }
    formatter.locale = Locale(identifier: language)
    if let width = Self.dateStyle(style) {
      if monthOnly {
        // A month has no day to write: the month and year in the same width.
        let pattern = width == .short ? "yMM" : width == .medium ? "yMMM" : "yMMMM"
        formatter.setLocalizedDateFormatFromTemplate(pattern)
      } else {
        formatter.dateStyle = width
        formatter.timeStyle = .none
      }
      return formatter
    }
    formatter.setLocalizedDateFormatFromTemplate(style.filter { !" ,./-:".contains($0) })
    return formatter
  }
}
