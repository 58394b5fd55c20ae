import Foundation

/// The order and the letter index of A–Z lists in the site's language, and
/// its way of writing counts. Foundation on Linux collates through ICU
/// (swift-corelibs-foundation's `compare(_:options:range:locale:)` opens an
/// ICU collator for the locale), so `ñ` sorts after `n` in Spanish, `ä` with
/// `a` in German and after `z` in Swedish, and kana before kanji in Japanese;
/// counts are grouped by `NumberFormatter` with the same locale (`3,503` in
/// English, `3.503` in German, `3 503` in Russian).
struct Collation: Sendable {
  let locale: Locale
  /// The primary language subtag (`ja` for `ja-JP`).
  let language: String

  init(language: String) {
    locale = Locale(identifier: language)
    self.language = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
  }

  /// The order of two sort keys (`BrowsePages.sortKey`: words split by
  /// single spaces) in ICU's order for the locale, word by word: "nothing
  /// before something", as library catalogues file (`Ain't My Bitch` before
  /// `Ainda É Cedo`, `1/2 Full` before `100% HardCore`). Foundation's ICU
  /// collator ignores spaces and punctuation (alternate shifted), so each
  /// space is given as `¤`: a currency sign is not ignored and sorts before
  /// every digit and letter. Base letters still decide over the whole key
  /// before accents do (`À Francesa` before `A Kind Of Magic`).
  func compare(_ left: String, _ right: String) -> ComparisonResult {
    Self.spaced(left).compare(Self.spaced(right), locale: locale)
  }

  /// A count as the language writes numbers.
  func number(_ value: Int) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.locale = locale
    return formatter.string(from: NSNumber(value: value)) ?? String(value)
  }

  /// `3,503 records`: a count as the language writes numbers, and the noun
  /// (English plurals; the words themselves are the theme's).
  func count(_ count: Int, _ noun: String = "record") -> String {
    "\(number(count)) \(noun)\(count == 1 ? "" : "s")"
  }

  /// The index letter a sort key is listed under: `#` for a digit (or no
  /// letter at all); the
  /// language's letter for a letter — its base letter when the language
  /// sorts the two alike (`Ä` is `A` in German, `Ё` is `Е` in Russian, `أ` is
  /// `ا`), the letter itself when it is one of the alphabet's own (`Ñ` in
  /// Spanish, `Ä` in Swedish); in Japanese the kana row (`あ か さ た な は ま
  /// や ら わ`, katakana with hiragana) and `漢` for a kanji, which the data
  /// gives no reading for; `…` for Han and other scripts with no alphabet.
  func letter(_ key: String) -> String {
    // A title of punctuation alone (`"?"`) has an empty key: it goes first, with the digits.
    guard let first = key.first, let scalar = first.unicodeScalars.first else { return "#" }
    if Self.isHan(scalar) { return language == "ja" ? "漢" : "…" }
    if scalar.properties.numericType != nil { return "#" }
    if language == "ja", let row = Self.kanaRow(scalar) { return row }
    guard scalar.properties.isAlphabetic, !Self.isKana(scalar), !Self.isHangul(scalar) else { return "…" }
    let grapheme = String(first)
    let base = String(
      String.UnicodeScalarView(
        grapheme.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
          $0.properties.generalCategory != .nonspacingMark
        }))
    // A letter of its own sorts after every word of its base letter; U+FFFF has the highest
    // primary weight in ICU's root collation, kept for such bounds.
    let own = grapheme != base && grapheme.compare(base + "\u{FFFF}", locale: locale) == .orderedDescending
    return (own ? grapheme : base).uppercased(with: locale)
  }

  /// `#` first, `…` last, the letters between in the language's order.
  func letterBefore(_ left: String, _ right: String) -> Bool {
    func rank(_ letter: String) -> Int { letter == "#" ? 0 : letter == "…" ? 2 : 1 }
    if rank(left) != rank(right) { return rank(left) < rank(right) }
    return compare(left, right) == .orderedAscending
  }

  private static func isHan(_ s: Unicode.Scalar) -> Bool {
    (0x4E00...0x9FFF).contains(s.value) || (0x3400...0x4DBF).contains(s.value)
      || (0x20000...0x2FA1F).contains(s.value) || (0xF900...0xFAFF).contains(s.value) || s == "々"
  }

  private static func isKana(_ s: Unicode.Scalar) -> Bool { (0x3041...0x30FF).contains(s.value) }

  private static func isHangul(_ s: Unicode.Scalar) -> Bool {
    (0xAC00...0xD7A3).contains(s.value) || (0x1100...0x11FF).contains(s.value)
      || (0x3130...0x318F).contains(s.value)
  }

  /// The gojūon row of a kana: katakana as hiragana, voiced and small
  /// kana with their plain ones (`ガ` → `か`, `ゃ` → `や`).
  static func kanaRow(_ s: Unicode.Scalar) -> String? {
    var v = s.value
    if (0x30A1...0x30F6).contains(v) { v -= 0x60 }
    guard (0x3041...0x3096).contains(v) else { return nil }
    let rows: [(UInt32, String)] = [
      (0x304B, "あ"), (0x3055, "か"), (0x305F, "さ"), (0x306A, "た"), (0x306F, "な"), (0x307E, "は"),
      (0x3083, "ま"), (0x3089, "や"), (0x308E, "ら"), (0x3094, "わ"),
    ]
    if v == 0x3094 { return "あ" }  // ゔ (vu)
    if v >= 0x3095 { return "か" }  // ゕ ゖ (small ka, ke)
    return rows.first { v < $0.0 }?.1 ?? "わ"
  }
}

