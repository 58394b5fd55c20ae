// Sort and range options (FORMAT.md "Sort and range files"), fetched the first time a search is
// sorted or filtered to a span: one rank per document, so matches are ordered and filtered as
// numbers before any document is fetched. Bounds are read and written as the index writes them
// (`ValueFormatting.swift`): `3:00` for a duration, `1975` for a year, `1975-06-30` for a date.
import { EMPTY } from './postings.js'
import { normalize } from './normalize.js'
import { hashAt } from './loader.js'

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_'

/** A `ValueKeyFile` decoded: `ranks[id]` (-1: no value) and the numbers ranks stand for. */
export function ranksOf(raw) {
  const w = raw.width, n = raw.ranks.length / w, ranks = new Int32Array(n), none = 64 ** w - 1
  const value = new Int8Array(128)
  for (let i = 0; i < 64; i++) value[DIGITS.charCodeAt(i)] = i
  for (let id = 0, at = 0; id < n; id++) {
    let r = 0
    for (let k = 0; k < w; k++) r = r * 64 + value[raw.ranks.charCodeAt(at++)]
    ranks[id] = r === none ? -1 : r
  }
  return { ranks, scale: raw.scale ?? null }
}

/**
 * Matches in rank order (relevance), reordered by the option's value: equal values keep their
 * relevance order, documents without a value come last. `need`: how many the page shows (from
 * the first). A broad query on a large index reads the option's value order a few thousand
 * documents at a time (`chunks`) until the page is full; otherwise every document's rank (one
 * file, fetched once) and a counting sort, two passes over the matches.
 */
export async function sorted(ranked, option, loader, need, docCount) {
  const descending = !!option.descending
  if (option.chunks && need * docCount <= 2 * CHUNK * ranked.length) return walk(ranked, option, loader, need, descending)
  const { ranks } = await loader.load(option.file, ranksOf)
  let top = 0
  for (const id of ranked) if (ranks[id] > top) top = ranks[id]
  const starts = new Int32Array(top + 3)
  const slot = (id) => (ranks[id] < 0 ? top + 1 : descending ? top - ranks[id] : ranks[id]) + 1
  for (const id of ranked) starts[slot(id)]++
  for (let i = 1; i < starts.length; i++) starts[i] += starts[i - 1]
  const out = new Int32Array(ranked.length)
  for (const id of ranked) out[starts[slot(id) - 1]++] = id
  return out
}

// The documents per chunk the index writes (ValueKeyStage.chunkSize): a page of `need` from
// matches that are a share `m/n` of the index takes about need·n/m documents of the order.
const CHUNK = 4096

// The value order chunk by chunk (from the last, descending), each chunk's matches by rank then
// relevance, until `need` are placed; a chunk never cuts a run of equal values. The matches not
// reached follow in relevance order: past the page, unless every chunk was read, and then they
// are those without a value.
async function walk(ranked, option, loader, need, descending) {
  const position = new Map()
  ranked.forEach((id, i) => position.set(id, i))
  const out = []
  for (let i = 0; i < option.chunks && out.length < need; i++) {
    const n = descending ? option.chunks - 1 - i : i
    const chunk = await loader.load(option.file.replace(/\.[0-9a-f]+\.json$/, `-${n}.${hashAt(option.chunkHashes, n)}.json`), chunkOf)
    const found = []
    chunk.ids.forEach((id, j) => position.has(id) && found.push(j))
    found.sort((a, b) => (descending ? chunk.ranks[b] - chunk.ranks[a] : chunk.ranks[a] - chunk.ranks[b]) || position.get(chunk.ids[a]) - position.get(chunk.ids[b]))
    for (const j of found) out.push(chunk.ids[j])
  }
  const placed = new Set(out)
  return Int32Array.from([...out, ...ranked.filter((id) => !placed.has(id))])
}

// A `ValueChunk`: its documents and their ranks (relative to the chunk's first).
const chunkOf = (raw) => {
  let v = 0
  return { ids: raw.ids.map((d) => (v += d)), ranks: ranksOf({ width: raw.width, ranks: raw.ranks }).ranks }
}

