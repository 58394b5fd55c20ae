// CJK titles, on a tiny site built by the real generator (Tests/js/fixtures/cjk/site.yml):
// text without spaces is found by any character or pair of characters of it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from './support/fixture.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const generator = process.env.GENERATE ?? ['debug', 'release'].map((c) => join(REPO, '.build', c, 'generate'))
  .filter((p) => existsSync(p)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
const folder = mkdtempSync(join(tmpdir(), 'cjk-site-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
const site = join(folder, 'site');
execFileSync(generator, ['--config', join(REPO, 'Tests/js/fixtures/cjk/site.yml'), '--output', site, '--quiet'], { stdio: 'pipe' });
const titles = (r) => r.docs.map((d) => d.title);

test('a character inside a CJK title finds it: 京 finds 東京タワー, 京都駅, 東京都庁 and 北京…', async () => {
  const { engine } = open(site);
  const r = await engine.search('京');
  assert.deepEqual(new Set(titles(r)), new Set(['東京タワー', '京都駅', '東京都庁', '北京首都国际机场']));
  assert.equal((await engine.suggest('京')).docs.length, 4, 'while typing too');
});

test('a pair, and a longer run as its pairs: 首都, 東京都, タワー, 서울', async () => {
  const { engine } = open(site);
  assert.deepEqual(titles(await engine.search('首都')), ['北京首都国际机场']);
  assert.deepEqual(titles(await engine.search('東京都')), ['東京都庁']);
  assert.deepEqual(titles(await engine.search('タワー')), ['東京タワー']);
  assert.deepEqual(titles(await engine.search('テレビ')), ['さっぽろテレビ塔']);
  assert.deepEqual(titles(await engine.search('서울')), ['서울역']);
  assert.deepEqual(titles(await engine.search('역')), ['서울역']);
});

test('the found character is marked in the title', async () => {
  const { engine } = open(site);
  const [doc] = (await engine.search('タワー')).docs;
  assert.deepEqual(doc.marks, [[2, 5]]);
});

test('Chinese typed in the other script finds the title: traditional 國際機場, simplified 东京', async () => {
  const { engine } = open(site);
  assert.deepEqual(titles(await engine.search('北京首都國際機場')), ['北京首都国际机场'], 'traditional on simplified');
  assert.deepEqual(titles(await engine.search('國際')), ['北京首都国际机场'], 'a pair');
  assert.deepEqual(new Set(titles(await engine.search('东京'))), new Set(['東京タワー', '東京都庁']), 'simplified on traditional');
});

test('Korean pairs are of syllables: 서울의 is 서울 and a particle, not letters scattered over 거울의 서', async () => {
  const { engine } = open(site);
  assert.deepEqual(titles(await engine.search('서울의')), ['서울역']);
  assert.deepEqual(titles(await engine.search('서울역의')), ['서울역']);
  assert.deepEqual(titles(await engine.suggest('서우')), ['서울역'], 'a syllable half typed still begins its word');
});
