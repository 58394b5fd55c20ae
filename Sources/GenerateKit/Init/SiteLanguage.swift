/// The language `init` writes for a site, read off the script its titles
/// are written in: `<html lang>` tells screen readers which voice to use,
/// and the site's language chooses word forms and digit grouping. Only a
/// script that names one language is decided (Hiragana or Katakana → ja,
/// Hangul → ko, Han alone → zh, Greek → el, Thai → th, Hebrew → he);
/// Latin, Cyrillic or Arabic text, shared by many languages, stays `en`,
/// which a person can change.
enum SiteLanguage {
  /// The languages decided by script, for the config's comment.
  static let names = [
    "ja": "Japanese", "ko": "Korean", "zh": "Chinese", "el": "Greek", "th": "Thai", "he": "Hebrew",
  ]

  enum Script: Hashable { case latin, kana, han, hangul, greek, thai, hebrew, other }

  static func script(of scalar: Unicode.Scalar) -> Script? {
    switch scalar.value {
    case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F: return .latin
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return .kana
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2A6DF: return .han
    case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
    case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
    case 0xE00...0xE7F: return .thai
    case 0x590...0x5FF: return .hebrew
    default: return scalar.properties.isAlphabetic ? .other : nil
    }
  }

  /// The language code for these titles (a sample is enough).
  static func code(forTitles titles: some Sequence<String>) -> String {
    var letters: [Script: Int] = [:]
    var total = 0
    for title in titles {
      for scalar in title.unicodeScalars {
        guard let script = script(of: scalar) else { continue }
        letters[script, default: 0] += 1
        total += 1
      }
    }
    guard total > 0 else { return "en" }
    let share = { (script: Script) in Double(letters[script, default: 0]) / Double(total) }
    if share(.kana) > 0.05 && share(.kana) + share(.han) > 0.5 { return "ja" }
    if share(.hangul) > 0.5 { return "ko" }
    if share(.han) > 0.5 { return "zh" }
    if share(.greek) > 0.5 { return "el" }
    if share(.thai) > 0.5 { return "th" }
    if share(.hebrew) > 0.5 { return "he" }
    return "en"
  }
}
