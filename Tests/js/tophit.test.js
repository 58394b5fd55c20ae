// Top Results' top hit (issue 33), on a tiny site built by the real generator
// (Tests/js/fixtures/tophit/), shaped as the music catalogue: a genre's popularity adds up its
// songs', so in numbers it outweighs every artist, though it stands no higher among genres.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildSite, open } from './support/fixture.mjs';

const site = buildSite('Tests/js/fixtures/tophit/site.yml');
const top = (r, n = 3) => r.docs.slice(0, n).map((d) => `${d.kind}:${d.title}`);

test('the top hit is the record that stands highest in its kind, not the kind that adds up others: meta is Metallica', async () => {
  const { engine } = open(site);
  const r = await engine.search('meta');
  // Metal has more sales (4,000) than Metallica (1,200); both are the third of their kind, and
  // Metallica the third of 127 artists, the genre of 8.
  assert.deepEqual(top(r, 2), ['artists:Metallica', 'genres:Metal'], top(r).join(' | '));
  // Suggestions are not Top Results: rule 8 still orders their tie.
  assert.deepEqual(top(await engine.suggest('meta'), 2), ['genres:Metal', 'artists:Metallica']);
  // The rest keep their order, by popularity.
  assert.deepEqual(top(r, 4).slice(2), ['songs:Metal Militia', 'artists:Metalhead Trio']);
});

test('the place in its own kind decides, not the kind: jaz is the genre Jazz, the fourth genre, before the sixth artist', async () => {
  const { engine } = open(site);
  // Jazz Messengers sold more (950) than the genre Jazz (900) but stands lower among artists.
  assert.deepEqual(top(await engine.search('jaz'), 2), ['genres:Jazz', 'artists:Jazz Messengers']);
});

test('the top hit never overrules a rule the words decide: metal on Enter is the genre whose title it is', async () => {
  const { engine } = open(site);
  assert.equal(top(await engine.search('metal'), 1)[0], 'genres:Metal');
  assert.equal(top(await engine.search('roc'), 1)[0], 'genres:Rock');
});

test('sections rank within their kind: a chip lists its records by popularity, whatever the top hit', async () => {
  const { engine } = open(site);
  assert.deepEqual(top(await engine.search('meta', { kind: 'genres' })), ['genres:Metal']);
  assert.deepEqual(top(await engine.search('meta', { kind: 'artists' })), ['artists:Metallica', 'artists:Metalhead Trio']);
});
