// Where the engine's index files come from. The page embeds the first ones
// (#index-data) so the first answer needs no round trip; the rest are
// fetched once each, however many callers ask at the same time. The engine
// has no DOM and takes any fetchJSON: this is the page's.

import { createLoader } from '../engine/loader.js'
import { queryWords } from '../engine/normalize.js'
import { $ } from './dom.js'

/** The index files the page embeds (`#index-data`): URL → parsed JSON. */
export function embeddedIndex(base) {
  const files = new Map()
  try {
    for (const [path, value] of Object.entries(JSON.parse($('index-data')?.textContent || '{}'))) files.set(new URL(path, base).href, value)
  } catch {
    // A broken block only costs the fetches it would have saved.
  }
  return files
}

/**
 * fetch + JSON, embedded files first, each URL once (a failure is forgotten, to retry).
 * URLs in `revalidate` keep their name from build to build (idx/manifest.json): the
 * browser asks the server again rather than trust its HTTP cache.
 */
export function cachedFetch(files, revalidate = new Set()) {
  const pending = new Map()
  return (url) => {
    if (files.has(url)) return Promise.resolve(files.get(url))
    if (!pending.has(url)) {
      const value = fetch(url, revalidate.has(url) ? { cache: 'no-cache' } : undefined).then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${url}`)
        return response.json()
      })
      value.catch(() => pending.delete(url))
      pending.set(url, value)
    }
    return pending.get(url)
  }
}

/**
 * Starts fetching the term files for text typed before the script ran, so
 * the network works while the page sets itself up. Only the term files: the
 * documents depend on the whole text, which may still be growing.
 */
export function prefetchTerms({ manifestURL, fetchJSON }, text) {
  const loader = createLoader({ manifestURL, fetchJSON })
  loader.manifest
    .then(() => Promise.all(queryWords(text).map((word) => loader.shardFor(word).then((at) => at && loader.load(at.path)))))
    .catch(() => {})
}
