import test from 'node:test';
import assert from 'node:assert/strict';
import { createLoader, unpackPrefixes } from '../../Templates/assets/js/engine/loader.js';

const manifest = {
  version: 1, docCount: 0, docsPerShard: 100, docShardFolder: 'd/', docHashFiles: '', docHashesPerFile: 256,
  // Term shards are numbered by prefix, each named by a short hash of its bytes: a run
  // [first, prefixes, hashes] lists them: a, l, la, lo, lov front-coded, the hashes of one length
  // in one string.
  termShardFolder: 't/', termShards: [[0, 'a.l,a.o,v', '000000aa111111bb222222cc333333dd444444ee']],
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
  assert.equal((await loader.shardFor('love')).path, 't/slov.444444ee.json');
  assert.equal((await loader.shardFor('lov')).path, 't/slov.444444ee.json');
  assert.equal((await loader.shardFor('lo')).path, 't/slo.333333dd.json');
  assert.equal((await loader.shardFor('lu')).path, 't/sl.111111bb.json'); // no "lu" shard: "l" holds it
  assert.equal((await loader.shardFor('l')).path, 't/sl.111111bb.json'); // shorter than every child: the internal shard
  assert.equal((await loader.shardFor('alpha')).prefix, 'a');
  assert.equal((await loader.shardFor('zebra')), null);
  assert.deepEqual(await loader.under('lo'), ['t/slo.333333dd.json', 't/slov.444444ee.json']);
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
  const big = { version: 1, termShardFolder: 't/', termDirectories: [['l', 't/dir-0.aa.json'], ['m', 't/dir-1.bb.json']], termShards: [[5, 'z', '55555555']] };
  const { loader, log } = loaderWith({
    'https://example.test/music/idx/manifest.0123456789.json': big,
    'https://example.test/music/idx/t/dir-0.aa.json': { termShards: [[1, 'l,o', '1111111122222222']] },
    'https://example.test/music/idx/t/dir-1.bb.json': { termShards: [[3, 'm', '33333333']] },
  });
  await loader.manifest;
  assert.equal((await loader.shardFor('love')).path, 't/slo.22222222.json');
  assert.equal((await loader.shardFor('lu')).path, 't/sl.11111111.json');
  assert.equal(log.filter((u) => u.includes('dir-')).length, 1, 'one directory for every l-word');
  assert.equal((await loader.shardFor('zebra')).path, 't/sz.55555555.json');
  assert.equal((await loader.shardFor('yak')), null);
  assert.equal((await loader.shardFor('metal')).path, 't/sm.33333333.json');
  assert.deepEqual(await loader.under('lo'), ['t/slo.22222222.json']);
});

test('a run\'s prefixes are front-coded: dots cut the previous prefix, a comma keeps it', () => {
  assert.deepEqual(unpackPrefixes('a,a.b..b'), ['a', 'aa', 'ab', 'b']);
  assert.deepEqual(unpackPrefixes('0.1.d,3.a'), ['0', '1', 'd', 'd3', 'da']);
  assert.deepEqual(unpackPrefixes('l,o,v..u'), ['l', 'lo', 'lov', 'lu']);
  // Characters, not UTF-16 units: a cut never splits one.
  assert.deepEqual(unpackPrefixes('𝒜,b.c'), ['𝒜', '𝒜b', '𝒜c']);
  assert.deepEqual(unpackPrefixes(''), ['']);
});
