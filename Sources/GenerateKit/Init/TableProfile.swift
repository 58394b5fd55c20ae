/// What one column of a loaded table holds: the kind of its values, how
/// many are distinct or empty, how long they are, and a few samples. Every
/// choice `init` makes (a key, a reference, a title, a facet) is read off
/// these numbers, and `inspect` prints them.
public struct ColumnProfile: Sendable, Equatable {
  /// The narrowest kind every non-empty value fits.
  public enum Kind: String, Sendable {
    case integer, number, bool, date, text
    /// Every value is empty.
    case empty
    /// Several values per record (`TableProfile+Lists.swift`).
    case list
  }

  public var name: String
  public var kind: Kind
  /// Rows in the table.
  public var rows: Int
  public var empty: Int
  /// Distinct non-empty values.
  public var distinct: Int
  /// In characters, over the non-empty values.
  public var maxLength: Int
  public var averageLength: Double
  /// Words per value on average (spaces + 1), over the non-empty values.
  public var averageWords: Double
  /// The first few distinct non-empty values, in table order.
  public var samples: [String]
  /// Some value holds a letter: codes (`00A0`, a code point's hex, whose
  /// first values are all digits), not numbers that happen to be text.
  public var hasLetters = false
  /// For a list: the kind its items share, and how many there are.
  public var itemKind: Kind?
  public var items = 0
  /// The largest value of a numeric column (nil for any other): a
  /// `stars` of 5 at most grades a record, one of 52,000 counts people.
  public var maximum: Double?

  public var filled: Int { rows - empty }
  /// Every row has a value and no two rows share one.
  public var isUnique: Bool { rows > 0 && empty == 0 && distinct == rows && kind != .list }
  /// Distinct values per filled row (1: all different).
  public var uniqueness: Double { filled == 0 ? 0 : Double(distinct) / Double(filled) }

  /// Profiles one column's values; `numeral`, the format its numbers
  /// are written in (`31.889.923`: `Table.numerals`), makes them numbers.
  init(name: String, values: some Collection<String>, sampleCount: Int = 3, numeral: NumeralFormat? = nil) {
    self.name = name
    rows = values.count
    var seen = Set<String>()
    var empty = 0
    var characters = 0
    var maxLength = 0
    var words = 0
    var samples: [String] = []
    var hasLetters = false
    var kinds = KindCheck()
    kinds.numeral = numeral
    for value in values {
      if value.isEmpty {
        empty += 1
        continue
      }
      let length = value.count
      characters += length
      maxLength = max(maxLength, length)
      words += 1 + value.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: " ") ? 1 : 0) }
      if seen.insert(value).inserted {
        kinds.add(value)
        if samples.count < sampleCount { samples.append(value) }
        if !hasLetters { hasLetters = Self.hasLetter(value) }
      }
    }
    self.empty = empty
    distinct = seen.count
    self.maxLength = maxLength
    let filled = values.count - empty
    averageLength = filled == 0 ? 0 : Double(characters) / Double(filled)
    averageWords = filled == 0 ? 0 : Double(words) / Double(filled)
    self.samples = samples
    self.hasLetters = hasLetters
    kind = filled == 0 ? .empty : kinds.kind
    maximum = kind == .integer || kind == .number ? kinds.maximum : nil
  }

  /// A letter in the text (a symbol such as 🅰 is none); ASCII by bytes,
  /// so a million numbers cost little.
  static func hasLetter(_ value: String) -> Bool {
    var ascii = true
    for byte in value.utf8 {
      if byte >= 0x80 {
        ascii = false
      } else if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") {
        return true
      }
    }
    return !ascii && value.contains { $0.isLetter }
  }

  /// Narrows the kind with each distinct value.
  struct KindCheck {
    var integer = true
    var number = true
    var bool = true
    var date = true
    var maximum: Double?
    /// The format the column writes its numbers in, if its own.
    var numeral: NumeralFormat?

    var kind: Kind {
      if bool { return .bool }
      if integer { return .integer }
      if number { return .number }
      if date { return .date }
      return .text
    }

    mutating func add(_ value: String) {
      if let numeral {
        let read = numeral.read(value)
        integer = integer && read.map { $0.rounded() == $0 } ?? false
        number = number && read != nil
        bool = false
        date = false
        if let read { maximum = max(maximum ?? read, read) }
        return
      }
      let bytes = Array(value.utf8)
      if integer { integer = Self.isInteger(bytes) }
      if number && !integer { number = Self.isNumber(value, bytes) }
      if bool { bool = ["true", "false", "yes", "no"].contains(value.lowercased()) }
      if date { date = Self.isDate(bytes) }
      if integer || number, let value = Double(value) { maximum = max(maximum ?? value, value) }
    }

    /// `-12`, `3503`; not `007` (a code whose zeros matter) nor `+1`.
    static func isInteger(_ bytes: [UInt8]) -> Bool {
      var digits = bytes[...]
      if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
      guard let first = digits.first, digits.count <= 18 else { return false }
      if first == UInt8(ascii: "0") && digits.count > 1 { return false }
      return digits.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// `0.99`, `1e+20`, `-3.5`: digits, a point and an exponent only, so
    /// that `inf` and `nan` stay text.
    static func isNumber(_ value: String, _ bytes: [UInt8]) -> Bool {
      let digits = bytes.drop { $0 == UInt8(ascii: "-") }
      if digits.count > 1, digits.first == UInt8(ascii: "0"),
        (0x30...0x39).contains(digits[digits.startIndex + 1])
      {
        return false
      }
      guard bytes.contains(where: { (0x30...0x39).contains($0) }),
        bytes.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }),
        let number = Double(value)
      else { return false }
      return number.isFinite
    }

    /// `2007-01-01`, optionally followed by a time (`T12:00:00Z`, ` 12:00`).
    static func isDate(_ bytes: [UInt8]) -> Bool {
      guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
        return false
      }
      for index in [0, 1, 2, 3, 5, 6, 8, 9] where !(0x30...0x39).contains(bytes[index]) { return false }
      return bytes.count == 10 || bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ")
    }
  }
}

