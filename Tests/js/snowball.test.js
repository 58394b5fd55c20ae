// Word forms in languages Snowball covers (FORMAT.md "Word forms"), on the iso example sites
// (Data/iso) built by the real generator: what a person types, inflected, finds the name the
// site holds in another form; the same index read without its manifest's endings (exact words,
// as before) does not.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildSite, open } from './support/fixture.mjs';
import { roots } from '../../Templates/assets/js/engine/snowball.js';

const sites = {};
const site = (lang) => (sites[lang] ??= buildSite(`Data/iso/${lang}/site.yml`));
const exact = (path, value) => {
  if (/manifest\./.test(path)) delete value.options.endings;
  return value;
};
// As typed: forms are no corrections, so without them the word finds only what it spells.
const first = async (engine, q) => (await engine.search(q, { limit: 3, asTyped: true })).docs[0]?.title;

test('a typed word is cut at each ending, the longest root first', () => {
  assert.deepEqual(roots('dinares', ['s', 'es', 'ares']), ['dinare', 'dinar', 'din']);
  // Three letters stay: `mes` is no root of `meses`' ending `eses`.
  assert.deepEqual(roots('meses', ['es', 'eses']), ['mes']);
  assert.deepEqual(roots('франков', ['в', 'ов']), ['франко', 'франк']);
});

for (const [lang, q, title] of [
  ['es', 'francos suizos', 'Franco suizo'],
  ['es', 'dinares iraquíes', 'Dinar iraquí'],
  ['de', 'dänischen Kronen', 'Dänische Krone'],
  ['ru', 'швейцарских франков', 'Швейцарский франк'],
  ['ru', 'кокосовых островах', 'Кокосовые острова'],
  // Plural and feminine forms (the article alone is found without forms: FORMAT.md "Arabic's article").
  ['ar', 'دولارات كندية', 'الدولار الكندي'],
]) {
  test(`${lang}: "${q}" finds ${title}, which exact words do not`, async () => {
    assert.equal(await first(open(site(lang)).engine, q), title);
    assert.notEqual(await first(open(site(lang), { edit: exact }).engine, q), title);
  });
}

test('a word that is a stem is taken before a longer word it begins (франков → франк, not франко)', async () => {
  const { engine } = open(site('ru'));
  const titles = (await engine.search('франков', { limit: 40, asTyped: true })).docs.map((d) => d.title);
  // The root франко would find франко-креольские only; франк finds every franc.
  for (const franc of ['Швейцарский франк', 'Франк Джибути', 'Бурундийский франк']) assert.ok(titles.includes(franc), titles.join());
});

test('a site without a stemmer keeps exact words, and its manifest no endings', async () => {
  const { engine, fetchJSON } = open(site('ja'));
  assert.equal(await first(engine, 'スイスフラン'), 'スイス・フラン');
  const manifest = await fetchJSON(`https://example.test/sub/idx/${(await import('./support/fixture.mjs')).manifestName(site('ja'))}`);
  assert.equal(manifest.options.forms, undefined);
  assert.equal(manifest.options.endings, undefined);
});
