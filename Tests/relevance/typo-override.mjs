// Should a much more popular record override one extra edit of a typo? Measures both sides on a
// built site (docs/ranking.md "Typos and popularity"); not run by the test command.
//
//   node Tests/relevance/typo-override.mjs SITE [N] [random]
//
// Takes the N most popular words of five letters or more (or N at random), types every slip of
// one edit (a swap of neighbours, a letter left out) and up to 16 slips of two, and asks the
// engine's distance which terms are near: a one-edit slip whose intended word would lose to a
// term one edit farther that is 10×, 100× or 1000× as popular (1, 2, 3 popularity tiers:
// the manifest's `popularityTiers`) counts against an override; a two-edit slip whose intended
// word is that much more popular than every term one edit away counts for it.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { distance, budget } from '../../Templates/assets/js/engine/typo.js'

const [site, n = '150', mode] = process.argv.slice(2)
const idx = join(site, 'idx')
const manifest = JSON.parse(readFileSync(join(idx, readdirSync(idx).find((f) => /^manifest\.[0-9a-f]{10}\.json$/.test(f))), 'utf8'))
const bounds = manifest.popularityTiers ?? []
const tier = (id) => bounds.filter((b) => b <= id).length

// Every plain term of letters and its most popular document (the lowest number).
const best = new Map()
for (const folder of readdirSync(join(idx, 't'))) {
  const dir = join(idx, 't', folder)
  if (!statSync(dir).isDirectory()) continue
  for (const file of readdirSync(dir).filter((f) => /^\d+\.json$/.test(f))) {
    const shard = JSON.parse(readFileSync(join(dir, file), 'utf8')), joined = new Set(shard.joined ?? [])
    for (const [t, e] of Object.entries(shard.terms)) {
      if (joined.has(t) || !/^\p{L}{4,}$/u.test(t)) continue
      best.set(t, Math.min(best.get(t) ?? Infinity, e[0][0] ?? Infinity, e[1][0] ?? Infinity))
    }
  }
}
const terms = [...best.keys()], pool = terms.filter((t) => t.length >= 5)
let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
const words = mode === 'random'
  ? Array.from({ length: +n }, () => pool[Math.floor(random() * pool.length)])
  : pool.sort((a, b) => best.get(a) - best.get(b)).slice(0, +n)

const slips = (w) => {
  const out = new Set()
  for (let i = 0; i + 1 < w.length; i++) out.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2))
  for (let i = 1; i < w.length; i++) out.add(w.slice(0, i) + w.slice(i + 1))
  return [...out].filter((v) => v !== w && !best.has(v))
}
const near = (v, max) => terms.map((t) => [t, distance(v, t, max)]).filter(([, d]) => d <= max)

const against = [0, 0, 0], For = [0, 0, 0]
let one = 0, two = 0, nearer = 0
for (const w of words) {
  for (const v of slips(w)) {
    if (budget(v) < 2) continue // a farther correction is only tried with a budget of two
    one++
    const far = near(v, 2).filter(([, d]) => d === 2).map(([t]) => tier(best.get(t)))
    for (let k = 1; k <= 3; k++) if (far.some((t) => tier(best.get(w)) - t >= k)) against[k - 1]++
  }
  for (const v1 of slips(w).slice(0, 4)) for (const v of slips(v1).slice(0, 4)) {
    if (best.has(v) || distance(v, w, 2) !== 2 || budget(v) < 2) continue
    two++
    const closer = near(v, 1).map(([t]) => tier(best.get(t)))
    if (!closer.length) continue
    nearer++
    for (let k = 1; k <= 3; k++) if (Math.min(...closer) - tier(best.get(w)) >= k) For[k - 1]++
  }
}
console.log(JSON.stringify({ words: words.length, oneEditSlips: one, overrideWrong: { '10x': against[0], '100x': against[1], '1000x': against[2] },
  twoEditSlips: two, withANearerTerm: nearer, overrideRight: { '10x': For[0], '100x': For[1], '1000x': For[2] } }))
