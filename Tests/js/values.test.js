import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSite, open, manifestName } from './support/fixture.mjs';
import { parseSpan, write } from '../../Templates/assets/js/engine/values.js';

// Sort and ranges (FORMAT.md "Sort and range files") on ten books the real generator indexes
// (Tests/js/fixtures/values/site.yml): popularity is the relevance order, Yellow Paper has no values.
const SITE = buildSite('Tests/js/fixtures/values/site.yml');
const manifest = JSON.parse(readFileSync(join(SITE, 'idx', manifestName(SITE)), 'utf8'));
const titles = (r) => r.docs.map((d) => d.title);

test('a sort orders every match by the value, missing values last, ties in relevance order', async () => {
  const { engine } = open(SITE);
  assert.deepEqual(titles(await engine.search('blue')),
    ['Blue Moon Rising', 'Blue Notes', 'Blue Train', 'Blue Is the Colour', 'The Blue Lagoon'], 'relevance');
  assert.deepEqual(titles(await engine.search('blue', { sort: 'year' })),
    ['Blue Notes', 'Blue Train', 'Blue Moon Rising', 'Blue Is the Colour', 'The Blue Lagoon'], 'Newest: descending');
  assert.deepEqual(titles(await engine.search('blue', { sort: 'title' })),
    ['Blue Is the Colour', 'Blue Moon Rising', 'Blue Notes', 'Blue Train', 'The Blue Lagoon']);
  const pages = await engine.search('', { tokens: [{ facet: 'shelf', value: 'Music' }], sort: 'pages' });
  assert.deepEqual(titles(pages), ['Blue Notes', 'Yellow Paper'], 'a book without pages comes after');
  const paged = await engine.search('blue', { sort: 'title', offset: 2, limit: 2 });
  assert.deepEqual(titles(paged), ['Blue Notes', 'Blue Train'], 'a later page continues the sorted order');
  assert.equal(paged.total, 5);
});

test('a broad sorted page reads the value order from its start, not every rank, and only its rows', async () => {
  const { engine, names } = open(SITE);
  await engine.search('blue');
  const ranked = names().length;
  await engine.search('blue', { sort: 'year', limit: 2 });
  const sorted = names().slice(ranked);
  assert.ok(sorted.some((n) => /idx\/o\/.*sort-year-2/.test(n)), `the last file first (descending): ${sorted}`);
  assert.ok(!sorted.some((n) => /sort-year\.json|sort-year-0/.test(n)), `no rank file, no file past the page: ${sorted}`);
  const before = names().length;
  await engine.search('blue', { sort: 'year', limit: 2 });
  assert.equal(names().length, before, 'the same page again fetches nothing');
});

test('the value order read file by file gives what every rank gives', async () => {
  const { engine } = open(SITE);
  const { sorted } = await import('../../Templates/assets/js/engine/values.js');
  const { createLoader } = await import('../../Templates/assets/js/engine/loader.js');
  const { fetchJSON } = open(SITE);
  const loader = createLoader({ manifestURL: `https://example.test/sub/idx/${manifestName(SITE)}`, fetchJSON });
  const m = await engine.ready;
  for (const option of m.sorts) {
    assert.ok(option.chunks > 1, `${option.id}: files of 3 documents`);
    for (const ranked of [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [9, 3, 5, 1], [2, 7], [6]]) {
      const list = Int32Array.from(ranked);
      const all = await sorted(list, { ...option, chunks: undefined }, loader, Infinity, m.docCount);
      for (const need of [1, 2, 3, 5, 10]) {
        const walked = await sorted(list, option, loader, need, m.docCount);
        assert.deepEqual(Array.from(walked.subarray(0, need)), Array.from(all.subarray(0, need)), `${option.id} ${ranked} first ${need}`);
        assert.deepEqual(Array.from(walked).sort(), Array.from(list).sort(), 'every match, once');
      }
    }
  }
});

