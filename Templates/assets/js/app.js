// The search page: the engine, one store, and the actions the UI modules
// call. Each module in ui/ owns one piece of the page and renders from the
// store; this file turns intent into state, searches and history.

import { createEngine } from './engine/engine.js'
import { createLoader } from './engine/loader.js'
import { queryWords } from './engine/normalize.js'
import * as memory from './ui/store.js'
import { $, announce, snap } from './ui/dom.js'
import { mountHeader } from './ui/header.js'
import { mountField } from './ui/field.js'
import { mountScopeBar } from './ui/scopebar.js'
import { mountChips } from './ui/chips.js'
import { mountResults } from './ui/results.js'
import { completionOptions } from './ui/completions.js'

// Results per page of a final search.
const PAGE = 30
const ids = (selector, key) => [...document.querySelectorAll(selector)].map((el) => el.dataset[key])
const base = new URL($('search-form').getAttribute('action'), location.href)
const scopes = ids('#segmented [data-scope]', 'scope')
const kinds = ids('#chips [data-kind]', 'kind')
const scopeLabels = [...document.querySelectorAll('#segmented [data-scope]')].map((el) => ({ id: el.dataset.scope, label: el.textContent }))
const manifestURL = new URL(document.querySelector('meta[name="search-index"]').content, base).href
const fetchJSON = cachedFetch(embeddedIndex())
const engine = createEngine({ manifestURL, fetchJSON })
// Text typed before this script ran (the field is in the HTML): answered once
// the page is set up, and its index files fetched meanwhile, before the set-up.
const early = $('q').value
const typedEarly = document.activeElement === $('q')
if (early.trim() && !new URLSearchParams(location.search).has('q')) prefetchTerms(early)
// How long a suggestion may take before the list says it is still loading.
const QUIET = 300

const { hasQuery } = memory
const idle = { text: '', tokens: [], scope: scopes[0], kind: 'top', view: 'idle', editing: false, groups: [], options: [], active: -1, results: null, busy: false, error: null, pending: false }
const store = memory.createStore({ ...idle, recents: memory.loadRecents(base.pathname), manifest: null })
const get = () => store.get()
const set = (patch) => store.set(patch)
// The address follows typing once it pauses: a history call takes a
// millisecond or more, too much for every keystroke. Any other write (a
// final search, Cancel) happens at once and drops the pending one.
const TYPING_PAUSE = 200
let typingWrite = 0
const url = (mode) => {
  clearTimeout(typingWrite)
  if (mode !== 'partial') return memory.writeURL(get(), scopes[0], mode)
  typingWrite = setTimeout(() => memory.writeURL(get(), scopes[0], mode), TYPING_PAUSE)
}
const plain = (tokens) => tokens.map(({ facet, value }) => ({ facet, value }))
const same = (a, b) => a.facet === b.facet && a.value === b.value
const recents = (list) => set({ recents: memory.saveRecents(base.pathname, list) })
// The newest request: an older answer is dropped when it lands.
let latest = 0

/** The index files the page embeds (`#index-data`): URL → parsed JSON. */
function embeddedIndex() {
  const files = new Map()
  try {
    for (const [path, value] of Object.entries(JSON.parse($('index-data')?.textContent || '{}'))) files.set(new URL(path, base).href, value)
  } catch {
    // A broken block only costs the fetches it would have saved.
  }
  return files
}

