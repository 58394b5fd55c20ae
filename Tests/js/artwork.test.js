import test from 'node:test'
import assert from 'node:assert/strict'
import { createDocuments, safeImage } from '../../Templates/assets/js/engine/documents.js'
import { artworkOf } from '../../Templates/assets/js/ui/art.js'

const site = 'https://pictures.example.org/music/'

test('a picture is the site\'s own file or an http(s) image, nothing else', () => {
  assert.equal(safeImage('images/5d1c2a0f3b.png', site), 'https://pictures.example.org/music/images/5d1c2a0f3b.png')
  assert.equal(safeImage('https://covers.example/a.png', site), 'https://covers.example/a.png')
  for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:image/png;base64,AAAA', 'vbscript:x', '', undefined]) {
    assert.equal(safeImage(url, site), null, String(url))
  }
})

test('a row\'s tile: the picture lazy, sized and with an empty alt over the initials; a symbol in place of them', () => {
  const cover = artworkOf({ title: 'Kind of Blue', hue: 15, image: 'https://covers.example/a.png', symbol: null })
  assert.deepEqual(cover, {
    className: 'artwork hue-3', text: 'KO',
    image: { src: 'https://covers.example/a.png', alt: '', width: 48, height: 48, loading: 'lazy', decoding: 'async' },
  })
  const heart = artworkOf({ title: 'blue heart', hue: 1, image: null, symbol: '💙' })
  assert.deepEqual(heart, { className: 'artwork hue-1 artwork-symbol', text: '💙', image: null })
  assert.deepEqual(artworkOf({ title: 'AC/DC', hue: 0 }), { className: 'artwork hue-0', text: 'AD', image: null })
})

// A loader answering from a map, counting what was fetched.
function loader(files) {
  const fetched = []
  return {
    fetched,
    base: 'https://pictures.example.org/idx/',
    load: async (path, use) => { fetched.push(path); return use(files[path]) },
  }
}

test('a term shard\'s row of a kind with artwork is completed from its document shard', async () => {
  const manifest = { docsPerShard: 50, docCount: 4, docShardFolder: 'd/', docHashFiles: 'aaaaaaaa', docHashesPerFile: 256, options: {}, kinds: [
    { id: 'albums', singular: 'Album', artwork: true }, { id: 'genres', singular: 'Genre' }] }
  const files = { 'd/h0.aaaaaaaa.json': { hashes: '0a1b2c3d' }, 'd/0.0a1b2c3d.json': { first: 0, docs: [
    [0, 'Kind of Blue', 'Album', 'albums/1/', 3, 'https://covers.example/a.png'],
    [1, 'Jazz', 'Genre', 'genres/1/', 2],
    [0, 'Blue Train', 'Album', 'albums/2/', 4, 'images/abc.png'],
    [0, 'blue heart', 'Emoji', 'emoji/1/', 1, '', '💙'],
  ] } }
  const l = loader(files), docs = createDocuments(l, () => {})
  // A term shard carried rows 0 and 1, without pictures.
  docs.learn([[0, 0, 'Kind of Blue', 'Album', 'albums/1/', 3], [1, 1, 'Jazz', 'Genre', 'genres/1/', 2]])
  const genre = await docs.documents(manifest, [1], [])
  assert.deepEqual(l.fetched, [], 'a kind without artwork is shown from the term shard')
  assert.equal(genre[0].image, undefined)
  const rows = await docs.documents(manifest, [0, 2, 3], [])
  assert.deepEqual(l.fetched, ['d/h0.aaaaaaaa.json', 'd/0.0a1b2c3d.json'])
  assert.deepEqual(rows.map((r) => [r.image, r.symbol]), [
    ['https://covers.example/a.png', undefined], ['https://pictures.example.org/images/abc.png', undefined], [undefined, '💙']])
  // A term shard seen later does not take the picture away.
  docs.learn([[0, 0, 'Kind of Blue', 'Album', 'albums/1/', 3]])
  assert.equal((await docs.documents(manifest, [0], []))[0].image, 'https://covers.example/a.png')
})