/// A loaded table and the profile of each of its columns.
public struct TableProfile: Sendable {
  public var name: String
  public var rows: Int
  public var columns: [ColumnProfile]

  public init(_ table: Table) {
    name = table.name
    rows = table.count
    columns = table.header.indices.map { column in
      table.isList(column)
        ? ColumnProfile(name: table.header[column], lists: table.columns[column])
        : ColumnProfile(
          name: table.header[column], values: table.columns[column], numeral: table.numerals[column])
    }
  }

  public func column(named name: String) -> ColumnProfile? { columns.first { $0.name == name } }

  /// What exports write for "no value" where a number would be: R's `NA`,
  /// spreadsheets' `#N/A`, pandas' `NaN`, a JSON-minded `null`, a dash.
  static let missingWords: Set<String> = [
    "NA", "N/A", "n/a", "#N/A", "NaN", "nan", "null", "NULL", "None", "-", "--", "—", "?",
  ]

  /// The markers of missing values in `table`: each stands in a column
  /// whose other values are all numbers (`budget`: 1,500,000, NA, 950,000),
  /// and in no column where it is text among text (`NA`, Namibia's code, in
  /// a column of country codes), since `missing:` applies to the whole
  /// table. A column of markers alone says nothing.
  /// Whether half the distinct values of `column` (a sample of 1,000)
  /// are shaped as `marker` is: as many characters, each an uppercase
  /// letter where the marker's is (`NA` like `DE`), or the same otherwise.
  static func isLike(_ marker: String, _ column: some Collection<String>) -> Bool {
    func shape(_ text: String) -> String {
      String(text.map { $0.isUppercase ? "A" : $0.isLowercase ? "a" : $0.isNumber ? "9" : $0 })
    }
    let wanted = shape(marker)
    var seen = Set<String>()
    var like = 0
    for value in column where !value.isEmpty && value != marker && seen.insert(value).inserted {
      if shape(value) == wanted { like += 1 }
      if seen.count >= 1_000 { break }
    }
    return like * 2 >= seen.count
  }

  static func missingMarkers(in table: Table) -> [String] {
    var found = Set<String>()
    var textual = Set<String>()
    for column in table.header.indices where !table.isList(column) && column != table.keyColumn {
      var markers = Set<String>()
      var numbers = 0
      var other = false
      var seen = Set<String>()
      for value in table.columns[column] where !value.isEmpty && seen.insert(value).inserted {
        if missingWords.contains(value) {
          markers.insert(value)
        } else if ColumnProfile.KindCheck.isInteger(Array(value.utf8))
          || ColumnProfile.KindCheck.isNumber(value, Array(value.utf8))
          || NumeralFormat.candidates.contains(where: { $0.read(value) != nil })
        {
          numbers += 1
        } else {
          other = true
        }
        if other && numbers > 0 { break }
      }
      if markers.isEmpty { continue }
      if !other && numbers > 0 {
        found.formUnion(markers)
      } else if other {
        // Among text, a marker shaped like the column's own values is one
        // of them (`NA` among `DE`, `FR`: Namibia); one unlike them stands
        // for no value (`NA` among `lc`, `nt`, `domesticated`, R's msleep).
        textual.formUnion(markers.filter { isLike($0, table.columns[column]) })
      }
    }
    return found.subtracting(textual).sorted()
  }
}
