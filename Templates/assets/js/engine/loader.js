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
    prefixes = new Map(m.termShards);
    return m;
  });

  function shardFor(term) {
    for (let k = term.length; k >= 0; k--) {
      const prefix = term.slice(0, k), path = prefixes.get(prefix);
      if (path) return { prefix, path };
    }
    return null;
  }

  const under = (prefix) => [...prefixes].filter(([p]) => p.startsWith(prefix)).map(([, path]) => path);

  return { base, manifest, load, shardFor, under };
}
