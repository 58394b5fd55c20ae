// Scores the search engine against the judged queries on real sites built by generate: top-1
// accuracy, top-3 recall and mean reciprocal rank, per group and overall, for each judged set —
// judged.json (the music and countries sites), judged-packages.json (Debian's package index,
// written before the ranking was tuned for it), judged-world.json (Data/world, a config written
// by `generate init` and left as it was) and judged-iso.json (Data/iso: names in Spanish, German,
// Russian, Japanese and Arabic, written before word forms beyond English were scored on them).
//
//   node Tests/relevance/score.mjs            build the four sites (with $GENERATE or the
//                                             repository's own .build), then print the tables
//   node Tests/relevance/score.mjs --check    the same, and exit 1 under a set's floors
//   node Tests/relevance/score.mjs --misses   also list every query whose first result is wrong
//
// MUSIC_SITE / COUNTRIES_SITE / PACKAGES_SITE / WORLD_SITE point at sites already built, ISO_SITES at a
// folder holding the iso sites as es/, de/, ru/, ja/, ar/ (the test command passes its own).
import { readFileSync, existsSync, mkdtempSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import { open } from '../js/support/fixture.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const sets = ['judged.json', 'judged-packages.json', 'judged-world.json', 'judged-iso.json'].map((file) => ({ file, ...JSON.parse(readFileSync(join(here, file), 'utf8')) }))
const args = new Set(process.argv.slice(2))

function generator() {
  const candidates = [process.env.GENERATE, join(root, '.build/release/generate'), join(root, '.build/debug/generate')]
  const found = candidates.find((path) => path && existsSync(path))
  if (!found) throw new Error('no generate binary: run `swift build` first or set GENERATE')
  return found
}

function site(variable, config) {
  if (process.env[variable]) return process.env[variable]
  const out = join(mkdtempSync(join(tmpdir(), 'judged-')), 'site')
  execFileSync(generator(), ['--config', join(root, config), '--output', out, '--quiet'], { stdio: 'inherit' })
  return out
}

const sites = {
  music: site('MUSIC_SITE', 'Data/site.yml'),
  countries: site('COUNTRIES_SITE', 'Data/gapminder/site.yml'),
  packages: site('PACKAGES_SITE', 'Data/debian/site.yml'),
  world: site('WORLD_SITE', 'Data/world/site.yml'),
}
for (const lang of ['es', 'de', 'ru', 'ja', 'ar']) {
  const config = `Data/iso/${lang}/site.yml`
  sites[`iso-${lang}`] = process.env.ISO_SITES ? join(process.env.ISO_SITES, lang) : site(`ISO_${lang.toUpperCase()}_SITE`, config)
}
const engines = Object.fromEntries(Object.entries(sites).map(([name, dir]) => [name, open(dir).engine]))

const matches = (doc, expected) => {
  const at = expected.indexOf(':')
  return at > 0 && !expected.startsWith('http') && /^[a-z]+$/.test(expected.slice(0, at))
    ? doc.kind === expected.slice(0, at) && doc.title === expected.slice(at + 1)
    : doc.title === expected
}

async function score(judged) {
  const groups = new Map()
  const misses = []
  for (const item of judged.queries) {
    const engine = engines[item.site]
    const options = { tokens: item.tokens ?? [], limit: 10 }
    const docs = item.mode === 'suggest' ? (await engine.suggest(item.q, options)).docs : (await engine.search(item.q, options)).docs
    const rank = docs.findIndex((d) => item.expect.some((e) => matches(d, e))) + 1
    const wanted = item.expect.slice(0, 3)
    const recall = wanted.filter((e) => docs.slice(0, 3).some((d) => matches(d, e))).length / wanted.length
    const score = { top1: rank === 1 ? 1 : 0, top3: recall, rr: rank ? 1 / rank : 0 }
    for (const name of [item.group, 'overall']) {
      const g = groups.get(name) ?? { n: 0, top1: 0, top3: 0, rr: 0 }
      g.n++; g.top1 += score.top1; g.top3 += score.top3; g.rr += score.rr
      groups.set(name, g)
    }
    if (rank !== 1) misses.push(`${item.group}: "${item.q}" → ${docs.slice(0, 3).map((d) => `${d.kind}:${d.title}`).join(' | ') || 'nothing'} (wanted ${item.expect[0]})`)
  }
  return { groups, misses }
}

const pct = (x, n) => (100 * x / n).toFixed(1).padStart(6)
let failed = false
for (const judged of sets) {
  const { groups, misses } = await score(judged)
  console.log(`\n${judged.file}\ngroup          queries  top-1 %  top-3 recall %   MRR`)
  for (const [name, g] of groups) {
    console.log(`${name.padEnd(14)} ${String(g.n).padStart(7)}  ${pct(g.top1, g.n)}   ${pct(g.top3, g.n)}        ${(g.rr / g.n).toFixed(3)}`)
  }
  if (args.has('--misses')) for (const line of misses) console.log('  miss ' + line)
  if (!args.has('--check')) continue
  const overall = groups.get('overall')
  const { top1, top3, mrr } = judged.floor
  const got = { top1: overall.top1 / overall.n, top3: overall.top3 / overall.n, mrr: overall.rr / overall.n }
  const under = Object.entries({ top1, top3, mrr }).filter(([k, floor]) => got[k] < floor)
  if (under.length) {
    console.error(`${judged.file} under its floor: ${under.map(([k, f]) => `${k} ${got[k].toFixed(3)} < ${f}`).join(', ')}`)
    failed = true
  } else console.log(`${judged.file} at or above its floor (top-1 ${top1}, top-3 ${top3}, MRR ${mrr})`)
}
if (failed) process.exit(1)
