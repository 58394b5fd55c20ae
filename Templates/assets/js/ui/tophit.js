// Results on a desktop, as Music on the Mac and the App Store on the iPad lay them out: the page
// widens to 75rem (1200 px). In Top Results the best record opens the list, larger, with its kind
// and its action, and beside the list a short section per kind has See All (its chip): the
// largest kind (songs) as rows in two columns, the others as shelves. A chip's list, and Top
// Results on a site of one collection (the top hit across, no sections), fill the width in
// columns. A phone keeps the seeds' one column and list: app.js fetches this only on a wide
// screen, and a window narrowed afterwards drops all of it (the styles are all under the 64rem
// query).
//
// Not in the page's bundle, so the first query never carries it; it imports nothing (the page's
// helpers come through `mountTopHit`, as ui/filters.js gets its own). Its stylesheet is in it
// (adopted, which the CSP allows): one request, which the offline worker keeps with the other
// modules the page imports on demand.

// Every string this view shows, in one place.
const TEXT = { seeAll: /*t:seeAll*/'See All', seeAllOf: (label) => /*t:seeAllOf*/`See All ${label}`, view: (singular) => /*t:viewKind*/`View ${singular}` }
// Rows a section shows: a shelf scrolls sideways past the fifth.
const ROWS = 8

// Logical properties only (right-to-left pages).
const STYLE = `
.top-kind, .top-action, .kind-sections { display: none; }
@media (width >= 64rem) {
:root[data-view="results"] { --column: 75rem; }
.search-form { max-inline-size: 42.5rem; }
.results-panel:has(> .kind-sections:not([hidden])) { display: grid; grid: repeat(9, auto) 1fr / minmax(0, 5fr) minmax(0, 7fr); column-gap: 2.5rem; align-items: start; }
.results-panel > * { grid-column: 1; }
.results-panel > .kind-sections { display: block; grid-column: 2; grid-row: 1 / -1; margin-block-start: 1rem; }
.results-panel:not(:has(> .kind-sections:not([hidden]))) > .rows { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); column-gap: 2rem; }
.results-panel > .rows > .top-hit { grid-column: 1 / -1; max-inline-size: 42.5rem; }
.top-hit .row-link { gap: 1.25rem; margin-block: .5rem; padding: 1.5rem; border-radius: 12px; background: var(--fill); }
:is(.top-hit, .shelf) .row-link::before, :is(.top-hit, .shelf) .row-link::after { display: none; }
.top-hit .artwork { inline-size: 8rem; block-size: 8rem; font-size: 3rem; }
.top-hit .artwork-symbol { font-size: 4rem; }
:where(.top-hit, .shelf) .artwork { border-radius: 10px; }
.top-hit .row-title { font-size: 1.75rem; font-weight: 700; white-space: normal; }
.top-kind { display: block; color: var(--label-2); font-size: .8125rem; font-weight: 600; text-transform: uppercase; }
.top-action { display: block; align-self: start; margin-block-start: .625rem; padding: .4375rem 1.25rem; border-radius: 99px; background: var(--tint-strong); color: var(--on-tint); font-size: .9375rem; font-weight: 600; }
.kind-section + .kind-section { margin-block-start: 1.75rem; }
.kind-section .rows { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); column-gap: 1.5rem; }
.shelf .rows { grid: auto / auto-flow 9.5rem; gap: 1rem; overflow-x: auto; padding-block-end: .25rem; }
.shelf .row-link { flex-direction: column; align-items: stretch; gap: .375rem; }
.shelf .artwork { inline-size: 100%; block-size: auto; aspect-ratio: 1; font-size: 2.5rem; }
}`

export function mountTopHit({ store, actions, engine, h, rowView, base }) {
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(STYLE)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  const $ = (id) => document.getElementById(id)
  const kinds = () => store.get().manifest?.kinds ?? []
  const box = h('div', { class: 'kind-sections' }), rows = $('rows')
  $('more').after(box)

  // The top hit is the list's first row, drawn larger, saying its kind (unless its subtitle
  // does) and its action. Rows are reused across chips (ui/results.js), so a row that is no
  // longer Top Results' first gives its extras back.
  function hit(s) {
    const first = s.view === 'results' && s.kind === 'top' && rows.firstElementChild
    for (const row of rows.querySelectorAll('.top-hit')) {
      if (row === first) continue
      row.classList.remove('top-hit')
      row.querySelectorAll('.top-kind, .top-action').forEach((el) => el.remove())
    }
    if (!first || first.classList.contains('top-hit')) return
    const text = first.querySelector('.row-text')
    const singular = kinds().find((k) => k.id === first.dataset.kind)?.singular ?? ''
    first.classList.add('top-hit')
    if (!first.querySelector('.row-sub').textContent.startsWith(singular)) text.prepend(h('span', { class: 'top-kind', text: singular }))
    text.append(h('span', { class: 'top-action', 'aria-hidden': 'true', text: TEXT.view(singular) }))
  }

  // A search's sections, drawn at once when every kind's rows are in (nothing moves twice), once
  // the chips' totals say which kinds have any. The box holds one search's (`shown`), never an
  // earlier one's beside a new list, and a chip and back keeps them.
  let shown, asked
  async function sections(s) {
    const r = s.results, all = kinds()
    box.hidden = !(s.view === 'results' && s.kind === 'top' && r?.total && all.length > 1)
    const key = JSON.stringify([s.text, s.scope, s.tokens, s.asTyped])
    if (key !== shown) {
      box.replaceChildren()
      shown = key
      asked = null
    }
    if (box.hidden || r.counted || key === asked) return
    asked = key
    const largest = Math.max(...all.map((k) => k.count))
    const found = all.filter((k) => r.totals[k.id] > 0).sort((a, b) => (b.count === largest) - (a.count === largest))
    const query = { scope: s.scope, tokens: s.tokens.map(({ facet, value }) => ({ facet, value })), asTyped: s.asTyped, offset: 0, limit: ROWS + 1 }
    const answers = await Promise.all(found.map((k) => engine.search(s.text, { ...query, kind: k.id }).catch(() => null)))
    if (shown !== key) return
    box.replaceChildren(...found.map((k, i) => {
      const docs = (answers[i]?.docs ?? []).filter((d) => d.id !== r.docs[0]?.id).slice(0, ROWS)
      const id = `kind-section-${k.id}`
      const seeAll = () => {
        actions.setKind(k.id)
        $(`chip-${k.id}`)?.focus()
        scrollTo(0, 0)
      }
      return docs.length > 0 && h('section', { class: `kind-section${k.count === largest ? '' : ' shelf'}`, 'aria-labelledby': id },
        h('div', { class: 'section-head' },
          h('h2', { class: 'section-title', id, text: k.label }),
          h('button', { type: 'button', class: 'text-button', 'aria-label': TEXT.seeAllOf(k.label), text: TEXT.seeAll, onclick: seeAll })),
        h('ul', { class: 'rows' }, docs.map((doc) => rowView(doc, base))))
    }).filter(Boolean))
  }

  const render = (s) => {
    hit(s)
    sections(s)
  }
  store.subscribe(render)
  render(store.get())
}
