import test from 'node:test';
import assert from 'node:assert/strict';
import { open, fileName, fixtureSite } from './support/fixture.mjs';

// Top Results' rows never wait for the kinds' file: on a small index `counted()` brings every chip's total.
const totalsOf = async (r) => (r.counted ? r.counted() : r.totals);

// Document numbers of Tests/js/fixtures/music: a record's number is its id (popularity order).
const ids = (r) => r.docs.map((d) => d.id);
const files = (log) => log.map((u) => fileName(fixtureSite(), u));

test('a rare word costs exactly the manifest, one term shard and one document shard, named by the file of their hashes', async () => {
  const { engine, log } = open();
  const r = await engine.suggest('zyzzyva');
  assert.deepEqual(r.docs.map((d) => d.title), ['Zyzzyva Blues']);
  assert.deepEqual(files(log), ['idx/manifest', 'idx/t/z', 'idx/d/h0', 'idx/d/4']);
});

test('documents come back whole, with absolute URLs under the site base and marks', async () => {
  const { engine } = open();
  const [doc] = (await engine.search('AC/DC')).docs;
  assert.deepEqual(doc, {
    id: 1, kind: 'artists', kindLabel: 'Artist', title: 'AC/DC', subtitle: 'Artist · 2 songs',
    url: 'https://example.test/sub/artists/1-ac-dc/', hue: 3, marks: [[0, 5]], subMarks: [], match: null,
  });
});

test('ac/dc, acdc and "ac dc" all find AC/DC first; sao finds São', async () => {
  const { engine } = open();
  for (const q of ['ac/dc', 'acdc', 'ac dc', 'AC/']) assert.equal((await engine.suggest(q)).docs[0].title, 'AC/DC', q);
  const [sao] = (await engine.suggest('sao')).docs;
  assert.equal(sao.title, 'São Paulo Sessions');
  assert.deepEqual(sao.marks, [[0, 3]]);
  assert.equal((await engine.suggest('beyon')).docs[0].title, 'Beyoncé');
});

test('tiers: the word whole in the title (first word first) > a longer term > other fields, each by number', async () => {
  const { engine } = open();
  const r = await engine.search('love');
  // 2 14 17 29 40 11 15 hold "love" whole, and an exact word beats a mere start: Lovesong (18)
  // and Loverman (41), which start with a longer term, come after "Crazy in Love" (11) and
  // "Whole Lotta Love" (15); among the exact ones, those whose first word is "love" come first.
  // 27 (by "Digital Lovers") and 3 Beyoncé only in another field: the song first, since songs'
  // titles hold "love" and no artist's does (FORMAT.md "Kinds the words name").
  assert.deepEqual(ids(r), [2, 14, 17, 29, 40, 11, 15, 18, 41, 27, 3]);
  assert.equal(r.total, 11);
  assert.deepEqual(await totalsOf(r), { top: 11, artists: 1, albums: 0, songs: 9, playlists: 1, genres: 0 });
  assert.deepEqual(ids(await engine.search('love lotta')), [15, 14]);
});

test('every word must match while together they find something; then a word that finds nothing is dropped', async () => {
  const { engine } = open();
  // 11: both words in the title; then, each with a word elsewhere, by popularity: 3 Beyoncé (by
  // "Crazy in Love") and 14, a playlist holding it (where "love" starts the title: position
  // counts for one word only, proximity orders several)
  assert.deepEqual(ids(await engine.suggest('love crazy')), [11, 3, 14]);
  // 4 (Master of Puppets, by Metallica) holds both words, one whole in its title; then 0, the
  // artist the first word names, though it holds no "puppets" (FORMAT.md "Named records").
  assert.deepEqual(ids(await engine.suggest('metallica puppets')), [4, 0]);
  const dropped = await engine.suggest('metallica xylophone');
  assert.deepEqual(dropped.dropped, ['xylophone']);
  assert.deepEqual(ids(dropped), ids(await engine.suggest('metallica')));
  assert.deepEqual((await engine.suggest('metallica puppets')).dropped, []);
});

