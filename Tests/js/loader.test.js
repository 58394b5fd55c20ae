import test from 'node:test';
import assert from 'node:assert/strict';
import { createLoader } from '../../Templates/assets/js/engine/loader.js';

const manifest = {
  version: 1, docCount: 0, docsPerShard: 100, docShardFolder: 'd/0123456789/',
  termShards: [['a', 't/a.1.json'], ['l', 't/l.1.json'], ['la', 't/la.1.json'], ['lo', 't/lo.1.json'], ['lov', 't/lov.1.json']],
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
  assert.equal((await loader.shardFor('love')).path, 't/lov.1.json');
  assert.equal((await loader.shardFor('lov')).path, 't/lov.1.json');
  assert.equal((await loader.shardFor('lo')).path, 't/lo.1.json');
  assert.equal((await loader.shardFor('lu')).path, 't/l.1.json'); // no "lu" shard: "l" holds it
  assert.equal((await loader.shardFor('l')).path, 't/l.1.json'); // shorter than every child: the internal shard
  assert.equal((await loader.shardFor('alpha')).prefix, 'a');
  assert.equal((await loader.shardFor('zebra')), null);
  assert.deepEqual(await loader.under('lo'), ['t/lo.1.json', 't/lov.1.json']);
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
  const big = { version: 1, termDirectories: [['l', 't/dir-0.json'], ['m', 't/dir-1.json']] };
  const { loader, log } = loaderWith({
    'https://example.test/music/idx/manifest.0123456789.json': big,
    'https://example.test/music/idx/t/dir-0.json': { termShards: [['l', 't/l.1.json'], ['lo', 't/lo.1.json']] },
    'https://example.test/music/idx/t/dir-1.json': { termShards: [['m', 't/m.1.json']] },
  });
  await loader.manifest;
  assert.equal((await loader.shardFor('love')).path, 't/lo.1.json');
  assert.equal((await loader.shardFor('lu')).path, 't/l.1.json');
  assert.equal(log.filter((u) => u.includes('dir-')).length, 1, 'one directory for every l-word');
  assert.equal((await loader.shardFor('zebra')), null);
  assert.equal((await loader.shardFor('metal')).path, 't/m.1.json');
  assert.deepEqual(await loader.under('lo'), ['t/lo.1.json']);
});
