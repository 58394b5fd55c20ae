/// How a column writes its numbers where `Double` cannot read them: with
/// a point, a comma, a space (U+0020, U+00A0, U+202F, U+2009) or an
/// apostrophe between groups of thousands (`31.889.923`, `1,234,567`,
/// `12 345`, `1'234`), or a decimal comma (`43,8`), and with a currency
/// or percent sign (`$974.58`, `12.5%`, `9,99 €`). The text stays as it
/// was written (`{{field}}` prints it); what needs a number (popularity,
/// `sort:`, `range:`, arithmetic, `plusone`) reads it through the format.
public struct NumeralFormat: Hashable, Sendable {
  /// A character between the digits of a number.
  public enum Mark: Sendable, Hashable {
    case point, comma, space, apostrophe
  }

  /// `.point` or `.comma`.
  public let decimal: Mark
  /// Between groups of three digits (`nil`: none).
  public let grouping: Mark?

  /// The ways a number is written, the decimal point first: `1,234.5`,
  /// `1.234,5`, `1 234,5`, `1 234.5`, `1'234.5`.
  static let candidates: [NumeralFormat] = [
    NumeralFormat(decimal: .point, grouping: .comma), NumeralFormat(decimal: .comma, grouping: .point),
    NumeralFormat(decimal: .comma, grouping: .space), NumeralFormat(decimal: .point, grouping: .space),
    NumeralFormat(decimal: .point, grouping: .apostrophe),
  ]

  /// The value of `text` written this way, nil when it is not a number
  /// written this way.
  public func read(_ text: String) -> Double? {
    var plain: [UInt8] = []
    var copy = text
    let valid = copy.withUTF8 { bytes in Self.scan(bytes, self, into: &plain) }
    guard valid, let value = Double(String(decoding: plain, as: UTF8.self)), value.isFinite else {
      return nil
    }
    return value
  }

  /// What one character of a number is.
  private enum Token {
    case digit(UInt8)
    case mark(Mark)
    case minus
    case other
  }

  /// The token at `at` and its length in bytes.
  private static func token(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> (Token, Int) {
    let byte = bytes[at]
    switch byte {
    case 0x30...0x39: return (.digit(byte), 1)
    case UInt8(ascii: "."): return (.mark(.point), 1)
    case UInt8(ascii: ","): return (.mark(.comma), 1)
    case UInt8(ascii: " "): return (.mark(.space), 1)
    case UInt8(ascii: "'"): return (.mark(.apostrophe), 1)
    case UInt8(ascii: "-"): return (.minus, 1)
    case 0xC2 where at + 1 < bytes.count && bytes[at + 1] == 0xA0: return (.mark(.space), 2)
    case 0xE2 where at + 2 < bytes.count && bytes[at + 1] == 0x80:
      // U+202F and U+2009 (spaces), U+2019 (an apostrophe).
      switch bytes[at + 2] {
      case 0xAF, 0x89: return (.mark(.space), 3)
      case 0x99: return (.mark(.apostrophe), 3)
      default: return (.other, 1)
      }
    case 0xE2 where at + 2 < bytes.count && bytes[at + 1] == 0x88 && bytes[at + 2] == 0x92:
      return (.minus, 3)  // U+2212
    default: return (.other, 1)
    }
  }

  /// Whether `bytes` is a number written in `format`, its plain form
  /// appended to `plain`, with a currency sign before it (`$974.58`) or a
  /// percent or currency sign after it (`12.5%`, `12,5 %`, `9,99 €`) as
  /// web APIs and spreadsheets write amounts and shares.
  private static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, _ format: NumeralFormat, into plain: inout [UInt8]
  ) -> Bool {
    let (lower, upper) = withoutSign(bytes)
    guard lower > 0 || upper < bytes.count else { return number(bytes, format, into: &plain) }
    guard lower < upper else { return false }
    return number(UnsafeBufferPointer(rebasing: bytes[lower..<upper]), format, into: &plain)
  }

