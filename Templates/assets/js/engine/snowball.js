// Word forms in a language Snowball covers (FORMAT.md "Word forms"). The browser cannot run
// Snowball: the index holds every stem as a term (its documents those of all the words it is the
// stem of), marks the words that are stems (`joined`, `stems`), and lists in the manifest the
// endings Snowball takes off the language's words (`options.endings`, shortest first). Fetched
// by match.js only for a manifest with endings, so an English site's first query never loads it.
// (Its name is made from typo.js's, so the page's bundle holds no more than the one import.)

// The roots a typed word may have, the longest first: the word less each ending, at least 3
// letters left (`dinares` → `dinare`, `dinar`, `din`).
export function roots(word, endings) {
  const letters = [...word].length
  return endings.filter((e) => e && word.endsWith(e) && letters - [...e].length >= 3).map((e) => word.slice(0, -e.length))
}

// The stem a word shows for marks and proximity: the word less its longest ending, 3 letters left
// (`dänischen`, `dänische` → `dänisch`). A close guess at Snowball's stem, enough to tell that two
// words of a row are forms of one; what matches is decided by Snowball's own stems, in the index.
export const stemmer = (endings) => (w) => roots(w, endings).at(-1) ?? w

// A typed word's other forms, as [shard, term, typos]: those of its root, the longest of its
// roots that is the stem of a word of the site (`norwegischen` → `norweg`, not the word
// `norwegisch`, whose own stem is `norweg` too; `франков` → `франк`, not the word `франко`),
// else the longest that is a term at all (`dinares` → `dinar`). None when the word itself is it.
// It also sets the manifest's `options.stem`, the stem marks and proximity use (forms.js).
export async function forms(word, found, options, loader, shard) {
  const { endings } = options
  options.stem ??= stemmer(endings)
  const terms = []
  for (const root of roots(word, endings)) {
    const at = await loader.shardFor(root)
    const s = at && await shard(at.path)
    if (s?.terms[root]) terms.push([s, root, 0])
  }
  const root = terms.find(([s, t]) => s.joined.has(t) || s.stems?.includes(t)) ?? terms[0]
  return root && !found.some(([, t]) => t === root[1]) ? [root] : []
}
