// The two asynchronous runs: suggestions while typing and the final search.
// They share one guard: each run takes the next number, and an answer that
// lands after a newer run started is dropped, so a slow shard never
// overwrites a newer answer.

import { hasQuery, sameToken, describe, sameRecent } from './store.js'
import { announce } from './dom.js'
import { completionOptions } from './completions.js'
import { plural } from './strings.js'

// How long a suggestion may take before the options for the words before fade (search.css),
// and before the list says it is still loading. A warm keystroke's answer lands in its own task,
// so its list is never marked: marking and unmarking it restyled a dozen elements a key.
const FADE = 100
const QUIET = 300
// How long suggestions for typed text stay with no key before the final search's module is fetched.
const READING = 600

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
 * the address restoring another state). The final search is ui/panel.js's:
 * `panel.now()` is it once loaded, `panel.load()` fetches it, `panel.soon()` in the background.
 */
export function createRuns({ store, engine, panel }) {
  const get = () => store.get()
  const set = (patch) => store.set(patch)
  // The newest run: an older answer is dropped when it lands.
  let latest = 0
  let reading = 0

  /** Suggestion groups: for the typed text, or for an empty field. */
  async function suggest({ keep = false, say = false } = {}) {
    const id = ++latest
    // A slow index shows a quiet loading line rather than an empty list.
    const after = (ms, patch) => setTimeout(() => id === latest && set(patch), ms)
    const fade = after(FADE, { fading: true })
    const slow = after(QUIET, { pending: true })
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
        // The final search's module (ui/panel.js, app.js) while these are read: a person who
        // stops typing may press Enter next, after a moment (READING, restarted by each answer,
        // so never while typing: a first query does not pay for it), or at once after a typo,
        // whose suggestions are a guess that Enter confirms.
        clearTimeout(reading)
        reading = setTimeout(panel.soon, r.corrected[0] ? 0 : READING)
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
      set({ groups, options, active: next, suggested: s.text, error: null, pending: false, fading: false })
      if (say) announce(options.length ? plural(options.length, /*t:suggestionCount*/{ one: '{count} suggestion', other: '{count} suggestions' }) : /*t:noSuggestions*/'No suggestions', 900)
    } catch (error) {
      if (id === latest) set({ groups: [], options: [], active: -1, suggested: get().text, error, pending: false, fading: false })
    } finally {
      clearTimeout(fade)
      clearTimeout(slow)
    }
  }

  /**
   * The final search, or its next page when `append`; `rows` restores a longer first page (Back);
   * `shown`, the answer on screen when it is the same search again (ui/panel.js). Its module is
   * usually in before the first Enter (app.js); a search that comes sooner shows the loading line
   * meanwhile.
   */
  function search(append = false, rows = 0, shown = null) {
    const id = ++latest
    const isLatest = () => id === latest
    // A chip with no results goes back to Top Results, and searches again.
    const run = (p) => p.search(isLatest, append, rows, shown).then((again) => (again && isLatest() ? search() : undefined))
    const now = panel.now()
    if (now) return run(now)
    set({ busy: true, error: null })
    return panel.load().then(run, (error) => { if (isLatest()) set({ busy: false, results: null, error }) })
  }

  return { suggest, search, drop: () => { latest++ } }
}
