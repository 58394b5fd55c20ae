// Ranking that fits a stranger's catalogue (issue 31 item 8), on two tiny sites built by the real
// generator: an airports-like one (Tests/js/fixtures/strangers/) and a package index with two
// kinds (Tests/js/fixtures/packages/), each record written to reproduce one case.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildSite, open } from './support/fixture.mjs';
import { distance, typoKeys } from '../../Templates/assets/js/engine/typo.js';

const airports = buildSite('Tests/js/fixtures/strangers/site.yml');
const packages = buildSite('Tests/js/fixtures/packages/site.yml');
const shared = JSON.parse(readFileSync(new URL('../Shared/typo-cases.json', import.meta.url), 'utf8'));
const titles = (r, n = 3) => r.docs.slice(0, n).map((d) => d.title);
const places = (r, n = 3) => r.docs.slice(0, n).map((d) => `${d.title} (${d.subtitle})`);

test('a swap of two neighbouring letters is one typo, as the Swift side counts it (Tests/Shared)', () => {
  for (const { a, b, distance: d } of shared.distances) assert.equal(Math.min(distance(a, b, 3), 4), d, `${a} ${b}`);
  // The keys a word that finds nothing looks up meet a piece the index lists its term under.
  for (const { typed, key } of shared.meets) assert.ok(typoKeys(typed).includes(key), `${typed}: ${typoKeys(typed)}`);
});

test('a word and a number is corrected in its letters, never in its number: pyhton3 finds python3', async () => {
  const { engine } = open(packages);
  const r = await engine.search('pyhton3');
  assert.equal(r.docs[0]?.title, 'python3');
  assert.deepEqual(r.corrected, [{ from: 'pyhton3', to: 'python3' }]);
  assert.equal((await engine.suggest('pyhton3')).docs[0]?.title, 'python3', 'while typing too');
  assert.equal((await engine.search('pyhton')).docs[0]?.title, 'python3', 'the letters alone still find it');
  // Another number is another version, not a slip.
  assert.equal((await engine.search('python2')).total, 0);
  assert.deepEqual((await engine.search('pyhton2')).docs, []);
});

test('the nearest correction wins over a farther one that is a whole title: frankfrut is Frankfurt', async () => {
  const { engine } = open(airports);
  const r = await engine.search('frankfrut');
  assert.equal(r.docs[0]?.title, 'Frankfurt am Main Airport', places(r).join(' | '));
  assert.deepEqual(r.corrected, [{ from: 'frankfrut', to: 'frankfurt' }]);
  const s = await engine.suggest('frankfrut');
  assert.equal(s.docs[0]?.title, 'Frankfurt am Main Airport', 'while typing too');
});

test('between corrections at the same distance popularity decides, not the alphabet or a whole title', async () => {
  const { engine } = open(airports);
  // frankfrt is one letter from frankfurt and from frankfort; Frankfurt's airport is the busier.
  const r = await engine.search('frankfrt');
  assert.equal(r.docs[0]?.title, 'Frankfurt am Main Airport', places(r).join(' | '));
  assert.deepEqual(r.corrected, [{ from: 'frankfrt', to: 'frankfurt' }]);
  assert.equal((await engine.suggest('frankfrt')).docs[0]?.title, 'Frankfurt am Main Airport', 'while typing too');
  // A word found as typed is never corrected, however popular a word one letter away.
  const typed = await engine.search('frankfort');
  assert.deepEqual(typed.corrected, []);
  assert.deepEqual(new Set(titles(typed)), new Set(['Frankfort', 'Capital City Airport']));
});
test('heathrow: the busier airport first, though a strip\'s title starts with the word; in every path', async () => {
  const { engine } = open(airports);
  for (const q of ['heathrow', 'heathrwo', 'heath']) {
    const r = await engine.search(q);
    assert.equal(r.docs[0]?.title, 'London Heathrow Airport', `${q}: ${places(r).join(' | ')}`);
    const s = await engine.suggest(q);
    assert.equal(s.docs[0]?.title, 'London Heathrow Airport', `${q}, typing: ${places(s).join(' | ')}`);
  }
  assert.deepEqual((await engine.search('heathrwo')).corrected, [{ from: 'heathrwo', to: 'heathrow' }]);
});

test('two records with the same title: popularity decides, in every path', async () => {
  const { engine } = open(airports);
  const florida = 'Heathrow Airport (Heathrow, Florida)', texas = 'Heathrow Airport (Rosenberg, Texas)';
  for (const q of ['heathrow airport', 'heathrow airpotr', 'heathrow']) {
    for (const r of [await engine.search(q), await engine.suggest(q), await engine.search(q, { kind: 'airports' })]) {
      const shown = places(r);
      assert.ok(shown.includes(florida) && shown.indexOf(florida) < shown.indexOf(texas), `${q}: ${shown.join(' | ')}`);
    }
  }
  // Typed whole, the title is the query: those two are named, the busier first.
  assert.deepEqual(places(await engine.search('heathrow airport'), 2), [florida, texas]);
});

// Top Results compares popularity across kinds as raw numbers, and a maintainer's (packages
// maintained) outweighs a package's (packages depending on it); no scaling per kind puts the
// package first, since the team is the top maintainer. A kind the words name comes first instead
// (docs/ranking.md "Kinds in Top Results"), unless the words name the team.
test('requests: the package before the team whose text mentions it, in every path', async () => {
  const { engine } = open(packages);
  for (const q of ['requests', 'pytest', 'numpy', 'reqeusts']) {
    for (const r of [await engine.search(q), await engine.suggest(q)]) {
      assert.equal(r.docs[0]?.kind, 'packages', `${q}: ${r.docs.map((d) => `${d.kind}:${d.title}`).join(' | ')}`);
    }
  }
  assert.deepEqual(titles(await engine.search('requests')), ['python3-requests', 'python3-requests-oauthlib', 'Debian Python Modules Team']);
  // Named, the team comes first.
  assert.equal((await engine.search('debian python modules team')).docs[0]?.title, 'Debian Python Modules Team');
});
