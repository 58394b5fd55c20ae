// A small reference writer of the index format (FORMAT.md, version 1), for test fixtures and
// the synthetic benchmark. It is not the product's builder (that is Swift); it exists so the
// engine can be tested against files that follow the contract before the real index exists.
import { terms } from '../../../Templates/assets/js/engine/normalize.js';

/** JSON with sorted keys and no white space, as the Swift builder writes it. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// FORMAT.md names files by the first 10 hex digits of a 64-bit FNV-1a hash of their bytes.
export function contentHash(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0').slice(0, 10);
}

const deltas = (ids) => ids.map((v, i) => (i ? v - ids[i - 1] : v));

/**
 * docs: [{ kind, title, subtitle, url, hue, text: [other searched fields], scopes: [ids], facets: {id: value} }]
 * in rank order (document number = position). Returns { files: Map(path → text), manifestPath }.
 */
export function buildIndex({
  docs, kinds, scopes, facets, trending = [], options = { slashFocuses: true, suggestions: 8 },
  shardBytes = 32768, docsPerShard = 100, inlineMax = Infinity, kindFiles = true, topsMax = 64, maxPrefix = 4,
}) {
  const files = new Map();
  const write = (stem, value) => {
    const text = canonical(value);
    const path = `${stem}.${contentHash(text)}.json`;
    files.set(path, text);
    return path;
  };
  const idFile = (name, ids) => write(`f/${name}`, { ids: deltas(ids) });

  // term → [title docs, other docs]
  const index = new Map();
  const entry = (t) => index.get(t) || index.set(t, [[], []]).get(t);
  docs.forEach((d, n) => {
    const inTitle = new Set(terms(d.title));
    for (const t of inTitle) entry(t)[0].push(n);
    for (const t of new Set((d.text || []).flatMap(terms))) if (!inTitle.has(t)) entry(t)[1].push(n);
  });

  let more = 0;
  const postings = (t) => {
    const [title, other] = index.get(t);
    if (title.length + other.length <= inlineMax) return [deltas(title), deltas(other)];
    const cut = [...title, ...other].sort((a, b) => a - b)[inlineMax - 1];
    const head = (l) => l.filter((v) => v <= cut), tail = (l) => l.filter((v) => v > cut);
    const path = write(`t/more${more++}`, { terms: { [t]: [deltas(tail(title)), deltas(tail(other))] } });
    return [deltas(head(title)), deltas(head(other)), title.length + other.length, path];
  };
  const tops = (ts) => {
    const title = new Set(), other = new Set();
    for (const t of ts) { index.get(t)[0].forEach((n) => title.add(n)); index.get(t)[1].forEach((n) => other.add(n)); }
    // Like the Swift builder: the best title matches, then the best others, as two lists.
    const best = [...title].sort((a, b) => a - b).slice(0, topsMax);
    const rest = [...other].filter((n) => !title.has(n)).sort((a, b) => a - b).slice(0, topsMax - best.length);
    return [deltas(best), deltas(rest)];
  };

  const termShards = [];
  const place = (prefix, ts) => {
    const leaf = { prefix, terms: Object.fromEntries(ts.map((t) => [t, postings(t)])) };
    const longer = ts.filter((t) => t.length > prefix.length);
    if (!longer.length || [...prefix].length >= maxPrefix || canonical(leaf).length <= shardBytes) {
      termShards.push([prefix, write(`t/${prefix}`, leaf)]);
      return;
    }
    const own = ts.filter((t) => t === prefix);
    termShards.push([prefix, write(`t/${prefix}`, { prefix, terms: Object.fromEntries(own.map((t) => [t, postings(t)])), tops: tops(ts) })]);
    group(longer, prefix.length);
  };
  const group = (ts, at) => {
    const groups = new Map();
    for (const t of ts) {
      const p = t.slice(0, at) + String.fromCodePoint(t.codePointAt(at));
      (groups.get(p) || groups.set(p, []).get(p)).push(t);
    }
    for (const [p, g] of groups) place(p, g);
  };
  group([...index.keys()].sort(), 0);
  termShards.sort((a, b) => (a[0] < b[0] ? -1 : 1));

  const docShards = [];
  for (let first = 0; first < docs.length; first += docsPerShard) {
    const part = docs.slice(first, first + docsPerShard).map((d) => [kinds.findIndex((k) => k.id === d.kind), d.title, d.subtitle, d.url, d.hue]);
    docShards.push(write(`d/${first / docsPerShard}`, { first, docs: part }));
  }
  const numbersWhere = (test) => docs.flatMap((d, n) => (test(d) ? [n] : []));

  const manifest = {
    version: 1,
    docCount: docs.length,
    docsPerShard,
    docShards,
    termShards,
    kinds: kinds.map((k) => {
      const ids = numbersWhere((d) => d.kind === k.id);
      return { ...k, count: ids.length, ...(kindFiles ? { file: idFile(`kind-${k.id}`, ids) } : {}) };
    }),
    topResults: 'Top Results',
    scopes: scopes.map((s) => {
      if (s.id === 'all') return { ...s, count: docs.length };
      const ids = numbersWhere((d) => (d.scopes || []).includes(s.id));
      return { ...s, count: ids.length, file: idFile(`scope-${s.id}`, ids) };
    }),
    facets: facets.map((f) => {
      const values = new Map();
      docs.forEach((d, n) => { const v = d.facets?.[f.id]; if (v) (values.get(v) || values.set(v, []).get(v)).push(n); });
      const list = [...values].map(([v, ids]) => [v, ids.length, idFile(`${f.id}-${v.replace(/\W+/g, '-').toLowerCase()}`, ids)]);
      list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      return { ...f, values: list };
    }),
    trending,
    options,
  };
  const manifestPath = write('manifest', manifest);
  return { files, manifestPath, manifest };
}
