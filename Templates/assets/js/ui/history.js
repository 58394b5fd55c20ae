// The address bar and the history entries behind it: when the state is
// written to the address (store.js says how), and how the page comes back
// from an address — on load, and on Back and Forward.

import { readURL, writeURL } from './store.js'
import { afterPaint, snap } from './dom.js'
import { tokenFor } from './actions.js'

// The address follows typing once it pauses: a history call takes a
// millisecond or more, too much for every keystroke. Any other write (a
// final search, Cancel) happens at once and drops the pending one.
const TYPING_PAUSE = 200

/**
 * `write(mode)`: 'partial' (typing) waits for a pause; 'final' and 'replace' write now, or with
 * `soon` once the next frame is on screen (a final search's first rows come first). Any write
 * makes a held one first, so entries keep their order.
 */
export function createAddress(store, defaultScope) {
  let typingWrite = 0
  let held = null
  const flush = () => {
    if (!held) return
    const mode = held.mode
    held = null
    writeURL(store.get(), defaultScope, mode)
  }
  return (mode, { soon = false } = {}) => {
    clearTimeout(typingWrite)
    flush()
    if (soon) {
      const mine = { mode }
      held = mine
      afterPaint(() => held === mine && flush())
    } else if (mode !== 'partial') writeURL(store.get(), defaultScope, mode)
    else typingWrite = setTimeout(() => writeURL(store.get(), defaultScope, mode), TYPING_PAUSE)
  }
}

/**
 * Restores the page from the address now and after every Back or Forward;
 * returns the restore, for the first run.
 */
export function followHistory({ store, engine, runs, idle, scopes, kinds }) {
  const set = (patch) => store.set(patch)

  /** Puts the page in the state the address describes, without animating. */
  async function restore() {
    const { text, tokens, scope, kind, asTyped, sort } = readURL()
    const state = { ...idle, text, asTyped, sort, scope: scopes.includes(scope) ? scope : scopes[0], kind: kinds.includes(kind) ? kind : 'top' }
    const known = () => tokens.map((t) => tokenFor(store.get().manifest, t.facet, t.value)).filter(Boolean)
    runs.drop()
    if (!text.trim() && !tokens.length && state.kind === 'top') return snap(document.documentElement, () => set(state))
    snap(document.documentElement, () => set({ ...state, view: 'results', tokens: known() }))
    // Token labels come from the manifest. A token whose facet it does not
    // know (a link from before the data changed) stays, named by its id: it
    // finds nothing, and the page says so beside a token the person can
    // remove, rather than quietly answering a wider search than the link's.
    await engine.ready.catch(() => {})
    const manifest = store.get().manifest
    if (tokens.length) set({ tokens: tokens.map((t) => tokenFor(manifest, t.facet, t.value) ?? { ...t, label: t.facet }) })
    const place = history.state ?? {}
    restoring = true
    try {
      await runs.search(false, place.rows)
      if (place.y && store.get().results) scrollTo(0, place.y)
    } finally {
      restoring = false
    }
  }

  // Back and reload keep the visitor's place: the rows loaded ("Show More")
  // and the scroll offset go into the entry as they leave for a result, and
  // whenever a scroll ends or rows are added — Chromium keeps no entry state
  // written while a reload unloads the page. The browser's own restoring
  // would scroll before the rows exist.
  history.scrollRestoration = 'manual'
  let restoring = false
  const save = () => {
    const { view, results } = store.get()
    if (view === 'results' && results && !restoring) history.replaceState({ ...history.state, rows: results.docs.length, y: scrollY }, '')
  }
  addEventListener('pagehide', save)
  addEventListener('scrollend', save)
  addEventListener('click', (event) => event.target.closest?.('#rows a') && save())
  store.subscribe((s, prev) => s.results?.docs.length > (prev.results?.docs.length ?? Infinity) && save())

  // The entry the page loads into counts as a final search, even one
  // reloaded from a typing entry: typing from here pushes an entry of its
  // own, so Back comes back to this one.
  history.replaceState({ ...history.state, partial: false }, '')
  addEventListener('popstate', restore)
  return restore
}