extension Collation {
  /// Sort keys prepared once for a sort of many: each key's index letter
  /// and that letter's place, and the key as ICU is given it. A sort of
  /// 63,000 titles asked ICU (through Foundation, which bridges both
  /// strings and the locale on every call) about a million times, 2 s on
  /// one core before a preview's open page could render; now ICU orders
  /// the letters once and compares only keys with a letter outside
  /// `[a-z0-9 ]`, the rest compare by code points where the language
  /// orders them so (`Collation.plainKeysInCodePointOrder`).
  struct Keys {
    let collation: Collation
    /// The index letters, in order (`Collation.letter`).
    private let letterNames: [String]
    /// The keys packed end to end: a String each (and its own heap copy
    /// past 15 bytes) was half a gigabyte of the A–Z pages' sort at ten
    /// million records.
    private let keys: PackedStrings
    private let rank: [Int32]
    /// Per key its spaced form for ICU, empty where code points decide.
    private let spaced: PackedStrings

    init(_ keys: [String], _ collation: Collation) {
      self.init(PackedStrings(keys), collation)
    }

    init(_ keys: PackedStrings, _ collation: Collation) {
      // A key's letter is its first character's (`letter(_:)` reads no further).
      var letterOf: [Character: String] = [:]
      var firsts: [Character?] = []
      firsts.reserveCapacity(keys.count)
      for index in 0..<keys.count {
        let first = keys[index].first
        firsts.append(first)
        if let first, letterOf[first] == nil { letterOf[first] = collation.letter(String(first)) }
      }
      let empty = collation.letter("")
      let order = Set(letterOf.values).union([empty]).sorted(by: collation.letterBefore)
      let rankOf = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, Int32($0.offset)) })
      let plain = collation.plainKeysInCodePointOrder
      self.collation = collation
      self.keys = keys
      letterNames = order
      rank = firsts.map { rankOf[$0.flatMap { letterOf[$0] } ?? empty] ?? 0 }
      var spaced = PackedStrings()
      for index in 0..<keys.count {
        let key = keys[index]
        spaced.append(plain && Collation.isPlain(key) ? "" : Collation.spaced(key))
      }
      spaced.trimCapacity()
      self.spaced = spaced
    }

    /// Key `i`.
    func key(_ i: Int) -> String { keys[i] }

    /// Key `i`'s index letter.
    func letter(_ i: Int) -> String { letterNames[Int(rank[i])] }

    /// Whether key `i` comes before key `j`: `BrowsePages.order` on the
    /// prepared keys; nil for equal keys.
    func ascending(_ i: Int, _ j: Int) -> Bool? {
      if rank[i] != rank[j] { return rank[i] < rank[j] }
      // Both plain (or empty), so ASCII: their bytes order them as their
      // code points do, without a String made for either.
      if spaced.utf8Count(i) == 0 && spaced.utf8Count(j) == 0 {
        return keys.sameBytes(i, j) ? nil : keys.utf8Precedes(i, j)
      }
      let (a, b) = (keys[i], keys[j])
      guard a != b else { return nil }
      let x = spaced.utf8Count(i) == 0 ? Collation.spaced(a) : spaced[i]
      let y = spaced.utf8Count(j) == 0 ? Collation.spaced(b) : spaced[j]
      switch x.compare(y, locale: collation.locale) {
      case .orderedAscending: return true
      case .orderedDescending: return false
      case .orderedSame: return a < b
      }
    }
  }

  /// A key ICU is given: each space as `¤` (`compare(_:_:)`).
  /// An ASCII key's bytes are mapped here: Foundation's replacing was most
  /// of an A–Z sort's comparison of a plain key with another.
  static func spaced(_ key: String) -> String {
    guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return key.replacingOccurrences(of: " ", with: "¤") }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(key.utf8.count + 8)
    for byte in key.utf8 {
      if byte == 0x20 {
        bytes.append(contentsOf: [0xC2, 0xA4])
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A key of lower-case ASCII letters, digits and single spaces only.
  static func isPlain(_ key: String) -> Bool {
    key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 }
  }

  /// Whether the language orders plain keys (`isPlain`) as their code
  /// points do — space, digits, then `a` to `z`, nothing before something
  /// — asked of ICU once per language: every one- and two-character key
  /// in code-point order must be in ICU's order too, pair after pair (a
  /// total order, so neighbours suffice). Languages that tailor ASCII
  /// letters fail it: Danish `aa` after `z`, Czech `ch` after `h`,
  /// Hungarian `cs`, Lithuanian `y` with `i`.
  var plainKeysInCodePointOrder: Bool {
    Self.plainOrderLock.lock()
    defer { Self.plainOrderLock.unlock() }
    if let known = Self.plainOrder[locale.identifier] { return known }
    let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz").map(String.init)
    var probes = alphabet
    for first in alphabet {
      for second in [" "] + alphabet { probes.append(first + second) }
    }
    probes.sort()
    let inOrder = zip(probes, probes.dropFirst()).allSatisfy {
      compare($0, $1) == .orderedAscending
    }
    Self.plainOrder[locale.identifier] = inOrder
    return inOrder
  }

  nonisolated(unsafe) private static var plainOrder: [String: Bool] = [:]
  private static let plainOrderLock = NSLock()
}
