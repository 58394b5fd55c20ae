// Document rows: every row seen, from term shards' `docs` or document shards (FORMAT.md). A
// document shard is fetched only for a row no term shard carried.
import { highlightRanges } from './normalize.js'

/** `onRow(id, kind)` hears of every row learned (the kinds module keeps each document's kind). */
export function createDocuments(loader, onRow) {
  const site = new URL('../', loader.base).href
  const rows = new Map()

  // `docs` as a term shard lists them (`[number, …row]`), or a document shard's from `first`.
  function learn(docs, first = null) {
    docs.forEach((d, i) => {
      const id = first === null ? d[0] : first + i, row = first === null ? d.slice(1) : d
      rows.set(id, row)
      onRow(id, row[0])
    })
  }

  // Document shards are named by number in one folder.
  const shard = (manifest, n) => loader.load(`${manifest.docShardFolder}${n}.json`, (raw) => learn(raw.docs, raw.first))

  /** The shards holding `list`'s documents, fetched unless every row is known. */
  function fetch(manifest, list) {
    const need = new Set()
    for (const id of list) if (!rows.has(id)) need.add(Math.floor(id / manifest.docsPerShard))
    return Promise.all([...need].map((n) => shard(manifest, n)))
  }

  /** `list`'s documents, in its order, their titles marked where `marks` match. */
  async function documents(manifest, list, marks) {
    await fetch(manifest, list)
    return list.map((id) => {
      const [kind, title, subtitle, url, hue] = rows.get(id)
      const k = manifest.kinds[kind]
      return { id, kind: k.id, kindLabel: k.singular, title, subtitle, url: safeLink(url, site), hue, marks: highlightRanges(title, marks) }
    })
  }

  return { learn, shard, documents }
}

// Links the page may follow: the site's own, or http, https and mailto. The
// generator refuses any other scheme at build time; this keeps an index made
// elsewhere from putting a script behind a result.
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:'])

/** The absolute form of a record's link, or the site's root when unsafe. */
export function safeLink(url, site) {
  try {
    const link = new URL(url, site)
    return SAFE_PROTOCOLS.has(link.protocol) ? link.href : new URL('./', site).href
  } catch {
    return new URL('./', site).href
  }
}
