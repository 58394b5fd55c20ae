// The sort menu in the results header (FORMAT.md "Sort and range files"): an APG menu button,
// as the compact scope control is, listing Relevance and the sort options of the kind shown.
// Fetched the first time results show on a site with sort options (app.js), so the page pays
// nothing for it before; the order it sets is the store's `sort`, which the address keeps
// (`?sort=length`). A sort the kind shown lacks goes back to Relevance: Top Results is sorted only
// by an option every kind has (`title` on a one-kind site), since songs by length would put
// every artist after the last song.

import { $, announce, h } from './dom.js'
import { menuButton } from './menu.js'

// Every word this module shows, in one place.
const WORDS = {
  relevance: /*t:sortRelevance*/'Relevance',
  sortBy: /*t:sortBy*/'Sort by',
  sorted: (label) => /*t:sortedBy*/`Sorted by ${label}`,
}

/** The options the kind shown can be sorted by: Relevance, then those its records have. */
export const sortOptions = (manifest, kind) => [
  { id: '', label: WORDS.relevance },
  ...(manifest?.sorts ?? []).filter((o) => (kind === 'top' ? o.kinds.length === manifest.kinds.length : o.kinds.includes(kind))),
]

// Its styles, adopted as ui/tophit.js's are (the CSP allows it), so the page's stylesheet does not
// carry them: the count and the menu share a line, a tinted menu button as the compact scope control.
const STYLE = `.results-head { display: flex; align-items: center; gap: .5rem; }
.sort { position: relative; flex: none; margin: .25rem 0 0 auto; }
.sort .scope-button { width: auto; height: 1.75rem; padding: 0 .25rem; background: none; color: var(--tint-text); }
.sort-menu { left: auto; min-width: 12rem; }`

export function mountSort({ store, runs, address }) {
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(STYLE)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  const label = h('span', { id: 'sort-button-label' })
  const button = h('button', { class: 'scope-button sort-button', id: 'sort-button', type: 'button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': 'sort-menu' },
    h('span', { class: 'visually-hidden', text: `${WORDS.sortBy} ` }), label,
    svg('M4.5 2v11m0 0L2 10.5M4.5 13 7 10.5M11.5 14V3m0 0L9 5.5M11.5 3 14 5.5'))
  const menu = h('div', { class: 'scope-menu sort-menu', id: 'sort-menu', role: 'menu', 'aria-labelledby': 'sort-button', hidden: '' })
  const wrap = h('div', { class: 'sort', id: 'sort', hidden: '' }, button, menu)
  // The count and the menu share one line over the rows.
  const count = $('count')
  const head = h('div', { class: 'results-head' })
  count.replaceWith(head)
  head.append(count, wrap)
  let items = []
  let shown = ''

  const { close } = menuButton(button, menu, () => items, (item) => {
    close(true)
    choose(item.dataset.sort)
  })

  function choose(id) {
    const option = sortOptions(store.get().manifest, store.get().kind).find((o) => o.id === id)
    if (!option || id === store.get().sort) return
    store.set({ sort: id })
    address('replace')
    runs.search()
    announce(WORDS.sorted(option.label))
  }

  function render(s) {
    const options = sortOptions(s.manifest, s.kind)
    const current = options.find((o) => o.id === s.sort) ?? options[0]
    // Rebuilt only when the options or the choice change: rows arriving keep an open menu's focus.
    const key = `${options.map((o) => o.id)}|${current.id}`
    if (key !== shown) {
      shown = key
      items = options.map((o) => h('div', { class: 'menu-item', role: 'menuitemradio', tabindex: '-1', 'data-sort': o.id, 'aria-checked': String(o === current), text: o.label }))
      menu.replaceChildren(...items)
      label.textContent = current.label
    }
    // Nothing to order: one result, no results, or no option besides relevance.
    wrap.hidden = s.view !== 'results' || !(s.results?.total > 1) || options.length < 2
    if (wrap.hidden) close(false)
  }

  // Called inside the change of kind (a chip, a new search), before its search reads the state.
  const fit = (s) => {
    const lost = !!s.sort && !sortOptions(s.manifest, s.kind).some((o) => o.id === s.sort)
    if (lost) store.set({ sort: '' })
    return lost
  }
  fit(store.get())
  render(store.get())
  store.subscribe((s, prev) => {
    if (fit(s)) return
    if (s.sort !== prev.sort || s.kind !== prev.kind || s.view !== prev.view || s.results !== prev.results || s.manifest !== prev.manifest) render(s)
  })
}

function svg(d) {
  const ns = 'http://www.w3.org/2000/svg'
  const el = document.createElementNS(ns, 'svg')
  el.setAttribute('viewBox', '0 0 16 16')
  el.setAttribute('aria-hidden', 'true')
  el.appendChild(document.createElementNS(ns, 'path')).setAttribute('d', d)
  return el
}
