import test from 'node:test';
import assert from 'node:assert/strict';
import { createLoader } from '../../Templates/assets/js/engine/loader.js';

const manifest = {
  version: 1, docCount: 0, docsPerShard: 100, docShardFolder: 'd/0123456789/',
  // Term shards are numbered by prefix in one folder: a run [first, [prefix, …]] lists them.
  termShardFolder: 't/0a1b2c3d4e/', termShards: [[0, ['a', 'l', 'la', 'lo', 'lov']]],
  kinds: [], scopes: [], facets: [],
};

function loaderWith(files, { fail = new Set() } = {}) {
  const log = [];
  const fetchJSON = async (url) => {
    log.push(url);
    await new Promise((r) => setTimeout(r, 5));
    if (fail.has(url)) { fail.delete(url); throw new Error('offline'); }
    return files[url];
  };
  const loader = createLoader({ manifestURL: 'https://example.test/music/idx/manifest.0123456789.json', fetchJSON });
  return { loader, log };
}

test('the shard for a term is the one with the longest prefix it starts with', async () => {
  const { loader } = loaderWith({ 'https://example.test/music/idx/manifest.0123456789.json': manifest });
  await loader.manifest;
  assert.equal((await loader.shardFor('love')).path, 't/0a1b2c3d4e/4.json');
  assert.equal((await loader.shardFor('lov')).path, 't/0a1b2c3d4e/4.json');
  assert.equal((await loader.shardFor('lo')).path, 't/0a1b2c3d4e/3.json');
  assert.equal((await loader.shardFor('lu')).path, 't/0a1b2c3d4e/1.json'); // no "lu" shard: "l" holds it
  assert.equal((await loader.shardFor('l')).path, 't/0a1b2c3d4e/1.json'); // shorter than every child: the internal shard
  assert.equal((await loader.shardFor('alpha')).prefix, 'a');
  assert.equal((await loader.shardFor('zebra')), null);
  assert.deepEqual(await loader.under('lo'), ['t/0a1b2c3d4e/3.json', 't/0a1b2c3d4e/4.json']);
});

test('paths resolve against the manifest folder, and one file is fetched once even when asked for twice at once', async () => {
  const url = 'https://example.test/music/idx/t/lo.1.json';
  const { loader, log } = loaderWith({ 'https://example.test/music/idx/manifest.0123456789.json': manifest, [url]: { prefix: 'lo', terms: {} } });
  await loader.manifest;
  const made = [];
  const [a, b] = await Promise.all([loader.load('t/lo.1.json', (raw) => (made.push(raw), { raw })), loader.load('t/lo.1.json', () => 'other')]);
  assert.equal(a, b);
  assert.equal(made.length, 1);
  assert.deepEqual(log, ['https://example.test/music/idx/manifest.0123456789.json', url]);
});

test('a failed fetch is not cached, so the next query retries it', async () => {
  const url = 'https://example.test/music/idx/t/a.1.json';
  const { loader, log } = loaderWith({ 'https://example.test/music/idx/manifest.0123456789.json': manifest, [url]: { prefix: 'a', terms: {} } }, { fail: new Set([url]) });
  await assert.rejects(loader.load('t/a.1.json'), /offline/);
  assert.equal((await loader.load('t/a.1.json')).prefix, 'a');
  assert.equal(log.filter((u) => u === url).length, 2);
});

test('an index of another version is refused with a clear error', async () => {
  const { loader } = loaderWith({ 'https://example.test/music/idx/manifest.0123456789.json': { ...manifest, version: 2 } });
  await assert.rejects(loader.manifest, /unsupported index version 2/);
});

test('a large index finds its shards through one directory per first letter, fetched once', async () => {
  // A letter with one shard is listed in the manifest itself (`z`); the others' runs are in their directories.
  const big = { version: 1, termShardFolder: 't/f0/', termDirectories: [['l', 't/f0/dir-0.json'], ['m', 't/f0/dir-1.json']], termShards: [[5, ['z']]] };
  const { loader, log } = loaderWith({
    'https://example.test/music/idx/manifest.0123456789.json': big,
    'https://example.test/music/idx/t/f0/dir-0.json': { termShards: [[1, ['l', 'lo']]] },
    'https://example.test/music/idx/t/f0/dir-1.json': { termShards: [[3, ['m']]] },
  });
  await loader.manifest;
  assert.equal((await loader.shardFor('love')).path, 't/f0/2.json');
  assert.equal((await loader.shardFor('lu')).path, 't/f0/1.json');
  assert.equal(log.filter((u) => u.includes('dir-')).length, 1, 'one directory for every l-word');
  assert.equal((await loader.shardFor('zebra')).path, 't/f0/5.json');
  assert.equal((await loader.shardFor('yak')), null);
  assert.equal((await loader.shardFor('metal')).path, 't/f0/3.json');
  assert.deepEqual(await loader.under('lo'), ['t/f0/2.json']);
});
