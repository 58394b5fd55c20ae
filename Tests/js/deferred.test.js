// The manifest as the search page embeds it (FORMAT.md "Deferred fields"): without the facet
// values' files and the kinds' standing, which `f/deferred.<hash>.json` holds again. The engine
// must answer from it as from the manifest file, fetching that file only for a search with a
// token or a top hit, and once.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSite, fixtureSite, manifestName, open } from './support/fixture.mjs';

/** An engine on `site` whose manifest is the copy its search page embeds. */
function embedded(site) {
  const html = readFileSync(join(site, 'index.html'), 'utf8');
  const data = JSON.parse(html.match(/<script type="application\/json" id="index-data">([^<]*)<\/script>/)[1]);
  const lean = data[`idx/${manifestName(site)}`];
  return open(site, { edit: (path, value) => (path === `idx/${manifestName(site)}` ? structuredClone(lean) : value) });
}
const deferredFetches = (log) => log.filter((u) => /^idx\/f\/deferred\.[0-9a-f]+\.json$/.test(u)).length;
const rows = (r) => r.docs.map((d) => `${d.kind}:${d.title}`);

test('the embedded manifest leaves out the facet files and standing, and names the file that has them', async () => {
  const site = fixtureSite();
  const full = JSON.parse(readFileSync(join(site, 'idx', manifestName(site)), 'utf8'));
  const { engine } = embedded(site);
  const lean = await engine.ready;
  assert.match(lean.deferred, /^f\/deferred\.[0-9a-f]+\.json$/);
  assert.equal(full.deferred, undefined, 'the manifest file keeps every field and names no deferred file');
  assert.ok(lean.facets.length && lean.facets.every((f) => f.values.every((v) => v.length === 2)));
  assert.deepEqual(lean.facets.map((f) => f.values), full.facets.map((f) => f.values.map((v) => v.slice(0, 2))));
  assert.ok(full.kinds.every((k) => k.standing) && lean.kinds.every((k) => !k.standing));
});

test('typing and a plain search fetch no deferred file; a token search fetches it once and finds what the full manifest finds', async () => {
  const site = fixtureSite();
  const { engine, log } = embedded(site);
  const m = await engine.ready;
  await engine.suggest('lo');
  await engine.search('love', { kind: 'songs' });
  assert.equal(deferredFetches(log), 0, log.join(' '));
  const [value] = m.facets.find((f) => f.id === 'genre').values[0];
  const token = { tokens: [{ facet: 'genre', value }], limit: 500 };
  const [lean, again] = await Promise.all([engine.search('', token), engine.search('a', token)]);
  const full = await open(site).engine.search('', token);
  assert.equal(deferredFetches(log), 1, 'fetched once for two searches at the same time');
  assert.ok(lean.total > 0);
  assert.deepEqual(rows(lean), rows(full));
  assert.ok(again.total <= lean.total);
  assert.match(m.facets[0].values[0][2], /^f\/facet-genre-0\.[0-9a-f]+\.json$/, 'written into the manifest');
});

test('the top hit from the embedded manifest is the one the full manifest gives', async () => {
  const site = buildSite('Tests/js/fixtures/tophit/site.yml');
  const { engine, log } = embedded(site);
  const r = await engine.search('meta');
  assert.deepEqual(rows(r).slice(0, 2), ['artists:Metallica', 'genres:Metal'], rows(r).join(' | '));
  assert.deepEqual(rows(r), rows(await open(site).engine.search('meta')));
  assert.equal(deferredFetches(log), 1);
});
