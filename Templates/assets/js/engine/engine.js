// The query engine: words → term shards → posting lists → filters → ranking rules → one page
// of documents. No DOM, so it runs in Node tests. A call reads only immutable cached data, so
// overlapping calls never mix their answers (the UI still drops stale ones). Document rows live
// in documents.js, kinds and distinct groups in kinds.js, search tokens in tokens.js.
import { queryChunks, queryWords } from './normalize.js'
import { createLoader } from './loader.js'
import { EMPTY, contains, decode, intersect, union } from './postings.js'
import { createMatcher } from './match.js'
import { rules, rank, page, proximityFirst, tiers } from './rank.js'
import { completions } from './complete.js'
import { createDocuments } from './documents.js'
import { createKinds } from './kinds.js'
import { tokenSuggestions } from './tokens.js'
import { stemmer } from './forms.js'

export { safeLink } from './documents.js'

const MEMO = 500 // word matches kept: a session's keystrokes, not the whole index
const ANSWERS = 16 // final searches kept (pages of results with their rows)
// Suggestions kept: a word typed, backspaced over and typed again (`lov`, `lo`, `lov`) asks for
// answers it had a moment ago, each 0.1–0.4 ms of ranking, rows and completions at 100,000
// records (Tests/bench/README.md "Short prefixes at 100k").
const SUGGESTED = 32
// Up to this many documents the kind files are a few KB: every chip gets its count (and
// empty chips can hide). Past it, Top Results loads none and a chip loads only its own.
const CHEAP_KINDS = 50000
// The optional-words code (optional.js) is fetched only when every word together finds nothing;
// a specifier the bundler cannot read keeps it out of the page's bundle, as match.js does typo.js.
const OPTIONAL = import.meta.url.includes('/engine/') ? './optional.js' : './engine/optional.js'
// Sorting and ranges (values.js) come the first time a search is sorted or has a span token.
const VALUES = OPTIONAL.replace('optional', 'values')
// Top Results' top hit (tophit.js) comes the first time its first rows of two kinds tie.
const TOPHIT = OPTIONAL.replace('optional', 'tophit')
let hits = null

