// A menu button and its menu (the APG menu button pattern): the compact scope control and the
// sort menu. ui/scopebar.js fetches it (as ui/scopemenu.js) once the scope bar turns compact, so a
// page whose scopes fit never loads it (most phones); ui/sort.js, itself fetched on demand, bundles it.

import { step } from './dom.js'

/**
 * Opens `menu` from `button`, by a click or an arrow key. `items()` are its menuitemradio
 * elements, the checked one focused when it opens. At the keyboard Tab closes it, Escape closes
 * it back to its button, Enter and Space choose the focused item, arrows, Home and End move among
 * the items; a press anywhere outside the button's parent closes it. `pick(item)` is told of a
 * chosen item and closes the menu itself, as it needs. Returns `{ open, close(refocus) }`.
 */
export function menuButton(button, menu, items, pick) {
  button.addEventListener('click', () => (menu.hidden ? open() : close(true)))
  button.addEventListener('keydown', (event) => {
    if (!/^Arrow(Up|Down)$/.test(event.key)) return
    event.preventDefault()
    open(event.key === 'ArrowUp' ? items().length - 1 : undefined)
  })
  menu.addEventListener('click', (event) => {
    const item = event.target.closest('[role=menuitemradio]')
    if (item) pick(item)
  })
  menu.addEventListener('keydown', (event) => {
    const key = event.key
    if (key === 'Tab') return close(false)
    if (key === 'Escape' || key === 'Enter' || key === ' ') {
      event.preventDefault()
      // Escape closes the menu, not the search.
      event.stopPropagation()
      return key === 'Escape' ? close(true) : document.activeElement.click()
    }
    const list = items()
    const next = step(list, list.indexOf(document.activeElement), key, 'y')
    if (!next) return
    event.preventDefault()
    next.focus()
  })
  addEventListener('pointerdown', (event) => menu.hidden || button.parentNode.contains(event.target) || close(false))

  function open(index) {
    const list = items()
    menu.hidden = false
    button.ariaExpanded = 'true'
    list[index ?? Math.max(0, list.findIndex((item) => item.ariaChecked === 'true'))].focus()
  }

  function close(refocus) {
    menu.hidden = true
    button.ariaExpanded = 'false'
    if (refocus) button.focus()
  }

  return { open, close }
}
