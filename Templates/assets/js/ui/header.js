// The header: large title, field and the slot with its two layers. It
// publishes the state as attributes on <html> for CSS and tests, and keeps
// hidden layers inert.
//
// Only transforms move it: the header is fixed over a padding of its own
// height, and what hides (title, slot) is shifted, not removed, so no state
// change lays out the results again. On the idle page the field and then the
// large title collapse with the scroll offset, into a bar with an inline
// title; that is a scroll-driven animation in search.css, so the compositor
// moves it frame by frame and this module only measures the lengths it
// uses and snaps a collapse left halfway. While a search is active nothing
// moves: the field and the chip row stay pinned.

import { hasQuery, slotFor, modeFor } from './store.js'
import { $, reducedMotion, snap } from './dom.js'

export function mountHeader({ store }) {
  const root = document.documentElement
  const header = $('search-header')
  const slot = $('slot')
  const title = $('search-title')
  const px = (name, n) => root.style.setProperty(name, `${n}px`)
  // The idle header collapses by `end` px of scrolling, the field over the first `field`.
  let field = 0
  let end = 0
  new ResizeObserver(() => {
    field = $('search-form').offsetHeight
    end = header.offsetHeight - slot.offsetHeight - $('inline-title').offsetHeight
    px('--header-h', header.offsetHeight)
    px('--title-h', title.offsetHeight)
    px('--slot-h', slot.offsetHeight)
    px('--field-h', field)
    px('--collapse', end)
    px('--cancel-w', $('cancel').offsetWidth)
  }).observe(header)

  // One scope is no choice: like iOS, no scope bar at all.
  const oneScope = document.querySelectorAll('#segmented [data-scope]').length < 2

  function render(s) {
    const slotState = slotFor(s)
    const state = oneScope && slotState === 'scopes' ? 'none' : slotState
    // Unchanged values are not written again: an attribute on <html> restyles the whole page.
    // `wait`: results asked for and none yet; `left`: the idle page was left once (it fades back in).
    // The chips come with the totals: after the first rows, on a small index whose kinds' file was not in.
    const wait = String(s.view === 'results' && (!s.results || Boolean(s.results.counted)))
    for (const [key, value] of Object.entries({ mode: modeFor(s), slot: state, view: s.view, wait })) {
      if (root.dataset[key] !== value) root.dataset[key] = value
    }
    if (s.view !== 'idle') root.dataset.left = ''
    if (slot.dataset.state !== state) slot.dataset.state = state
    if ($('scope-layer').inert !== (state !== 'scopes')) $('scope-layer').inert = state !== 'scopes'
    if ($('chip-layer').inert !== (state !== 'chips')) $('chip-layer').inert = state !== 'chips'
  }

  // The hairline under the bar: once content scrolls beneath it (search.css
  // places the sentinel where the idle header has finished collapsing).
  const sentinel = document.body.appendChild(document.createElement('div'))
  sentinel.className = 'top-sentinel'
  new IntersectionObserver(([entry]) => { root.dataset.scrolled = !entry.isIntersecting }).observe(sentinel)

  // A collapse the visitor leaves halfway snaps, as on iOS: the field shown
  // or gone, then the large title shown or gone. Only after their own
  // scrolling (a restored or scripted position stays where it was put), and
  // only while search.css collapses the header at all.
  let touched = 0
  for (const type of ['wheel', 'touchmove', 'keydown']) addEventListener(type, () => { touched = Date.now() }, { passive: true })
  addEventListener('scrollend', () => {
    if (Date.now() - touched > 1000 || getComputedStyle(title).animationName === 'none') return
    const y = scrollY
    if (y <= 0 || y >= end) return
    const top = y < field ? (y < field / 2 ? 0 : field) : y < (field + end) / 2 ? field : end
    if (Math.abs(top - y) > 0.5) scrollTo({ top, behavior: reducedMotion() ? 'instant' : 'smooth' })
  })

  snap(root, () => render(store.get()))
  store.subscribe((s, prev) => {
    // The text matters only as there being some: a keystroke that leaves it so writes nothing.
    if (s.editing !== prev.editing || s.view !== prev.view || hasQuery(s) !== hasQuery(prev) || s.tokens !== prev.tokens || s.results !== prev.results) render(s)
  })
}
