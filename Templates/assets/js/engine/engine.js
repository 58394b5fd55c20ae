// The query engine: words → term shards → posting lists → filters → ranking rules → one page
// of documents. No DOM, so it runs in Node tests. A call reads only immutable cached data, so
// overlapping calls never mix their answers (the UI still drops stale ones).
import { normalize, queryWords, highlightRanges } from './normalize.js'
import { createLoader } from './loader.js'
import { EMPTY, decode, intersect } from './postings.js'
import { createMatcher, NONE } from './match.js'
import { rules, rank, page, proximityFirst } from './rank.js'
import { completions } from './complete.js'

const MEMO = 500 // word matches kept: a session's keystrokes, not the whole index
// Up to this many documents the kind files are a few KB: every chip gets its count (and
// empty chips can hide). Past it, Top Results loads none and a chip loads only its own.
const CHEAP_KINDS = 50000

export function createEngine({ manifestURL, fetchJSON } = {}) {
  const loader = createLoader({ manifestURL, fetchJSON })
  const site = new URL('../', loader.base).href
  const memo = new Map()
  const state = { kindOf: null, groupOf: null, known: new Set() }
  // Every document row seen, from term shards' `docs` or document shards: a document shard is
  // fetched only for a row no term shard carried.
  const rows = new Map()
  const learn = (docs, first = null) => docs.forEach((d, i) => {
    const id = first === null ? d[0] : first + i, row = first === null ? d.slice(1) : d
    rows.set(id, row)
    if (state.kindOf) state.kindOf[id] = row[0]
  })
  const matchWord = createMatcher(loader, learn)

  const engine = {
    manifest: null,
    ready: loader.manifest.then((m) => {
      state.kindOf = new Uint8Array(m.docCount).fill(255) // 255 until a kind or document file tells
      return (engine.manifest = m)
    }),
    suggest, search, tokenSuggestions,
  }
  engine.ready.catch(() => {}) // callers see the failure; an unwatched one must not reach the console
  const ids = (path) => loader.load(path, (raw) => decode(raw.ids))

  function match(word, final) {
    const key = (final ? '!' : '?') + word
    if (!memo.has(key)) {
      const m = matchWord(word, final)
      m.catch(() => memo.delete(key))
      if (memo.size >= MEMO) memo.delete(memo.keys().next().value)
      memo.set(key, m)
    }
    return memo.get(key)
  }

  // A token that names nothing (a stale URL) admits nothing: null.
  function filters(scope, tokens) {
    const m = engine.manifest, paths = []
    const s = m.scopes?.find((x) => x.id === scope)
    if (s?.file) paths.push(s.file)
    for (const { facet, value } of tokens) {
      const v = m.facets?.find((f) => f.id === facet)?.values.find((x) => x[0] === value)
      if (!v) return null
      paths.push(v[2])
    }
    return Promise.all(paths.map(ids))
  }

  async function query(text, scope, tokens, final) {
    const words = text ? queryWords(text) : []
    if (!words.length && !tokens.length) return null
    const [lists, matches] = await Promise.all([filters(scope, tokens), Promise.all(words.map((w) => match(w, final)))])
    if (!lists) return null
    await groups()
    return {
      words, matches, lists,
      all: intersect([...matches.map((m) => m.all), ...lists]),
      rules: matches.length ? rules(matches, final, words[words.length - 1]) : [],
      marks: matches.flatMap((m) => m.marks),
      corrected: matches.filter((m) => m.corrected).map((m) => m.corrected),
    }
  }

  // Distinct kinds (FORMAT.md): each document's group, numbered apart across kinds.
  function groups() {
    const { kinds } = engine.manifest
    if (!kinds.some((k) => k.distinct)) return null
    state.groups ??= Promise.all(kinds.map((k, i) => k.distinct && Promise.all([learnKind(i), loader.load(k.distinct)])))
      .then((files) => {
        const groupOf = new Int32Array(state.kindOf.length).fill(-1)
        let base = 0
        files.forEach((f) => {
          if (!f) return
          const [list, { groups }] = f
          let most = 0
          list.forEach((id, j) => { groupOf[id] = base + groups[j]; most = Math.max(most, groups[j] + 1) })
          base += most
        })
        state.groupOf = groupOf
      })
    return state.groups
  }

  // Document shards are named by number in one folder (FORMAT.md).
  const docShard = (n) => loader.load(`${engine.manifest.docShardFolder}${n}.json`, (raw) => learn(raw.docs, raw.first))

  async function documents(list, marks) {
    const { docsPerShard, kinds } = engine.manifest
    await Promise.all(list.filter((id) => !rows.has(id)).map((id) => docShard(Math.floor(id / docsPerShard))))
    return list.map((id) => {
      const [kind, title, subtitle, url, hue] = rows.get(id)
      return {
        id, kind: kinds[kind].id, kindLabel: kinds[kind].singular, title, subtitle,
        url: safeLink(url, site), hue, marks: highlightRanges(title, marks),
      }
    })
  }

  // A kind's id file, cached as marks in the kind map; returns its documents.
  function learnKind(i) {
    return loader.load(engine.manifest.kinds[i].file, (raw) => {
      const list = decode(raw.ids)
      for (const id of list) state.kindOf[id] = i
      state.known.add(i)
      return list
    })
  }

  // A match's kind comes from the kinds' id files (else from document shards); `which`
  // limits the files to the kinds a search needs.
  async function learnKinds(list, which) {
    const { kinds, docsPerShard } = engine.manifest
    if (kinds.every((k) => k.file)) return Promise.all(kinds.map((k, i) => (which && !which.includes(i) ? null : learnKind(i))))
    const need = new Set()
    for (const id of list) if (state.kindOf[id] === 255) need.add(Math.floor(id / docsPerShard))
    await Promise.all([...need].map(docShard))
    kinds.forEach((_, i) => state.known.add(i))
  }

  async function suggest(text, { scope = 'all', tokens = [] } = {}) {
    const m = await engine.ready
    const q = await query(text, scope, tokens, false)
    if (!q) return { text, completions: [], docs: [], corrected: [] }
    const { list } = page(rank(q.all, q.rules), 0, m.options?.suggestions ?? 8, state.groupOf)
    const docs = wholeFirst(proximityFirst(await documents(list, q.marks), q.words, q.rules, queryWords), q.words)
    const offered = q.matches.length ? completions({ text, words: q.words, matches: q.matches, filters: q.lists, docs }) : []
    return { text, completions: offered, docs, corrected: q.corrected }
  }

  // Browsing a kind with no query (`?kind=albums`): all of it, most popular first, in scope.
  async function browse(k, scope) {
    const [lists, list] = await Promise.all([filters(scope, []), learnKinds(EMPTY, [k]).then(() => learnKind(k))])
    await groups()
    return { all: intersect([list, ...lists]), rules: [], marks: [], corrected: [] }
  }

  async function search(text, { scope = 'all', tokens = [], kind = 'top', offset = 0, limit = 50 } = {}) {
    const m = await engine.ready
    const totals = { top: 0 }
    for (const k of m.kinds) totals[k.id] = 0
    const k = m.kinds.findIndex((x) => x.id === kind)
    let q = await query(text, scope, tokens, true)
    if (!q && k >= 0 && m.kinds[k].file && !(text && queryWords(text).length)) q = await browse(k, scope)
    if (!q) return { text, docs: [], total: 0, totals, corrected: [] }
    const cheap = m.docCount <= CHEAP_KINDS
    if (cheap || k >= 0) await learnKinds(q.all, cheap ? null : [k])
    count(q.all, totals)
    const all = k < 0 ? q.all : q.all.filter((id) => state.kindOf[id] === k)
    const { list, total } = page(rank(all, q.rules), offset, limit, state.groupOf)
    const docs = proximityFirst(await documents(list, q.marks), q.words ?? [], q.rules, queryWords)
    return { text, docs: offset ? docs : wholeFirst(docs, q.words ?? []), total, totals, corrected: q.corrected }
  }

  // The "whole title is the query" rule for a query of several words, whose run-together
  // title is no term of the index: applied to the first page. Such a document meets every
  // other rule too, so moving it to the front never breaks their order.
  function wholeFirst(docs, words) {
    if (words.length < 2) return docs
    const key = words.join(''), whole = (d) => queryWords(d.title).join('') === key
    return [...docs.filter(whole), ...docs.filter((d) => !whole(d))]
  }

  // Chip totals; a distinct kind counts its groups. A kind whose file is not loaded has an
  // unknown total: undefined, not 0.
  function count(all, totals) {
    const m = engine.manifest, counts = new Int32Array(256), seen = new Set()
    let top = 0
    for (const id of all) {
      const g = state.groupOf?.[id] ?? -1
      if (g >= 0 && seen.has(g)) continue
      if (g >= 0) seen.add(g)
      counts[state.kindOf[id]]++
      top++
    }
    m.kinds.forEach((x, i) => { totals[x.id] = state.known.has(i) ? counts[i] : undefined })
    totals.top = top
  }

  function tokenSuggestions(text = '') {
    const q = normalize(text).trim(), out = []
    for (const f of engine.manifest?.facets || []) {
      const label = normalize(f.label).startsWith(q)
      for (const [value, count] of f.values) {
        if (label || startsWord(normalize(value), q)) out.push({ facet: f.id, facetLabel: f.label, value, count, icon: f.icon })
      }
    }
    return out.sort((a, b) => b.count - a.count)
  }

  return engine
}

// "rap" should offer "Hip Hop/Rap": any word of the value may begin with the text.
function startsWord(name, q) {
  for (let i = name.indexOf(q); i >= 0; i = name.indexOf(q, i + 1)) {
    if (!i || !/[\p{L}\p{N}]/u.test(name[i - 1])) return true
  }
  return false
}

// Links the page may follow: the site's own, or http, https and mailto. The
// generator refuses any other scheme at build time; this keeps an index made
// elsewhere from putting a script behind a result.
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:'])

/** The absolute form of a record's link, or the site's root when unsafe. */
export function safeLink(url, site) {
  try {
    const link = new URL(url, site)
    return SAFE_PROTOCOLS.has(link.protocol) ? link.href : new URL('./', site).href
  } catch {
    return new URL('./', site).href
  }
}
