// The query engine: words → term shards → posting lists → filters → tiers → one page of
// documents. No DOM, so it runs in Node tests. A call reads only immutable cached data, so
// overlapping calls never mix their answers (the UI still drops stale ones).
import { normalize, queryWords, highlightRanges } from './normalize.js';
import { createLoader } from './loader.js';
import { EMPTY, Shard, decode, union, intersect } from './postings.js';
import { distance, budget } from './typo.js';

const MEMO = 500; // word matches kept: a session's keystrokes, not the whole index
const SUBTREE = 16; // a final search reads an internal shard's subtree up to this many files
const NONE = { all: EMPTY, title: EMPTY, exact: EMPTY, marks: [], completions: [] };

export function createEngine({ manifestURL, fetchJSON } = {}) {
  const loader = createLoader({ manifestURL, fetchJSON });
  const site = new URL('../', loader.base).href;
  const memo = new Map();
  let kindOf; // document number → kind index; 255 until a kind or document file tells

  const engine = {
    manifest: null,
    ready: loader.manifest.then((m) => {
      kindOf = new Uint8Array(m.docCount).fill(255);
      return (engine.manifest = m);
    }),
    suggest, search, tokenSuggestions,
  };
  engine.ready.catch(() => {}); // callers see the failure; an unwatched one must not reach the console
  const shard = (path) => loader.load(path, (raw) => new Shard(raw));
  const ids = (path) => loader.load(path, (raw) => decode(raw.ids));

  function match(word, final) {
    const key = (final ? '!' : '?') + word;
    if (!memo.has(key)) {
      const m = matchWord(word, final);
      m.catch(() => memo.delete(key));
      if (memo.size >= MEMO) memo.delete(memo.keys().next().value);
      memo.set(key, m);
    }
    return memo.get(key);
  }

  async function matchWord(word, final) {
    const at = await loader.shardFor(word);
    if (!at) return NONE;
    const home = await shard(at.path);
    let shards = [home];
    // Under an internal shard the word's terms spread over a subtree: typing makes do with
    // the shard's `tops`; a final search reads the subtree when it is small.
    if (home.tops && home.prefix === word) {
      const subtree = final && await loader.under(word);
      if (!subtree || subtree.length > SUBTREE) return fromTops(home, word);
      shards = await Promise.all(subtree.map(shard));
    }
    let found = shards.flatMap((s) => s.startingWith(word).map((t) => [s, t]));
    let corrected;
    if (!found.length && final) {
      found = corrections(home, word);
      if (found.length) corrected = { from: word, to: found[0][1] };
    }
    if (!found.length) return NONE;
    const lists = await Promise.all(found.map(([s, t]) => postings(s, t, final)));
    const title = union(lists.map((l) => l[0]));
    return {
      all: union([title, ...lists.map((l) => l[1])]),
      title,
      // A correction stands in for the word as a whole term.
      exact: union(lists.filter((_, i) => corrected || found[i][1] === word).map((l) => l[0])),
      marks: corrected ? found.map(([, t]) => t) : [word],
      completions: found.filter(([, t]) => t !== word).sort(([s, a], [r, b]) => r.count(b) - s.count(a))
        .slice(0, 4).map(([, t]) => t),
      corrected,
    };
  }

  function fromTops(home, word) {
    const [title, other] = home.postings(word), [topTitle, topOther] = home.tops;
    const titles = union([topTitle, title]);
    return { all: union([titles, topOther, other]), title: titles, exact: title, marks: [word], completions: [] };
  }

  function corrections(home, word) {
    const max = budget(word);
    let best = max + 1, found = [];
    for (const t of max ? home.keys : []) {
      const d = distance(word, t, max);
      if (d < best) { best = d; found = []; }
      if (d === best && d <= max) found.push([home, t]);
    }
    return found.sort(([, a], [, b]) => home.count(b) - home.count(a));
  }

  async function postings(s, term, final) {
    const inline = s.postings(term), more = final && s.terms[term][3];
    if (!more) return inline;
    const raw = await loader.load(more);
    const key = '\0' + term;
    if (!s.memo.has(key)) {
      const rest = raw.terms[term] || [];
      s.memo.set(key, inline.map((l, i) => union([l, decode(rest[i])])));
    }
    return s.memo.get(key);
  }

  // A token that names nothing (a stale URL) admits nothing: null.
  function filters(scope, tokens) {
    const m = engine.manifest, paths = [];
    const s = m.scopes?.find((x) => x.id === scope);
    if (s?.file) paths.push(s.file);
    for (const { facet, value } of tokens) {
      const v = m.facets?.find((f) => f.id === facet)?.values.find((x) => x[0] === value);
      if (!v) return null;
      paths.push(v[2]);
    }
    return Promise.all(paths.map(ids));
  }

  async function query(text, scope, tokens, final) {
    const words = text ? queryWords(text) : [];
    if (!words.length && !tokens.length) return null;
    const [lists, matches] = await Promise.all([filters(scope, tokens), Promise.all(words.map((w) => match(w, final)))]);
    if (!lists) return null;
    const last = matches[matches.length - 1] || NONE;
    return {
      all: intersect([...matches.map((m) => m.all), ...lists]),
      titles: matches.map((m) => m.title),
      // While the last word is one or two letters, "whole word" says little (`me`, `m`): rank
      // by popularity among title matches instead, as Apple Music's suggestions do.
      exact: final || (words[words.length - 1] || '').length >= 3 ? last.exact : EMPTY,
      marks: matches.flatMap((m) => m.marks),
      corrected: matches.filter((m) => m.corrected).map((m) => m.corrected),
      completions: last.completions,
    };
  }

  // Tiers (FORMAT.md "Ranking"): all words in the title with the last one whole, all in the title, the rest.
  function page(q, all, offset, limit) {
    const title = intersect([all, ...q.titles]);
    const exact = intersect([title, q.exact]);
    const out = [];
    const take = (list, minus) => {
      for (let i = 0, j = 0; i < list.length && out.length < limit; i++) {
        if (minus[j] === list[i]) j++;
        else if (offset > 0) offset--;
        else out.push(list[i]);
      }
    };
    take(exact, EMPTY);
    take(title, exact);
    take(all, title);
    return out;
  }

  // Shards are named by number in one folder (or listed, in small hand-made indexes).
  const docShardPath = (n) => engine.manifest.docShards?.[n] ?? `${engine.manifest.docShardFolder}${n}.json`;
  const docShard = (n) => loader.load(docShardPath(n), (raw) => {
    raw.docs.forEach((d, i) => { kindOf[raw.first + i] = d[0]; });
    return raw;
  });

  async function documents(list, marks) {
    const { docsPerShard, kinds } = engine.manifest;
    const shards = await Promise.all(list.map((id) => docShard(Math.floor(id / docsPerShard))));
    return list.map((id, i) => {
      const s = shards[i], [kind, title, subtitle, url, hue] = s.docs[id - s.first];
      return {
        id, kind: kinds[kind].id, kindLabel: kinds[kind].singular, title, subtitle,
        url: new URL(url, site).href, hue, marks: highlightRanges(title, marks),
      };
    });
  }

  // A match's kind comes from the kinds' id files (else from document shards). Each file is
  // cached as marks in the kind map; `which` limits the files to the kinds a search needs.
  const known = new Set();
  async function learnKinds(list, which) {
    const { kinds, docsPerShard } = engine.manifest;
    if (kinds.every((k) => k.file)) {
      return Promise.all(kinds.map((k, i) => (which && !which.includes(i) ? null : loader.load(k.file, (raw) => {
        for (const id of decode(raw.ids)) kindOf[id] = i;
        known.add(i);
      }))));
    }
    const need = new Set();
    for (const id of list) if (kindOf[id] === 255) need.add(Math.floor(id / docsPerShard));
    await Promise.all([...need].map(docShard));
    kinds.forEach((_, i) => known.add(i));
  }

  async function suggest(text, { scope = 'all', tokens = [] } = {}) {
    const m = await engine.ready;
    const q = await query(text, scope, tokens, false);
    if (!q) return { text, completions: [], docs: [] };
    const list = page(q, q.all, 0, m.options?.suggestions ?? 8);
    return { text, completions: q.completions, docs: await documents(list, q.marks) };
  }

  // Up to this many documents the kind files are a few KB: every chip gets its count (and
  // empty chips can hide). Past it, Top Results loads none and a chip loads only its own.
  const CHEAP_KINDS = 50000;

  async function search(text, { scope = 'all', tokens = [], kind = 'top', offset = 0, limit = 50 } = {}) {
    const m = await engine.ready;
    const totals = { top: 0 };
    for (const k of m.kinds) totals[k.id] = 0;
    let q = await query(text, scope, tokens, true);
    const browse = m.kinds.find((x) => x.id === kind);
    if (!q && browse?.file && !(text && queryWords(text).length)) {
      // Browsing a kind with no query (`?kind=albums`): all of it, most popular first, in scope.
      // The kind files are cached as the kind map, so the list comes from that map.
      const k = m.kinds.indexOf(browse);
      const [lists] = await Promise.all([filters(scope, []), learnKinds(EMPTY, [k])]);
      const list = [];
      for (let id = 0; id < kindOf.length; id++) if (kindOf[id] === k) list.push(id);
      q = { all: intersect([Int32Array.from(list), ...lists]), titles: [], exact: EMPTY, marks: [], corrected: [] };
    }
    if (!q) return { text, docs: [], total: 0, totals, corrected: [] };
    const k = m.kinds.findIndex((x) => x.id === kind);
    const cheap = m.docCount <= CHEAP_KINDS;
    if (cheap || k >= 0) await learnKinds(q.all, cheap ? null : [k]);
    const counts = new Int32Array(256);
    for (const id of q.all) counts[kindOf[id]]++;
    // A kind whose file is not loaded has an unknown total: undefined, not 0.
    m.kinds.forEach((x, i) => { totals[x.id] = known.has(i) ? counts[i] : undefined; });
    totals.top = q.all.length;
    const all = k < 0 ? q.all : q.all.filter((id) => kindOf[id] === k);
    const list = page(q, all, offset, limit);
    return { text, docs: await documents(list, q.marks), total: all.length, totals, corrected: q.corrected };
  }

  function tokenSuggestions(text = '') {
    const q = normalize(text).trim(), out = [];
    for (const f of engine.manifest?.facets || []) {
      const label = normalize(f.label).startsWith(q);
      for (const [value, count] of f.values) {
        if (label || startsWord(normalize(value), q)) out.push({ facet: f.id, facetLabel: f.label, value, count, icon: f.icon });
      }
    }
    return out.sort((a, b) => b.count - a.count);
  }

  return engine;
}

// "rap" should offer "Hip Hop/Rap": any word of the value may begin with the text.
function startsWord(name, q) {
  for (let i = name.indexOf(q); i >= 0; i = name.indexOf(q, i + 1)) {
    if (!i || !/[\p{L}\p{N}]/u.test(name[i - 1])) return true;
  }
  return false;
}
