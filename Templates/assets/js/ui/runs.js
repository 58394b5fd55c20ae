// The two asynchronous runs: suggestions while typing and the final search.
// They share one guard: each run takes the next number, and an answer that
// lands after a newer run started is dropped, so a slow shard never
// overwrites a newer answer.

import { hasQuery, sameToken, describe, sameRecent } from './store.js'
import { $, afterPaint, announce } from './dom.js'
import { completionOptions } from './completions.js'
import { plural } from './strings.js'

// Results per page of a final search; the first page shows its first screenful as soon as those
// rows' documents are in, and fills up to PAGE right after (fewer files before the first rows).
const PAGE = 30
const FIRST = 12
// How long a suggestion may take before the list says it is still loading.
const QUIET = 300

const plain = (tokens) => tokens.map(({ facet, value }) => ({ facet, value }))
const filterOption = (t) => ({
  type: 'filter',
  token: { facet: t.facet, value: t.value, label: t.facetLabel, icon: t.icon },
  text: `${t.facetLabel}: ${t.value}`,
  count: t.count,
})
const keyOf = (o) => o && [o.type, o.text, o.doc?.id, o.recent && describe(o.recent)].join('\n')

/**
 * `suggest`, `search`, and `drop` (forget whatever is running: Cancel, or
 * the address restoring another state). `phrase(s)` words the filters in
 * force for the results summary ('' for none).
 */
export function createRuns({ store, engine, idle, address, phrase }) {
  const get = () => store.get()
  const set = (patch) => store.set(patch)
  // The newest run: an older answer is dropped when it lands.
  let latest = 0

  /** Suggestion groups: for the typed text, or for an empty field. */
  async function suggest({ keep = false, say = false } = {}) {
    const id = ++latest
    // A slow index shows a quiet loading line rather than an empty list.
    const slow = setTimeout(() => id === latest && set({ pending: true }), QUIET)
    try {
      await engine.ready
      // Keystrokes that queued up meanwhile: only the newest is worth its documents.
      if (id !== latest) return
      const s = get()
      const unused = (t) => !s.tokens.some((u) => sameToken(u, t))
      let groups
      if (!hasQuery(s)) {
        groups = [
          { id: 'recent', options: s.recents.map((recent) => ({ type: 'recent', recent })) },
          // A trending term already among the recents shows once, as the person's own.
          { id: 'trending', label: /*t:trending*/'Trending', options: (s.manifest?.trending ?? []).filter((text) => !s.recents.some((r) => sameRecent(r, { text, tokens: [] }))).slice(0, 6).map((text) => ({ type: 'trending', text })) },
          { id: 'filters', label: /*t:searchBy*/'Search by', options: engine.tokenSuggestions('').filter(unused).slice(0, 6).map(filterOption) },
        ]
      } else {
        const r = await engine.suggest(s.text, { scope: s.scope, tokens: plain(s.tokens) })
        // A span typed after a range's name (`length:<3:00`) is a promise (engine.js).
        const tokens = s.text.trim() ? await engine.tokenSuggestions(s.text) : []
        if (id !== latest) return
        groups = [
          { id: 'filters', options: tokens.filter(unused).slice(0, 3).map(filterOption) },
          { id: 'completions', options: completionOptions(r.completions, s.text) },
          { id: 'docs', options: r.docs.map((doc) => ({ type: 'doc', doc })) },
        ]
      }
      groups = groups.filter((g) => g.options.length)
      const options = groups.flatMap((g) => g.options)
      // Keep the user's place when the option they are on is still offered.
      const { active, options: before } = get()
      const next = keep ? Math.min(active, options.length - 1) : options.findIndex((o) => active >= 0 && keyOf(o) === keyOf(before[active]))
      set({ groups, options, active: next, suggested: s.text, error: null, pending: false })
      if (say) announce(options.length ? plural(options.length, /*t:suggestionCount*/{ one: '{count} suggestion', other: '{count} suggestions' }) : /*t:noSuggestions*/'No suggestions', 900)
    } catch (error) {
      if (id === latest) set({ groups: [], options: [], active: -1, suggested: get().text, error, pending: false })
    } finally {
      clearTimeout(slow)
    }
  }

  /**
   * The final search, or its next page when `append`; `rows` restores a longer first page (Back).
   * `shown`: the answer on screen, when this is the same search again (Enter once more): the
   * index never changes, so it is the answer, rows and all.
   */
  async function search(append = false, rows = 0, shown = null) {
    const id = ++latest
    const s = get()
    // The same answer again is shown in the key's own task: no wait, no loading state.
    if (shown) {
      set({ busy: false, error: null, results: { ...shown, from: 0 } })
      return announce(summary(shown, s))
    }
    const from = append ? s.results.docs.length : 0
    set({ busy: true, error: null })
    try {
      await engine.ready
      const limit = append ? PAGE : rows > FIRST ? Math.min(Math.max(PAGE, rows | 0), 20 * PAGE) : FIRST
      const query = { scope: s.scope, tokens: plain(s.tokens), kind: s.kind, asTyped: s.asTyped, sort: s.sort }
      const r = await engine.search(s.text, { ...query, offset: from, limit })
      if (id !== latest) return
      if (!append) {
        // A kind alone (?kind=artists) browses it if the engine lists without a
        // query; if it cannot, the idle page is the honest answer.
        if (!hasQuery(s) && !r.total) return set(idle)
        if (s.kind !== 'top' && r.totals[s.kind] === 0) {
          set({ kind: 'top' })
          address('replace')
          return search()
        }
      }
      const filling = limit === FIRST && r.docs.length < Math.min(r.total, PAGE)
      const first = { ...r, from, docs: append ? [...s.results.docs, ...r.docs] : r.docs, filling }
      set({ busy: false, results: first })
      if (!append) announce(summary(r, s))
      // The chips' totals, when the rows came before them (engine.js): the same answer gets them
      // (or, if their file fails, shows its chips with the totals it has).
      const counted = (totals) => {
        const now = get().results
        if (now?.counted === r.counted) set({ results: { ...now, from: now.docs.length, totals: totals ?? now.totals, counted: null } })
      }
      // Asked for once the rows are drawn (a microtask), as the rest of the first page is once
      // they are on screen: neither fetch is started before the first rows.
      if (r.counted) queueMicrotask(() => r.counted().then(counted, () => counted(null)))
      if (!filling) return
      // The rest of the first page, added below the rows shown, unless a newer run started.
      await new Promise(afterPaint)
      const rest = await engine.search(s.text, { ...query, offset: r.docs.length, limit: PAGE - r.docs.length }).catch(() => null)
      const now = get().results
      if (now?.docs !== first.docs) return
      set({ results: { ...now, filling: false, ...(rest && id === latest ? { from: now.docs.length, docs: [...now.docs, ...rest.docs] } : {}) } })
    } catch (error) {
      if (id === latest) set({ busy: false, results: null, error })
    }
  }

  // What a screen reader hears when results land: the count, the filters in
  // force and the chip, and the typo note when there is one.
  function summary(r, s) {
    const filters = phrase(s)
    const count = plural(r.total, /*t:results*/{ one: '{count} result', other: '{count} results' }) + (filters ? ` ${filters}` : '')
    const note = $('correction').hidden ? '' : `. ${$('correction').textContent}`
    return (s.kind === 'top' ? count : `${$(`chip-${s.kind}`).textContent}: ${count}`) + note
  }

  return { suggest, search, drop: () => { latest++ } }
}