  /// The length of a currency sign (`$`, `£`, `¥`, `€`) or `%` at `at`.
  private static func sign(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int? {
    guard at >= 0, at < bytes.count else { return nil }
    switch bytes[at] {
    case UInt8(ascii: "$"), UInt8(ascii: "%"): return 1
    case 0xC2 where at + 1 < bytes.count && (bytes[at + 1] == 0xA3 || bytes[at + 1] == 0xA5): return 2
    case 0xE2 where at + 2 < bytes.count && bytes[at + 1] == 0x82 && bytes[at + 2] == 0xAC: return 3
    default: return nil
    }
  }

  /// The bounds of the number in `bytes` without its sign: a currency
  /// sign first, or a sign last with a space (U+0020, U+00A0, U+202F)
  /// before it or none.
  private static func withoutSign(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
    let count = bytes.count
    if let length = sign(bytes, 0), bytes[0] != UInt8(ascii: "%") { return (length, count) }
    for length in 1...3 where sign(bytes, count - length) == length {
      var end = count - length
      if end >= 1 && bytes[end - 1] == UInt8(ascii: " ") {
        end -= 1
      } else if end >= 2 && bytes[end - 2] == 0xC2 && bytes[end - 1] == 0xA0 {
        end -= 2
      } else if end >= 3 && bytes[end - 3] == 0xE2 && bytes[end - 2] == 0x80 && bytes[end - 1] == 0xAF {
        end -= 3
      }
      return (0, end)
    }
    return (0, count)
  }

  /// Whether `bytes` is a bare number written in `format`, its plain form
  /// (`-1234.5`) appended to `plain`: an optional minus, digits in groups
  /// of three after the first (of one to three, not starting with 0; in
  /// India two after the first, then three: `12,34,567`), an optional
  /// decimal mark and digits.
  private static func number(
    _ bytes: UnsafeBufferPointer<UInt8>, _ format: NumeralFormat, into plain: inout [UInt8]
  ) -> Bool {
    var at = 0
    var groups: [Int] = []
    var current = 0
    var fraction = -1
    var leadingZero = false
    while at < bytes.count {
      let (token, length) = token(bytes, at)
      switch token {
      case .digit(let digit):
        if fraction >= 0 {
          fraction += 1
        } else {
          if groups.isEmpty && current == 0 { leadingZero = digit == UInt8(ascii: "0") }
          current += 1
        }
        plain.append(digit)
      case .minus:
        guard at == 0 else { return false }
        plain.append(UInt8(ascii: "-"))
      case .mark(let mark):
        guard fraction < 0, current > 0 else { return false }
        groups.append(current)
        current = 0
        if mark == format.decimal {
          fraction = 0
          plain.append(UInt8(ascii: "."))
        } else if mark != format.grouping {
          return false
        }
      case .other: return false
      }
      at += length
    }
    if fraction < 0 {
      guard current > 0 else { return false }
      groups.append(current)
    } else if fraction == 0 {
      return false
    }
    guard groups.count > 1 else { return true }
    guard (1...3).contains(groups[0]), !leadingZero, groups[groups.count - 1] == 3 else { return false }
    let middle = groups.dropFirst().dropLast()
    return middle.allSatisfy { $0 == 3 } || (format.grouping == .comma && middle.allSatisfy { $0 == 2 })
  }

  /// What a column's values say of how its numbers are written.
  struct Evidence {
    /// The candidates (by index) every value fits.
    var fits: UInt8 = (1 << UInt8(NumeralFormat.candidates.count)) - 1
    /// Some value `Double` cannot read as it is (`1,234`, `3,5`, `12 345`).
    var unreadable = false
    /// Some value holds a point or a comma: the candidates may differ.
    var marked = false
    /// Some value that is not empty.
    var filled = false

    static let pointFamily: UInt8 = 0b11001
    static let commaFamily: UInt8 = 0b00110

    /// The decimal mark the values alone decide, nil when both fit.
    var decimal: Mark? {
      if fits & Self.commaFamily == 0 { return .point }
      if fits & Self.pointFamily == 0 { return .comma }
      return nil
    }

    /// The format read with decimal mark `decimal`, nil when `Double`
    /// reads the values as they are (or they are no numbers).
    func format(decimal: Mark) -> NumeralFormat? {
      guard fits != 0, filled else { return nil }
      let family = decimal == .point ? Self.pointFamily : Self.commaFamily
      let chosen = fits & family != 0 ? fits & family : fits
      guard let index = (0..<NumeralFormat.candidates.count).first(where: { chosen & (1 << UInt8($0)) != 0 })
      else { return nil }
      let format = NumeralFormat.candidates[index]
      if format.decimal == .point && !unreadable { return nil }
      if !marked && !unreadable { return nil }
      return format
    }
  }

  /// Reads every value of a column (stopping at the first that is no
  /// number in any format).
  static func evidence(_ column: Column) -> Evidence {
    var evidence = Evidence()
    var scratch: [UInt8] = []
    for slot in 0..<column.values.count {
      let stop = column.values.withBytes(slot) { bytes -> Bool in
        guard !bytes.isEmpty else { return false }
        evidence.filled = true
        // Digits alone (with a minus) fit every format.
        var plainDigits = true
        var points = 0
        for (at, byte) in bytes.enumerated() {
          if byte == UInt8(ascii: ".") {
            points += 1
          } else if !(0x30...0x39).contains(byte) && !(byte == UInt8(ascii: "-") && at == 0) {
            plainDigits = false
          }
          if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") { evidence.marked = true }
        }
        if plainDigits && points == 0 { return false }
        if !(plainDigits && points == 1) { evidence.unreadable = true }
        for (index, format) in candidates.enumerated() where evidence.fits & (1 << UInt8(index)) != 0 {
          scratch.removeAll(keepingCapacity: true)
          if !scan(bytes, format, into: &scratch) { evidence.fits &= ~(1 << UInt8(index)) }
        }
        return evidence.fits == 0
      }
      if stop { break }
    }
    return evidence
  }
}

extension Table {
  /// Finds the columns of text whose numbers are written with a grouping
  /// or a decimal comma (`NumeralFormat`). A column is one format, decided
  /// by all its values: `1.234.567` or `1.5` decide it, while a column
  /// whose every value fits both readings (`1.234`, `12.500`) reads as the
  /// table's other such columns do (a file is written in one locale), else
  /// as `decimal` says (`decimal:` in the config), else with a decimal
  /// point.
  func detectNumerals(decimal: NumeralFormat.Mark? = nil) {
    var evidence: [Int: NumeralFormat.Evidence] = [:]
    for column in columns.indices
    where !numberColumns.contains(column) && !booleanColumns.contains(column) && !lists.contains(column) {
      let found = NumeralFormat.evidence(columns[column])
      if found.fits != 0 && found.filled && (found.marked || found.unreadable) { evidence[column] = found }
    }
    guard !evidence.isEmpty else { return }
    var votes: [NumeralFormat.Mark: Int] = [:]
    for found in evidence.values where found.marked {
      if let mark = found.decimal { votes[mark, default: 0] += 1 }
    }
    let table: NumeralFormat.Mark =
      decimal ?? ((votes[.comma] ?? 0) > (votes[.point] ?? 0) ? .comma : .point)
    for (column, found) in evidence {
      let mark = decimal.flatMap { found.fits & family($0) != 0 ? $0 : nil } ?? found.decimal ?? table
      if let format = found.format(decimal: mark) { numerals[column] = format }
    }
  }

  private func family(_ mark: NumeralFormat.Mark) -> UInt8 {
    mark == .comma ? NumeralFormat.Evidence.commaFamily : NumeralFormat.Evidence.pointFamily
  }

  /// The number a value of `column` is, where the column writes its
  /// numbers in a format of its own (`numerals`); nil elsewhere.
  func numeral(_ text: String, column: Int) -> Double? {
    guard let format = numerals[column], !text.isEmpty else { return nil }
    return format.read(text)
  }
}
