// Fields holding lists (Tests/GenerateKitTests/Fixtures/lists: books with authors and tags
// arrays, emoji with aliases, a CSV column of `;`-separated genres), built by the real
// generator: a record's every value reaches the token suggestions and filters, and its items'
// words find it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from './support/fixture.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONFIG = join(REPO, 'Tests', 'GenerateKitTests', 'Fixtures', 'lists', 'site.yml');

function site() {
  const generator = process.env.GENERATE
    || ['debug', 'release'].map((c) => join(REPO, '.build', c, 'generate')).filter((p) => existsSync(p))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!generator) throw new Error('no generator binary: run `swift build` first, or set GENERATE');
  const folder = mkdtempSync(join(tmpdir(), 'lists-site-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  execFileSync(generator, ['--config', CONFIG, '--output', join(folder, 'site')], { stdio: 'pipe' });
  return join(folder, 'site');
}

const SITE = site();
const titles = (r) => r.docs.map((d) => d.title).sort();

test('every value of a list is a token, counted once per record that holds it', async () => {
  const { engine } = open(SITE);
  await engine.ready;
  const horror = engine.tokenSuggestions('hor');
  assert.deepEqual(horror, [{ facet: 'tag', facetLabel: 'Tag', value: 'horror', count: 3, icon: 'tag' }]);
  assert.deepEqual(engine.tokenSuggestions('dis').map((t) => [t.value, t.count]), [['disco', 2]]);
  assert.ok(!engine.tokenSuggestions().some((t) => t.value === ''), 'an empty item is no token');
});

test('a record is found under each of its values, and values of one facet combine with OR', async () => {
  const { engine } = open(SITE);
  const tag = (value) => ({ facet: 'tag', value });
  assert.deepEqual(titles(await engine.search('', { tokens: [tag('apocalypse')] })), ['Good Omens']);
  const comedy = titles(await engine.search('', { tokens: [tag('comedy')] }));
  assert.ok(comedy.includes('Good Omens') && comedy.includes('Mort'), comedy.join());
  const either = titles(await engine.search('', { tokens: [tag('apocalypse'), tag('horror')] }));
  assert.deepEqual(either, ['Coraline', 'Good Omens', 'It', 'The Talisman']);
});

test("a list item's words find its record", async () => {
  const { engine } = open(SITE);
  assert.deepEqual(titles(await engine.search('baxter')), ['The Long Earth']);
  assert.deepEqual(titles(await engine.search('thumbsup')), ['thumbs up']);
});
