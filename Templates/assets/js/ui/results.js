// The results container and the one view it shows: the idle page
// (trending, browse categories), the suggestion listbox of a partial search,
// or the results panel of a final search, whose answers ui/panel.js draws
// (rows, typo note, no results): it comes after the first suggestions.

import { $, h, icon, marked, place } from './dom.js'
import { artwork } from './art.js'
import { around, plural } from './strings.js'
import { describe } from './store.js'

/** `panel()`: ui/panel.js once it is in (an answer to draw only comes from its search). */
export function mountResults({ store, actions, panel }) {
  const views = { idle: $('idle-view'), suggest: $('suggest-view'), results: $('results-panel') }
  const listbox = $('suggestions')
  const rows = $('rows')
  const more = $('more')
  const correction = $('correction')
  const loading = $('loading')
  const noMatch = $('no-match')
  const count = $('count')
  // Where focus lands when the row it was on goes away.
  views.results.tabIndex = -1

  // Trending terms and kinds are links to a record's page or an A–Z list
  // (IdleLinks.swift), so they work before the script runs and without it;
  // with it they search here, unless opened elsewhere.
  views.idle.addEventListener('click', (event) => {
    const link = event.target.closest('a.term')
    if (!link || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    if (link.dataset.kind) actions.browseKind(link.dataset.kind)
    else actions.commit(link.textContent)
  })
  // Options never take focus: the field keeps it, as the combobox pattern asks.
  listbox.addEventListener('mousedown', (event) => event.preventDefault())
  listbox.addEventListener('click', (event) => {
    const option = event.target.closest('[role=option]')
    if (!option) return
    const index = +option.id.slice(4)
    const s = store.get()
    // Options for other words than the field's (their answer still to come) take no tap.
    const model = s.suggested === s.text && s.options[index]
    if (model.recent && event.target.closest('.remove')) actions.forget(model.recent)
    else actions.pick(index)
  })
  $('recents-clear').addEventListener('click', () => actions.forgetAll())
  more.addEventListener('click', () => actions.more())

  // Every facet that makes tokens gets its tiles: the first in the page's
  // own "Browse Categories" section, each further one in a section named
  // for it (and then the first is named for its facet too).
  function renderTiles(manifest) {
    const facets = (manifest?.facets ?? []).filter((facet) => facet.values.length)
    if (!facets.length) return
    const tiles = (facet) => facet.values.slice(0, 8).map(([value], i) =>
      h('li', {}, h('button', {
        class: `browse-tile hue-${(i * 5) % 12}`,
        type: 'button',
        'aria-label': `${facet.label}: ${value}`,
        onclick: () => actions.browse(facet.id, value),
      }, value)))
    $('tiles').replaceChildren(...tiles(facets[0]))
    $('browse').hidden = false
    document.querySelectorAll('.browse-more').forEach((el) => el.remove())
    if (facets.length < 2) return
    $('browse-title').textContent = facets[0].label
    let after = $('browse')
    facets.slice(1).forEach((facet, i) => {
      const id = `browse-title-${i + 1}`
      const section = h('section', { class: 'section browse-more', 'aria-labelledby': id },
        h('h2', { class: 'section-title', id, text: facet.label }),
        h('ul', { class: 'tiles' }, ...tiles(facet)))
      after.after(section)
      after = section
    })
  }

  // Keyed reuse: an option still offered with the same content keeps its
  // element, so a keystroke touches only the rows that changed. The rows of
  // the last few lists are kept too (about a hundred, then only the list's):
  // a word typed back (`lov`, `love`, `lov`) shows its rows again without
  // making them anew, whose garbage otherwise brings the collector into a
  // keystroke now and then (Tests/bench/README.md, "Warm keystrokes' garbage").
  let shown = new Map()
  const groupEls = new Map()
  const marksOf = new WeakMap()

  function renderOptions(s) {
    let index = 0
    const next = new Map()
    const groups = s.groups.map((group) => {
      const labelled = group.id === 'recent' ? 'recents-title' : group.label && `group-${group.id}`
      let el = groupEls.get(group.id)
      if (!el || el.dataset.label !== (group.label ?? '')) {
        el = h('div', { class: 'group', role: 'group', 'aria-labelledby': labelled, 'data-label': group.label ?? '' },
          group.label && h('div', { class: 'group-title', id: `group-${group.id}`, text: group.label }))
        groupEls.set(group.id, el)
      }
      const children = group.options.map((option) => {
        const key = optionKey(option)
        const id = `opt-${index}`
        let row = shown.get(key)
        if (row && !next.has(key)) {
          if (row.id !== id) row.id = id
          if (row.getAttribute('aria-selected') !== 'false') row.setAttribute('aria-selected', 'false')
          // Only the highlight moves as the text grows: patch it in place.
          const marks = marksKey(option)
          if (marksOf.get(row) !== marks) {
            marksOf.set(row, marks)
            if (option.doc) row.querySelector('.row-text')?.replaceWith(details(option.doc))
            else row.querySelector('.option-text')?.replaceChildren(...(option.marks ? marked(option.text, option.marks) : [option.text]))
          }
        } else {
          row = optionView(option, index)
          marksOf.set(row, marksKey(option))
        }
        next.set(key, row)
        index++
        return row
      })
      place(el, group.label ? [el.firstChild, ...children] : children)
      return el
    })
    if (shown.size > 99) shown = next
    else next.forEach((row, key) => shown.set(key, row))
    place(listbox, groups)
    if (listbox.dataset.for !== (s.suggested ?? '')) listbox.dataset.for = s.suggested ?? ''
    renderNoMatch(s)
    const recentsHidden = s.groups[0]?.id !== 'recent'
    if ($('recents-head').hidden !== recentsHidden) $('recents-head').hidden = recentsHidden
  }

  // Nothing matches what was typed: say so, and what to try.
  function renderNoMatch(s) {
    const typed = s.suggested?.trim()
    noMatch.hidden = s.options.length || s.error || !(typed || s.tokens.length)
    if (noMatch.hidden) return
    const filter = s.tokens.length ? /*t:tryOtherWordsOrFilter*/'Try fewer words or another spelling, or remove a filter.' : /*t:tryOtherWords*/'Try fewer words or another spelling.'
    noMatch.replaceChildren(...(typed ? [...around(/*t:noMatchesFor*/'No matches for \u201c{query}\u201d.', h('strong', { text: typed })), ' ', filter] : [/*t:noMatchesFilter*/'No matches. Try removing a filter.']))
  }

  function renderActive(active, previous) {
    $(`opt-${previous}`)?.setAttribute('aria-selected', 'false')
    const option = $(`opt-${active}`)
    option?.setAttribute('aria-selected', 'true')
    option?.scrollIntoView({ block: 'nearest' })
  }

  // What the panel shows: the same rows, totals and words again (Enter once more) change nothing
  // but aria-busy.
  let drawn = null
  function renderResults(s) {
    const r = s.results
    views.results.setAttribute('aria-busy', s.busy)
    const now = r && !s.error && [r.docs, r.totals, r.total, r.filling, r.corrected, r.dropped, s.text]
    if (now && drawn?.every((x, i) => x === now[i])) return
    drawn = now
    more.hidden = correction.hidden = $('empty').hidden = count.hidden = true
    // Never a blank panel: a first answer still on its way says so (search.css shows it after a moment).
    $('results-loading').hidden = Boolean(r || !s.busy)
    if (r) return panel().draw(s, r)
    rows.replaceChildren()
    if (s.error) showEmpty(navigator.onLine ? /*t:unavailable*/'Search is unavailable right now. Check your connection and try again.' : /*t:offline*/'You\u2019re offline, and this search needs data not yet saved on this device.')
  }

  store.subscribe((s, prev) => {
    // Suggestions closed with Escape show the page beneath them, not a blank one.
    const view = (s) => (s.dismissed && s.view === 'suggest' ? 'idle' : s.view)
    if (view(s) !== view(prev)) for (const [name, el] of Object.entries(views)) el.hidden = name !== view(s)
    if (s.manifest !== prev.manifest) renderTiles(s.manifest)
    if (s.groups !== prev.groups) renderOptions(s)
    if (loading && s.pending !== prev.pending) loading.hidden = !s.pending
    // Options for other words than the field's fade once their answer takes a moment (`fading`,
    // ui/runs.js), and once it is slow to come (`pending`) the loading line takes their place
    // (search.css, `data-stale`). From the first key on they take no tap or key (the click
    // handler above, actions.pick and move), not by marking: see ui/runs.js.
    const stale = s.view === 'suggest' && s.suggested !== s.text && s.fading ? (s.pending ? 'waiting' : 'stale') : ''
    if ((views.suggest.dataset.stale ?? '') !== stale) {
      if (stale) views.suggest.dataset.stale = stale
      else delete views.suggest.dataset.stale
      $('recents-head').inert = Boolean(stale)
    }
    if (s.active !== prev.active || s.groups !== prev.groups) renderActive(s.active, s.groups === prev.groups && prev.active)
    // Waiting for an answer changes only aria-busy and the loading line: the rows shown stay as
    // they are until it lands.
    if (s.results !== prev.results || s.error !== prev.error) renderResults(s)
    else if (s.busy !== prev.busy) {
      views.results.setAttribute('aria-busy', s.busy)
      $('results-loading').hidden = Boolean(s.results || !s.busy)
    }
  })
}

/** An option's highlights: a row's in its title, its subtitle and where else it matched. */
const marksKey = (option) => JSON.stringify(option.marks ?? (option.doc && [option.doc.marks, option.doc.subMarks, option.doc.match]) ?? null)

/** What an option's element shows apart from its highlight, so equal keys share one element. */
function optionKey(option) {
  const doc = option.doc
  return JSON.stringify([option.type, option.text, option.count, option.token?.icon,
    option.recent && describe(option.recent), doc && { ...doc, marks: 0, subMarks: 0, match: 0 }])
}

export function optionView(option, index) {
  const props = { id: `opt-${index}`, role: 'option', 'aria-selected': 'false', class: `option option-${option.type}` }
  const text = (...content) => h('span', { class: 'option-text' }, ...content)
  switch (option.type) {
    case 'doc':
      return h('div', props, artwork(option.doc), details(option.doc))
    case 'filter':
      return h('div', props, h('span', { class: 'token-badge' }, icon(option.token.icon)), text(option.text),
        // Documents of every kind with that value: say so, since a page's
        // own count ("130 songs") counts one kind.
        h('span', { class: 'option-count', text: option.count == null ? null : plural(option.count, /*t:results*/{ one: '{count} result', other: '{count} results' }) }))
    case 'recent':
      return h('div', { ...props, 'aria-describedby': 'recent-hint' }, icon('search'), text(describe(option.recent)),
        h('span', { class: 'remove', title: /*t:remove*/'Remove' }, icon('close')))
    default:
      return h('div', props, icon('search'), text(...(option.marks ? marked(option.text, option.marks) : [option.text])))
  }
}

// A word found outside the title is marked in the subtitle, or a line says where (`Composer: …`).
export const details = (doc) => h('span', { class: 'row-text' },
  h('span', { class: 'row-title' }, marked(doc.title, doc.marks)),
  h('span', { class: 'row-sub' }, marked(doc.subtitle, doc.subMarks)),
  doc.match && h('span', { class: 'row-sub row-match' }, `${doc.match.label}: `, marked(doc.match.text, doc.match.marks)))


export function showEmpty(text) {
  $('empty-text').textContent = text
  $('empty').hidden = false
}
