// The scope bar: a segmented control (a radiogroup with a sliding thumb)
// that becomes one compact menu button when its segments stop fitting — a
// narrow phone, 200 % text, long labels — and comes back when space returns.
//
// It cannot oscillate: the regular layout's width is measured from the
// labels, which keep their size in both modes (hidden segments stay laid
// out), so switching changes neither side of the comparison. A hysteresis
// band on top absorbs sub-pixel rounding.

import { $, announce, snap, step } from './dom.js'

// Px the segments need to spare before coming back.
const HYSTERESIS = 8
// The compact control's menu (ui/scopemenu.js), fetched the first time the bar turns compact.
const MENU = import.meta.url.includes('/ui/') ? './scopemenu.js' : './ui/scopemenu.js'

export function mountScopeBar({ store, actions }) {
  const layer = $('scope-layer')
  const bar = $('segmented')
  const button = $('scope-button')
  const menu = $('scope-menu')
  const segments = [...bar.querySelectorAll('[role=radio]')]
  const items = [...menu.children]
  const labels = segments.map((seg) => seg.firstElementChild)
  if (!segments.length) return
  bar.style.setProperty('--n', segments.length)

  // A mouse press must not take focus from the field: that would end editing.
  bar.addEventListener('mousedown', (event) => event.preventDefault())
  bar.addEventListener('click', (event) => {
    const seg = event.target.closest('[role=radio]')
    if (seg) actions.setScope(seg.dataset.scope)
  })
  bar.addEventListener('keydown', (event) => {
    const next = step(segments, segments.indexOf(event.target), event.key)
    if (!next) return
    event.preventDefault()
    actions.setScope(next.dataset.scope)
    next.focus()
  })

  // Compact: an APG menu button; the menu lists every scope, the current checked. Its behaviour
  // comes when the bar first turns compact, before anyone sees the button; a press that beats it
  // opens the menu once it is in.
  let menuing = null, control = null
  const wire = () => (menuing ??= import(MENU).then((m) => (control = m.menuButton(button, menu, () => items, (item) => {
    actions.setScope(item.dataset.scope)
    // Back to the field, so Enter searches rather than opening the menu again.
    control.close(false)
    $('q').focus()
  })), () => (menuing = null)))
  button.addEventListener('click', () => control || wire().then((c) => c?.open()))
  const close = (refocus) => control?.close(refocus)

  let required = 0
  let compact = false
  const observer = new ResizeObserver((entries) => {
    // Labels resize when the label set or the font size changes: measure then.
    if (entries.some((entry) => entry.target !== layer)) required = measure()
    fit()
  })
  for (const el of [layer, ...labels]) observer.observe(el)

  function measure() {
    const seg = getComputedStyle(segments[0])
    const track = getComputedStyle(bar)
    const widest = Math.max(...labels.map((label) => label.getBoundingClientRect().width))
    const padding = parseFloat(seg.paddingLeft) + parseFloat(seg.paddingRight)
    return segments.length * Math.ceil(widest + padding) + parseFloat(track.paddingLeft) + parseFloat(track.paddingRight)
  }

  function fit() {
    const available = layer.clientWidth
    const next = required > available || (compact && required > available - HYSTERESIS)
    if (next === compact) return
    // Whoever had focus in the old form keeps it in the new one.
    const focused = layer.contains(document.activeElement)
    compact = next
    if (next) wire()
    layer.dataset.compact = next
    button.parentNode.hidden = !next
    if (!next) close(false)
    if (focused) (next ? button : segments.find((seg) => seg.tabIndex === 0)).focus()
  }

  function render(scope, animate) {
    const index = Math.max(0, segments.findIndex((seg) => seg.dataset.scope === scope))
    segments.forEach((seg, i) => {
      seg.ariaChecked = items[i].ariaChecked = String(i === index)
      seg.tabIndex = i === index ? 0 : -1
    })
    $('scope-button-label').textContent = labels[index].textContent
    const move = () => bar.style.setProperty('--i', index)
    animate ? move() : snap(bar, move)
  }

  render(store.get().scope, false)
  store.subscribe((s, prev) => {
    if (s.scope === prev.scope) return
    render(s.scope, s.editing || prev.editing)
    // A change a screen reader would not otherwise hear (a click keeps focus in the field).
    announce(/*t:scopeIs*/`Scope: ${labels[segments.findIndex((seg) => seg.dataset.scope === s.scope)]?.textContent ?? s.scope}`)
  })
}
