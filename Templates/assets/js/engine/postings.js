// Posting lists as sorted Int32Arrays, and the term shard that holds them. Tight loops over
// typed arrays, because a keystroke on a million-document index must not build an object per document.

export const EMPTY = new Int32Array(0)

export function decode(deltas) {
  const out = new Int32Array(deltas ? deltas.length : 0)
  for (let i = 0, v = 0; i < out.length; i++) out[i] = v += deltas[i]
  return out
}

export function union(lists) {
  lists = lists.filter((l) => l.length)
  if (lists.length < 2) return lists[0] || EMPTY
  const all = new Int32Array(lists.reduce((n, l) => n + l.length, 0))
  lists.reduce((n, l) => (all.set(l, n), n + l.length), 0)
  all.sort()
  let n = 0
  for (let i = 0; i < all.length; i++) if (!n || all[i] !== all[n - 1]) all[n++] = all[i]
  return all.subarray(0, n)
}

// Led by the shortest list and galloping through the others: 10 ids against a 500,000-id
// scope cost ~10·log steps, not 500,000.
export function intersect(lists) {
  if (lists.length < 2) return lists[0] || EMPTY
  lists = [...lists].sort((a, b) => a.length - b.length)
  const lead = lists[0], at = new Int32Array(lists.length), out = new Int32Array(lead.length)
  let n = 0
  next: for (const x of lead) {
    for (let j = 1; j < lists.length; j++) {
      const l = lists[j]
      let lo = at[j], hi = lo + 1, step = 1
      if (l[lo] < x) {
        while (hi < l.length && l[hi] < x) { lo = hi; hi += step <<= 1 }
        if (hi > l.length) hi = l.length
        while (lo + 1 < hi) { const mid = (lo + hi) >>> 1; if (l[mid] < x) lo = mid; else hi = mid }
        at[j] = lo = hi
      }
      if (lo >= l.length) break next
      if (l[lo] !== x) continue next
    }
    out[n++] = x
  }
  return out.subarray(0, n)
}

// Whether the sorted list `set` holds `id`.
export function contains(set, id) {
  let lo = 0, hi = set.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (set[mid] === id) return true
    if (set[mid] < id) lo = mid + 1
    else hi = mid - 1
  }
  return false
}

// The ids of the sorted `list` in none of the sorted lists `outs`.
export const difference = (list, ...outs) => list.filter((id) => !outs.some((out) => contains(out, id)))

// A keystroke touches a few terms of a shard: decode each list when first asked, then keep it.
export class Shard {
  constructor({ prefix, terms = {}, tops, starts = {}, ends = {}, whole = {}, parts = {}, compounds = {}, mentions = {}, joined = [], stems }) {
    this.prefix = prefix
    this.terms = terms
    // Objects list integer-like keys ("1999") first: sort for binary search.
    this.keys = Object.keys(terms).sort()
    // FORMAT.md: [best title matches, best other matches], two delta lists.
    this.tops = tops && tops.map(decode)
    this.startLists = starts
    this.endLists = ends
    this.wholeLists = whole
    this.partLists = parts
    this.compoundLists = compounds
    this.mentionLists = mentions
    this.joined = new Set(joined)
    // Words of the site that are Snowball stems (FORMAT.md "Word forms"), for snowball.js.
    this.stems = stems
    this.memo = new Map()
  }

  startingWith(word) {
    const keys = this.keys
    let lo = 0, hi = keys.length
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (keys[mid] < word) lo = mid + 1; else hi = mid }
    for (hi = lo; hi < keys.length && keys[hi].startsWith(word);) hi++
    return keys.slice(lo, hi)
  }

  // A 4-entry term stores its full count: the inline lists are only its head.
  count(term) {
    const e = this.terms[term]
    return e ? e[2] ?? e[0].length + e[1].length : 0
  }

  postings(term) {
    if (!this.memo.has(term)) {
      const e = this.terms[term] || []
      this.memo.set(term, [decode(e[0]), decode(e[1])])
    }
    return this.memo.get(term)
  }

  // Documents whose title starts with the term, and whose whole title is the term.
  starts(term) { return this.cached('^' + term, this.startLists[term]) }
  // Documents whose title, of several words, ends with the term (its last word or a part of it).
  ends(term) { return this.cached('$' + term, this.endLists[term]) }
  whole(term) { return this.cached('=' + term, this.wholeLists[term]) }
  // Documents whose title holds the term only as a part of a joined name (FORMAT.md "Parts of names").
  parts(term) { return this.cached('-' + term, this.partLists[term]) }
  // Those of `parts` whose title joins the term to another word in prose (`Seattle-Tacoma Intl`).
  compounds(term) { return this.cached('+' + term, this.compoundLists[term]) }
  // Documents holding the term outside their title, of a kind none of whose titles holds it
  // (FORMAT.md "Kinds the words name").
  mentions(term) { return this.cached('~' + term, this.mentionLists[term]) }

  cached(key, deltas) {
    if (!deltas) return EMPTY
    if (!this.memo.has(key)) this.memo.set(key, decode(deltas))
    return this.memo.get(key)
  }
}
