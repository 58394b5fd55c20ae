// Ranking rules the strangers' judged set (Tests/relevance/strangers) found missing, on a tiny site
// built by the real generator (Tests/js/fixtures/ranking/): each kind a shape of data, each record
// written to reproduce one miss (docs/ranking.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildSite, open } from './support/fixture.mjs';

const site = buildSite('Tests/js/fixtures/ranking/site.yml');
const titles = (r, n = 3) => r.docs.slice(0, n).map((d) => d.title);

test('a code weighed like the title names its record: DE is Germany, before titles that begin with de', async () => {
  const { engine } = open(site);
  for (const q of ['DE', 'de']) {
    const r = await engine.search(q);
    assert.equal(r.docs[0]?.title, 'Germany', `${q}: ${titles(r).join(' | ')}`);
    const s = await engine.suggest(q);
    assert.equal(s.docs[0]?.title, 'Germany', `${q}, typing: ${titles(s).join(' | ')}`);
  }
  assert.equal((await engine.search('dk')).docs[0]?.title, 'Denmark');
  // Letters that are no code still find the titles they begin, by popularity.
  assert.equal((await engine.search('dem')).docs[0]?.title, 'Democratic Republic of the Congo');
});

test('words joined by a hyphen in a title are words of the title: seattle is Seattle-Tacoma Intl', async () => {
  const { engine } = open(site);
  // Boeing Field has more flights, but only its city says Seattle.
  for (const q of ['seattle', 'tacoma']) {
    const r = await engine.search(q);
    assert.equal(r.docs[0]?.title, 'Seattle-Tacoma Intl', `${q}: ${titles(r).join(' | ')}`);
    assert.equal((await engine.suggest(q)).docs[0]?.title, 'Seattle-Tacoma Intl', `${q}, typing`);
  }
  assert.equal((await engine.search('seattle tacoma')).docs[0]?.title, 'Seattle-Tacoma Intl');
  // In the title, but not a word of it alone: the city's own airport before Frankfurt-Hahn, as
  // busy, whose shorter title would otherwise come first.
  assert.equal((await engine.search('frankfurt')).docs[0]?.title, 'Frankfurt am Main International Airport');
});

test('with nothing to rank by, the shorter title first: malibu is the chevrolet malibu', async () => {
  const { engine } = open(site);
  const r = await engine.search('malibu');
  assert.equal(r.docs[0]?.title, 'chevrolet malibu', titles(r).join(' | '));
  assert.equal((await engine.suggest('malibu')).docs[0]?.title, 'chevrolet malibu', 'while typing too');
  // Between titles of as many words, the alphabet, as before.
  assert.deepEqual(titles(await engine.search('chevrolet'), 2), ['chevrolet impala', 'chevrolet malibu']);
});

test('a title that is the query beats longer, more popular titles that hold it, past the first page', async () => {
  const { engine } = open(site);
  // Eight titles go on with WITH …, each more popular; a page of three would not reach the one asked for.
  const r = await engine.search('latin small letter a', { limit: 3 });
  assert.equal(r.docs[0]?.title, 'LATIN SMALL LETTER A', titles(r).join(' | '));
  assert.ok(r.total >= 10, `every title holding the words is still found (${r.total})`);
  // The words in another order or without the last are not the title.
  assert.notEqual((await engine.search('small latin letter a', { limit: 3 })).docs[0]?.title, 'LATIN SMALL LETTER A');
  assert.equal((await engine.search('latin small letter a with acute', { limit: 3 })).docs[0]?.title,
    'LATIN SMALL LETTER A WITH ACUTE');
});

test('other names weighed like the title: munchen is Munich, before smaller places whose title holds the word', async () => {
  const { engine } = open(site);
  // Ottobrunn bei München holds the word in its title, Munich only among its other names; with
  // those weighed like the title (init's `weights:` for `alternatenames`), popularity decides.
  for (const q of ['munchen', 'münchen', 'muenchen']) {
    const r = await engine.search(q);
    assert.equal(r.docs[0]?.title, 'Munich', `${q}: ${titles(r).join(' | ')}`);
  }
  assert.equal((await engine.suggest('munchen')).docs[0]?.title, 'Munich', 'while typing');
  // The title still names its record first.
  assert.equal((await engine.search('ottobrunn')).docs[0]?.title, 'Ottobrunn bei München');
  assert.equal((await engine.search('garching')).docs[0]?.title, 'Garching bei München');
});