// One bound in the format's unit: seconds, a year, days since 1970-01-01, a number.
function read(format, text) {
  text = text.trim()
  if (format === 'duration') {
    if (/^\d+(\.\d+)?$/.test(text)) return Math.round(parseFloat(text) * 60) // plain minutes
    if (!/^\d+(:[0-5]\d){1,2}$/.test(text)) return null
    return text.split(':').reduce((s, part) => s * 60 + Number(part), 0)
  }
  if (format === 'year') return /^\d{1,4}$/.test(text) ? Number(text) : null
  if (format === 'date') {
    const m = /^(\d{4})(?:-(\d\d)(?:-(\d\d))?)?$/.exec(text)
    return m ? Date.UTC(+m[1], (+m[2] || 1) - 1, +m[3] || 1) / 86400000 : null
  }
  const n = text === '' ? NaN : Number(text)
  return Number.isFinite(n) ? n : null
}

/** A bound as a token shows it (the inverse of `read`). */
export function write(format, v) {
  if (format === 'date') return new Date(v * 86400000).toISOString().slice(0, 10)
  if (format !== 'duration') return String(v)
  const h = Math.floor(v / 3600), m = Math.floor((v % 3600) / 60), s = String(v % 60).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/**
 * A span typed or from an address: `1950..1990`, `1950–1990`, `1950-1990` (not for dates),
 * `<3:00`, `<=3:00`, `≤3:00`, `>5:00`, `>=`, `≥`, `1950..`, `..1990`, or one value. Null when a
 * bound does not read; `value` is the span as a token shows it.
 */
export function parseSpan(format, text) {
  text = text.replace(/\s+/g, '')
  let lo = null, hi = null, loOpen = false, hiOpen = false
  const cmp = /^(<=|>=|[<>≤≥])(.+)$/.exec(text)
  // A date's own hyphens are no separator: `1990-1995` is read as `1990–1995`, `1990-01-01` as a day.
  const pair = cmp ? null : format === 'date'
    ? /^(.*?)(\.\.|[–—])(.*)$/.exec(text.replace(/^(\d{4}(?:-\d\d){0,2})-(?=\d{4})/, '$1–'))
    : /^(.*?)(\.\.|[–—]|-(?=\d))(.*)$/.exec(text)
  if (cmp) {
    const v = read(format, cmp[2])
    if (v == null) return null
    if (cmp[1][0] === '<' || cmp[1] === '≤') [hi, hiOpen] = [v, cmp[1] === '<']
    else [lo, loOpen] = [v, cmp[1] === '>']
  } else if (pair && (pair[1] || pair[3]) && !(pair[2] === '-' && !pair[1])) {
    lo = pair[1] ? read(format, pair[1]) : null
    hi = pair[3] ? read(format, pair[3]) : null
    if ((pair[1] && lo == null) || (pair[3] && hi == null) || (lo != null && hi != null && lo > hi)) return null
  } else {
    lo = hi = read(format, text)
    if (lo == null) return null
  }
  const w = (v) => write(format, v)
  const value = lo != null && hi != null
    ? (lo === hi ? w(lo) : `${w(lo)}–${w(hi)}`)
    : lo != null ? `${loOpen ? '>' : '≥'}${w(lo)}` : `${hiOpen ? '<' : '≤'}${w(hi)}`
  return { lo, hi, loOpen, hiOpen, value }
}

/** The documents whose value of `range` lies in the span, ascending; none for a span that does not read. */
export async function within(range, text, loader) {
  const { ranks, scale } = await loader.load(range.file, ranksOf), span = parseSpan(range.format, text)
  if (!span || !scale) return EMPTY
  const ok = (v) => (span.lo == null || (span.loOpen ? v > span.lo : v >= span.lo)) &&
    (span.hi == null || (span.hiOpen ? v < span.hi : v <= span.hi))
  let a = 0, b = scale.length - 1
  while (a <= b && !ok(scale[a])) a++
  while (b >= a && !ok(scale[b])) b--
  const out = new Int32Array(ranks.length)
  let n = 0
  for (let id = 0; id < ranks.length; id++) if (ranks[id] >= a && ranks[id] <= b) out[n++] = id
  return out.subarray(0, n)
}

/**
 * A span typed after a range's id or label and a colon (`length:<3:00`, `Year: 1950-1990`) as a
 * token, with its count, before the facet tokens `others` offers for the text.
 */
export async function typedSpans(manifest, text, loader, others) {
  const at = text.indexOf(':'), name = normalize(text.slice(0, at)).trim()
  const r = manifest.ranges?.find((x) => x.id === name || normalize(x.label) === name)
  const span = r && parseSpan(r.format, text.slice(at + 1))
  const typed = span ? [{ facet: r.id, facetLabel: r.label, value: span.value, count: (await within(r, span.value, loader)).length }] : []
  return [...typed, ...others(manifest, text)]
}
