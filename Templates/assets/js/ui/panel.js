// What only a final search needs: the search itself (its rows and the chips' totals from the
// engine), drawing an answer's rows, count, typo note and No Results, and the chips. The first
// suggestions do without it, so it is not in the page's bundle: app.js fetches it in the
// background (a while after the page loads, or once suggestions have been read for a moment),
// or at once for a final search that comes sooner; the offline worker keeps it with the other
// modules the page imports on demand.
//
// The page's helpers (dom.js, strings.js, …) come in `kit` rather than by import: this file is
// bundled on its own, and an import would put a second copy of each in it. The state they share
// (the store, the run guard, the live region's timer) stays the page's.

import { mountChips } from './chips.js'

// Results per page of a final search; the first page shows its first screenful as soon as those
// rows' documents are in, and fills up to PAGE right after (fewer files before the first rows).
const PAGE = 30
const FIRST = 12

const plain = (tokens) => tokens.map(({ facet, value }) => ({ facet, value }))

/**
 * Mounts the chips; returns `search` (ui/runs.js hands it `isLatest`, the run guard), `draw`
 * (ui/results.js calls it with an answer to show) and `rowView`.
 */
export function mountPanel({ store, actions, engine, idle, address, phrase, base, kit }) {
  const { $, h, marked, fold, afterPaint, announce, around, plural, hasQuery, queryWords, artwork, details, showEmpty } = kit
  const get = () => store.get()
  const set = (patch) => store.set(patch)
  const panel = $('results-panel')
  const rows = $('rows')
  const more = $('more')
  const correction = $('correction')
  const count = $('count')
  mountChips({ store, actions, kit })

  const rowView = (doc, base) => h('li', { class: 'row', 'data-kind': doc.kind },
    h('a', { class: 'row-link', href: new URL(doc.url, base).href }, artwork(doc), details(doc)))

  /**
   * The final search, or its next page when `append`; `rows` restores a longer first page (Back).
   * `shown`: the answer on screen, when this is the same search again (Enter once more): the
   * index never changes, so it is the answer, rows and all. Resolves to true when a chip with no
   * results went back to Top Results, which is then searched.
   */
  async function search(isLatest, append = false, rows = 0, shown = null) {
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
      if (!isLatest()) return
      if (!append) {
        // A kind alone (?kind=artists) browses it if the engine lists without a
        // query; if it cannot, the idle page is the honest answer.
        if (!hasQuery(s) && !r.total) return set(idle)
        if (s.kind !== 'top' && r.totals[s.kind] === 0) {
          set({ kind: 'top' })
          address('replace')
          return true
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
      set({ results: { ...now, filling: false, ...(rest && isLatest() ? { from: now.docs.length, docs: [...now.docs, ...rest.docs] } : {}) } })
    } catch (error) {
      if (isLatest()) set({ busy: false, results: null, error })
    }
  }

  // What a screen reader hears when results land: the count, the filters in
  // force and the chip, and the typo note when there is one.
  function summary(r, s) {
    const filters = phrase(s)
    const count = plural(r.total, /*t:results*/{ one: '{count} result', other: '{count} results' }) + (filters ? ` ${filters}` : '')
    const note = correction.hidden ? '' : `. ${correction.textContent}`
    return (s.kind === 'top' ? count : `${$(`chip-${s.kind}`).textContent}: ${count}`) + note
  }

  let rowsOf = new Map()
  /** Draws answer `r` (ui/results.js has hidden the count, the typo note, Show More and No Results). */
  function draw(s, r) {
    // A next page only adds rows. A new answer replaces them; a keyboard user
    // on a row that goes away lands on the first new one, not on the body.
    // A row already shown for the same document and marks is kept, not rebuilt: searching again
    // (Enter on the same words, another chip and back) touches only what changed.
    const before = rowsOf, key = JSON.stringify
    rowsOf = new Map(r.from ? before : [])
    const fresh = r.docs.slice(r.from).map((doc) => {
      const k = key(doc), row = before.get(k) ?? rowView(doc, base)
      rowsOf.set(k, row)
      return row
    })
    if (r.from) rows.append(...fresh)
    else if (fresh.length !== rows.childNodes.length || fresh.some((row, i) => rows.childNodes[i] !== row)) {
      const hadFocus = rows.contains(document.activeElement)
      rows.replaceChildren(...fresh)
      if (hadFocus && !rows.contains(document.activeElement)) (rows.querySelector('a') ?? panel).focus()
    }
    more.hidden = r.filling || r.docs.length >= r.total
    count.textContent = plural(r.total, /*t:results*/{ one: '{count} result', other: '{count} results' })
    count.hidden = !r.total
    // Dropped words and corrections say what was searched instead, plainly; a correction
    // offers the words as typed.
    const typed = s.text.trim().split(/\s+/).join(' '), kept = corrected(withoutDropped(typed, r.dropped), r.corrected)
    const changed = kept !== typed && r.total > 0
    if (changed) {
      correction.replaceChildren(...(r.dropped?.length ? [/*t:noResultsForAll*/`No results for all of \u201c${typed}\u201d.`, ' '] : []),
        ...around(/*t:showingResultsFor*/'Showing results for {query}.', h('strong', { text: kept })))
      if (r.corrected?.length) {
        correction.append(' ', ...around(/*t:searchInsteadFor*/'Search instead for {query}', h('button', { type: 'button', class: 'text-button', text: typed, onclick: () => actions.commit(s.text, { asTyped: true }) })))
      }
    }
    correction.hidden = !changed
    if (!r.total) showEmpty(s.text.trim() ? /*t:noResultsFor*/`No results for \u201c${s.text.trim()}\u201d. Try a new search.` : /*t:tryNewSearch*/'Try a new search.')
  }

  /** The query as the engine corrected it (the text itself when nothing was). */
  function corrected(text, fixes = []) {
    if (!fixes.length) return text
    return text.split(/\s+/).map((word) => fixes.find((c) => fold(c.from) === fold(word))?.to ?? word).join(' ')
  }

  /** The typed text without the words the engine dropped (each dropped word once, last first). */
  function withoutDropped(text, dropped = []) {
    const words = text.split(/\s+/), left = [...dropped]
    for (let i = words.length - 1; i >= 0 && left.length; i--) {
      const at = left.indexOf(queryWords(words[i]).join(''))
      if (at >= 0) { left.splice(at, 1); words.splice(i, 1) }
    }
    return words.join(' ')
  }

  return { search, draw, rowView }
}
