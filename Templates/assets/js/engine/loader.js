// Index files never change (each named by a hash of its bytes), so each URL is fetched once per page;
// a failed fetch is forgotten so that the next query retries it.
const fetchJSONDefault = async (url) => {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${response.status} ${url}`)
  return response.json()
}

/**
 * Hex digits of the hash that names a numbered shard (`t/12.3fa9c01d.json`), packed in the
 * manifest one after another (IndexFiles.shardHashDigits in Swift, held equal by a test).
 */
export const HASH_DIGITS = 8

/** Shard `n`'s hash in a string of packed hashes. */
export const hashAt = (hashes, n) => hashes.slice(n * HASH_DIGITS, (n + 1) * HASH_DIGITS)

/**
 * A run's prefixes from their front-coded string (TermShardRun.packed in Swift): the first as it
 * is, then each as the one before less as many characters as there are dots (none for a comma),
 * and the characters after them: `a,a.b..b` is a, aa, ab, b.
 */
export function unpackPrefixes(text) {
  let prev = /^[^.,]*/.exec(text)[0]
  const out = [prev]
  for (const [, cut, tail] of text.slice(prev.length).matchAll(/([.]+|,)([^.,]*)/g)) {
    const chars = [...prev]
    prev = (cut === ',' ? chars : chars.slice(0, chars.length - cut.length)).join('') + tail
    out.push(prev)
  }
  return out
}

/**
 * A term shard's file name: `s`, its prefix when that is only a–z and 0–9 (else `-` and the
 * prefix's UTF-8 bytes in hex), and its hash (TermShardRun.fileName in Swift).
 */
export const shardName = (prefix, hash) => `s${/^[a-z0-9]*$/.test(prefix) ? prefix
  : `-${[...new TextEncoder().encode(prefix)].map((b) => b.toString(16).padStart(2, '0')).join('')}`}.${hash}.json`

// Shards named by prefix, listed in the manifest or, for a large index, in one directory file
// per first letter: the first query for a letter costs one small file instead of a manifest
// that grows with the index. `name` is `term` or `typo`; the typo shards are listed in one
// file of their own (`typoList`), fetched with the first typo (FORMAT.md). An entry is
// [prefix, path], or for term shards a run [first, prefixes, hashes] of shards numbered in the
// folder `termShardFolder`, each named by its prefix and the tag of the build that last changed
// its bytes (`shardName`), so a data edit renames only the shards it changed; `prefixes` lists
// them front-coded (`unpackPrefixes`), `hashes` holds their tags in order (`hashAt`).
function createListing(load, name) {
  let prefixes = new Map()
  let directories = null
  let list = null
  let folder = ''
  const add = (entries) => {
    for (const [a, b, h] of entries) {
      if (h === undefined) prefixes.set(a, b)
      else unpackPrefixes(b).forEach((p, i) => prefixes.set(p, folder + shardName(p, hashAt(h, i))))
    }
  }

  // A large index lists a letter's shards in its directory, and a letter with one shard itself.
  function read(m) {
    list = m[`${name}List`]
    folder = m[`${name}ShardFolder`] ?? ''
    if (m[`${name}Directories`]) directories = new Map(m[`${name}Directories`])
    prefixes = new Map()
    add(m[`${name}Shards`] || [])
  }

  async function directory(term) {
    const path = list ?? directories?.get(String.fromCodePoint(term.codePointAt(0)))
    if (path) await load(path, (d) => add(d[`${name}Shards`]))
  }

  // The shard with the longest prefix that `term` starts with.
  async function shardFor(term) {
    await directory(term)
    for (let k = term.length; k >= 0; k--) {
      const prefix = term.slice(0, k), path = prefixes.get(prefix)
      if (path) return { prefix, path }
    }
    return null
  }

  async function under(prefix) {
    await directory(prefix)
    return [...prefixes].filter(([p]) => p.startsWith(prefix)).map(([, path]) => path)
  }

  return { read, shardFor, under }
}

export function createLoader({ manifestURL, fetchJSON = fetchJSONDefault }) {
  const base = new URL(manifestURL, globalThis.document?.baseURI ?? globalThis.location?.href)
  const cache = new Map()

  // `make` runs once per file, so decoded forms are cached along with the JSON.
  function load(path, make = (raw) => raw) {
    const url = new URL(path, base).href
    if (!cache.has(url)) {
      const value = Promise.resolve(url).then(fetchJSON).then(make)
      value.catch(() => cache.delete(url))
      cache.set(url, value)
    }
    return cache.get(url)
  }

  const terms = createListing(load, 'term')
  const typos = createListing(load, 'typo')
  const manifest = load(base.href, (m) => {
    if (m.version !== 1) throw new Error(`unsupported index version ${m.version}`)
    terms.read(m)
    typos.read(m)
    return m
  })

  return { base, manifest, load, shardFor: terms.shardFor, under: terms.under, typoShardFor: typos.shardFor }
}
