// Index files never change (content-hashed names), so each URL is fetched once per page;
// a failed fetch is forgotten so that the next query retries it.
const fetchJSONDefault = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  return response.json();
};

export function createLoader({ manifestURL, fetchJSON = fetchJSONDefault }) {
  const base = new URL(manifestURL, globalThis.document?.baseURI ?? globalThis.location?.href);
  const cache = new Map();
  let prefixes = new Map();
  let directories = null; // first letter → directory file, for indexes too big to list every shard

  // `make` runs once per file, so decoded forms are cached along with the JSON.
  function load(path, make = (raw) => raw) {
    const url = new URL(path, base).href;
    if (!cache.has(url)) {
      const value = Promise.resolve(url).then(fetchJSON).then(make);
      value.catch(() => cache.delete(url));
      cache.set(url, value);
    }
    return cache.get(url);
  }

  const manifest = load(base.href, (m) => {
    if (m.version !== 1) throw new Error(`unsupported index version ${m.version}`);
    if (m.termDirectories) directories = new Map(m.termDirectories);
    else prefixes = new Map(m.termShards);
    return m;
  });

  // A large index lists its shards in one directory per first letter: the first query for
  // a letter costs one small extra file instead of a manifest that grows with the index.
  async function directory(term) {
    const path = directories?.get(String.fromCodePoint(term.codePointAt(0)));
    if (path) await load(path, (d) => { for (const [p, file] of d.termShards) prefixes.set(p, file); });
  }

  async function shardFor(term) {
    await directory(term);
    for (let k = term.length; k >= 0; k--) {
      const prefix = term.slice(0, k), path = prefixes.get(prefix);
      if (path) return { prefix, path };
    }
    return null;
  }

  async function under(prefix) {
    await directory(prefix);
    return [...prefixes].filter(([p]) => p.startsWith(prefix)).map(([, path]) => path);
  }

  return { base, manifest, load, shardFor, under };
}
