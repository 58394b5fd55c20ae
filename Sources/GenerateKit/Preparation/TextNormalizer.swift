import Foundation

/// Turns text into search terms exactly as the browser's engine does
/// (`Templates/assets/js/engine/normalize.js`; the rules are in
/// `Index/FORMAT.md`), so `sao` finds `São` and `acdc` finds `AC/DC`.
public enum TextNormalizer {
  /// Letters that NFKD leaves whole but a reader treats as plain Latin.
  /// And letters a reader types one for the other: the Greek final sigma,
  /// Arabic ta marbuta and alef maqsura, the Persian yeh and keheh (as their
  /// Arabic letters), and the tatweel that only stretches a word, dropped.
  static let folds: [Unicode.Scalar: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i",
    "ς": "σ", "\u{0629}": "\u{0647}", "\u{0649}": "\u{064A}", "\u{06CC}": "\u{064A}", "\u{06A9}": "\u{0643}",
    "\u{0640}": "",
  ]
  static let apostrophes: Set<Unicode.Scalar> = ["'", "\u{2019}", "\u{02BC}"]

  /// NFKD, no combining marks (but Thai, Lao, Myanmar and Khmer ones: their
  /// vowels and tones), lower case, folded (hiragana as katakana, any
  /// script's decimal digits as ASCII ones), no apostrophes. Terms
  /// keep the apostrophes as separators (`keepingApostrophes`), so that
  /// `L'Arc` is found by `l arc`, `arc` and `larc`; slugs drop them.
  public static func normalize(_ text: String, keepingApostrophes: Bool = false) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      // Written in place (one allocation, none for a short text): this runs for every
      // chunk of every indexed text, and glibc's allocator costs more as the heap grows.
      return String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
        var count = 0
        for byte in text.utf8 where keepingApostrophes || byte != UInt8(ascii: "'") {
          buffer[count] = byte >= 65 && byte <= 90 ? byte + 32 : byte
          count += 1
        }
        return count
      }
    }
    // ASCII and the common Latin letters and punctuation one scalar at a
    // time; every other run whole, as before. The same text: each step (NFKD,
    // lower case, marks, folds, apostrophes) is one scalar at a time, except
    // that NFKD reorders adjacent combining marks, which are never in a
    // table and never cross the starters that are.
    let table = keepingApostrophes ? Latin.keepingApostrophes : Latin.plain
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var other = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        if !other.isEmpty {
          result += slowNormalize(String(other), keepingApostrophes: keepingApostrophes)
          other = String.UnicodeScalarView()
        }
        if !keepingApostrophes && value == 0x27 { continue }
        result.unicodeScalars.append(value >= 65 && value <= 90 ? Unicode.Scalar(UInt8(value + 32)) : scalar)
      } else if let mapped = table.map(scalar) {
        if !other.isEmpty {
          result += slowNormalize(String(other), keepingApostrophes: keepingApostrophes)
          other = String.UnicodeScalarView()
        }
        result += mapped
      } else {
        other.append(scalar)
      }
    }
    if !other.isEmpty { result += slowNormalize(String(other), keepingApostrophes: keepingApostrophes) }
    return result
  }

  /// Each Latin-1, Latin Extended and general punctuation scalar that is a
  /// starter (not a mark, combining class 0), normalised on its own.
  struct Latin: Sendable {
    static let ranges: [ClosedRange<UInt32>] = [0x80...0x24F, 0x2000...0x206F]
    static let plain = Latin(keepingApostrophes: false)
    static let keepingApostrophes = Latin(keepingApostrophes: true)
    let normalized: [[String?]]

    init(keepingApostrophes: Bool) {
      normalized = Self.ranges.map { range in
        range.map { value -> String? in
          guard let scalar = Unicode.Scalar(value), scalar.properties.canonicalCombiningClass == .notReordered
          else { return nil }
          switch scalar.properties.generalCategory {
          case .nonspacingMark, .spacingMark, .enclosingMark: return nil
          default:
            return TextNormalizer.slowNormalize(String(scalar), keepingApostrophes: keepingApostrophes)
          }
        }
      }
    }

    func map(_ scalar: Unicode.Scalar) -> String? {
      for (number, range) in Self.ranges.enumerated() where range.contains(scalar.value) {
        return normalized[number][Int(scalar.value - range.lowerBound)]
      }
      return nil
    }
  }

  /// `normalize` of any text, one run at a time through Foundation's NFKD.
  static func slowNormalize(_ text: String, keepingApostrophes: Bool) -> String {
    var result = String.UnicodeScalarView()
    for scalar in text.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
      if scalar.properties.generalCategory == .nonspacingMark && !isSpaceless(scalar) { continue }
      if apostrophes.contains(scalar) {
        if keepingApostrophes { result.append("'") }
        continue
      }
      if let fold = folds[scalar] {
        result.append(contentsOf: fold.unicodeScalars)
      } else {
        result.append(folded(scalar))
      }
    }
    return String(result)
  }

  /// Hiragana as katakana (`らーめん` finds `ラーメン`), and a decimal digit of
  /// any script as its ASCII digit (`٢٦` and `२०११` are found by `26` and `2011`).
  static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    let value = scalar.value
    if value >= 0x3041 && value <= 0x309E { return Unicode.Scalar(value + 0x60) ?? scalar }
    guard value >= 0x80, scalar.properties.numericType == .decimal,
      let digit = scalar.properties.numericValue
    else { return scalar }
    return Unicode.Scalar(UInt8(48 + Int(digit)))
  }

  /// Letters, digits, and vowel signs: those that take their own space (`Mc`:
  /// the `ा` of `भारत`, which would otherwise cut it in two), and the marks
  /// that normalising keeps (Thai, Lao, Myanmar and Khmer vowels and tones).
  static func isTermCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let value = scalar.value
      return (value >= 48 && value <= 57) || (value >= 97 && value <= 122) || (value >= 65 && value <= 90)
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber, .spacingMark, .nonspacingMark:
      return true
    default:
      return false
    }
  }

  /// The terms a text is indexed under: runs of letters and digits, plus
  /// the run-together form of a chunk such as `ac/dc` or `l'arc`, and
  /// `and` for a lone `&`.
  public static func terms(_ text: String) -> [String] {
    var terms: [String] = []
    forEachTerm(in: text) { term, _ in terms.append(term) }
    return terms
  }

  /// Calls `body` with each term of `text`, duplicates included, and whether
  /// it is a run-together form (`acdc`): those find records but are never
  /// offered as completions.
  public static func forEachTerm(in text: String, _ body: (_ term: String, _ joined: Bool) -> Void) {
    let normalized = normalize(text, keepingApostrophes: true)
    if normalized.utf8.allSatisfy({ $0 < 0x80 }) {
      forEachASCIITerm(in: normalized, body)
    } else {
      forEachScalarTerm(in: normalized, body)
    }
  }

  /// `forEachTerm` of normalised text, a scalar at a time.
  static func forEachScalarTerm(in normalized: String, _ body: (_ term: String, _ joined: Bool) -> Void) {
    var runs: [String] = []
    var ampersand = false
    var other = false
    var run = String.UnicodeScalarView()
    func endRun() {
      if !run.isEmpty { runs.append(String(run)) }
      run = String.UnicodeScalarView()
    }
    func endChunk() {
      endRun()
      for term in runs { body(term, false) }
      if runs.count > 1 { body(runs.joined(), true) }
      // And each of its tails run together, so a name inside a name is a term:
      // `python3-zope.interface` holds `zopeinterface`, which `zope.interface` asks for.
      if runs.count > 2 { for start in 1..<(runs.count - 1) { body(runs[start...].joined(), true) } }
      for term in runs {
        forEachCJKPiece(of: term) { body($0, false) }
        forEachSpacelessPiece(of: term) { body($0, false) }
      }
      // `Page & Plant` is found by `page and plant`.
      if runs.isEmpty && ampersand && !other { body("and", false) }
      runs.removeAll(keepingCapacity: true)
      ampersand = false
      other = false
    }
    for scalar in normalized.unicodeScalars {
      if isTermCharacter(scalar) {
        run.append(scalar)
      } else if scalar.properties.isWhitespace {
        endChunk()
      } else {
        if scalar == "&" { ampersand = true } else { other = true }
        endRun()
      }
    }
    endChunk()
  }

  /// `forEachTerm` for normalised ASCII text, the common case, on its
  /// bytes: the same runs and chunks, without building them a scalar at a
  /// time (ASCII has no CJK pieces; its whitespace is tab to carriage
  /// return and space).
  static func forEachASCIITerm(in normalized: String, _ body: (_ term: String, _ joined: Bool) -> Void) {
    var normalized = normalized
    normalized.withUTF8 { bytes in
      var runs: [Range<Int>] = []
      var ampersand = false
      var other = false
      var runStart = -1
      func endRun(_ at: Int) {
        if runStart >= 0 { runs.append(runStart..<at) }
        runStart = -1
      }
      func term(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
      func joined(from first: Int) -> String {
        var text = ""
        for run in runs[first...] { text += term(run) }
        return text
      }
      func endChunk(_ at: Int) {
        endRun(at)
        for run in runs { body(term(run), false) }
        if runs.count > 1 { body(joined(from: 0), true) }
        if runs.count > 2 { for start in 1..<(runs.count - 1) { body(joined(from: start), true) } }
        if runs.isEmpty && ampersand && !other { body("and", false) }
        runs.removeAll(keepingCapacity: true)
        ampersand = false
        other = false
      }
      for (at, byte) in bytes.enumerated() {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "A")...UInt8(ascii: "Z"):
          if runStart < 0 { runStart = at }
        case 0x09...0x0D, 0x20:
          endChunk(at)
        default:
          if byte == UInt8(ascii: "&") { ampersand = true } else { other = true }
          endRun(at)
        }
      }
      endChunk(bytes.count)
    }
  }

  /// Han, Hiragana, Katakana and Hangul (after NFKD: conjoining jamo), where
  /// text has no spaces between words. Ranges, not script properties, so the
  /// browser's `engine/normalize.js` holds the very same set.
  static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF, 0x20000...0x3134F:
      return true
    default: return false
    }
  }

  /// The pieces a run of CJK characters is indexed by besides the run itself:
  /// each pair of neighbours and the last character (`東京都` → `東京`, `京都`,
  /// `都`), so any character or pair of them starts a term (`京` finds 東京).
  /// Every CJK stretch of the run counts; a run without one has no pieces.
  static func forEachCJKPiece(of run: String, _ body: (String) -> Void) {
    var stretch = String.UnicodeScalarView()
    func flush() {
      let cs = characters(of: stretch)
      if cs.count >= 2 {
        for i in 0..<(cs.count - 1) { body(cs[i] + cs[i + 1]) }
        body(cs[cs.count - 1])
      }
      stretch.removeAll()
    }
    for scalar in run.unicodeScalars {
      if isCJK(scalar) { stretch.append(scalar) } else { flush() }
    }
    flush()
  }

  /// The characters of a CJK stretch as its reader sees them: a scalar each,
  /// but a Hangul syllable, which NFKD writes as its conjoining jamo, is one
  /// (leading consonants, then vowels, then trailing consonants), so pieces
  /// are pairs of syllables, not of scattered letters (`독일의` is `독일` and
  /// the particle `의`). The browser's `chars` in `engine/normalize.js`.
  static func characters(of stretch: String.UnicodeScalarView) -> [String] {
    var out: [String] = []
    // The phase of the open syllable: 0 leading consonants, 1 vowels, 2 trailing; nil: none open.
    var phase: Int? = nil
    for scalar in stretch {
      let kind: Int? =
        switch scalar.value {
        case 0x1100...0x115F: 0
        case 0x1160...0x11A7: 1
        case 0x11A8...0x11FF: 2
        default: nil
        }
      if let kind, let open = phase, kind >= open, !out.isEmpty {
        out[out.count - 1].unicodeScalars.append(scalar)
        phase = kind
      } else {
        out.append(String(scalar))
        phase = kind == 0 ? 0 : nil
      }
    }
    return out
  }

  /// Thai, Lao, Myanmar and Khmer, which also write words without spaces.
  static func isSpaceless(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF: return true
    default: return false
    }
  }

  /// Whether a letter of a spaceless stretch can start a syllable: not a
  /// following vowel (`ะ` `า` `ๅ`, Lao `ະ` `າ`), `ฯ` or `ๆ`, nor a letter after a
  /// leading vowel (`เ`–`ไ`, `ເ`–`ໄ`), which starts the syllable itself.
  static func startsSyllable(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?) -> Bool {
    if let previous, (0x0E40...0x0E44).contains(previous.value) || (0x0EC0...0x0EC4).contains(previous.value)
    {
      return false
    }
    switch scalar.value {
    case 0x0E2F, 0x0E30, 0x0E32, 0x0E45, 0x0E46, 0x0EAF, 0x0EB0, 0x0EB2, 0x0EC6: return false
    default: return isLetter(scalar)
    }
  }

  static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
    default: return false
    }
  }

  /// The pieces a run of Thai, Lao, Myanmar or Khmer is indexed by besides
  /// the run itself: from each letter inside it that can start a syllable,
  /// but its last letter, up to 20 characters (`เชียงใหม่` → `ยงใหม่`,
  /// `งใหม่`, `ใหม่`), so `ใหม่` finds it by prefix. No dictionary: ICU's word
  /// breaks keep `เชียงใหม่` and `กรุงเทพมหานคร` whole, being names it knows.
  static func forEachSpacelessPiece(of run: String, _ body: (String) -> Void) {
    guard run.unicodeScalars.contains(where: isSpaceless) else { return }
    let scalars = Array(run.unicodeScalars)
    var start = 0
    while start < scalars.count {
      guard isSpaceless(scalars[start]) else {
        start += 1
        continue
      }
      var end = start + 1
      while end < scalars.count && isSpaceless(scalars[end]) { end += 1 }
      let last = (start..<end).last { isLetter(scalars[$0]) } ?? start
      for at in start..<last where at > 0 {
        guard startsSyllable(scalars[at], after: at > start ? scalars[at - 1] : nil) else { continue }
        body(String(String.UnicodeScalarView(scalars[at..<min(at + 20, end)])))
      }
      start = end
    }
  }

  /// A URL-safe slug: normalised terms joined with hyphens.
  /// A URL segment for a title: ASCII words joined by `-`, at most 60
  /// characters. Text in another script is transliterated first (ICU's
  /// `Any-Latin; Latin-ASCII`: `Москва` → `moskva`, `東京` → `dong-jing`),
  /// so every title that has letters gets a readable slug; Latin text never
  /// pays for the transform.
  public static func slug(_ text: String) -> String {
    let normalized = normalize(text)
    let needsTransliteration = normalized.unicodeScalars.contains { !$0.isASCII && isTermCharacter($0) }
    guard needsTransliteration,
      let latin = text.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false)
    else { return asciiWords(normalized) }
    return asciiWords(normalize(latin))
  }

  /// The ASCII letters and digits of normalised text, in runs joined by `-`.
  static func asciiWords(_ normalized: String) -> String {
    var parts: [String] = []
    var run = ""
    for scalar in normalized.unicodeScalars {
      if scalar.isASCII && isTermCharacter(scalar) {
        run.unicodeScalars.append(scalar)
      } else if !run.isEmpty {
        parts.append(run)
        run = ""
      }
    }
    if !run.isEmpty { parts.append(run) }
    var slug = String(parts.joined(separator: "-").prefix(60))
    while slug.hasSuffix("-") { slug.removeLast() }
    return slug
  }
}
