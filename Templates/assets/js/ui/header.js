// The header: large title, field and the slot with its two layers. It
// publishes the state as attributes on <html> for CSS and tests, keeps
// hidden layers inert, and collapses out of view while results scroll down.
//
// Only transforms move it: the header is fixed over a padding of its own
// height, and what hides (title, slot) is shifted, not removed, so no state
// change lays out the results again (search.css has the arithmetic).

import { slotFor, modeFor } from './store.js'
import { $, reducedMotion, snap } from './dom.js'

export function mountHeader({ store }) {
  const root = document.documentElement
  const header = $('search-header')
  const slot = $('slot')
  const px = (name, el) => root.style.setProperty(name, `${el.offsetHeight}px`)
  new ResizeObserver(() => {
    px('--header-h', header)
    px('--title-h', $('search-title'))
    px('--slot-h', slot)
  }).observe(header)

  // One scope is no choice: like iOS, no scope bar at all.
  const oneScope = document.querySelectorAll('#segmented [data-scope]').length < 2

  function render(s) {
    const slotState = slotFor(s)
    const state = oneScope && slotState === 'scopes' ? 'none' : slotState
    // Unchanged values are not written again: an attribute on <html> restyles the whole page.
    for (const [key, value] of Object.entries({ mode: modeFor(s), slot: state, view: s.view })) {
      if (root.dataset[key] !== value) root.dataset[key] = value
    }
    if (slot.dataset.state !== state) slot.dataset.state = state
    if ($('scope-layer').inert !== (state !== 'scopes')) $('scope-layer').inert = state !== 'scopes'
    if ($('chip-layer').inert !== (state !== 'chips')) $('chip-layer').inert = state !== 'chips'
  }

  // Collapsing needs motion, and an IntersectionObserver to know when the
  // page is at the top; without either the header stays pinned.
  const canCollapse = () => 'IntersectionObserver' in window && !reducedMotion()
  let atTop = true
  let lastY = scrollY
  let queued = false
  function collapse(value) {
    const was = root.dataset.collapsed === 'true'
    if (was === value && root.dataset.collapsed) return
    root.dataset.collapsed = value
    if (was && !value) uncover()
  }

  // The header coming back must not sit on the focused element (Shift+Tab
  // upward scrolls with the header collapsed, so scroll padding was small).
  function uncover() {
    const el = document.activeElement
    if (!el || el === document.body || header.contains(el)) return
    const covered = parseFloat(getComputedStyle(root).scrollPaddingTop) - el.getBoundingClientRect().top
    if (covered > 0) scrollBy(0, -covered)
  }

  function onScroll() {
    queued = false
    const delta = scrollY - lastY
    // A deliberate move, not jitter.
    if (Math.abs(delta) < 6) return
    lastY = scrollY
    collapse(canCollapse() && !atTop && !store.get().editing && delta > 0)
  }

  collapse(false)
  root.dataset.pinned = !canCollapse()
  matchMedia('(prefers-reduced-motion: reduce)').addEventListener('change', () => {
    root.dataset.pinned = !canCollapse()
    collapse(false)
  })
  if ('IntersectionObserver' in window) {
    const sentinel = document.body.appendChild(document.createElement('div'))
    sentinel.className = 'top-sentinel'
    new IntersectionObserver(([entry]) => {
      atTop = entry.isIntersecting
      root.dataset.scrolled = !atTop
      if (atTop) collapse(false)
    }).observe(sentinel)
  }
  addEventListener('scroll', () => {
    if (!queued) requestAnimationFrame(onScroll)
    queued = true
  }, { passive: true })
  // Keyboard focus coming into the header brings it back first.
  header.addEventListener('focusin', () => collapse(false))

  snap(root, () => render(store.get()))
  store.subscribe((s, prev) => {
    if (s.editing) collapse(false)
    if (s.editing !== prev.editing || s.view !== prev.view || s.text !== prev.text || s.tokens !== prev.tokens) render(s)
  })
}
