// The top hit (FORMAT.md "Top hit"), as Apple Music picks it: of the first `limit` rows (8) of a
// one-word query, those the rules cannot tell from the first (the same rules met), the one that
// stands highest in its own kind comes first. Popularity is counted in each kind's own
// units, and a kind that adds up others (a genre, all its songs' sales) outweighs every record of
// the kinds it adds up: `meta` is Metallica, the third of 204 artists, before the genre Metal, the
// third of 25 genres, though the genre has more sales; `jobim` is the artist, the 34th of 204,
// before a song of his, the 265th of 3,503. Between equal places the larger kind's record comes
// first. `kinds` are the manifest's (each with its `standing`); `docs` a first page in rank order.
// The others keep their order.
// Not in the page's bundle: engine.js fetches it only when a row of another kind ties with the
// first, and the engine hands it `contains` and `decode` (it imports nothing, as ui/tophit.js).
export function topHit(docs, words, sets, kinds, { limit, contains, decode }) {
  const score = (id) => sets.reduce((s, set, k) => s | (contains(set, id) ? 1 << (sets.length - 1 - k) : 0), 0)
  const best = score(docs[0].id)
  let pick = 0, at = standing(docs[0], kinds, decode)
  for (let i = 1; i < Math.min(docs.length, limit); i++) {
    const d = docs[i]
    if (score(d.id) !== best) continue
    const s = standing(d, kinds, decode)
    if (s < at) { pick = i; at = s }
  }
  return pick ? [docs[pick], ...docs.slice(0, pick), ...docs.slice(pick + 1)] : docs
}

// Where a row stands in its kind: its place (0 the first), then, between equal places, the larger
// kind first. The kind's `standing` lists the numbers of its first 12 documents, then of its 16th,
// 32nd, 64th…: past the 12th a place is known to within a factor of two, its lower end counted.
const PLACES = 12
function standing(doc, kinds, decode) {
  const kind = kinds.find((k) => k.id === doc.kind), rungs = decode(kind?.standing)
  let j = 0
  while (j < rungs.length && rungs[j] <= doc.id) j++
  if (!j) return Infinity
  // The place of the last rung at or before the document, one more when it is not that rung.
  const rung = j <= PLACES ? j - 1 : 2 ** (j - PLACES + 4) - 1
  return rung + (rungs[j - 1] === doc.id ? 0 : 1) + 1 / (kind.count + 1)
}
