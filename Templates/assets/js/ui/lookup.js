// The detail pages' suggestions: the search page's engine, completions and
// option rows under the top bar's field (a combobox with a listbox, as on
// the search page). A completion or Enter opens the search page with the
// query; a record opens its page. js/detail.js loads this on first focus.

import { createEngine } from '../engine/engine.js'
import { cachedFetch, embeddedIndex } from './fetcher.js'
import { completionOptions } from './completions.js'
import { optionView } from './results.js'
import { $ } from './dom.js'

export function mountLookup(field) {
  const form = field.form
  const list = $('suggestions')
  const clear = $('field-clear')
  const base = new URL(form.getAttribute('action'), location.href)
  // data-index is idx/manifest.json, whose name stays from build to build.
  const manifestURL = new URL(form.dataset.index, base).href
  const engine = createEngine({ manifestURL, fetchJSON: cachedFetch(embeddedIndex(base), new Set([manifestURL])) })
  let options = []
  let active = -1
  let latest = 0

  function show(open) {
    list.hidden = !open
    field.setAttribute('aria-expanded', open)
    if (!open) select(-1)
  }
  function select(index) {
    $(`opt-${active}`)?.setAttribute('aria-selected', 'false')
    active = index
    const option = $(`opt-${index}`)
    option?.setAttribute('aria-selected', 'true')
    option?.scrollIntoView({ block: 'nearest' })
    if (option) field.setAttribute('aria-activedescendant', option.id)
    else field.removeAttribute('aria-activedescendant')
  }
  function go(option) {
    if (option.type === 'doc') return location.assign(new URL(option.doc.url, base))
    field.value = option.text
    form.submit()
  }

  async function suggest() {
    const id = ++latest
    const text = field.value
    clear.hidden = !text
    if (!text.trim()) return show(false)
    try {
      const r = await engine.suggest(text)
      if (id !== latest) return
      options = [...completionOptions(r.completions, text), ...r.docs.map((doc) => ({ type: 'doc', doc }))]
      active = -1
      list.replaceChildren(...options.map(optionView))
      show(options.length > 0)
    } catch {
      // Offline or a missing file: the field still searches on Enter.
      if (id === latest) show(false)
    }
  }

  field.addEventListener('input', suggest)
  field.addEventListener('focus', () => field.value.trim() && options.length && show(true))
  field.addEventListener('blur', () => show(false))
  field.addEventListener('keydown', (event) => {
    const open = !list.hidden
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!open) return
      event.preventDefault()
      const next = active + (event.key === 'ArrowDown' ? 1 : -1)
      select(next < -1 ? options.length - 1 : next >= options.length ? -1 : next)
    } else if (event.key === 'Enter' && open && active >= 0) {
      event.preventDefault()
      go(options[active])
    } else if (event.key === 'Escape') {
      if (open) show(false)
      else field.value = ''
      clear.hidden = !field.value
    }
  })
  // Options never take focus: the field keeps it.
  list.addEventListener('mousedown', (event) => event.preventDefault())
  list.addEventListener('click', (event) => {
    const option = event.target.closest('[role=option]')
    if (option) go(options[+option.id.slice(4)])
  })
  clear.addEventListener('mousedown', (event) => event.preventDefault())
  clear.addEventListener('click', () => {
    field.value = ''
    suggest()
    field.focus()
  })
  if (field.value) suggest()
}
