// Optional words (FORMAT.md "Optional words"), fetched only when a query's words together find
// nothing, as typo.js is when a word finds nothing: the first answer to a query that finds
// something never waits for it.
import { intersect } from './postings.js'

// Which query words to keep (indexes, in query order). All of them when together they find
// something; else the least useful word is dropped, then the next, until the rest find something:
// a word that reaches nothing first, then the word that reaches the most documents (the least
// specific: `install` before `nginx`), a later word before an earlier one on a tie. Between the
// kept words and the filters, as Meilisearch's `matchingStrategy: last` and Algolia's
// `removeWordsIfNoResults` do, but ordered by what the words reach rather than by their place.
export function optional(matches, lists) {
  const kept = matches.map((_, i) => i)
  const finds = () => intersect([...kept.map((i) => matches[i].all), ...lists]).length > 0
  const useless = (i) => (matches[i].all.length ? matches[i].all.length : Infinity)
  while (kept.length > 1 && !finds()) {
    const drop = kept.reduce((a, b) => (useless(b) >= useless(a) ? b : a))
    kept.splice(kept.indexOf(drop), 1)
  }
  return kept
}