export function createEngine({ manifestURL, fetchJSON } = {}) {
  const loader = createLoader({ manifestURL, fetchJSON })
  const memo = new Map(), answers = new Map(), suggested = new Map()
  // Rows carry their kind, and kinds without a file learn from document shards: each needs the
  // other, so the rows' callback names `kinds`, which exists before any row arrives.
  const docs = createDocuments(loader, (id, kind) => kinds.note(id, kind))
  const kinds = createKinds(loader, docs)
  const matchWord = createMatcher(loader, docs.learn)
  let tierOf = null // the manifest's popularity tiers (rank.js)

  const engine = {
    manifest: null,
    ready: loader.manifest.then((m) => {
      kinds.start(m)
      tierOf = tiers(m.popularityTiers)
      return (engine.manifest = m)
    }),
    suggest, search,
    // A span typed after a range's name (`length:<3:00`) needs values.js: a promise then.
    tokenSuggestions: (text) => /.:./.test(text) && engine.manifest?.ranges
      ? values((v) => v.typedSpans(engine.manifest, text, loader, tokenSuggestions))
      : tokenSuggestions(engine.manifest, text),
  }
  const values = (f) => import(VALUES).then(f)
  engine.ready.catch(() => {}) // callers see the failure; an unwatched one must not reach the console
  // The manifest the search page embeds leaves out the facet values' files and the kinds'
  // standing, which only a token or a top hit needs (FORMAT.md "Deferred fields"): the loader
  // fetches them once, the first time one does, and they are written into the manifest.
  const whole = async (need = true) => {
    const m = engine.manifest
    if (!need || !m.deferred) return
    const d = await loader.load(m.deferred)
    d.facets.forEach((files, i) => files.forEach((file, j) => (m.facets[i].values[j][2] = file)))
    d.standing?.forEach((s, i) => (m.kinds[i].standing = s))
  }
  const ids = (path) => loader.load(path, (raw) => decode(raw.ids))

  const match = (word, final, asTyped) => kept(memo, MEMO, (final ? '!' : '?') + (asTyped ? '=' : '') + word, () => matchWord(word, final, asTyped))

  // A word with inner punctuation (`zope.int`, `ac/dc`) is its parts run together, as the index
  // holds a name's chunk; when that finds nothing as typed, its parts are words of their own
  // (`python3-zope.interface` holds `zope` and `interface`, not `zopeinterface`), and only when
  // one of them finds nothing either is the run-together word corrected. [word, match] pairs.
  async function chunk(parts, final, asTyped) {
    const joined = parts.join('')
    if (parts.length < 2) return [[joined, await match(joined, final, asTyped)]]
    const whole = await match(joined, final, true)
    if (whole.all.length) return [[joined, whole]]
    const each = await Promise.all(parts.map((p) => match(p, final, true)))
    if (each.every((m) => m.all.length)) return parts.map((p, i) => [p, each[i]])
    return [[joined, asTyped ? whole : await match(joined, final, false)]]
  }

  // A token that names nothing (a stale URL) admits nothing: null. Values of one facet
  // combine with OR (Genre: Blues, Genre: Rock), facets and the scope with AND, as in
  // InstantSearch: one list per facet. A range's token is a span (`Length: <3:00`).
  function filters(scope, tokens) {
    const m = engine.manifest, groups = new Map()
    const add = (key, list) => groups.set(key, [...(groups.get(key) ?? []), list])
    const s = m.scopes?.find((x) => x.id === scope)
    if (s?.file) add('', ids(s.file))
    for (const { facet, value } of tokens) {
      const v = m.facets?.find((f) => f.id === facet)?.values.find((x) => x[0] === value)
      const r = !v && m.ranges?.find((x) => x.id === facet)
      if (!v && !r) return null
      add(facet, v ? ids(v[2]) : values((x) => x.within(r, value, loader)))
    }
    return Promise.all([...groups.values()].map(async (lists) => union(await Promise.all(lists))))
  }

  async function query(text, scope, tokens, final, asTyped = false) {
    const chunks = text ? queryChunks(text) : []
    if (!chunks.length && !tokens.length) return null
    const [lists, pairs] = await Promise.all([whole(tokens.length).then(() => filters(scope, tokens)), Promise.all(chunks.map((ts) => chunk(ts, final, asTyped)))])
    if (!lists) return null
    const typed = pairs.flat().map(([w]) => w), found = pairs.flat().map(([, m]) => m)
    await kinds.groups()
    // When every word together finds nothing, some are optional (FORMAT.md "Optional words").
    const kept = found.length < 2 || intersect([...found.map((m) => m.all), ...lists]).length
      ? found.map((_, i) => i)
      : (await import(OPTIONAL)).optional(found, lists)
    const words = kept.map((i) => typed[i]), matches = kept.map((i) => found[i])
    const dropped = typed.filter((_, i) => !kept.includes(i))
    // A dropped last word leaves the words before it, which the person finished typing.
    const complete = final || kept[kept.length - 1] !== typed.length - 1
    const more = dropped.length > 1 ? [union(found.filter((_, i) => !kept.includes(i)).map((m) => m.all))] : []
    // A record the query names (FORMAT.md "Named records"): its whole title is a finished word,
    // the rest describe it (`git version control`, `gimp photo editor`). It is found though it
    // holds no other word, and comes first.
    const finished = matches.length > 1 ? (complete ? matches : matches.slice(0, -1)) : []
    const named = finished.length ? intersect([union(finished.map((m) => m.named)), ...lists]) : EMPTY
    const all = intersect([...matches.map((m) => m.all), ...lists])
    const ranked = matches.length ? rules(matches, complete, words[words.length - 1]) : []
    // A record holding every word, untouched by typos, one of them whole in its title, still
    // comes before a named record (`metallica puppets` is Master of Puppets, then Metallica;
    // `iphone case` is the case); then the named record; then the others.
    const titled = named.length ? intersect([all, ranked[0], union(matches.map((m) => m.exactTitle))]) : EMPTY
    return {
      words, matches, lists, dropped,
      all: union([all, named]),
      rules: named.length ? [union([named, titled]), ...more, ...ranked] : [...more, ...ranked],
      // The last rule is the title's first word, which a popularity tier comes before.
      tierOf: ranked.length ? tierOf : null,
      marks: matches.flatMap((m) => m.marks),
      corrected: matches.filter((m) => m.corrected).map((m) => m.corrected),
    }
  }

  // The same text again is the same answer, as for `search`: the index never changes, and a
  // suggestion's rows and completions depend on nothing else (no chip totals).
  function suggest(text, { scope = 'all', tokens = [] } = {}) {
    return kept(suggested, SUGGESTED, JSON.stringify([text, scope, tokens]), () => suggestAnew(text, scope, tokens))
  }

  async function suggestAnew(text, scope, tokens) {
    const m = await engine.ready
    const q = await query(text, scope, tokens, false)
    if (!q) return { text, completions: [], docs: [], corrected: [], dropped: [] }
    const { list } = page(rank(q.all, q.rules, q.tierOf), 0, m.options?.suggestions ?? 8, kinds.groupOf)
    const shown = wholeFirst(proximityFirst(await docs.documents(m, list, q.marks, q.matches?.map((x) => x.marks)), q.words, q.rules, stemmer(m.options)), q.words)
    // Completions keep every typed word, so none are offered for a query that dropped some.
    const offered = q.matches.length && !q.dropped.length ? completions({ text, words: q.words, matches: q.matches, filters: q.lists, docs: shown }) : []
    return { text, completions: offered, docs: shown, corrected: shown.length ? q.corrected : [], dropped: q.dropped }
  }

  // Browsing a kind with no query (`?kind=albums`): all of it, most popular first, in scope.
  // Never with tokens: a token always filters. One that names nothing (a link from before the
  // data changed) admits nothing, and the page shows "No results" beside the token, which the
  // person can remove; listing the whole kind would pass everything off as the filter's answer.
  async function browse(k, scope) {
    const [lists, list] = await Promise.all([filters(scope, []), kinds.learnAll(EMPTY, [k]).then(() => kinds.learn(k))])
    await kinds.groups()
    return { all: intersect([list, ...lists]), rules: [], marks: [], corrected: [], dropped: [] }
  }

  // The same final search again (Enter on the same words, Back to them) is the same answer: the
  // index never changes. Kept per the kinds whose files are in, since those give chip totals.
  function search(text, options = {}) {
    return kept(answers, ANSWERS, JSON.stringify([text, options, kinds.known]), () => searchAnew(text, options))
  }

  // `asTyped`: no word is corrected ("Search instead for …").
  // `sort`: the id of a sort option (FORMAT.md "Sort and range files"); relevance without one.
  async function searchAnew(text, { scope = 'all', tokens = [], kind = 'top', offset = 0, limit = 50, asTyped = false, sort = '' } = {}) {
    const m = await engine.ready
    const totals = { top: 0 }
    for (const k of m.kinds) totals[k.id] = 0
    const k = m.kinds.findIndex((x) => x.id === kind)
    const cheap = m.docCount <= CHEAP_KINDS
    // A small index counts every chip from the kinds' files, whatever the words find: a chip's
    // rows need them, so they are asked for first and arrive while the words are matched (Top
    // Results' rows do not: see `counted`).
    if (cheap && k >= 0 && text?.trim() && (m.kindsFile || m.kinds.every((x) => x.file))) kinds.learnAll(EMPTY, null).catch(() => {})
    let q = await query(text, scope, tokens, true, asTyped)
    // No query is either no words and no tokens, which browses the kind, or a token that names
    // nothing, which must not.
    if (!q && !tokens.length && k >= 0 && (m.kinds[k].file || m.kindsFile)) q = await browse(k, scope)
    if (!q) return { text, docs: [], total: 0, totals, corrected: [], dropped: [] }
    // The chips' totals need the kinds' files; Top Results' rows do not, so they never wait for
    // them: on a small index whose kinds' files are not all in yet, `counted()` asks for them
    // (once) and brings the totals, and the page calls it once the rows are drawn.
    if (k >= 0) await kinds.learnAll(q.all, cheap ? null : [k])
    const all = k < 0 ? q.all : q.all.filter((id) => kinds.of(id) === k)
    const order = m.sorts?.find((x) => x.id === sort), ranked = rank(all, q.rules, q.tierOf)
    const { list, total } = page(order ? await values((x) => x.sorted(ranked, order, loader, kinds.groupOf ? Infinity : offset + limit, m.docCount)) : ranked, offset, limit, kinds.groupOf)
    const stem = stemmer(m.options)
    const rows = await docs.documents(m, list, q.marks, q.matches?.map((x) => x.marks))
    kinds.count(q.all, totals)
    let counting = null
    const counted = cheap && kinds.known < m.kinds.length
      ? () => (counting ??= kinds.learnAll(q.all, null).then(() => kinds.count(q.all, { ...totals })))
      : null
    // A sorted page is in the option's order: proximity and whole titles reorder relevance only.
    const shown = order ? rows : proximityFirst(rows, q.words ?? [], q.rules, stem)
    // A correction is never announced over No Results.
    // Top Results' first page opens with its top hit; a chip's list is one kind, in its own order.
    const first = offset || order ? shown : wholeFirst(shown, q.words ?? [])
    return {
      text, docs: k < 0 && !offset && !order ? await topHit(first, q.words ?? [], q.rules, m.kinds, whole) : first, total, totals, counted,
      corrected: q.all.length ? q.corrected : [], dropped: q.all.length ? q.dropped : [],
    }
  }

  return engine
}

