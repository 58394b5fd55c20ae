// The search field: an APG combobox whose popup is the #suggestions
// listbox, the clear and Cancel buttons, and the keys that drive them (the
// tokens inside it are drawn by ui/filters.js). Editing ends when focus
// leaves the header, a search is committed, or the search is cancelled.

import { $, afterPaint } from './dom.js'
import { hasQuery } from './store.js'

export function mountField({ store, actions }) {
  const input = $('q')
  const header = $('search-header')
  const tokens = $('tokens')
  const clear = $('field-clear')

  // Focus from a pointer or `/` starts editing, as a tap does on iOS.
  // Tabbing through does not: it would swap the chips for the scope bar under
  // a keyboard user on the way to them. Typing or an arrow key does.
  let tabbing = false
  addEventListener('keydown', (event) => {
    if (event.key === 'Tab') tabbing = setTimeout(() => { tabbing = false })
  }, true)
  input.addEventListener('focus', () => tabbing || actions.focus())
  input.addEventListener('click', () => actions.focus())
  input.addEventListener('input', () => actions.type(input.value))
  input.addEventListener('keydown', (event) => onKey(event, store.get()))
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault()
    actions.commit()
  })

  // These keep focus in the field when pressed: a blur would end editing and
  // show the chips a moment before Cancel hides everything — the flash of
  // chips the iOS version guards against. (A mousedown's default moves focus.)
  for (const el of [$('cancel'), clear, tokens]) el.addEventListener('mousedown', (event) => event.preventDefault())
  $('cancel').addEventListener('click', () => actions.cancel())
  clear.addEventListener('click', () => {
    actions.clear()
    input.focus()
  })
  $('field').addEventListener('click', (event) => event.target.closest('button') || input.focus())

  // Escape in the field closes the suggestions, then clears the search, then
  // cancels, each step keeping focus in the field until the last (Algolia
  // Autocomplete, the APG combobox). Elsewhere in the header, or with nothing
  // focused, it cancels (an open scope menu closes first and stops it).
  addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return
    if (!header.contains(event.target) && event.target !== document.body) return
    event.preventDefault()
    const s = store.get()
    if (event.target !== input) actions.cancel()
    else if (s.view === 'suggest' && !s.dismissed && (s.options.length || hasQuery(s))) actions.dismiss()
    else if (hasQuery(s) || s.view === 'results') actions.clearAll()
    else actions.cancel()
  })
  // Wait for focus to land: moving within the header keeps editing, and the
  // window losing focus is not the user leaving the field.
  header.addEventListener('focusout', () => setTimeout(() => {
    if (!header.contains(document.activeElement) && document.hasFocus()) actions.endEditing()
  }))

  addEventListener('keydown', (event) => {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
    const el = event.target
    if (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) return
    if (store.get().manifest?.options?.slashFocuses === false) return
    event.preventDefault()
    input.focus()
  })

  function onKey(event, s) {
    if (event.isComposing) return
    const key = event.key
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      if (!s.editing) return actions.focus()
      if (s.dismissed) return actions.reopen()
      if (!s.options.length || s.view !== 'suggest') return
      event.preventDefault()
      actions.move(key === 'ArrowDown' ? 1 : -1)
    } else if (key === 'Enter' && s.active >= 0) {
      event.preventDefault() // otherwise the form's submit commits the text
      actions.pick(s.active)
    } else if (key === 'Enter') {
      // The search starts on the key itself, not on the form's submit three events later.
      event.preventDefault()
      actions.commit()
    } else if (key === 'Backspace' && s.tokens.length && !input.selectionStart && !input.selectionEnd) {
      event.preventDefault()
      actions.removeToken(s.tokens.length - 1)
    } else if (key === 'Delete' && s.options[s.active]?.recent) {
      event.preventDefault()
      actions.forget(s.options[s.active].recent)
    }
  }

  store.subscribe((s, prev) => {
    if (s.text !== input.value) input.value = s.text
    // The tokens themselves are drawn by ui/filters.js, which the first token brings.
    // Written only when they change: a keystroke should touch as little as it can.
    if (clear.hidden !== (!s.text && !s.tokens.length)) clear.hidden = !s.text && !s.tokens.length
    const expanded = String(s.view === 'suggest' && !s.dismissed && s.options.length > 0)
    if (input.ariaExpanded !== expanded) input.ariaExpanded = expanded
    if (s.active >= 0) input.setAttribute('aria-activedescendant', `opt-${s.active}`)
    else input.removeAttribute('aria-activedescendant')
    // The field lets go of focus (and a phone its keyboard) once a final search's first rows are
    // on screen: a blur restyles the header (a millisecond or two).
    if (!s.editing && prev.editing) afterPaint(() => store.get().editing || document.activeElement !== input || input.blur())
  })
}
