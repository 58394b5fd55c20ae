// The actions the UI modules call: each turns an intent (a keystroke, a tap)
// into a state change, then writes the address and starts a run. UI modules
// render from the store and change it only through these.

import { hasQuery, sameToken, saveRecents, withoutRecent } from './store.js'
import { afterPaint, announce } from './dom.js'

/** A search token for a facet value or a range's span, labelled from the manifest; null when unknown. */
export function tokenFor(manifest, facetId, value) {
  const facet = manifest?.facets?.find((f) => f.id === facetId) ?? manifest?.ranges?.find((r) => r.id === facetId)
  return facet && { facet: facet.id, value, label: facet.label, icon: facet.icon }
}

export function createActions({ store, runs, address, base, scopes, idle }) {
  const get = () => store.get()
  const set = (patch) => store.set(patch)
  const { suggest, search } = runs
  const recents = (list) => set({ recents: saveRecents(base.pathname, list) })

  const actions = {
    focus() {
      const s = get()
      if (s.editing) return s.dismissed && actions.reopen()
      set({ editing: true, view: s.view === 'idle' ? 'suggest' : s.view })
      if (get().view === 'suggest') suggest()
    },
    endEditing() {
      const s = get()
      if (s.editing) set({ editing: false, active: -1, view: s.view === 'suggest' && !hasQuery(s) ? 'idle' : s.view })
    },
    type(text) {
      set({ text, view: 'suggest', active: -1, editing: true, dismissed: false })
      address('partial')
      suggest({ say: true })
    },
    clear() {
      set({ text: '', tokens: [], view: 'suggest', active: -1, dismissed: false })
      address('partial')
      suggest()
    },
    // `asTyped`: search the words as typed, corrected nowhere ("Search instead for …").
    commit(text = get().text, { asTyped = false } = {}) {
      const s = get()
      if (!text.trim() && !s.tokens.length) return
      // The same words again (Enter once more) are the same answer: the rows shown stay, and
      // are the answer (or, while the first page is still filling, as many are asked for), so
      // none is removed and added back.
      const again = s.view === 'results' && s.results && s.kind === 'top' && text === s.text && asTyped === s.asTyped
      set({ text, view: 'results', editing: false, active: -1, kind: 'top', results: again ? s.results : null, asTyped, dismissed: false })
      search(false, again ? s.results.docs.length : 0, again && !s.results.filling ? s.results : null)
      // The history entry and the recent search wait until the rows are on screen: a history call
      // and localStorage cost a millisecond or more each.
      address('final', { soon: true })
      const recent = { text: text.trim(), tokens: s.tokens }
      afterPaint(() => recents([recent, ...get().recents]))
    },
    // Options for other words than the field's (a newer answer still to come) are not chosen.
    pick(index) {
      const { options, suggested, text } = get()
      const option = suggested === text && options[index]
      if (option?.type === 'doc') return location.assign(new URL(option.doc.url, base))
      if (option?.type === 'filter') return actions.addToken(option.token)
      if (option?.type === 'recent') set({ tokens: option.recent.tokens })
      if (option) actions.commit(option.recent?.text ?? option.text)
    },
    // Down from the field enters at the top, Up at the bottom; past either
    // end is back in the field, as in the APG combobox examples.
    move(delta) {
      const { active, options, suggested, text } = get()
      if (suggested !== text) return
      const next = active < 0 ? (delta > 0 ? 0 : options.length - 1) : active + delta
      set({ active: next >= options.length ? -1 : next })
    },
    addToken(token) {
      const s = get()
      if (s.tokens.some((t) => sameToken(t, token))) return
      // The typed text found the token, so the token takes its place.
      set({ tokens: [...s.tokens, token], text: '', view: 'suggest', active: -1, dismissed: false })
      announce(/*t:filterAdded*/`Added filter ${token.label}: ${token.value}`)
      address('partial')
      suggest()
    },
    removeToken(index) {
      const s = get()
      const token = s.tokens[index]
      if (!token) return
      const tokens = s.tokens.filter((t) => t !== token)
      announce(/*t:filterRemoved*/`Removed filter ${token.label}: ${token.value}`)
      if (s.view === 'results' && hasQuery({ ...s, tokens })) {
        set({ tokens })
        address('replace')
        return search()
      }
      set({ tokens, view: 'suggest', active: -1, dismissed: false })
      address('partial')
      suggest()
    },
    browse(facet, value) {
      const token = tokenFor(get().manifest, facet, value)
      if (!token) return
      set({ tokens: [token], text: '' })
      actions.commit('')
    },
    // "All Albums" on the idle page: the kind alone, most popular first.
    browseKind(kind) {
      if (!kind) return
      set({ text: '', tokens: [], kind, view: 'results', editing: false, active: -1, results: null })
      address('final')
      search()
    },
    // The first Escape: the suggestions close, the text and focus stay.
    dismiss: () => set({ dismissed: true, active: -1 }),
    reopen() {
      const fromIdle = get().view === 'idle'
      set({ dismissed: false, view: fromIdle ? 'suggest' : get().view })
      if (fromIdle) suggest()
    },
    // The second: the search goes (text, tokens, results, address), focus stays.
    clearAll() {
      runs.drop()
      set({ ...idle, editing: true, dismissed: true })
      address('final')
    },
    cancel() {
      runs.drop()
      set(idle)
      address('final')
    },
    setScope(scope) {
      const s = get()
      if (scope === s.scope || !scopes.includes(scope)) return
      set({ scope })
      address('replace')
      if (s.view === 'results') search()
      else if (s.view === 'suggest') suggest()
    },
    setKind(kind) {
      if (kind === get().kind) return
      set({ kind })
      address('replace')
      search()
    },
    more: () => search(true),
    // "Search the whole catalogue" from a filtered search or its empty
    // suggestions (ui/filters.js says what `next` leaves): a new search.
    widen(next) {
      if (!next) return
      set({ ...next, kind: 'top', view: 'results', editing: false, active: -1, results: null, asTyped: false })
      address('final')
      search()
    },
    forget(recent) {
      recents(withoutRecent(get().recents, recent))
      announce(/*t:recentRemoved*/'Removed from recent searches')
      suggest({ keep: true })
    },
    forgetAll() {
      recents([])
      announce(/*t:recentsCleared*/'Recent searches cleared')
      suggest()
    },
  }
  return actions
}