test('a kind chip pages through its own results', async () => {
  const { engine } = open();
  const r = await engine.search('love', { kind: 'songs', offset: 2, limit: 3 });
  assert.deepEqual(ids(r), [29, 40, 11]);
  assert.ok(r.docs.every((d) => d.kind === 'songs'));
  assert.equal(r.total, 9);
  assert.equal(r.totals.top, 11);
});

test('only the document shards of the shown page are fetched', async () => {
  const { engine, log } = open();
  await engine.search('love', { limit: 2 });
  // The document shards' hashes first, once: their file names them.
  assert.deepEqual(files(log).filter((f) => f.startsWith('idx/d/')), ['idx/d/h0', 'idx/d/0', 'idx/d/1']);
  log.length = 0;
  const r = await engine.search('love', { offset: 9, limit: 5 });
  assert.deepEqual(ids(r), [27, 3]);
  // Beyoncé is found by a searched field, not by her title or subtitle: its field shard says where.
  assert.deepEqual(files(log).filter((f) => f.startsWith('idx/d/')), ['idx/d/2', 'idx/d/f0']);
  assert.deepEqual(r.docs[1].match, { label: 'Other', text: 'Pop singer, Crazy in Love', marks: [[21, 25]] });
  assert.equal(r.docs[0].match, null, 'Tokyo Nights shows the word in its subtitle');
  assert.deepEqual(r.docs[0].subMarks, [[8, 12]]);
});

test('a 1-letter word uses the internal shard and its tops while typing, the subtree on a final search', async () => {
  const { engine, log } = open();
  const r = await engine.suggest('m');
  assert.deepEqual(files(log).filter((f) => f.startsWith('idx/t/')), ['idx/t/m']);
  assert.equal(r.docs.length, 6); // tops holds 6 here: the fixture is built with topsMax 6
  assert.ok(r.docs.every((d) => d.marks.length), 'each suggestion shows the matched m-word');
  assert.deepEqual(ids(r), [...ids(r)].sort((a, b) => a - b), 'while typing one letter, popularity decides');
  const s = await engine.search('m');
  assert.equal(s.total, 17);
  assert.deepEqual(s.docs.slice(0, 2).map((d) => d.title), ['Metallica', 'Master of Puppets'], 'on Enter, titles that start with m, by popularity');
  assert.deepEqual(files(log).filter((f) => f.startsWith('idx/t/')).sort(), ['idx/t/m', 'idx/t/ma', 'idx/t/me', 'idx/t/mi', 'idx/t/mo', 'idx/t/my']);
});

test('a long posting list loads its continuation only on a final search', async () => {
  const { engine, log } = open();
  const typed = await engine.suggest('love');
  assert.ok(!files(log).some((f) => f.includes('more')));
  assert.ok(!ids(typed).includes(17), 'doc 17 is only in the continuation');
  const final = await engine.search('love');
  assert.ok(ids(final).includes(17));
  assert.equal(files(log).filter((f) => f.includes('more')).length, 1);
});

// A person edits: types, backspaces, types again. The engine keeps its last suggestions, so an
// answer asked for again must be the one a fresh engine gives for that text, and one filter's
// answer is never another's.
test('suggestions asked again, typing back and forth, are a fresh engine\'s answers', async () => {
  const { engine } = open();
  const words = ['metallica', 'love crazy', 'ac/dc', 'beyon', 'metalica', 'led zep', 'zyzzyva', 'm'];
  const there = words.flatMap((w) => Array.from(w, (_, i) => w.slice(0, i + 1)));
  const typing = [...there, ...[...there].reverse(), ...there];
  const rock = [{ facet: 'genre', value: 'Rock' }];
  const asked = typing.flatMap((text) => [[text, {}], [text, { scope: 'library' }], [text, { tokens: rock }]]);
  const answers = [];
  for (const [text, options] of asked) answers.push(await engine.suggest(text, options));
  const fresh = new Map();
  for (const [i, [text, options]] of asked.entries()) {
    const key = JSON.stringify([text, options]);
    if (!fresh.has(key)) fresh.set(key, await open().engine.suggest(text, options));
    assert.deepEqual(answers[i], fresh.get(key), key);
  }
  assert.notDeepEqual(ids(await engine.suggest('love', { tokens: rock })), ids(await engine.suggest('love')));
});

