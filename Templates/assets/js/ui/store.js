// The page's state, in one place, and where it outlives the page: the
// address bar (shareable, Back and reload) and recent searches. UI modules
// render from the store and change it only through ui/actions.js.

import { fold } from './dom.js'

export function createStore(state) {
  const listeners = new Set()
  return {
    get: () => state,
    set(patch) {
      const previous = state
      state = { ...state, ...patch }
      for (const listener of listeners) listener(state, previous)
    },
    subscribe: (listener) => listeners.add(listener),
  }
}

export const hasQuery = (s) => s.text.trim() !== '' || s.tokens.length > 0

/** The same filter, whatever its label and icon say. */
export const sameToken = (a, b) => a.facet === b.facet && a.value === b.value

/**
 * The slot's layer. Editing: the scope bar once there is text or a token
 * (token suggestions show without it). Otherwise: chips over results, the
 * scope bar over suggestions, nothing on the idle page.
 */
export function slotFor(s) {
  if (s.editing) return hasQuery(s) ? 'scopes' : 'none'
  return { results: 'chips', suggest: 'scopes' }[s.view] ?? 'none'
}

/** The idle page shows the large title; any search activity hides it, as on iOS. */
export const modeFor = (s) => (s.editing || s.view !== 'idle' ? 'active' : 'idle')

// The address: ?q=…&token=genre:Jazz&scope=…&kind=…&sort=…

export function readURL() {
  const params = new URLSearchParams(location.search)
  const tokens = params.getAll('token').flatMap((raw) => {
    const at = raw.indexOf(':')
    return at > 0 ? [{ facet: raw.slice(0, at), value: raw.slice(at + 1) }] : []
  })
  // `typed=1`: "Search instead for" was chosen, so a reload keeps the words as typed.
  return { text: params.get('q') ?? '', scope: params.get('scope'), kind: params.get('kind'), tokens, asTyped: params.get('typed') === '1', sort: params.get('sort') ?? '' }
}

/**
 * Writes the state to the address. A final search gets its own history
 * entry; typing replaces one entry for the whole editing session (`partial`),
 * which the next final search replaces in turn, so Back goes from a search to
 * the one before. `replace` refines the current entry (scope, kind).
 */
export function writeURL(s, defaultScope, mode) {
  const params = new URLSearchParams()
  if (s.text.trim()) params.set('q', s.text)
  for (const t of s.tokens) params.append('token', `${t.facet}:${t.value}`)
  if (s.scope !== defaultScope) params.set('scope', s.scope)
  if (s.kind !== 'top' && s.view === 'results') params.set('kind', s.kind)
  if (s.asTyped && s.view === 'results' && s.text.trim()) params.set('typed', '1')
  if (s.sort && s.view === 'results') params.set('sort', s.sort)
  // Not `params.size`: Safari before 17 has none, and undefined would keep
  // every search out of the address.
  const query = params.toString()
  const url = location.pathname + (query ? `?${query}` : '')
  const partial = history.state?.partial === true
  if (mode === 'replace') return history.replaceState({ partial }, '', url)
  const state = { partial: mode === 'partial' }
  const same = url === location.pathname + location.search
  // The same search again (Enter once more) leaves its entry as it is: a history call costs a
  // few milliseconds, and the entry already says all there is to say.
  if (same && !partial && !state.partial) return
  if (partial || same) history.replaceState(state, '', url)
  else history.pushState(state, '', url)
}

// Recent searches, per site, in localStorage: which may be missing, full or
// hold anything, so every access is guarded and what comes back is checked.

const MAX_RECENTS = 8
const recentsKey = (base) => `generate.recents:${base}`
// Case and accents aside: `metallica` and `Metallica`, `beyonce` and `Beyoncé` are one search.
export const sameRecent = (a, b) => fold(describe(a)) === fold(describe(b))

/** How a recent search reads: its token values, then its text. */
export const describe = (r) => [...r.tokens.map((t) => t.value), r.text.trim()].filter(Boolean).join(' · ')

export function loadRecents(base) {
  try {
    const list = JSON.parse(localStorage.getItem(recentsKey(base)) ?? '[]')
    return list.filter((r) => typeof r?.text === 'string' && r.tokens?.every?.((t) => typeof t?.value === 'string'))
  } catch {
    return []
  }
}

export function saveRecents(base, list) {
  list = list.filter((r, i) => list.findIndex((o) => sameRecent(o, r)) === i).slice(0, MAX_RECENTS)
  try {
    const text = JSON.stringify(list), key = recentsKey(base)
    if (localStorage.getItem(key) !== text) localStorage.setItem(key, text)
  } catch {
    // Private browsing or a full quota: recents just do not persist.
  }
  return list
}

export const withoutRecent = (list, entry) => list.filter((r) => !sameRecent(r, entry))
