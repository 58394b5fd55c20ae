/// A Chinese term in the other script (FORMAT.md "Han variants"): data in
/// simplified characters is found by a visitor who types traditional ones
/// (`德國` finds 德国), and the other way round (`东京` finds 東京). Index-side
/// only: the index holds the term's other forms as run-together terms (found,
/// never offered), so the page and the engine do not change.
extension HanVariants {
  private static func table(_ pairs: String) -> [Unicode.Scalar: Unicode.Scalar] {
    let scalars = Array(pairs.unicodeScalars)
    var table: [Unicode.Scalar: Unicode.Scalar] = [:]
    table.reserveCapacity(scalars.count / 2)
    for i in stride(from: 0, to: scalars.count - 1, by: 2) { table[scalars[i]] = scalars[i + 1] }
    return table
  }

  static let toSimplified = table(simplifiedPairs)
  static let toTraditional = table(traditionalPairs)

  /// The term written all in simplified and all in traditional characters,
  /// those that differ from it (none for a term without a Han character that
  /// has another form).
  static func variants(of term: String) -> [String] {
    guard term.unicodeScalars.contains(where: { $0.value >= 0x3400 && TextNormalizer.isCJK($0) }) else {
      return []
    }
    var out: [String] = []
    for table in [toSimplified, toTraditional] {
      var changed = false
      var scalars = String.UnicodeScalarView()
      for scalar in term.unicodeScalars {
        if let other = table[scalar] {
          scalars.append(other)
          changed = true
        } else {
          scalars.append(scalar)
        }
      }
      let variant = String(scalars)
      if changed, !out.contains(variant) { out.append(variant) }
    }
    return out
  }
}
