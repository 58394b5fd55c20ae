// Search normalisation, identical to the Swift index builder's (FORMAT.md "Normalisation")
// Tests/Shared/normalization-cases.json holds both sides to it.
const FOLD = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' }
const CHUNK = /[^\p{White_Space}]+/gu
const TERM = /[\p{L}\p{N}]+/gu

// Terms keep apostrophes as separators (`keep`), so L'Arc is found by `l arc`, `arc` and `larc`.
export const normalize = (text, keep = false) => String(text).normalize('NFKD').replace(/\p{Mn}/gu, '')
  // JS lower-cases a word-final Σ to ς; Swift maps scalar by scalar (σ).
  .replace(/Σ/g, 'σ').toLowerCase()
  .replace(/[ßæœøđðłþı]/g, (c) => FOLD[c]).replace(/['’ʼ]/g, keep ? "'" : '')

// A lone `&` is the word `and`, so `page and plant` finds Page & Plant.
const chunks = (s) => (s.match(CHUNK) || []).map((c) => c.match(TERM) || (/^&+$/.test(c) ? ['and'] : []))

// AC/DC is indexed as ac, dc and acdc, so that ac/dc, acdc and "ac dc" all find it; a chunk
// of three runs or more also as each tail run together (python3-zope.interface: zopeinterface).
// Duplicates stay, as in the Swift TextNormalizer.terms.
const tails = (ts) => ts.slice(1, -1).map((_, i) => ts.slice(i + 1).join(''))
export const terms = (text) => chunks(normalize(text, true)).flatMap((ts) => (ts.length > 1 ? [...ts, ts.join(''), ...tails(ts)] : ts))

export const queryChunks = (text) => chunks(normalize(text, true)).filter((ts) => ts.length)
export const queryWords = (text) => queryChunks(text).map((ts) => ts.join(''))

// [start, end) UTF-16 ranges of the original title. Normalising code point by code point
// remembers where each normalised unit came from (é becomes two units under NFKD).
export function highlightRanges(title, words) {
  const letters = normalize(title).replace(/[^\p{L}\p{N}]/gu, ''), ranges = []
  if (!words.some((w) => w && letters.includes(w))) return ranges // most results match elsewhere
  let s = ''
  const from = [], to = []
  for (let i = 0; i < title.length;) {
    const ch = String.fromCodePoint(title.codePointAt(i))
    const n = ch < '\x80' ? ch.toLowerCase() : normalize(ch, true)
    for (let k = 0; k < n.length; k++) { s += n[k]; from.push(i); to.push(i + ch.length) }
    i += ch.length
  }
  const test = (term, at) => {
    for (const w of words) {
      if (!w || !term.startsWith(w)) continue
      let end = to[at(w.length - 1)]
      while (/\p{M}/u.test(title[end] || '')) end++ // a decomposed é keeps its accent inside the mark
      ranges.push([from[at(0)], end])
    }
  }
  for (const chunk of s.matchAll(CHUNK)) {
    const parts = [...chunk[0].matchAll(TERM)]
    for (const m of parts) test(m[0], (k) => chunk.index + m.index + k)
    // The chunk run together, and each of its tails (`terms`).
    for (let t = 0; t < parts.length - 1; t++) {
      const tail = parts.slice(t)
      const pos = tail.flatMap((m) => Array.from({ length: m[0].length }, (_, k) => chunk.index + m.index + k))
      test(tail.map((m) => m[0]).join(''), (k) => pos[k])
    }
  }
  ranges.sort((a, b) => a[0] - b[0])
  const out = []
  for (const r of ranges) {
    const last = out[out.length - 1]
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1])
    else out.push(r)
  }
  return out
}
