// Document rows: every row seen, from term shards' `docs` or document shards (FORMAT.md). A
// document shard is fetched only for a row no term shard carried, and its field shard only for a
// row found by a word its title and subtitle do not show.
import { highlightRanges, queryWords, remember } from './normalize.js'
import { stemmer } from './forms.js'
import { hashAt } from './loader.js'

/** `onRow(id, kind)` hears of every row learned (the kinds module keeps each document's kind). */
export function createDocuments(loader, onRow) {
  const site = new URL('../', loader.base).href
  // `whole`: rows a document shard gave, which alone carry a row's image and symbol.
  const rows = new Map(), fields = new Map(), whole = new Set(), link = remember((url) => safeLink(url, site))

  // `docs` as a term shard lists them (`[number, …row]`, with the searched fields' texts of a
  // document its words find outside the title), or a document shard's from `first` (with the
  // image and symbol of a document that has artwork).
  function learn(docs, first = null) {
    docs.forEach((d, i) => {
      const id = first === null ? d[0] : first + i, row = first === null ? d.slice(1) : d
      if (first === null && row[5]) fields.set(id, row[5])
      if (first !== null) whole.add(id)
      else if (whole.has(id)) return
      rows.set(id, first === null ? row.slice(0, 5) : row)
      onRow(id, row[0])
    })
  }

  // Document shards are named by number and a short hash of their bytes, each with its field shard
  // (`f<n>.<hash>.json`, the same hash) beside it. The hashes are in files of their own
  // (`h<k>.<hash>.json`, `docHashesPerFile` shards each), read once, so the manifest the page
  // embeds stays small at any size.
  const hashes = (manifest, k) => loader.load(`${manifest.docShardFolder}h${k}.${hashAt(manifest.docHashFiles, k)}.json`, (raw) => raw.hashes)
  const shard = async (manifest, n, f = '') => {
    const per = manifest.docHashesPerFile, hash = hashAt(await hashes(manifest, Math.floor(n / per)), n % per)
    return loader.load(`${manifest.docShardFolder}${f}${n}.${hash}.json`,
      (raw) => (f ? raw.fields.forEach((t, i) => fields.set(raw.first + i, t)) : learn(raw.docs, raw.first)))
  }

  /** The shards holding `list`'s documents (`f`: their fields), fetched unless every one is known. */
  function fetch(manifest, list, f, known = rows) {
    const need = new Set()
    // A term shard's row of a kind with artwork lacks its picture: its document shard has it.
    const partial = (id) => !f && !whole.has(id) && manifest.kinds[rows.get(id)[0]]?.artwork
    for (const id of list) if (!known.has(id) || partial(id)) need.add(Math.floor(id / manifest.docsPerShard))
    return Promise.all([...need].map((n) => shard(manifest, n, f)))
  }

  /**
   * `list`'s documents, in its order, their titles and subtitles marked where `marks` match. A
   * query word (`words`: each word's marks) the two do not show was found in a searched field:
   * `match` says which, with an excerpt (FORMAT.md "Field shards").
   */
  async function documents(manifest, list, marks, words = [marks]) {
    await fetch(manifest, list)
    // A word shows when it is marked, or as another form of itself (`love` in "Loving You").
    const stem = stemmer(manifest.options) ?? String
    const shows = (text, w) => highlightRanges(text, w).length || queryWords(text).some((t) => stem(t) === stem(w[0]))
    // The marks of the words a row of a kind with fields does not show.
    const unseen = (id, [kind, title, subtitle] = rows.get(id)) =>
      (manifest.kinds[kind].fields ? words.filter((w) => w.length && !shows(`${title} ${subtitle}`, w)).flat() : [])
    // Asked once per row: the field shards fetched next change no row.
    const hidden = list.map((id) => unseen(id))
    await fetch(manifest, list.filter((_, i) => hidden[i].length), 'f', fields)
    return list.map((id, i) => {
      const [kind, title, subtitle, url, hue, image, symbol] = rows.get(id), k = manifest.kinds[kind], missing = hidden[i]
      const f = fields.get(id) ?? [], at = missing.length ? f.findIndex((t) => highlightRanges(t, missing).length) : -1
      // Only a row with artwork names it, so a site without keeps its rows as they were.
      const picture = safeImage(image, site), art = { ...(picture && { image: picture }), ...(symbol && { symbol }) }
      return {
        ...art,
        id, kind: k.id, kindLabel: k.singular, title, subtitle, url: link(url), hue,
        marks: highlightRanges(title, marks), subMarks: highlightRanges(subtitle, marks), match: at < 0 ? null : excerpt(k.fields[at], f[at], marks),
      }
    })
  }

  return { learn, shard, documents }
}

// A long text shows from a little before its first match, so the match is on the row's one line.
function excerpt(label, text, marks) {
  const at = highlightRanges(text, marks)[0][0], from = at > 30 ? text.lastIndexOf(' ', at - 15) + 1 : 0
  if (from) text = `\u2026${text.slice(from)}`
  return { label, text, marks: highlightRanges(text, marks) }
}

// Links the page may follow: the site's own, or http, https and mailto. The
// generator refuses any other scheme at build time; this keeps an index made
// elsewhere from putting a script behind a result.
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:'])

/**
 * The absolute URL of a record's picture, or null: the site's own file or an http(s) image. The
 * generator refuses every other scheme; this keeps an index made elsewhere from naming one.
 */
export function safeImage(image, site) {
  if (!image) return null
  try {
    const url = new URL(image, site)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}

/** The absolute form of a record's link, or the site's root when unsafe. */
export function safeLink(url, site) {
  try {
    const link = new URL(url, site)
    return SAFE_PROTOCOLS.has(link.protocol) ? link.href : new URL('./', site).href
  } catch {
    return new URL('./', site).href
  }
}