test('scope and tokens filter, together and alone', async () => {
  const { engine } = open();
  const rock = [{ facet: 'genre', value: 'Rock' }];
  assert.deepEqual(ids(await engine.search('love', { scope: 'library' })), [15]);
  assert.deepEqual(ids(await engine.search('love', { tokens: rock })), [17, 29, 40, 15, 18, 41]);
  assert.deepEqual(ids(await engine.suggest('love', { scope: 'library', tokens: rock })), [15]);
  assert.deepEqual(ids(await engine.search('', { scope: 'library', tokens: [{ facet: 'genre', value: 'Metal' }] })), [0, 4, 19]);
  const jazz = await engine.search('', { tokens: [{ facet: 'genre', value: 'Jazz' }] });
  assert.deepEqual(ids(jazz), [8, 9, 20, 37, 38, 42], 'tokens alone list everything they admit, by number');
  assert.deepEqual(await totalsOf(jazz), { top: 6, artists: 1, albums: 0, songs: 4, playlists: 0, genres: 1 });
  assert.deepEqual(ids(await engine.search('', { tokens: [{ facet: 'genre', value: 'Polka' }] })), []);
});

test('values of one facet combine with OR, the scope with AND', async () => {
  const { engine } = open();
  const genre = (value) => ({ facet: 'genre', value });
  const both = [genre('Jazz'), genre('Metal')];
  const jazz = ids(await engine.search('', { tokens: [genre('Jazz')] }));
  const metal = ids(await engine.search('', { tokens: [genre('Metal')] }));
  const either = await engine.search('', { tokens: both });
  assert.deepEqual(new Set(ids(either)), new Set([...jazz, ...metal]), 'Jazz or Metal, not Jazz and Metal');
  assert.equal(either.total, new Set([...jazz, ...metal]).size);
  const inLibrary = async (tokens) => ids(await engine.search('', { scope: 'library', tokens })).sort((a, b) => a - b);
  const library = [...await inLibrary([genre('Jazz')]), ...await inLibrary([genre('Metal')])].sort((a, b) => a - b);
  assert.deepEqual(await inLibrary(both), library, 'the library scope still narrows them');
  assert.ok(library.length < either.total);
  const metalLove = ids(await engine.search('love', { tokens: [genre('Metal')] }));
  assert.ok(ids(await engine.search('love', { tokens: both })).length >= metalLove.length);
});

test('a token that names nothing admits nothing, even beside a kind that could be browsed', async () => {
  // A link from before the data changed: ?token=genre:Polka&kind=songs. Not every song.
  const { engine } = open();
  const songs = await engine.search('', { kind: 'songs' });
  assert.ok(songs.total > 0, 'the kind alone is browsed');
  for (const token of [{ facet: 'genre', value: 'Polka' }, { facet: 'mood', value: 'Calm' }]) {
    const r = await engine.search('', { tokens: [token], kind: 'songs' });
    assert.deepEqual(ids(r), [], `${token.facet}:${token.value}`);
    assert.equal(r.total, 0);
    assert.equal(r.totals.songs, 0, 'the chip says none, so the page does not offer it');
  }
  const valid = await engine.search('', { tokens: [{ facet: 'genre', value: 'Jazz' }], kind: 'songs' });
  assert.deepEqual(ids(valid), [9, 37, 38, 42], 'a token that names something still filters the kind');
});

