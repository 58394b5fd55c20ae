import Foundation

/// Turns text into search terms exactly as the browser's engine does
/// (`Templates/assets/js/engine/normalize.js`; the rules are in
/// `Index/FORMAT.md`), so `sao` finds `São` and `acdc` finds `AC/DC`.
public enum TextNormalizer {
  /// Letters that NFKD leaves whole but a reader treats as plain Latin.
  static let folds: [Unicode.Scalar: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i",
  ]
  static let apostrophes: Set<Unicode.Scalar> = ["'", "\u{2019}", "\u{02BC}"]

  /// NFKD, no combining marks, lower case, folded, no apostrophes.
  public static func normalize(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      var bytes = [UInt8]()
      bytes.reserveCapacity(text.utf8.count)
      for byte in text.utf8 where byte != UInt8(ascii: "'") {
        bytes.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    var result = String.UnicodeScalarView()
    for scalar in text.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
      if scalar.properties.generalCategory == .nonspacingMark || apostrophes.contains(scalar) { continue }
      if let fold = folds[scalar] {
        result.append(contentsOf: fold.unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  static func isTermCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let value = scalar.value
      return (value >= 48 && value <= 57) || (value >= 97 && value <= 122) || (value >= 65 && value <= 90)
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return true
    default:
      return false
    }
  }

  /// The terms a text is indexed under: runs of letters and digits, plus
  /// the run-together form of a chunk such as `ac/dc`.
  public static func terms(_ text: String) -> [String] {
    var terms: [String] = []
    forEachTerm(in: text) { terms.append($0) }
    return terms
  }

  /// Calls `body` with each term of `text`, duplicates included.
  public static func forEachTerm(in text: String, _ body: (String) -> Void) {
    let normalized = normalize(text)
    var runs: [String] = []
    var run = String.UnicodeScalarView()
    func endRun() {
      if !run.isEmpty { runs.append(String(run)) }
      run = String.UnicodeScalarView()
    }
    func endChunk() {
      endRun()
      for term in runs { body(term) }
      if runs.count > 1 { body(runs.joined()) }
      runs.removeAll(keepingCapacity: true)
    }
    for scalar in normalized.unicodeScalars {
      if isTermCharacter(scalar) {
        run.append(scalar)
      } else if scalar.properties.isWhitespace {
        endChunk()
      } else {
        endRun()
      }
    }
    endChunk()
  }

  /// A URL-safe slug: normalised terms joined with hyphens.
  public static func slug(_ text: String) -> String {
    var parts: [String] = []
    let normalized = normalize(text)
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
    return String(parts.joined(separator: "-").prefix(60))
  }
}
