// Each document's kind and, for distinct kinds, its group (FORMAT.md): from the kinds' id
// files, else from document rows as they are learned; and the chip totals they give.
import { decode } from './postings.js'

// A specifier the bundler cannot read keeps groups.js out of the page's bundle (match.js: typo.js).
const GROUPS = import.meta.url.includes('/engine/') ? './groups.js' : './engine/groups.js'

export function createKinds(loader, documents) {
  const state = { kindOf: null, groupOf: null, known: new Set(), groups: null }
  let manifest = null

  const kinds = {
    /** Called once with the manifest, before any row is learned. */
    start(m) {
      manifest = m
      state.kindOf = new Uint8Array(m.docCount).fill(255) // 255 until a kind or document file tells
    },
    /** A row's kind, as documents learn it. */
    note(id, kind) { if (state.kindOf) state.kindOf[id] = kind },
    of: (id) => state.kindOf[id],
    get groupOf() { return state.groupOf },
    /** How many kinds' documents are known: chip totals change only when it does. */
    get known() { return state.known.size },
    learn, learnAll, groups, count,
  }

  // A kind's documents, marked in the kind map: from its own id file, or on a small index from
  // the one file that lists every kind's (`kindsFile`: one request where a search needs all).
  function learn(i) {
    const mark = (ids, k) => {
      const list = decode(ids), kindOf = state.kindOf
      for (let j = 0; j < list.length; j++) kindOf[list[j]] = k
      state.known.add(k)
      return list
    }
    if (manifest.kindsFile) return loader.load(manifest.kindsFile, (raw) => raw.kinds.map(mark)).then((all) => all[i])
    return loader.load(manifest.kinds[i].file, (raw) => mark(raw.ids, i))
  }

  // A match's kind comes from the kinds' id files (else from document shards); `which`
  // limits the files to the kinds a search needs.
  async function learnAll(list, which) {
    if (manifest.kindsFile || manifest.kinds.every((k) => k.file)) {
      return Promise.all(manifest.kinds.map((k, i) => (which && !which.includes(i) ? null : learn(i))))
    }
    const need = new Set()
    for (const id of list) if (state.kindOf[id] === 255) need.add(Math.floor(id / manifest.docsPerShard))
    await Promise.all([...need].map((n) => documents.shard(manifest, n)))
    manifest.kinds.forEach((_, i) => state.known.add(i))
  }

  // Distinct kinds: each document's group, numbered apart across kinds (groups.js, fetched only
  // on a site with a distinct kind, as typo.js is only when a word finds nothing).
  function groups() {
    if (!manifest.kinds.some((k) => k.distinct)) return null
    state.groups ??= import(GROUPS).then((g) => g.groupsOf(manifest, learn, loader, state))
    return state.groups
  }

  // Chip totals; a distinct kind counts its groups. A kind whose file is not loaded has an
  // unknown total: undefined, not 0.
  function count(all, totals) {
    const counts = new Int32Array(256), seen = new Set()
    let top = 0
    for (const id of all) {
      const g = state.groupOf?.[id] ?? -1
      if (g >= 0 && seen.has(g)) continue
      if (g >= 0) seen.add(g)
      counts[state.kindOf[id]]++
      top++
    }
    manifest.kinds.forEach((x, i) => { totals[x.id] = state.known.has(i) ? counts[i] : undefined })
    totals.top = top
    return totals
  }

  return kinds
}