test('empty text and no tokens is an empty result without fetching anything', async () => {
  const { engine, log } = open();
  assert.deepEqual(await engine.suggest('  '), { text: '  ', completions: [], docs: [], corrected: [], dropped: [] });
  assert.deepEqual((await engine.suggest(undefined)).docs, []);
  const r = await engine.search('', { scope: 'library' });
  assert.equal(r.total, 0);
  assert.equal(r.totals.songs, 0);
  assert.deepEqual(files(log), ['idx/manifest']);
});

test('typos are forgiven while typing and on Enter, and the correction is reported', async () => {
  const { engine } = open();
  const typing = await engine.suggest('metalica');
  assert.equal(typing.docs[0].title, 'Metallica', 'while typing too');
  assert.deepEqual(typing.corrected, [{ from: 'metalica', to: 'metallica' }]);
  assert.deepEqual(typing.completions, ['metallica'], 'the correction is offered as the completion');
  assert.equal((await engine.suggest('metali')).docs[0].title, 'Metallica', 'a prefix with a slip');
  const r = await engine.search('metalica');
  assert.equal(r.docs[0].title, 'Metallica');
  assert.deepEqual(r.docs[0].marks, [[0, 9]]);
  assert.deepEqual(r.corrected, [{ from: 'metalica', to: 'metallica' }]);
  const b = await engine.search('beethovn');
  assert.equal(b.docs[0].title, 'Ludwig van Beethoven');
  assert.deepEqual(b.corrected, [{ from: 'beethovn', to: 'beethoven' }]);
  assert.deepEqual(ids(await engine.search('lvoe crazy')), [11, 3, 14], 'a transposition is one edit, even where it changes the shard');
  assert.deepEqual((await engine.search('mtl')).total, 0, 'no correction under 4 letters');
  assert.deepEqual((await engine.search('metal')).corrected, [], 'a word that matches is not corrected');
});

test('completions keep the typed words and only offer what occurs with them', async () => {
  const { engine } = open();
  // From the titles of the best matches: while typing, a one-word title the word begins comes first.
  // (`lo` is a split prefix since the index holds word forms, `lose` among them: its tops rank.)
  assert.deepEqual((await engine.suggest('lov')).completions, ['lovesong', 'loverman', 'love', 'lovers']);
  // "lotta" occurs with "crazy" only in the Love Songs playlist; "losing" never does.
  assert.deepEqual((await engine.suggest('crazy lov')).completions, ['crazy love']);
  assert.deepEqual((await engine.suggest('crazy lot')).completions, ['crazy lotta']);
  assert.deepEqual((await engine.suggest('crazy los')).completions, []);
  assert.deepEqual((await engine.suggest('whole lot')).completions, ['whole lotta']);
  assert.deepEqual((await engine.suggest('whole lotta ')).completions, ['whole lotta love'], 'after a space: the next word of a title');
});

test('ranking rules: the title first, an exact word before a prefix, the whole title, then popularity', async () => {
  const { engine } = open();
  // "Metal Heart" (35) holds the whole word; Metallica (0) is a more popular prefix match.
  assert.deepEqual(ids(await engine.search('metal')).slice(0, 2), [35, 0]);
  // Whole title "Love Buzz"? no: "lovesong" is the whole title of 18 and starts it.
  assert.equal((await engine.search('lovesong')).docs[0].id, 18);
  // Every word whole in the title beats a prefix of it.
  assert.equal((await engine.search('whole lotta love')).docs[0].title, 'Whole Lotta Love');
});

