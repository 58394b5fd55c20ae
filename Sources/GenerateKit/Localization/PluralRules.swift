/// CLDR's cardinal plural categories for whole numbers, for the languages
/// with a built-in catalogue (`Templates/strings/`): which form of "{count}
/// records" a count takes. The browser picks the same forms with
/// `Intl.PluralRules` (`ui/strings.js`); `PluralRulesTests` compares the two
/// over 0…1,000 in every language. Only whole numbers are counted here, so
/// the rules for fractions (CLDR's `v`, `f`) are left out.
enum PluralRules {
  /// The categories a language's counts take, in CLDR's order.
  static func categories(_ language: String) -> [String] {
    switch family(language) {
    case .none: ["other"]
    case .one, .zeroOrOne: ["one", "other"]
    case .oneManyOther: ["one", "many", "other"]
    case .slavic, .polish, .czech: ["one", "few", "many", "other"]
    case .romanian, .serbian: ["one", "few", "other"]
    case .hebrew: ["one", "two", "other"]
    case .arabic: ["zero", "one", "two", "few", "many", "other"]
    }
  }

  /// The category of `count` (a whole number, 0 or more).
  static func category(_ count: Int, _ language: String) -> String {
    let n = abs(count)
    let (ten, hundred) = (n % 10, n % 100)
    switch family(language) {
    case .none: return "other"
    case .one: return n == 1 ? "one" : "other"
    case .zeroOrOne: return n <= 1 ? "one" : "other"
    // fr, es, it, pt: "many" for whole millions (1 000 000 de disques).
    case .oneManyOther:
      if n == 1 || (n == 0 && ["fr", "pt"].contains(primary(language))) { return "one" }
      return n != 0 && n % 1_000_000 == 0 ? "many" : "other"
    case .slavic:
      if ten == 1 && hundred != 11 { return "one" }
      if (2...4).contains(ten) && !(12...14).contains(hundred) { return "few" }
      return "many"
    case .polish:
      if n == 1 { return "one" }
      if (2...4).contains(ten) && !(12...14).contains(hundred) { return "few" }
      return "many"
    // cs, sk: "many" is for fractions (1,5 výsledku), never a whole number.
    case .czech: return n == 1 ? "one" : (2...4).contains(n) ? "few" : "other"
    // ro: 1 rezultat, 2–19 rezultate (and 101–119…), 20 de rezultate.
    case .romanian: return n == 1 ? "one" : n == 0 || (1...19).contains(hundred) ? "few" : "other"
    // sr, hr, bs: as Russian, but 5 and 11 take "other" (there is no "many").
    case .serbian:
      if ten == 1 && hundred != 11 { return "one" }
      return (2...4).contains(ten) && !(12...14).contains(hundred) ? "few" : "other"
    case .hebrew: return n == 1 ? "one" : n == 2 ? "two" : "other"
    case .arabic:
      switch n {
      case 0: return "zero"
      case 1: return "one"
      case 2: return "two"
      default: return (3...10).contains(hundred) ? "few" : (11...99).contains(hundred) ? "many" : "other"
      }
    }
  }

  private enum Family {
    case none, one, zeroOrOne, oneManyOther, slavic, polish, czech, romanian, serbian, hebrew, arabic
  }

  /// `pt-BR` → `pt`: the rules go by the language, not the region.
  static func primary(_ language: String) -> String {
    String(language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
  }

  private static func family(_ language: String) -> Family {
    switch primary(language) {
    case "ja", "zh", "ko", "id", "vi", "th", "ms": .none
    case "hi", "fa", "bn", "hy": .zeroOrOne
    case "fr", "es", "it", "pt", "ca": .oneManyOther
    case "ru", "uk", "be": .slavic
    case "pl": .polish
    case "cs", "sk": .czech
    case "ro", "mo": .romanian
    case "sr", "hr", "bs": .serbian
    case "he": .hebrew
    case "ar": .arabic
    default: .one
    }
  }
}
