// Writes a synthetic catalogue index for the benchmark: node Tests/js/support/make-synthetic.mjs 1000000 /tmp/synth
// Words come from a Zipf-like draw over a made-up vocabulary, so some terms are huge
// (continuation files) and most are rare, as in a real catalogue. Also writes queries.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildIndex } from './build-index.mjs';

const [n = 100000, out = `/tmp/synth-${n}`] = process.argv.slice(2);
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const syl = ['ka', 'lo', 've', 'mi', 'ra', 'to', 'sen', 'dor', 'mel', 'tri', 'an', 'be', 'co', 'du', 'el', 'fa', 'gi', 'ho', 'ju', 'ne', 'pa', 'qu', 'si', 'ul', 'wy', 'zo'];
const vocab = Array.from({ length: 60000 }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => syl[Math.floor(rand() * syl.length)]).join(''));
const word = () => vocab[Math.floor(vocab.length * rand() ** 3)];
const kinds = ['artists', 'albums', 'songs', 'playlists', 'genres'];
const docs = Array.from({ length: Number(n) }, (_, i) => ({
  kind: kinds[Math.min(4, Math.floor(rand() ** 2 * 5))],
  title: Array.from({ length: 1 + Math.floor(rand() * 3) }, word).join(' '),
  subtitle: `Item ${i}`, url: `x/${i}/`, hue: i % 12,
  text: [Array.from({ length: 3 + Math.floor(rand() * 5) }, word).join(' ')],
  scopes: rand() < 0.02 ? ['library'] : [], facets: { genre: `G${Math.floor(rand() ** 2 * 25)}` },
}));
const { files } = buildIndex({
  docs, kinds: kinds.map((id) => ({ id, label: id, singular: id })),
  scopes: [{ id: 'all', label: 'All' }, { id: 'library', label: 'Library' }],
  facets: [{ id: 'genre', label: 'Genre', icon: 'genre' }], inlineMax: 2000,
});
for (const [path, text] of files) {
  mkdirSync(dirname(join(out, 'idx', path)), { recursive: true });
  writeFileSync(join(out, 'idx', path), text);
}
const queries = Array.from({ length: 40 }, () => `${word()} ${rand() < 0.5 ? word() : ''}`.trim());
writeFileSync(join(out, 'queries.json'), JSON.stringify(queries));
console.log(`${n} documents, ${files.size} files in ${out}`);
