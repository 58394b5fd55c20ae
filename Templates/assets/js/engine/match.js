// One query word → the documents it reaches and the subsets the ranking rules ask about
// (FORMAT.md "Ranking"). A word is read from its prefix's term shard; a word that reaches
// nothing as typed is tried with typos: against the terms of the same shard and through the
// typo dictionary, so a slip in the first letters (`areosmith`) is forgiven too. (Trying
// typos for every word would cost a rare word's first query another file or two.)
import { EMPTY, Shard, decode, difference, union } from './postings.js'
import { stemmer } from './forms.js'

const SUBTREE = 16 // a final search reads an internal shard's subtree up to this many files
// The typo code is fetched only when a word first finds nothing. A specifier the bundler cannot
// read keeps it out of the page's bundle (esbuild inlines a literal import()); it names
// engine/typo.js from this module and from the bundle (js/app.js) alike, as both ship.
const TYPO = import.meta.url.includes('/engine/') ? './typo.js' : './engine/typo.js'
// Kept once fetched: import() of a loaded module still waits a task, often behind a frame.
let typo = null

// The whole-title lists of the word itself and of the shortest longer terms found that have one.
function closestWhole(found, word) {
  const own = found.filter(([s, t]) => t === word).map(([s, t]) => s.whole(t))
  const titled = found.filter(([s, t]) => t !== word && s.whole(t).length)
  const n = Math.min(...titled.map(([, t]) => t.length))
  return union([...own, ...titled.filter(([, t]) => t.length === n).map(([s, t]) => s.whole(t))])
}

// Whether `term` is `word`, which ends in a letter, followed by digits only.
// (The terms it is asked about all begin with the word: those the word reaches as typed.)
export const numbered = (term, word) => /\p{L}$/u.test(word) && /^\d+$/.test(term.slice(word.length))

export const NONE = {
  all: EMPTY, clean: EMPTY, close: EMPTY, kind: EMPTY, title: EMPTY, exact: EMPTY, exactTitle: EMPTY, starts: EMPTY, whole: EMPTY,
  opens: EMPTY, closes: EMPTY, named: EMPTY, marks: [], found: [],
}

