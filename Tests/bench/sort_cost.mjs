// What a sorted page and a span filter cost beside a ranked page: requests and gzip bytes the
// engine fetches for each, from a fresh engine (nothing cached) and after the option's rank file
// is in. FORMAT.md "Sort and range files" quotes its figures.
//
//   node Tests/bench/sort_cost.mjs SITE [query] [narrow query]   (SITE built from Data/site.yml
//                                                    or a Tests/bench/synth.py catalogue)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { open } from '../js/support/fixture.mjs';

const [site, query = 'love', narrow = 'kissed'] = process.argv.slice(2);
if (!site) throw new Error('usage: node Tests/bench/sort_cost.mjs SITE [query]');
const bytes = (urls) => urls.reduce((n, u) => n + gzipSync(readFileSync(join(site, u.split('?')[0])), { level: 6 }).length, 0);

async function cost(label, steps) {
  const { engine, log } = open(site);
  await engine.ready;
  const start = log.length;
  const rows = [];
  for (const [name, run] of steps) {
    const before = log.length, t = performance.now();
    const r = await run(engine);
    const ms = performance.now() - t, urls = log.slice(before);
    rows.push(`  ${name}: ${urls.length} requests, ${(bytes(urls) / 1024).toFixed(1)} KB gzip, ${ms.toFixed(1)} ms, ${r.total} results` +
      (urls.length ? ` (${urls.map((u) => u.replace(/^idx\//, '').replace(/\.[0-9a-f]{10}\.json$/, '')).join(', ')})` : ''));
  }
  console.log(`${label} (after the manifest; ${log.length - start} requests in all)\n${rows.join('\n')}`);
}

const m = JSON.parse(readFileSync(join(site, 'idx', 'manifest.json'), 'utf8'));
const sort = m.sorts?.find((s) => s.id === 'length') ?? m.sorts?.[0];
const range = m.ranges?.[0];
const kind = sort?.kinds[0] ?? 'top';
const span = range?.offers[0]?.[0];
console.log(`${site}: ${m.docCount.toLocaleString('en')} documents; sort '${sort?.id}' on ${kind}, range '${range?.id}' ${span}`);
await cost('ranked', [[`'${query}' ${kind}`, (e) => e.search(query, { kind, limit: 12 })]]);
await cost('sorted', [
  [`'${query}' ${kind} by ${sort.id}`, (e) => e.search(query, { kind, limit: 12, sort: sort.id })],
  ['next page', (e) => e.search(query, { kind, offset: 12, limit: 18, sort: sort.id })],
  [`'rock' by ${sort.id}`, (e) => e.search('rock', { kind, limit: 12, sort: sort.id })],
]);
// A narrow query: too few matches for the value order's first files, so every document's rank.
await cost('sorted, narrow', [[`'${narrow}' ${kind} by ${sort.id}`, (e) => e.search(narrow, { kind, limit: 12, sort: sort.id })]]);
await cost('ranked, every match of the kind', [[`${kind}, no words`, (e) => e.search('', { kind, limit: 12 })]]);
await cost('sorted, every match of the kind', [[`${kind} by ${sort.id}, no words`, (e) => e.search('', { kind, limit: 12, sort: sort.id })]]);
if (range) {
  await cost('span', [
    [`'${query}' with ${range.id} ${span}`, (e) => e.search(query, { kind, limit: 12, tokens: [{ facet: range.id, value: span }] })],
    [`'rock' with ${range.id} ${span}`, (e) => e.search('rock', { kind, limit: 12, tokens: [{ facet: range.id, value: span }] })],
  ]);
}
