const CORRECTIONS = 4 // corrected terms kept per word

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

// The typo dictionary's keys (FORMAT.md "Typo shard"): the three letters at offset 3. The index
// lists each term under its pieces at offsets 2, 3 and 4, so one slip before the piece still meets
// it. A swapped pair that touches the piece (`pyhton3`: `ton`) changes it but shifts nothing, so
// the word with each such pair swapped back gives the key too (`python3`: `hon`): one slip, as
// `distance` counts it, whatever its place.
export function typoKeys(word) {
  const s = [...word]
  if (s.length < 6) return []
  const keys = new Set([s.slice(3, 6).join('')])
  for (let i = 2; i <= 5 && i + 1 < s.length; i++) {
    const t = [...s]
    ;[t[i], t[i + 1]] = [t[i + 1], t[i]]
    keys.add(t.slice(3, 6).join(''))
  }
  return [...keys]
}

// A word and a number (`pyhton3`, `gtk4`): its letters may hold a slip, its number never
// (`python2` is no slip for `python3`, nor `gcc13` for `gcc12`). Any other word with a digit
// (`1977`, `mp3`) is never corrected.
const numberedWord = /^(\p{L}+)(\p{N}+)$/u

// How far a term is from the word: whole terms on a final search, term beginnings while typing.
function nearness(word, final) {
  const plain = (w, t, max) => (final ? distance(w, t, max) : prefixDistance(w, t, max))
  const m = word.match(numberedWord)
  if (!m) return (t, max) => plain(word, t, max)
  const [, letters, digits] = m
  return (t, max) => {
    const n = t.match(/^(\p{L}+)(\p{N}+)/u)
    const same = n && (final ? n[0] === t && n[2] === digits : n[2].startsWith(digits))
    return same ? distance(letters, n[1], max) : max + 1
  }
}

// The typo budget of a word: its letters', for a word and a number; none for other words with digits.
function budgetOf(word) {
  const m = word.match(numberedWord)
  if (m) return budget(m[1])
  return /\p{N}/u.test(word) ? 0 : budget(word)
}

// Fewest typos first; at the same distance the term reaching the most popular record (the lowest
// document number: FORMAT.md "Document numbers"), then the most documents. Never the alphabet:
// `frankfrt` is Frankfurt, not Frankfort, where Frankfurt is the more popular.
const best = (s, t) => Math.min(...s.postings(t).map((l) => l[0] ?? Infinity))
const byNearThenPopular = (a, b) => a[2] - b[2] || best(a[0], a[1]) - best(b[0], b[1]) || b[0].count(b[1]) - a[0].count(a[1])

// Terms within the word's typo budget: whole terms on a final search, term beginnings
// while typing, in the order above.
export async function corrections(word, home, final, loader, shard) {
  const max = budgetOf(word)
  if (!max) return []
  const near = nearness(word, final)
  const seen = new Set(), out = []
  const consider = (s, t) => {
    if (seen.has(t) || t.startsWith(word) || s?.joined.has(t)) return
    seen.add(t)
    const d = near(t, max)
    if (d <= max) out.push([s, t, d])
  }
  for (const t of home?.keys ?? []) consider(home, t)
  // The typo dictionary (two small files) only when the word's own shard has nothing near; the
  // keys of a swapped pair only when the word's own key has nothing near either.
  const [key, ...swapped] = out.length ? [] : typoKeys(word)
  for (const keys of [key ? [key] : [], swapped]) {
    if (out.length || !keys.length) continue
    const lists = await Promise.all(keys.map(async (k) => {
      const at = await loader.typoShardFor(k)
      const raw = at && await loader.load(at.path)
      return raw?.keys?.[k] ?? []
    }))
    for (const t of lists.flat()) consider(null, t)
  }
  // A slip in the first letters of a short word (`lvoe`, `rcok`) sends it to another prefix's
  // shard, which the dictionary (six letters and more) does not reach: try the shards of the word
  // with two of its first four letters swapped or one of its first three left out.
  if (!out.length) {
    const chars = [...word], paths = new Set()
    for (let i = 0; i < Math.min(3, chars.length - 1); i++) {
      const swapped = [...chars]
      ;[swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]]
      for (const v of [swapped.join(''), [...chars.slice(0, i), ...chars.slice(i + 1)].join('')]) {
        const at = await loader.shardFor(v)
        if (at) paths.add(at.path)
      }
    }
    for (const s of await Promise.all([...paths].map(shard))) if (s !== home) for (const t of s.keys) consider(s, t)
  }
  const located = await Promise.all(out.map(async ([s, t, d]) => {
    if (s) return [s, t, d]
    const at = await loader.shardFor(t)
    const found = at && await shard(at.path)
    return found?.terms[t] ? [found, t, d] : null
  }))
  const best = located.filter(Boolean).sort(byNearThenPopular).slice(0, CORRECTIONS)
  // A correction reaches what its term would as typed, its numbered forms included (`numbered` in
  // match.js; a fourth field marks them): `pyhton` → python finds python3 as `python` does.
  const have = new Set(best.map(([, t]) => t))
  const numbered = best.flatMap(([s, t, d]) => (/\p{L}$/u.test(t) ? s.startingWith(t) : [])
    .filter((u) => !have.has(u) && /^\d+$/.test(u.slice(t.length))).map((u) => [s, u, d, true]))
  return [...best, ...numbered]
}