/** fetch + JSON, embedded files first, each URL once (a failure is forgotten, to retry). */
function cachedFetch(files) {
  const pending = new Map()
  return (url) => {
    if (files.has(url)) return Promise.resolve(files.get(url))
    if (!pending.has(url)) {
      const value = fetch(url).then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${url}`)
        return response.json()
      })
      value.catch(() => pending.delete(url))
      pending.set(url, value)
    }
    return pending.get(url)
  }
}

/**
 * Starts fetching the term files for text typed before the script ran, so
 * the network works while the page sets itself up. Only the term files: the
 * documents depend on the whole text, which may still be growing.
 */
function prefetchTerms(text) {
  const loader = createLoader({ manifestURL, fetchJSON })
  loader.manifest
    .then(() => Promise.all(queryWords(text).map((word) => loader.shardFor(word).then((at) => at && loader.load(at.path)))))
    .catch(() => {})
}

const actions = {
  focus() {
    const s = get()
    if (s.editing) return
    set({ editing: true, view: s.view === 'idle' ? 'suggest' : s.view })
    if (get().view === 'suggest') suggest()
  },
  endEditing() {
    const s = get()
    if (s.editing) set({ editing: false, active: -1, view: s.view === 'suggest' && !hasQuery(s) ? 'idle' : s.view })
  },
  type(text) {
    set({ text, view: 'suggest', active: -1, editing: true })
    url('partial')
    suggest({ say: true })
  },
  clear() {
    set({ text: '', tokens: [], view: 'suggest', active: -1 })
    url('partial')
    suggest()
  },
  commit(text = get().text) {
    const s = get()
    if (!text.trim() && !s.tokens.length) return
    set({ text, view: 'results', editing: false, active: -1, kind: 'top', results: null })
    recents([{ text: text.trim(), tokens: s.tokens }, ...s.recents])
    url('final')
    search()
  },
  pick(index) {
    const option = get().options[index]
    if (option?.type === 'doc') return location.assign(new URL(option.doc.url, base))
    if (option?.type === 'filter') return actions.addToken(option.token)
    if (option?.type === 'recent') set({ tokens: option.recent.tokens })
    if (option) actions.commit(option.recent?.text ?? option.text)
  },
  // Down from the field enters at the top, Up at the bottom; past either
  // end is back in the field, as in the APG combobox examples.
  move(delta) {
    const { active, options } = get()
    const next = active < 0 ? (delta > 0 ? 0 : options.length - 1) : active + delta
    set({ active: next >= options.length ? -1 : next })
  },
  addToken(token) {
    const s = get()
    if (s.tokens.some((t) => same(t, token))) return
    // The typed text found the token, so the token takes its place.
    set({ tokens: [...s.tokens, token], text: '', view: 'suggest', active: -1 })
    announce(`Added filter ${token.label}: ${token.value}`)
    url('partial')
    suggest()
  },
  removeToken(index) {
    const s = get()
    const token = s.tokens[index]
    if (!token) return
    const tokens = s.tokens.filter((t) => t !== token)
    announce(`Removed filter ${token.label}: ${token.value}`)
    if (s.view === 'results' && hasQuery({ ...s, tokens })) {
      set({ tokens })
      url('replace')
      return search()
    }
    set({ tokens, view: 'suggest', active: -1 })
    url('partial')
    suggest()
  },
  browse(facet, value) {
    const token = tokenFor(facet, value)
    if (!token) return
    set({ tokens: [token], text: '' })
    actions.commit('')
  },
  cancel() {
    latest++
    set(idle)
    url('final')
  },
  setScope(scope) {
    const s = get()
    if (scope === s.scope || !scopes.includes(scope)) return
    set({ scope })
    url('replace')
    if (s.view === 'results') search()
    else if (s.view === 'suggest') suggest()
  },
  setKind(kind) {
    if (kind === get().kind) return
    set({ kind })
    url('replace')
    search()
  },
  more: () => search(true),
  // "Search the whole catalogue" from a filtered search (ui/filters.js
  // says what `next` leaves): a new search.
  widen(next) {
    if (!next) return
    set({ ...next, kind: 'top', results: null })
    url('final')
    search()
  },
  forget(recent) {
    recents(memory.withoutRecent(get().recents, recent))
    announce('Removed from recent searches')
    suggest({ keep: true })
  },
  forgetAll() {
    recents([])
    announce('Recent searches cleared')
    suggest()
  },
}

function tokenFor(facetId, value) {
  const facet = get().manifest?.facets?.find((f) => f.id === facetId)
  return facet && { facet: facet.id, value, label: facet.label, icon: facet.icon }
}

const filterOption = (t) => ({
  type: 'filter',
  token: { facet: t.facet, value: t.value, label: t.facetLabel, icon: t.icon },
  text: `${t.facetLabel}: ${t.value}`,
  count: t.count,
})
const keyOf = (o) => o && [o.type, o.text, o.doc?.id, o.recent && memory.describe(o.recent)].join('\n')

/** Suggestion groups: for the typed text, or for an empty field. */
async function suggest({ keep = false, say = false } = {}) {
  const id = ++latest
  // A slow index shows a quiet loading line rather than an empty list.
  const slow = setTimeout(() => id === latest && set({ pending: true }), QUIET)
  try {
    await engine.ready
    // Keystrokes that queued up meanwhile: only the newest is worth its documents.
    if (id !== latest) return
    const s = get()
    const unused = (t) => !s.tokens.some((u) => same(u, t))
    let groups
    if (!hasQuery(s)) {
      groups = [
        { id: 'recent', options: s.recents.map((recent) => ({ type: 'recent', recent })) },
        { id: 'trending', label: 'Trending', options: (s.manifest?.trending ?? []).slice(0, 6).map((text) => ({ type: 'trending', text })) },
        { id: 'filters', label: 'Search by', options: engine.tokenSuggestions('').filter(unused).slice(0, 6).map(filterOption) },
      ]
    } else {
      const r = await engine.suggest(s.text, { scope: s.scope, tokens: plain(s.tokens) })
      if (id !== latest) return
      groups = [
        { id: 'filters', options: (s.text.trim() ? engine.tokenSuggestions(s.text) : []).filter(unused).slice(0, 3).map(filterOption) },
        { id: 'completions', options: completionOptions(r.completions, s.text) },
        { id: 'docs', options: r.docs.map((doc) => ({ type: 'doc', doc })) },
      ]
    }
    groups = groups.filter((g) => g.options.length)
    const options = groups.flatMap((g) => g.options)
    // Keep the user's place when the option they are on is still offered.
    const { active, options: before } = get()
    const next = keep ? Math.min(active, options.length - 1) : options.findIndex((o) => active >= 0 && keyOf(o) === keyOf(before[active]))
    set({ groups, options, active: next, suggested: s.text, error: null, pending: false })
    if (say) announce(options.length ? `${options.length} suggestions` : 'No suggestions', 900)
  } catch (error) {
    if (id === latest) set({ groups: [], options: [], active: -1, error, pending: false })
  } finally {
    clearTimeout(slow)
  }
}

/** The final search, or its next page when `append`. */
async function search(append = false) {
  const id = ++latest
  const s = get()
  const from = append ? s.results.docs.length : 0
  set({ busy: true, error: null })
  try {
    await engine.ready
    const r = await engine.search(s.text, { scope: s.scope, tokens: plain(s.tokens), kind: s.kind, offset: from, limit: PAGE })
    if (id !== latest) return
    if (!append) {
      // A kind alone (?kind=artists) browses it if the engine lists without a
      // query; if it cannot, the idle page is the honest answer.
      if (!hasQuery(s) && !r.total) return set(idle)
      if (s.kind !== 'top' && r.totals[s.kind] === 0) {
        set({ kind: 'top' })
        url('replace')
        return search()
      }
    }
    set({ busy: false, results: { ...r, from, docs: append ? [...s.results.docs, ...r.docs] : r.docs } })
    if (!append) announce(summary(r, s))
  } catch (error) {
    if (id === latest) set({ busy: false, results: null, error })
  }
}

function summary(r, s) {
  const phrase = filters?.filtersPhrase(s, scopeLabels)
  const count = `${r.total.toLocaleString(document.documentElement.lang)} ${r.total === 1 ? 'result' : 'results'}${phrase ? ` ${phrase}` : ''}`
  const note = $('correction').hidden ? '' : `. ${$('correction').textContent}`
  return (s.kind === 'top' ? count : `${$(`chip-${s.kind}`).textContent}: ${count}`) + note
}

/** Puts the page in the state the address describes, without animating. */
async function restore() {
  const { text, tokens, scope, kind } = memory.readURL()
  const state = { ...idle, text, scope: scopes.includes(scope) ? scope : scopes[0], kind: kinds.includes(kind) ? kind : 'top' }
  const resolve = () => tokens.map((t) => tokenFor(t.facet, t.value)).filter(Boolean)
  latest++
  if (!text.trim() && !tokens.length && state.kind === 'top') return snap(document.documentElement, () => set(state))
  snap(document.documentElement, () => set({ ...state, view: 'results', tokens: resolve() }))
  // Token labels come from the manifest.
  await engine.ready.catch(() => {})
  if (tokens.length) set({ tokens: resolve() })
  search()
}

mountHeader({ store })
mountField({ store, actions })
mountScopeBar({ store, actions })
mountChips({ store, actions })
mountResults({ store, actions, base })
// ui/filters.js comes when a search first has a scope or a token: most
// searches never do, so the first page does not pay for it.
let filters = null
let loading = false
store.subscribe((s) => {
  if (loading || (s.scope === scopes[0] && !s.tokens.length)) return
  loading = true
  import('./ui/filters.js').then((module) => {
    filters = module
    module.mountFilters({ store, actions, scopes: scopeLabels })
  })
})
engine.ready.then((manifest) => set({ manifest }), () => {})
history.replaceState({ partial: false }, '')
addEventListener('popstate', restore)
restore()
if (early.trim() && !hasQuery(memory.readURL())) actions.type(early)
else if (typedEarly && document.activeElement === $('q')) actions.focus()
