// Against the package index example (Data/debian/site.yml), a site nobody here designed:
// PACKAGES_SITE=/tmp/packages-site node --test Tests/js/
// (build it with: generate --config Data/debian/site.yml --output /tmp/packages-site)
import test from 'node:test';
import assert from 'node:assert/strict';
import { open, manifestName } from './support/fixture.mjs';

const SITE = process.env.PACKAGES_SITE;
const skip = !SITE ? 'PACKAGES_SITE is not set: set it to a site built from Data/debian/site.yml to run these'
  : !manifestName(SITE) ? `PACKAGES_SITE=${SITE} has no idx/manifest.<hash>.json` : false;
const titles = (r, n = 3) => r.docs.slice(0, n).map((d) => d.title);

test('one word too many is dropped, the least specific first, and said so', { skip }, async () => {
  const { engine } = open(SITE);
  const r = await engine.search('apt install nginx');
  assert.deepEqual(r.dropped, ['apt', 'install'], 'both common words go before the rare one');
  assert.equal(r.docs[0]?.title, 'nginx');
  const gimp = await engine.search('gimp photo editor');
  assert.ok(gimp.total > 0, 'never a dead end');
  assert.ok(!gimp.dropped.includes('gimp'), gimp.dropped.join());
  const s = await engine.suggest('apt install nginx');
  assert.deepEqual(s.dropped, ['apt', 'install'], 'suggestions drop the same words');
  assert.equal(s.docs[0]?.title, 'nginx');
  assert.deepEqual(s.completions, [], 'completions keep every typed word, so none here');
});

test('a record the query names comes first: its title is a finished word, the rest describe it', { skip }, async () => {
  const { engine } = open(SITE);
  // Three packages hold all three words in their summaries; git holds no "version" at all.
  const git = await engine.search('git version control');
  assert.deepEqual(titles(git, 4), ['git', 'jgit-cli', 'gitless', 'vcsh']);
  assert.deepEqual(git.dropped, [], 'nothing was dropped: git joins the answer as the named record');
  assert.equal((await engine.search('gimp photo editor')).docs[0]?.title, 'gimp');
  assert.equal((await engine.suggest('git version con')).docs[0]?.title, 'git', 'while typing the last word too');
  // A title holding every word, one of them whole, still comes first: the named record follows.
  const gcc = titles(await engine.search('gcc 12', { limit: 500 }), 500);
  assert.equal(gcc[0], 'gcc-12');
  assert.ok(gcc.includes('gcc'), 'gcc, which the first word names, is found though it holds no 12');
  // No record is named by a word still being typed.
  assert.ok(!titles(await engine.suggest('version gi'), 8).includes('version'));
});

test('a query whose words all match drops none', { skip }, async () => {
  const { engine } = open(SITE);
  const r = await engine.search('python numpy');
  assert.deepEqual(r.dropped, []);
  assert.ok(titles(r, 5).includes('python3-numpy'), titles(r, 5).join());
});

test('an exact word beats its position, and popularity decides between exact matches', { skip }, async () => {
  const { engine } = open(SITE);
  // python3-numpy: 603 packages depend on it; numpy-stl, whose title starts with the word: none.
  const numpy = titles(await engine.search('numpy', { limit: 100 }), 100);
  assert.equal(numpy[0], 'python3-numpy');
  assert.ok(numpy.indexOf('numpy-stl') > 0, numpy.join(' | '));
  assert.equal((await engine.search('django')).docs[0]?.title, 'python3-django');
  assert.equal((await engine.suggest('numpy')).docs[0]?.title, 'python3-numpy', 'while typing too');
});

test('a part of a joined name weighs as a summary word, and popularity decides between them', { skip }, async () => {
  const { engine } = open(SITE);
  // simple-revision-control (nothing depends on it) names both words as parts of its name;
  // git (112 packages depend on it) says "revision control" in its summary.
  assert.deepEqual(titles(await engine.search('revision control')), ['git', 'rcs', 'darcs']);
  assert.ok(titles(await engine.search('revision control', { limit: 20 }), 20).includes('simple-revision-control'));
  // postgresql-server-dev-all holds both words only as parts: no record holds one as a word of
  // its title, so the record the first word names comes first (FORMAT.md "Named records").
  assert.equal((await engine.search('postgresql server')).docs[0]?.title, 'postgresql');
  // A name's parts stand side by side, python3 being `python` with its version: python3-yaml
  // (more packages depend on it) before python3-pykwalify, "Python YAML/JSON schema validation".
  // gcc-12 is still the query run together.
  assert.equal((await engine.search('python yaml')).docs[0]?.title, 'python3-yaml');
  assert.equal((await engine.search('gcc 12')).docs[0]?.title, 'gcc-12');
  assert.equal((await engine.suggest('network man')).docs[0]?.title, 'network-manager');
  assert.equal((await engine.search('openssh server')).docs[0]?.title, 'openssh-server');
});