// `learn` is handed each term shard's document rows (`docs`, FORMAT.md) as it arrives.
export function createMatcher(loader, learn = () => {}) {
  const shard = (path) => loader.load(path, (raw) => {
    if (raw.docs) learn(raw.docs)
    return new Shard(raw)
  })

  // The terms a word reaches, as [shard, term, typos]; or the internal shard whose `tops`
  // stand in for a short prefix's many terms.
  async function reach(word, final) {
    const at = await loader.shardFor(word)
    if (!at) return { home: null, found: [] }
    const home = await shard(at.path)
    if (home.tops && home.prefix === word) {
      const subtree = final && await loader.under(word)
      if (!subtree || subtree.length > SUBTREE) return { home, tops: true, found: [] }
      const shards = await Promise.all(subtree.map(shard))
      return { home, found: shards.flatMap((s) => s.startingWith(word).map((t) => [s, t, 0])) }
    }
    return { home, found: home.startingWith(word).map((t) => [home, t, 0]) }
  }

  async function postings(s, term, final) {
    const inline = s.postings(term), more = final && s.terms[term][3]
    if (!more) return inline
    const raw = await loader.load(more)
    const key = '\0' + term
    if (!s.memo.has(key)) {
      const rest = raw.terms[term] || []
      s.memo.set(key, inline.map((l, i) => union([l, decode(rest[i])])))
    }
    return s.memo.get(key)
  }

  // The tops stand in for the prefix's many terms, which are not read, so they do not tell a
  // part of a name from a word of the title (FORMAT.md "Parts of names").
  function fromTops(home, word) {
    const [title, other] = home.postings(word), [topTitle, topOther] = home.tops
    const titles = union([topTitle, title]), all = union([titles, topOther, other])
    const exact = union([title, other])
    return {
      all, clean: all, close: all, kind: all, title: titles, exact, exactTitle: title, starts: EMPTY, whole: home.whole(word),
      opens: home.starts(word), closes: home.ends(word), named: home.whole(word), marks: [word], found: [],
    }
  }

  // The word's other forms in the index's language (FORMAT.md "Word forms"): the terms of the
  // stem's shard that begin with the stem and have it as theirs (`loved` → love, loves; `country`
  // → countries, and `countri`, which the index holds for `country` itself).
  async function formsOf(word, found) {
    const options = (await loader.manifest).options
    // A language Snowball covers has its forms in snowball.js, beside typo.js, fetched only by a
    // site in one (on its first word, so the worker keeps it from then on). The build writes the
    // site's Snowball language over 'any' (ScriptStrings), empty for any other, whose bundle then
    // folds this away; the source as it is (unit tests) asks the manifest alone.
    if (/*t:snowball*/'any' && options?.endings) return (await import(TYPO.replace('typo', 'snowball'))).forms(word, found, options, loader, shard)
    const stem = stemmer(options)
    const root = stem?.(word) ?? word
    if (root === word) return []
    const at = await loader.shardFor(root)
    const s = at && await shard(at.path)
    return (s?.startingWith(root) ?? []).filter((t) => !found.some((x) => x[1] === t) && (t === root || stem(t) === root)).map((t) => [s, t, 0])
  }

  return async function matchWord(word, final, asTyped = false) {
    const r = await reach(word, final)
    if (r.tops) return fromTops(r.home, word)
    const forms = await formsOf(word, r.found)
    // The typo code is fetched only when a word first finds nothing.
    const typed = [...r.found, ...forms]
    const found = typed.length || asTyped ? typed : await (typo ??= await import(TYPO)).corrections(word, r.home, final, loader, shard)
    if (!found.length) return NONE
    const lists = await Promise.all(found.map(([s, t]) => postings(s, t, final)))
    const pick = (f) => union(found.map((x, i) => f(x, lists[i]) || EMPTY))
    // A correction stands in for the word as a whole term (and its numbered forms, marked by
    // typo.js, for the word whole). A term that is the word and a number (`python` → python3, `gtk` → gtk4) is the word whole:
    // a version or series, as Debian's python3-requests is the Python `requests`.
    // It is not the word itself, though: on Enter `postgresql` is the title postgresql before
    // postgresql-15.
    const itself = (x) => !x[3] && (x[1] === word || x[2] > 0 || forms.includes(x))
    const whole = (x) => itself(x) || x[3] || numbered(x[1], word)
    // A title that holds the term only as a part of a joined name (`simple-revision-control`)
    // holds it as another field would (FORMAT.md "Parts of names"); so does a name that holds
    // the word itself as a part (its term is in the home shard) and, run together, begins a
    // longer term (`numpy`: `numpystl`).
    const own = r.home.parts(word)
    const bare = (x, list) => difference(list, x[0].parts(x[1]), own)
    const clean = pick(([, , d], l) => !d && union(l))
    // The fewest typos (rule 1): what the word reaches with as few as any of its terms, none when
    // it is found as typed. A nearer correction beats a farther one whatever the popularity:
    // `frankfrut` is Frankfurt (one swap) before Frankfort (two letters), docs/ranking.md.
    const fewest = Math.min(...found.map(([, , d]) => d))
    const close = pick(([, , d], l) => d === fewest && union(l))
    // Of the corrections only the one the page names ("Showing results for …": the nearest, then
    // the one reaching the most popular record) stands for a title typed whole (`postgersql` →
    // postgresql, the package): another at the same distance is a guess, and popularity decides
    // between what it finds and what the named one does (`frankfrt`: Frankfurt am Main before a
    // record titled Frankfort, docs/ranking.md).
    const fixed = found.filter(([, , d]) => d > 0)
    const meant = (x) => !x[2] || x[1] === fixed[0][1]
    const named = pick((x) => itself(x) && meant(x) && x[0].whole(x[1]))
    const all = pick((_, l) => union(l))
    // Documents of a kind none of whose titles holds the term are mentions (FORMAT.md "Kinds the
    // words name"); a site of one kind has none.
    const mentioned = (x) => x[0].mentions(x[1])
    return {
      all,
      clean,
      close,
      kind: found.some((x) => mentioned(x).length) ? pick((x, l) => difference(union(l), mentioned(x))) : all,
      // A word joined to another in a title of several words (`Seattle-Tacoma Intl`) is in the
      // title, but not a word of it alone for the exact rules (`frankfurt`: Frankfurt am Main
      // before Frankfurt-Hahn).
      title: pick((x, l) => union([bare(x, l[0]), x[0].compounds(x[1])])),
      exact: pick((x, l) => whole(x) && union(l)),
      exactTitle: pick((x, l) => whole(x) && bare(x, l[0])),
      starts: pick((x) => bare(x, x[0].starts(x[1]))),
      // Titles whose first or last word is the word whole (rule 4 for several words).
      opens: pick((x) => whole(x) && bare(x, x[0].starts(x[1]))),
      closes: pick((x) => whole(x) && bare(x, x[0].ends(x[1]))),
      // While typing, a title that is wholly a term the word begins (`quee` → Queen), the
      // shortest such term only (`postgres` → postgresql, not postgresql-15 as well), unless the
      // word is a part of that name (`numpy`, numpy-stl); on Enter the word is complete, and only
      // a title that is the word itself is the query.
      whole: final ? named : difference(closestWhole(found.filter(meant), word), own),
      // Titles that are the word itself, typing or not: what the word names when more follow.
      named,
      marks: [word, ...forms.map(([, t]) => t), ...fixed.map(([, t]) => t)],
      found,
      // "Showing results for …" only when the word as typed finds nothing.
      corrected: !clean.length && fixed.length ? { from: word, to: fixed[0][1] } : undefined,
    }
  }
}
