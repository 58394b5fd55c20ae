// Query completions that keep the typed words, as Apple Music and Algolia's query suggestions
// do: phrases from the titles of the best matches (`led zep` → `led zeppelin`, and after a
// space the next word), then the last word completed with a term that finds something together
// with every other word and filter, most documents first. Run-together forms (`acdc`,
// `claptoncollinspappalardi`) find records but are never offered as text.
import { intersect, union } from './postings.js'
import { queryWords } from './normalize.js'

const TERMS = 24 // candidate terms tried for the last word
const bare = (chunk) => chunk.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')

// Where the words run in the title: every word whole except the last, which may be a prefix
// (or must be whole too when `next`, the phrase then taking the title's next word). A title's
// words are its chunks (between spaces), and within a chunk its parts joined by `-`, `.`, `_` or
// `/`: `network man` runs in "network-manager" and the phrase is that text, punctuation kept.
function phrase(title, words, next) {
  return run(title, words, next, false) ?? run(title, words, next, true)
}

function run(title, words, next, parts) {
  const units = []
  for (const chunk of title.split(/\s+/)) {
    if (!queryWords(chunk).length) continue
    const pieces = parts ? chunk.split(/(?<=[-._/])/) : [chunk]
    pieces.forEach((p, k) => { if (queryWords(p).length) units.push({ text: p, glued: k > 0 }) })
  }
  const norms = units.map((u) => queryWords(u.text).join(''))
  const n = words.length
  for (let i = 0; i + n <= units.length; i++) {
    let k = 0
    while (k < n - 1 && norms[i + k] === words[k]) k++
    if (k < n - 1) continue
    const last = norms[i + n - 1]
    if (next ? last !== words[n - 1] || i + n >= units.length : !last.startsWith(words[n - 1])) continue
    let end = i + n + (next ? 1 : 0)
    // A phrase that ends inside a name takes the name to its end: `network man` → network-manager.
    if (parts && !next) while (end < units.length && units[end].glued) end++
    const text = units.slice(i, end).map((u, j) => (j && !u.glued ? ' ' : '') + u.text).join('')
    return bare(text).toLowerCase()
  }
  return null
}

// The spelling each word has in the shown records' titles and subtitles (`beyonce` →
// `beyoncé`): the index holds its terms folded, a person reads them as the data writes them.
function spellings(docs) {
  const forms = new Map()
  for (const doc of docs) {
    for (const chunk of `${doc.title} ${doc.subtitle ?? ''}`.split(/\s+/)) {
      const w = queryWords(chunk)
      if (w.length === 1 && !forms.has(w[0])) forms.set(w[0], bare(chunk).toLowerCase())
    }
  }
  return forms
}

export function completions({ text, words, matches, filters, docs, limit = 4 }) {
  if (!words.length) return []
  const typed = text.trim().toLowerCase(), next = /\s$/.test(text)
  // One completion per search: `beyoncé` and `beyonce` find the same records.
  const key = (c) => queryWords(c).join(' ')
  const out = [], seen = new Set([key(typed)])
  const offer = (c) => { if (c && !seen.has(key(c)) && out.length < limit) { seen.add(key(c)); out.push(c) } }
  for (const doc of docs) offer(phrase(doc.title, words, next))
  if (next) return out
  // The last word completed: typed words kept as typed, the term's documents checked against
  // the other words and the filters.
  const head = text.replace(/\S*\s*$/, ''), others = matches.slice(0, -1).map((m) => m.all)
  const forms = spellings(docs), spelled = (t) => forms.get(t) ?? t
  const last = matches[matches.length - 1]
  const candidates = last.found.filter(([s, t]) => t !== words[words.length - 1] && !s.joined.has(t))
    .sort(([s, a], [r, b]) => r.count(b) - s.count(a)).slice(0, TERMS)
  const scored = []
  for (const [s, t] of candidates) {
    // A single word with no filter: every document of the term counts, no list work needed.
    if (!others.length && !filters.length) {
      const [a, b] = s.postings(t)
      scored.push([`${head}${spelled(t)}`.toLowerCase(), s.count(t), Math.min(a[0] ?? Infinity, b[0] ?? Infinity)])
      continue
    }
    const found = intersect([...others, ...filters, union(s.postings(t))])
    if (found.length) scored.push([`${head}${spelled(t)}`.toLowerCase(), found.length, found[0]])
  }
  scored.sort((a, b) => b[1] - a[1] || a[2] - b[2])
  for (const [c] of scored) offer(c)
  return out
}
