// The ranking rules (FORMAT.md "Ranking"), in order: fewest typos (each word with the fewest any
// of its corrections has); every word in the title (or a field weighing like it); every word in
// a kind whose titles hold it, not a mere mention; every word whole in the title; the whole title
// is the query; every word matched whole; then the popularity tier; the title's first word (up to
// a space) holds the first query word; then popularity, which is the document number. Each rule
// is a set of documents; a document's score has one bit per rule it meets, and documents are
// read best score first (the tier before the last rule), each score in
// number order. An exact word beats its position: `numpy` finds python3-numpy (603 packages
// depend on it) before numpy-stl (none), as Algolia's `unordered` title attributes do.
import { EMPTY, contains, intersect, union } from './postings.js'
import { queryChunks } from './normalize.js'

export { contains }

export function rules(matches, final, lastWord) {
  const first = matches[0], single = matches.length === 1
  // While the last word is one or two letters, "whole word" says little (`me`, `m`), on Enter too:
  // `m` lists titles starting with m by popularity, not R.E.M. first.
  const whole = lastWord.length >= 3
  const exact = (m, i) => (whole || i < matches.length - 1 ? m.exact : m.all)
  const exactTitle = (m, i) => (whole || i < matches.length - 1 ? m.exactTitle : m.title)
  const inTitle = intersect(matches.map(exactTitle))
  // While typing, a title that is wholly a term the word begins (`quee` → Queen) is as exact as
  // a title holding the word whole (`foo` → Foo Fighters): popularity decides between them.
  const typingWhole = single && !final ? first.whole : EMPTY
  return [
    // Fewest typos: every word reached with its fewest (none when found as typed).
    intersect(matches.map((m) => m.close)),
    // A word with a space after it is finished: it is in the title only as a whole word there.
    intersect(matches.map((m, i) => (i < matches.length - 1 ? m.exactTitle : m.title))),
    // A kind the words name before a kind whose records only mention them (`requests`: the
    // package before the team whose description lists it).
    intersect(matches.map((m) => m.kind)),
    // A lone word of one or two letters is whole in too many titles to say anything (`lo`).
    union([whole || !single ? inTitle : EMPTY, typingWhole]),
    // The whole title is the query: one word's `whole`; several words, a title that begins with
    // the first, ends with the last and holds each whole (`latin small letter a` → LATIN SMALL
    // LETTER A before the more complete LATIN SMALL LETTER A WITH ACUTE), which leaves only
    // titles of the query's words, in its order at both ends; the page puts the exact one first.
    !final ? EMPTY : single ? first.whole : intersect([first.opens, matches[matches.length - 1].closes, ...matches.map((m) => m.exactTitle)]),
    union([intersect(matches.map(exact)), typingWhole]),
    single ? first.starts : EMPTY,
  ]
}

// `all` ordered by the rules: a counting sort on the score keeps number order within a score.
// `tierOf` (FORMAT.md "Ranking", rule 6), when given, puts the popularity tier before the last
// rule, the title's first word: that word decides only between records of one order of magnitude.
export function rank(all, sets, tierOf = null) {
  const score = new Uint16Array(all.length)
  sets.forEach((set, k) => {
    const bit = 1 << (sets.length - 1 - k)
    for (let i = 0, j = 0; i < all.length && j < set.length;) {
      if (all[i] < set[j]) i++
      else if (all[i] > set[j]) j++
      else { score[i] |= bit; i++; j++ }
    }
  })
  const top = (1 << sets.length) - 1, tiers = tierOf && sets.length ? tierOf.count : 1
  // Lower is better: the rules but the last, then the tier, then the last rule.
  const key = (i) => (tiers === 1 ? top - score[i] : (((top - score[i]) >> 1) * tiers + tierOf(all[i])) * 2 + (~score[i] & 1))
  const start = new Int32Array((top + 1) * tiers + 1)
  for (let i = 0; i < all.length; i++) start[key(i) + 1]++
  for (let s = 1; s < start.length; s++) start[s] += start[s - 1]
  const out = new Int32Array(all.length)
  for (let i = 0; i < all.length; i++) out[start[key(i)]++] = all[i]
  return out
}

// A document's popularity tier (0 the most popular) from the manifest's `popularityTiers`, the
// first document number of each order of magnitude after the first; null when there is one.
export function tiers(boundaries) {
  if (!boundaries?.length) return null
  const tierOf = (id) => {
    let lo = 0, hi = boundaries.length
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (boundaries[mid] <= id) lo = mid + 1; else hi = mid }
    return lo
  }
  tierOf.count = boundaries.length + 1
  return tierOf
}

// One page of the ranked list. A distinct kind (`groupOf[id] >= 0`) shows only the best
// document of each group; `total` counts groups, not documents.
export function page(ranked, offset, limit, groupOf) {
  if (!groupOf) return { list: Array.from(ranked.subarray(offset, offset + limit)), total: ranked.length }
  const seen = new Set(), list = []
  let total = 0
  for (const id of ranked) {
    const g = groupOf[id]
    if (g >= 0) {
      if (seen.has(g)) continue
      seen.add(g)
    }
    if (total++ >= offset && list.length < limit) list.push(id)
  }
  return { list, total }
}

// Proximity, the rule before popularity: among documents of the same score, those whose
// title (or subtitle) holds the query words side by side and in order come first. It needs
// the words' order, which the index does not keep, so it applies to the page being shown,
// where the documents' text is at hand: `docs` in rank order, `sets` the rules' sets.
// Words side by side meet in any of their forms (`stem`, FORMAT.md "Word forms"): `web browsers`
// is near in "web browser".
export function proximityFirst(docs, words, sets, stem) {
  if (words.length < 2) return docs
  const score = (id) => sets.reduce((s, set, k) => s | (contains(set, id) ? 1 << (sets.length - 1 - k) : 0), 0)
  const f = near(stem), far = (d) => (side(runs(d.title), words, f) || side(runs(d.subtitle ?? ''), words, f) ? 0 : 1)
  return docs
    .map((d, i) => ({ d, i, s: score(d.id), n: far(d) }))
    .sort((a, b) => b.s - a.s || a.n - b.n || a.i - b.i)
    .map((x) => x.d)
}

// The words proximity reads in a title or subtitle: its runs, so the parts of a name stand side
// by side (`python yaml` in python3-yaml, FORMAT.md "Parts of names").
const runs = (text) => queryChunks(text).flat()

// The form in which proximity meets a word: its stem in the site's language (`stem`, or none),
// a word and a number being the word, as for the exact rule (python3 is `python`; 12 is 12).
export const near = (stem) => (w) => (stem || String)(w.replace(/(\p{L})\d+$/u, '$1'))

// Whether `words` run side by side, in order, in `text` (the last may be a prefix); with
// `stem`, a word also meets its other forms.
export function side(text, words, stem) {
  const last = words.length - 1, f = stem || ((w) => w)
  for (let i = 0; i + last < text.length; i++) {
    let j = 0
    while (j < last && f(text[i + j]) === f(words[j])) j++
    if (j === last && (text[i + last].startsWith(words[last]) || f(text[i + last]) === f(words[last]))) return true
  }
  return false
}