test('completions run across in-name punctuation: network man → network-manager', { skip }, async () => {
  const { engine } = open(SITE);
  const network = await engine.suggest('network man');
  assert.equal(network.completions[0], 'network-manager', network.completions.join());
  assert.equal(network.docs[0]?.title, 'network-manager');
  assert.ok((await engine.suggest('openssh ser')).completions.includes('openssh-server'));
});

test('a name inside a name is found: zope.interface, and python-numpy by its parts', { skip }, async () => {
  const { engine } = open(SITE);
  assert.equal((await engine.search('zope.interface')).docs[0]?.title, 'python3-zope.interface');
  assert.equal((await engine.suggest('zope.int')).docs[0]?.title, 'python3-zope.interface');
  // No term `pythonnumpy`: its parts are words of their own.
  assert.equal((await engine.search('python-numpy')).docs[0]?.title, 'python3-numpy');
});

test('word forms meet: plurals and -ed/-ing find the same records (English)', { skip }, async () => {
  const { engine } = open(SITE);
  assert.equal((await engine.search('spreadsheets')).docs[0]?.title, 'libreoffice-calc');
  const browsers = titles(await engine.search('web browsers', { limit: 10 }), 3);
  assert.ok(browsers.includes('firefox-esr'), browsers.join(' | '));
  const compilers = await engine.search('compilers');
  assert.ok(compilers.docs.some((d) => d.title === 'gcc'), 'compilers finds "GNU C compiler"');
});

test('while typing, the shortest name the word begins is the whole-title match: postgres → postgresql', { skip }, async () => {
  const { engine } = open(SITE);
  for (const [typed, name] of [['postgres', 'postgresql'], ['libreoff', 'libreoffice'], ['wiresh', 'wireshark']]) {
    assert.equal((await engine.suggest(typed)).docs[0]?.title, name, typed);
  }
});

test('a word and a number are the word whole: python → python3, as Debian names versions', { skip }, async () => {
  const { engine } = open(SITE);
  // python3-requests-oauthlib's summary holds `python` whole; python3-requests (more packages
  // depend on it) holds it only as python3, which counts as the word whole.
  assert.equal((await engine.search('python requests')).docs[0]?.title, 'python3-requests');
  assert.equal((await engine.search('python yaml')).docs[0]?.title, 'python3-yaml');
  assert.equal((await engine.suggest('python req')).docs[0]?.title, 'python3-requests', 'while typing too');
  // But the title that is the word itself is the query on Enter: postgresql before postgresql-15.
  assert.equal((await engine.search('postgresql')).docs[0]?.title, 'postgresql');
});

test('a correction reaches what its term does as typed: pyhton → python finds python3', { skip }, async () => {
  const { engine } = open(SITE);
  const r = await engine.search('pyhton');
  assert.deepEqual(r.corrected, [{ from: 'pyhton', to: 'python' }]);
  assert.equal(r.docs[0]?.title, 'python3');
  assert.equal((await engine.search('postgersql')).docs[0]?.title, 'postgresql', 'not postgresql-15');
});

test('a word with a space after it is finished: in the title only as a whole word', { skip }, async () => {
  const { engine } = open(SITE);
  // webext-keepassxc-browser begins `web` in its title (webext); firefox-esr, far more popular,
  // holds both words whole in its summary.
  assert.equal((await engine.search('web browser')).docs[0]?.title, 'firefox-esr');
  assert.equal((await engine.search('web browsers')).docs[0]?.title, 'firefox-esr');
  assert.equal((await engine.suggest('web browser')).docs[0]?.title, 'firefox-esr', 'while typing too');
  // The last word, still being typed, may be a prefix in the title: network-manager.
  assert.equal((await engine.suggest('network man')).docs[0]?.title, 'network-manager');
});

test('a package found by its summary marks the words in its subtitle, which shows the summary: no field shard', { skip }, async () => {
  const { engine, log } = open(SITE);
  const r = await engine.search('web browser');
  const lynx = r.docs.find((d) => d.title === 'lynx');
  assert.ok(lynx, titles(r, 20).join());
  assert.deepEqual(lynx.marks, [], 'the title holds neither word');
  assert.deepEqual(lynx.subMarks.map(([a, b]) => lynx.subtitle.slice(a, b)), ['web', 'browser']);
  assert.equal(lynx.match, null, 'the subtitle prints {{summary}}: no line of its own');
  assert.ok((await engine.ready).kinds.every((k) => !k.fields), 'no kind shows a field the subtitle already prints');
  assert.ok(!log.some((u) => /\/d\/[0-9a-f]+\/f\d+\.json$/.test(u)));
});