test('a span token filters alone, with words, with a facet token, and in any written form', async () => {
  const { engine } = open(SITE);
  const year = (value) => ({ facet: 'year', value });
  assert.deepEqual(titles(await engine.search('', { tokens: [year('1950–1990')] })).sort(),
    ['A Green Field', 'Blue Is the Colour', 'Blue Moon Rising', 'Blue Train', 'Grey Matter', 'Red Sky at Dawn']);
  assert.deepEqual(titles(await engine.search('blue', { tokens: [year('1950–1990')] })),
    ['Blue Moon Rising', 'Blue Train', 'Blue Is the Colour']);
  assert.deepEqual(titles(await engine.search('blue', { tokens: [year('1950–1990'), { facet: 'shelf', value: 'Novel' }], sort: 'title' })),
    ['Blue Is the Colour', 'Blue Moon Rising', 'Blue Train']);
  assert.deepEqual(titles(await engine.search('blue', { tokens: [year('<1955')] })), ['Blue Is the Colour', 'The Blue Lagoon']);
  assert.deepEqual(titles(await engine.search('blue', { tokens: [year('≥1990')] })), ['Blue Notes', 'Blue Train']);
  assert.deepEqual(titles(await engine.search('', { tokens: [{ facet: 'length', value: '<3:00' }], sort: 'title' })),
    ['A Green Field', 'Blue Is the Colour', 'Red Sky at Dawn'], '2:59.4 rounds to 2:59, under 3:00');
  assert.deepEqual(titles(await engine.search('', { tokens: [{ facet: 'published', value: '1972-01-30–1975-06-30' }], sort: 'title' })),
    ['Grey Matter', 'Red Sky at Dawn'], 'dates, both ends included');
  assert.equal((await engine.search('blue', { tokens: [year('soon')] })).total, 0, 'a span that does not read admits nothing');
});

test('spans read as typed and are written as tokens show them, as the index writes its offers', () => {
  const value = (format, text) => parseSpan(format, text)?.value ?? null;
  assert.equal(value('year', '1950..1990'), '1950–1990');
  assert.equal(value('year', '1950-1990'), '1950–1990');
  assert.equal(value('year', '1950 – 1990'), '1950–1990');
  assert.equal(value('year', '1975'), '1975');
  assert.equal(value('year', '1990..'), '≥1990');
  assert.equal(value('year', '..1990'), '≤1990');
  assert.equal(value('year', '>=1990'), '≥1990');
  assert.equal(value('year', '1990..1950'), null, 'an empty span');
  assert.equal(value('duration', '<3:00'), '<3:00');
  assert.equal(value('duration', '<3'), '<3:00', 'plain minutes');
  assert.equal(value('duration', '> 1:02:03'), '>1:02:03');
  assert.equal(value('duration', '3:75'), null);
  assert.equal(value('date', '1990-1995'), '1990-01-01–1995-01-01');
  assert.equal(value('date', '1990-05-01'), '1990-05-01');
  assert.equal(value('number', '-5'), '-5');
  assert.equal(write('duration', 3723), '1:02:03');
  for (const r of manifest.ranges) {
    assert.ok(r.offers.length, `${r.id} offers spans`);
    for (const [offer] of r.offers) assert.equal(value(r.format, offer), offer, `${r.id}: ${offer} reads back as itself`);
  }
});

test('a range is offered from its label, and a typed span becomes a token with its count', async () => {
  const { engine } = open(SITE);
  await engine.ready;
  const offered = engine.tokenSuggestions('yea');
  assert.deepEqual(offered.map((t) => `${t.facetLabel}: ${t.value} (${t.count})`),
    ['Year: <1960 (3)', 'Year: 1960–1990 (4)', 'Year: >1990 (2)']);
  assert.ok(!engine.tokenSuggestions('ye').length, 'not for two letters');
  const typed = await engine.tokenSuggestions('year:1950-1990');
  assert.deepEqual(typed[0], { facet: 'year', facetLabel: 'Year', value: '1950–1990', count: 6 });
  assert.deepEqual((await engine.tokenSuggestions('Length: under 3')), [], 'words are not a span');
  assert.equal((await engine.tokenSuggestions('length:<3'))[0].value, '<3:00');
});