// A first page with its top hit first (FORMAT.md "Top hit"): only one word of 3 letters or more
// can leave rows of two kinds tied on every rule (tokens alone list what they admit by number; `m`
// says too little; several words are told apart by proximity and a whole title too).
async function topHit(docs, words, sets, kinds, whole) {
  const score = (d) => sets.reduce((s, set) => s * 2 + contains(set, d.id), 0)
  const tied = (d) => d.kind !== docs[0].kind && score(d) === score(docs[0])
  if (words.length !== 1 || words[0].length < 3 || !docs.slice(1, 8).some(tied)) return docs
  // The kinds' standing is fetched beside the module. Offline before either was ever fetched,
  // the page keeps rule 8's order (a module that failed is asked for again next time).
  hits ??= import(TOPHIT).catch(() => (hits = null))
  const [module] = await Promise.all([hits, whole().catch(() => {})])
  return module?.topHit(docs, words, sets, kinds, { limit: 8, contains, decode }) ?? docs
}

// The "whole title is the query" rule for a query of several words, whose run-together
// title is no term of the index: applied to the first page. Such a document meets every
// other rule too, so moving it to the front never breaks their order.
function wholeFirst(docs, words) {
  if (words.length < 2) return docs
  const key = words.join(''), whole = (d) => queryWords(d.title).join('') === key
  return [...docs.filter(whole), ...docs.filter((d) => !whole(d))]
}

// The answer kept under `key` in `map`, else `make()`'s, kept (the oldest of `limit` goes); one
// that fails is forgotten, so the next ask tries again.
function kept(map, limit, key, make) {
  if (!map.has(key)) {
    const answer = make()
    answer.catch(() => map.delete(key))
    if (map.size >= limit) map.delete(map.keys().next().value)
    map.set(key, answer)
  }
  return map.get(key)
}
