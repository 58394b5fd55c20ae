/// The known name a misspelt one most likely meant, for "did you mean"
/// hints: the closest by edit distance (Levenshtein, case-insensitive), if
/// it is close enough to be a typo rather than another word.
enum ClosestName {
  static func to(_ name: String, in candidates: some Sequence<String>) -> String? {
    let target = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
      let distance = Self.distance(target, Array(candidate.lowercased()))
      // A third of the letters, and at least one: `Livng` → `Living`, not `Lost`.
      guard distance <= max(1, target.count / 3) else { continue }
      if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
      best = (candidate, distance)
    }
    return best?.name
  }

  /// `(did you mean 'Living'?)`, or nothing.
  static func hint(_ name: String, in candidates: some Sequence<String>) -> String {
    to(name, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
