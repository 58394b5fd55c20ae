// The search page's entry point: reads the page's facts from its HTML,
// makes the engine and the one store, and wires the modules together. Each
// module in ui/ owns one piece of the page or of its behaviour: the index
// files (fetcher), the actions that change state (actions), suggestions and
// searches (runs), the address and history (history), and the pieces of the
// page that render from the store.

import { createEngine } from './engine/engine.js'
import { createStore, hasQuery, loadRecents, readURL, slotFor } from './ui/store.js'
import { $, h, icon, marked, fold, afterPaint, announce, snap, step, reducedMotion } from './ui/dom.js'
import { around, plural } from './ui/strings.js'
import { queryWords } from './engine/normalize.js'
import { artwork } from './ui/art.js'
import { embeddedIndex, cachedFetch, prefetchTerms } from './ui/fetcher.js'
import { createRuns } from './ui/runs.js'
import { createActions } from './ui/actions.js'
import { createAddress, followHistory } from './ui/history.js'
import { mountHeader } from './ui/header.js'
import { mountField } from './ui/field.js'
import { mountScopeBar } from './ui/scopebar.js'
import { mountResults, details, showEmpty } from './ui/results.js'

const base = new URL($('search-form').getAttribute('action'), location.href)
const scopeLabels = [...document.querySelectorAll('#segmented [data-scope]')].map((el) => ({ id: el.dataset.scope, label: el.textContent }))
const scopes = scopeLabels.map((s) => s.id)
const kinds = [...document.querySelectorAll('#chips [data-kind]')].map((el) => el.dataset.kind)
// A module of the site's own beside this one, by a specifier the bundler cannot read (esbuild
// inlines a literal import(), as engine/match.js says of typo.js): fetched only when asked for.
const later = (path) => import(new URL(path, import.meta.url).href)
// `fn` when the page has loaded, `ms` later, once the browser is idle.
const whenIdle = (fn, ms) => addEventListener('load', () => setTimeout(() => (window.requestIdleCallback ?? setTimeout)(fn), ms))
const manifestURL = new URL(document.querySelector('meta[name="search-index"]').content, base).href
const fetchJSON = cachedFetch(embeddedIndex(base))
const engine = createEngine({ manifestURL, fetchJSON })
// Text typed before this script ran (the field is in the HTML): answered once
// the page is set up, and its index files fetched meanwhile, before the set-up.
const early = $('q').value
const typedEarly = document.activeElement === $('q')
if (early.trim() && !new URLSearchParams(location.search).has('q')) prefetchTerms({ manifestURL, fetchJSON }, early)

const idle = { text: '', tokens: [], scope: scopes[0], kind: 'top', sort: '', view: 'idle', editing: false, groups: [], options: [], active: -1, results: null, busy: false, error: null, pending: false, dismissed: false }
const store = createStore({ ...idle, recents: loadRecents(base.pathname), manifest: null })
const address = createAddress(store, scopes[0])
// ui/filters.js comes when a search first has a scope or a token: most
// searches never do, so the first page does not pay for it.
let filters = null
// ui/panel.js: the final search, its rows and the chips. The first suggestions do without it, so
// it is fetched in the background (`soon`): once suggestions for typed text have been read for a
// moment with no key since, or at once when they correct a typo (ui/runs.js), or IDLE ms after
// the page loaded, whichever is first; and at once by a final search that comes sooner (Enter, an
// address with a query).
const IDLE = 2000
let panelNow = null, panelLoad = null
const kit = { $, h, marked, fold, afterPaint, announce, snap, step, reducedMotion, around, plural, hasQuery, queryWords, artwork, details, showEmpty }
const panel = {
  now: () => panelNow,
  load: () => (panelLoad ??= later('./ui/panel.js').then((m) => (panelNow = m.mountPanel({
    store, actions, engine, idle, address, base, kit, phrase: (s) => filters?.filtersPhrase(s, scopeLabels) ?? '',
  })), (error) => { panelLoad = null; throw error })),
  soon: () => panel.load().catch(() => {}),
}
const runs = createRuns({ store, engine, panel })
const actions = createActions({ store, runs, address, base, scopes, idle })
whenIdle(panel.soon, IDLE)

mountHeader({ store })
mountField({ store, actions })
mountScopeBar({ store, actions })
mountResults({ store, actions, panel: panel.now })
let loading = false
store.subscribe((s) => {
  if (loading || (s.scope === scopes[0] && !s.tokens.length)) return
  loading = true
  later('./ui/filters.js').then((module) => {
    filters = module
    module.mountFilters({ store, actions, scopes: scopeLabels, slotFor, h, icon })
  }, () => { loading = false })
})
// Results on a desktop: Top Results' top hit and a section per kind beside the list, a chip's list
// in columns (ui/tophit.js), fetched with the first results on a wide screen, as ui/filters.js
// is; a phone keeps the seeds' list and never asks for it.
let wide
store.subscribe((s) => {
  if (s.results && matchMedia('(min-width:64rem)').matches) wide ??= later('./ui/tophit.js').then((m) => m.mountTopHit({ store, actions, engine, h, rowView: panelNow.rowView, base }), () => {})
})
engine.ready.then((manifest) => store.set({ manifest }), () => {})
// ui/sort.js, the results' sort menu, comes when results first show a kind that has sort options
// (Top Results only has those every kind has), or the address names one.
let sorting = false
store.subscribe((s) => {
  const m = s.manifest, all = m?.kinds.length
  if (sorting || s.view !== 'results' || !(s.sort || m?.sorts?.some((o) => (s.kind === 'top' ? o.kinds.length === all : o.kinds.includes(s.kind))))) return
  sorting = true
  later('./ui/sort.js').then((module) => module.mountSort({ store, runs, address }), () => { sorting = false })
})
// The offline worker (sw.js), when the site has one, registered by ui/worker.js a few seconds after
// the page has loaded, when idle, so that fetching and starting it never competes with a first
// search on a slow phone (Workbox's advice, a step further); the first query never carries it.
if (document.querySelector('meta[name="service-worker"]')) whenIdle(() => later('./ui/worker.js').then((m) => m.register(), () => {}), 3000)
const restore = followHistory({ store, engine, runs, idle, scopes, kinds })
restore()
if (early.trim() && !hasQuery(readURL())) actions.type(early)
else if (typedEarly && document.activeElement === $('q')) actions.focus()
