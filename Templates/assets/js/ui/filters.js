// Filters you can see. A search runs under a scope and tokens that, once
// the scope bar gives way to the chips, nothing on screen names any more; so
// the results say them ("Results in Library with Genre: Jazz"), "No results"
// says them too, and one tap searches everything instead. (Screen readers
// hear scope changes from ui/scopebar.js, tokens from ui/actions.js, and the
// filters in force in ui/runs.js's results summary.)

// It imports nothing: the page's bundle keeps it out (app.js), and the file it is fetched as
// needs no other. `slotFor` comes from ui/store.js, `h` and `icon` from ui/dom.js, through
// mountFilters. It draws the field's tokens too, so a page that never has one never loads that.
const $ = (id) => document.getElementById(id)
const labelOf = (scopes, id) => scopes.find((x) => x.id === id)?.label ?? id

/** The scope and tokens in force, in words: '' when there are none. */
export function filtersPhrase(s, scopes) {
  // Values of one facet are alternatives (engine.js), facets all apply.
  const byLabel = new Map()
  for (const t of s.tokens) byLabel.set(t.label, [...(byLabel.get(t.label) ?? []), t.value])
  const tokens = [...byLabel].map(([label, values]) => /*t:filterValue*/`${label}: ${values.join(/*t:orWord*/' or ')}`).join(/*t:andWord*/' and ')
  return [s.scope !== scopes[0].id && /*t:inScope*/`in ${labelOf(scopes, s.scope)}`, tokens && /*t:withFilters*/`with ${tokens}`].filter(Boolean).join(' ')
}

/**
 * What "search everything" leaves: the first scope, and no tokens if there
 * is text to search without them. Null when that would change nothing.
 */
export function widened(s, scopes) {
  const keep = !s.text.trim() || !s.tokens.length
  return s.scope === scopes[0].id && keep ? null : { scope: scopes[0].id, tokens: keep ? s.tokens : [] }
}

export function mountFilters({ store, actions, scopes, slotFor, h, icon }) {
  const line = $('filters')
  const buttons = [$('filters-widen'), $('empty-widen'), $('suggest-widen')]
  // "Search the whole catalogue" ("Search All Years" where the label says
  // "all" already) under No Results; a short "Search All" beside results.
  const label = scopes[0].label
  buttons[0].textContent = /*t:searchAll*/'Search All'
  // The first scope's own name when it says "all" (the default scope's is the site's word for All).
  const english = document.documentElement.lang.startsWith('en')
  buttons[1].textContent = buttons[2].textContent = /^all\b/i.test(label) || label === /*t:all*/'All' ? /*t:searchLabel*/`Search ${label}` : /*t:searchWhole*/`Search the whole ${english ? label.toLowerCase() : label}`
  for (const button of buttons) button.onclick = () => actions.widen(widened(store.get(), scopes))
  const input = $('q')
  new ResizeObserver(() => fitPlaceholder(input)).observe(input)

  function render(s) {
    const phrase = filtersPhrase(s, scopes)
    const canWiden = Boolean(widened(s, scopes))
    const shown = s.view === 'results' && s.results
    line.hidden = !(shown && s.results.total && phrase)
    // The count over the rows (results.js) takes the filters in: "12 results in Library".
    if (!line.hidden) $('filters-text').textContent = `${$('count').textContent} ${phrase}`
    $('count').hidden ||= !line.hidden
    buttons[0].hidden = line.hidden || !canWiden
    // results.js has said what was searched for; this adds where.
    const empty = shown && !s.results.total && phrase
    const query = s.text.trim()
    if (empty) $('empty-text').textContent = query ? /*t:noResultsForFiltered*/`No results for \u201c${query}\u201d ${phrase}.` : /*t:noResultsFiltered*/`No results ${phrase}.`
    buttons[1].hidden = !(empty && canWiden)
    renderNoMatch(s, phrase, canWiden)
  }

  // Suggestions find nothing under a scope or tokens: they are the reason to
  // name, with the same one tap, rather than "try another spelling" (which
  // results.js writes when nothing narrows the search).
  function renderNoMatch(s, phrase, canWiden) {
    const noMatch = $('no-match'), typed = s.suggested?.trim()
    const narrowed = s.view === 'suggest' && !noMatch.hidden && typed && phrase
    if (narrowed) {
      const [before, after] = /*t:noMatchesForFiltered*/`No matches for \u201c${'{query}'}\u201d ${phrase}.`.split('{query}')
      noMatch.replaceChildren(before, noMatch.querySelector('strong') ?? typed, after)
    }
    buttons[2].hidden = !(narrowed && canWiden)
  }

  // The field's tokens. Those that do not fit scroll, and an edge with more beyond it fades
  // (search.css), so a token is never cut off mid-word.
  const tokens = $('tokens')
  function fade() {
    const end = tokens.scrollWidth - tokens.clientWidth
    const at = Math.abs(tokens.scrollLeft)
    const edges = [at > 1 && 'start', at < end - 1 && 'end'].filter(Boolean).join(' ')
    if ((tokens.dataset.fade ?? '') !== edges) tokens.dataset.fade = edges
  }
  tokens.addEventListener('scroll', fade, { passive: true })
  new ResizeObserver(fade).observe(tokens)
  const tokenView = (token, index) =>
    h('li', { class: 'token' },
      icon(token.icon),
      h('span', { class: 'visually-hidden', text: `${token.label}: ` }),
      h('span', { class: 'token-label', text: token.value }),
      h('button', {
        class: 'token-remove',
        type: 'button',
        'aria-label': /*t:removeFilter*/`Remove ${token.label}: ${token.value}`,
        onclick: () => {
          actions.removeToken(index)
          input.focus()
        },
      }, icon('close')))
  function renderTokens(list) {
    tokens.replaceChildren(...list.map(tokenView))
    // The newest token in full; the ones before it fade out at the edge.
    tokens.scrollLeft = /*t:direction*/'ltr' === 'rtl' ? -tokens.scrollWidth : tokens.scrollWidth
    fade()
  }

  render(store.get())
  renderTokens(store.get().tokens)
  store.subscribe((s, prev) => {
    if (s.tokens !== prev.tokens) renderTokens(s.tokens)
    if (s.tokens !== prev.tokens) requestAnimationFrame(() => fitPlaceholder(input))
    if (s.results !== prev.results || s.view !== prev.view || s.scope !== prev.scope || s.tokens !== prev.tokens) render(s)
    else if (s.options !== prev.options || s.suggested !== prev.suggested) renderNoMatch(s, filtersPhrase(s, scopes), Boolean(widened(s, scopes)))
    // With the field cleared the scope bar hides; a scope left on would
    // filter the next search unseen, so it goes back to the first.
    if (slotFor(s) === 'none' && s.view !== 'results' && s.scope !== scopes[0].id) {
      queueMicrotask(() => actions.setScope(scopes[0].id))
    }
  })
}

let measure = null

/**
 * Next to a token the field is narrower than its placeholder, and Chromium
 * does not ellipsize a focused input: drop whole words until it fits and
 * end in "…", rather than show "Artists, Songs, Alb".
 */
function fitPlaceholder(input) {
  const full = (input.dataset.placeholder ??= input.placeholder)
  measure ??= document.createElement('canvas').getContext('2d')
  measure.font = getComputedStyle(input).font
  const words = full.split(' ')
  let text = full
  while (words.length > 1 && measure.measureText(text).width > input.clientWidth) {
    words.pop()
    text = `${words.join(' ').replace(/[,;:]$/, '')}\u2026`
  }
  input.placeholder = text
}
