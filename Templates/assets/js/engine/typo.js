// Damerau–Levenshtein (optimal string alignment), cut off past `max`: an unknown word is
// compared with every term of its shard, so most comparisons must stop within a row or two.
export function distance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let older, prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] !== b[j - 1]))
      if (j > 1 && i > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], older[j - 2] + 1)
    }
    if (Math.min(...row) > max) return max + 1
    older = prev
    prev = row
  }
  return prev[b.length]
}

// While typing, the word is the start of a term: compare it with the term's beginnings of
// about its own length (`zepel` is one slip from `zeppel`, the start of `zeppelin`).
export function prefixDistance(word, term, max) {
  let best = max + 1
  for (let k = Math.max(1, word.length - max); k <= Math.min(term.length, word.length + max); k++) {
    best = Math.min(best, distance(word, term.slice(0, k), max))
  }
  return best
}

// As Algolia's defaults: no typo under 4 letters, one up to 7, two from 8.
export const budget = (word) => {
  const n = [...word].length
  return n < 4 ? 0 : n < 8 ? 1 : 2
}

// The typo dictionary's key (FORMAT.md "Typo shard"): the three letters at offset 3. The index
// lists each term under its pieces at offsets 2, 3 and 4, so one slip before the piece still meets it.
export const typoKey = (word) => {
  const s = [...word]
  return s.length >= 6 ? s.slice(3, 6).join('') : null
}
