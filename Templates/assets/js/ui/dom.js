// DOM helpers. Record data reaches the page only as text: `append` with a
// string makes a text node and never parses HTML.

export const $ = (id) => document.getElementById(id)

/**
 * Runs `fn` once the next frame is on screen (a frame, then a task), or after 100 ms when no frame
 * comes (a hidden tab): for work a final search's first rows need not wait for.
 */
export function afterPaint(fn) {
  let done = false
  const run = () => done || (done = true, fn())
  requestAnimationFrame(() => setTimeout(run))
  setTimeout(run, 100)
}

/**
 * Makes `parent`'s children exactly `nodes`, in order, moving only the ones out of place (none
 * when all are in place): a keystroke keeps most rows, and `replaceChildren` would detach and
 * re-attach every one of them, which the browser must style and lay out again before the next
 * key's text goes in.
 */
export function place(parent, nodes) {
  // A list of a few rows: a Set would cost more than it saves.
  for (const node of [...parent.childNodes]) nodes.includes(node) || node.remove()
  let at = parent.firstChild
  for (const node of nodes) {
    if (node === at) at = at.nextSibling
    else parent.insertBefore(node, at)
  }
}

/** An element; `text` sets textContent, `on…` adds a listener. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue
    if (key === 'text') el.textContent = value
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value)
    else el.setAttribute(key, value)
  }
  el.append(...children.flat().filter((c) => c != null && c !== false))
  return el
}

// Glyphs on a 16-unit grid, filled with currentColor. A facet's `icon:`
// names one of these or of STROKED; Swift keeps the same list of names
// (Config/FacetIcons.swift), and a test checks that they agree.
const PATHS = {
  search: 'M6.75 1a5.75 5.75 0 1 0 3.5 10.3l3.47 3.48a.75.75 0 0 0 1.06-1.06l-3.47-3.47A5.75 5.75 0 0 0 6.75 1Zm0 1.5a4.25 4.25 0 1 1 0 8.5 4.25 4.25 0 0 1 0-8.5Z',
  close: 'M4.3 3.2 8 6.9l3.7-3.7 1.1 1.1L9.1 8l3.7 3.7-1.1 1.1L8 9.1l-3.7 3.7-1.1-1.1L6.9 8 3.2 4.3Z',
  genre: 'M13.5 1.2 5.5 3v7.6a2.5 2.5 0 1 0 1.5 2.3V6.2l5-1.1v4a2.5 2.5 0 1 0 1.5 2.3Z',
  tag: 'M1.5 2.5v4.6l7.4 7.4 5.6-5.6-7.4-7.4H2.5a1 1 0 0 0-1 1ZM4.8 4a1 1 0 1 1 0 2 1 1 0 0 1 0-2Z',
}

// Outline glyphs on the same grid, drawn with a 1.5-unit currentColor
// stroke (`.icon.stroked` in search.css): the shapes a catalogue's facets
// commonly need. Their paths are in glyphs.js, fetched the first time one is
// drawn (an import the bundler cannot read stays a file of its own): most
// sites name none, and the page does not carry them.
const STROKED = ['calendar', 'clock', 'folder', 'globe', 'person', 'place', 'star']
const GLYPHS = import.meta.url.includes('/ui/') ? './glyphs.js' : './ui/glyphs.js'
let glyphs = null

/** An inline SVG glyph, hidden from assistive technology. */
export function icon(name) {
  const ns = 'http://www.w3.org/2000/svg'
  const svg = document.createElementNS(ns, 'svg')
  const path = svg.appendChild(document.createElementNS(ns, 'path'))
  const stroked = STROKED.includes(name)
  // A glyph that could not be fetched (offline) stays blank, and the next one asks again.
  if (stroked) (glyphs ??= import(GLYPHS)).then((g) => path.setAttribute('d', g.STROKED[name]), () => (glyphs = null))
  else path.setAttribute('d', Object.hasOwn(PATHS, name) ? PATHS[name] : PATHS.tag)
  svg.setAttribute('viewBox', '0 0 16 16')
  svg.setAttribute('aria-hidden', 'true')
  svg.setAttribute('class', stroked ? 'icon stroked' : 'icon')
  return svg
}

/** `text` with its `marks` ([[start, end]…]) wrapped in <mark>. */
export function marked(text, marks = []) {
  const out = []
  let at = 0
  for (const [start, end] of [...marks].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start) continue
    out.push(text.slice(at, start), h('mark', { text: text.slice(start, end) }))
    at = end
  }
  out.push(text.slice(at))
  return out.filter((part) => part !== '')
}

export const fold = (s) => s.normalize('NFKD').replace(/\p{Mn}/gu, '').toLowerCase()

/**
 * Where the typed text starts a word of a completion (completions are plain
 * strings). Folding keeps `sao` on `São`; it only lines up while folding
 * keeps the length, so anything else goes unmarked.
 */
export function typedMarks(text, typed) {
  const t = fold(typed.trim())
  const f = fold(text)
  if (!t || f.length !== text.length) return []
  for (let i = f.indexOf(t); i >= 0; i = f.indexOf(t, i + 1)) {
    if (!i || !/[\p{L}\p{N}]/u.test(f[i - 1])) return [[i, i + t.length]]
  }
  return []
}

let timer = 0

/** Says `message` in the polite live region, now or after `delay` ms. */
export function announce(message, delay = 0) {
  clearTimeout(timer)
  const say = () => {
    const region = $('announcer')
    // A trailing no-break space makes a repeated message a change, so it is read again.
    region.textContent = region.textContent === message ? `${message}\u00a0` : message
  }
  if (delay) timer = setTimeout(say, delay)
  else say()
}

export const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches

/** Applies a change without transitions (first layout, resize, restore). */
export function snap(el, apply) {
  el.dataset.snap = ''
  apply()
  // Flush styles so later changes transition again.
  void el.offsetWidth
  delete el.dataset.snap
}

/** Where an arrow, Home or End key goes in a roving group: axis 'x', 'y' or 'both'. */
export function step(list, index, key, axis = 'both') {
  const live = list.filter((el) => !el.hidden)
  const at = live.indexOf(list[index])
  // Right to left, the left arrow goes forward. The site's direction is written in at build time
  // (ScriptStrings), so a left-to-right site's bundle folds this away.
  if (/*t:direction*/'ltr' === 'rtl') key = { ArrowLeft: 'ArrowRight', ArrowRight: 'ArrowLeft' }[key] ?? key
  const next = axis === 'x' ? key === 'ArrowRight' : axis === 'y' ? key === 'ArrowDown' : /Right|Down/.test(key)
  const prev = axis === 'x' ? key === 'ArrowLeft' : axis === 'y' ? key === 'ArrowUp' : /Left|Up/.test(key)
  if (key === 'Home') return live[0]
  if (key === 'End') return live.at(-1)
  if (next) return live[(at + 1) % live.length]
  if (prev) return live[(at - 1 + live.length) % live.length]
  return null
}
