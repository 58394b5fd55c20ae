// The ranking rules (FORMAT.md "Ranking"), in order: fewest typos; every word in the title (or
// a field weighing like it); the title starts with the first word; the whole title is the
// query; every word matched whole; every word whole in the title; then popularity, which is
// the document number. Each rule is a set of documents; a document's score has one bit per
// rule it meets, and documents are read best score first, each score in number order.
import { EMPTY, intersect } from './postings.js'

export function rules(matches, final, lastWord) {
  const first = matches[0], single = matches.length === 1
  // While the last word is one or two letters, "whole word" says little (`me`, `m`).
  const whole = final || lastWord.length >= 3
  const exact = (m, i) => (whole || i < matches.length - 1 ? m.exact : m.all)
  const exactTitle = (m, i) => (whole || i < matches.length - 1 ? m.exactTitle : m.title)
  return [
    intersect(matches.map((m) => m.clean)),
    intersect(matches.map((m) => m.title)),
    first.starts,
    single ? first.whole : EMPTY,
    intersect(matches.map(exact)),
    intersect(matches.map(exactTitle)),
  ]
}

// `all` ordered by the rules: a counting sort on the score keeps number order within a score.
export function rank(all, sets) {
  const score = new Uint8Array(all.length)
  sets.forEach((set, k) => {
    const bit = 1 << (sets.length - 1 - k)
    for (let i = 0, j = 0; i < all.length && j < set.length;) {
      if (all[i] < set[j]) i++
      else if (all[i] > set[j]) j++
      else { score[i] |= bit; i++; j++ }
    }
  })
  const top = (1 << sets.length) - 1, start = new Int32Array(top + 2)
  for (let i = 0; i < all.length; i++) start[top - score[i] + 1]++
  for (let s = 1; s <= top + 1; s++) start[s] += start[s - 1]
  const out = new Int32Array(all.length)
  for (let i = 0; i < all.length; i++) out[start[top - score[i]]++] = all[i]
  return out
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
