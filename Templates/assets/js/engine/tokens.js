// Search tokens offered for what is typed: facet values whose label or any word begins with it.
import { normalize, remember } from './normalize.js'

// Every keystroke compares the text with the same labels and values: their folded forms are kept.
const folded = remember(normalize)

/** Every facet value `text` may mean, most documents first. */
export function tokenSuggestions(manifest, text = '') {
  const q = normalize(text).trim(), out = []
  for (const f of manifest?.facets || []) {
    const label = folded(f.label).startsWith(q)
    for (const [value, count] of f.values) {
      if (label || startsWord(folded(value), q)) out.push({ facet: f.id, facetLabel: f.label, value, count, icon: f.icon })
    }
  }
  out.sort((a, b) => b.count - a.count)
  // A range's spans from its values' quartiles (`Length: <3:00`), when its name is typed.
  const spans = []
  for (const r of manifest?.ranges || []) {
    if (q.length > 2 && normalize(r.label).startsWith(q)) for (const [value, count] of r.offers) spans.push({ facet: r.id, facetLabel: r.label, value, count })
  }
  return [...spans, ...out]
}

// "rap" should offer "Hip Hop/Rap": any word of the value may begin with the text.
function startsWord(name, q) {
  for (let i = name.indexOf(q); i >= 0; i = name.indexOf(q, i + 1)) {
    if (!i || !/[\p{L}\p{N}]/u.test(name[i - 1])) return true
  }
  return false
}