test('a part of a joined name counts as another field, and popularity decides', async () => {
  const { engine } = open();
  // 43 Karaoke Night says "kernel kit" in its other fields; 44 Kelp-Kernel-Kit and 45 Kernel-Kit
  // hold both words only as parts of their names (FORMAT.md "Parts of names"): no title holds
  // them as words, so the three are equals, by popularity, each with the words side by side
  // (a name's parts are; so are a word's forms: `kernels`) — but 45's title is the query (rule 4).
  assert.deepEqual(ids(await engine.search('kernel kit')), [45, 43, 44]);
  assert.deepEqual(ids(await engine.search('kernels kit')), [43, 44, 45]);
  assert.deepEqual(ids(await engine.suggest('kernel ki')), [43, 44, 45]);
  // One word: a name that begins with the word holds it as that part (`kernelkit` is 45's name
  // run together), so it is no title match either.
  assert.deepEqual(ids(await engine.search('kernel')), [43, 44, 45]);
  // While typing, a name that begins with the typed letters is the title being typed, unless
  // they are already one of its parts.
  assert.deepEqual(ids(await engine.suggest('kern')), [45, 43, 44]);
  assert.deepEqual(ids(await engine.suggest('kernel')), [43, 44, 45]);
});

test('token suggestions: all by count, or those the text begins', async () => {
  const { engine } = open();
  await engine.ready;
  const all = engine.tokenSuggestions();
  assert.deepEqual(all.map((t) => t.value), ['Rock', 'Pop', 'Jazz', 'Metal', 'Classical', 'Latin']);
  assert.deepEqual(all[0], { facet: 'genre', facetLabel: 'Genre', value: 'Rock', count: 16, icon: 'genre' });
  assert.deepEqual(engine.tokenSuggestions('JA').map((t) => t.value), ['Jazz']);
  assert.equal(engine.tokenSuggestions('gen').length, 6);
  assert.deepEqual(engine.tokenSuggestions('x'), []);
});

test('without kind files the totals come from document shards and agree', async () => {
  const edit = (path, value) => (path.includes('manifest') ? { ...value, kinds: value.kinds.map(({ file, ...k }) => k) } : value);
  const { engine, log } = open(undefined, { edit });
  const r = await engine.search('love', { kind: 'songs' });
  assert.deepEqual(r.totals, { top: 11, artists: 1, albums: 0, songs: 9, playlists: 1, genres: 0 });
  assert.deepEqual(ids(r), [2, 17, 29, 40, 11, 15, 18, 41, 27]);
  assert.ok(!files(log).some((f) => f.includes('kind-')));
});

test('overlapping calls each answer their own query and share fetches', async () => {
  const { engine, log } = open();
  const [a, b, c] = await Promise.all([engine.suggest('metal'), engine.suggest('love'), engine.suggest('metal')]);
  assert.deepEqual(ids(a), [0, 35, 4, 19]); // while typing, the one-word title "Metallica" first
  assert.equal(b.docs[0].title, 'Love Me Like You Do'); // the word whole beats "Lovesong", which it only begins
  assert.deepEqual(a, c);
  assert.equal(new Set(log).size, log.length, 'no file fetched twice');
});

test('on a large index Top Results loads no kind file and a chip loads only its own', async () => {
  // The fixture, presented as an index of 60,000 documents: past the size where every kind
  // file is worth fetching to count every chip.
  const { engine, log } = open(undefined, {
    edit: (path, value) => (/manifest/.test(path) ? { ...value, docCount: 60000 } : value),
  });
  const top = await engine.search('love');
  assert.ok(top.total > 0);
  assert.deepEqual(files(log).filter((f) => f.includes('kind-')), [], 'no kind file for Top Results');
  const kinds = engine.manifest.kinds.map((k) => k.id);
  assert.ok(kinds.every((k) => top.totals[k] === undefined), 'other kinds are unknown, not zero');
  const songs = await engine.search('love', { kind: 'songs' });
  assert.deepEqual(files(log).filter((f) => f.includes('kind-')), ['idx/f/kind-songs']);
  assert.ok(songs.docs.every((d) => d.kind === 'songs'));
  assert.equal(songs.totals.songs, songs.total);
  assert.equal(songs.totals.artists, undefined);
});

test('on a small index every chip gets its count', async () => {
  const { engine } = open();
  const r = await engine.search('love');
  const totals = await totalsOf(r);
  const sum = engine.manifest.kinds.reduce((n, k) => n + totals[k.id], 0);
  assert.equal(sum, totals.top);
});
