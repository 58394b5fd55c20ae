// The chip row after a final search: a tablist over the results panel.
// The selection is drawn as Apple Music draws it: two identical rows of
// labels, the top one white on the tint and clipped to a capsule, so moving
// the clip-path moves the capsule and sweeps the label colour across chips.
// Part of ui/panel.js, fetched after the first suggestions: the page's helpers
// come in `kit` (ui/panel.js says why), so none is bundled twice.

export function mountChips({ store, actions, kit: { $, snap, step, reducedMotion } }) {
  const scroller = $('chip-scroll')
  const track = $('chip-track')
  const list = $('chips')
  const top = $('chips-top')
  const chips = [...list.querySelectorAll('[role=tab]')]
  const twins = [...top.children]
  if (!chips.length) return
  installSpring()

  list.addEventListener('click', (event) => {
    const chip = event.target.closest('[role=tab]')
    if (chip) actions.setKind(chip.dataset.kind)
  })
  list.addEventListener('keydown', (event) => {
    const next = step(chips, chips.indexOf(event.target), event.key, 'x')
    if (!next) return
    event.preventDefault()
    next.focus()
    actions.setKind(next.dataset.kind)
  })

  const selected = () => chips.find((chip) => chip.ariaSelected === 'true') ?? chips[0]

  /** Moves the capsule (and so the white labels' mask) onto the selected chip. */
  let frame = 0
  function place(animate) {
    cancelAnimationFrame(frame)
    const box = top.getBoundingClientRect()
    const rect = selected().getBoundingClientRect()
    const px = (n) => `${n.toFixed(2)}px`
    const apply = () => {
      top.style.clipPath = `inset(0px ${px(box.right - rect.right)} 0px ${px(rect.left - box.left)} round ${px(rect.height / 2)})`
    }
    animate ? apply() : snap(top, apply)
  }

  /** Scrolls the row just enough to show the chip with its inset (the row's scroll-padding), either way round. */
  function reveal(chip) {
    chip.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: reducedMotion() ? 'auto' : 'smooth' })
  }

  function select(kind) {
    for (const chip of chips) {
      chip.ariaSelected = String(chip.dataset.kind === kind)
      chip.tabIndex = chip.dataset.kind === kind ? 0 : -1
    }
    $('results-panel').setAttribute('aria-labelledby', selected().id)
  }

  /** Hides the chips of kinds known to have no results (never Top Results); true if any changed. */
  function hideEmpty(totals) {
    let changed = false
    chips.forEach((chip, i) => {
      // Only a known zero hides a chip: a large index leaves other kinds' totals unknown.
      const hidden = Boolean(totals) && chip.dataset.kind !== 'top' && totals[chip.dataset.kind] === 0
      changed ||= chip.hidden !== hidden
      chip.hidden = twins[i].hidden = hidden
    })
    return changed
  }

  // Resizes (viewport, text size, fonts, hidden chips) snap without animating.
  new ResizeObserver(() => place(false)).observe(track, { box: 'border-box' })
  select(store.get().kind)
  store.subscribe((s, prev) => {
    const totals = s.results?.totals
    const moved = totals !== prev.results?.totals && hideEmpty(totals)
    // Chips shown or hidden by new totals: the capsule moves in the frame that draws them, so the
    // rows that came with the totals are on the page before any layout is read.
    if (s.kind === prev.kind) {
      if (moved) {
        cancelAnimationFrame(frame)
        frame = requestAnimationFrame(() => place(false))
      }
      return
    }
    select(s.kind)
    // A choice the user makes and sees animates; anything else lands at once.
    const seen = s.view === 'results' && !s.editing
    place(seen)
    if (seen) reveal(selected())
  })
}

/**
 * The chips' spring, as UIKit states it: 0.25 s perceived duration, bounce
 * 0.25. CSS has no spring timing, but `linear()` traces any curve, so the
 * damped oscillator is sampled into one, lasting until it settles (within
 * 0.1 %). Custom properties set through CSSOM are allowed under a strict CSP.
 * Without `linear()`, search.css's cubic-bezier fallback stays.
 */
export function spring(duration = 0.25, bounce = 0.25, samples = 40) {
  // Damping ratio, kept just under 1 so bounce 0 still has an oscillator to sample.
  const zeta = Math.min(1 - bounce, 0.999)
  const omega = (2 * Math.PI) / duration
  const damped = omega * Math.sqrt(1 - zeta * zeta)
  const decay = zeta * omega
  const at = (t) => 1 - Math.exp(-decay * t) * (Math.cos(damped * t) + (decay / damped) * Math.sin(damped * t))
  // The envelope bounds the distance to rest: settled once it is under 0.1 %.
  const seconds = Math.log(Math.hypot(1, decay / damped) / 0.001) / decay
  const stops = Array.from({ length: samples }, (_, i) => +at((seconds * i) / samples).toFixed(4))
  return { easing: `linear(${stops.join(', ')}, 1)`, seconds: +seconds.toFixed(3) }
}

function installSpring() {
  if (!CSS.supports('transition-timing-function', 'linear(0, 1)')) return
  const { easing, seconds } = spring()
  document.documentElement.style.setProperty('--spring-easing', easing)
  document.documentElement.style.setProperty('--spring-duration', `${seconds}s`)
}
