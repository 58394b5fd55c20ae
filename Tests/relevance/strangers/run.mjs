// Scores `generate init` on the strangers' datasets (make.py): for each, init writes a config
// beside the data, generate builds it, and the picks and five searches are compared with what a
// person chose beforehand (expectations.json):
//   title      the first collection's title is the expected column, or reads exactly the expected
//              columns (a list: a person's first and last names) (1 or 0)
//   popularity the expected column is in the popularity expression; where the data has none
//              (null), no popularity or the documented weak signal (how complete a record is:
//              `count(a) * 7 + count(b) * 4`, the fields it has filled) is right
//   facets     |expected ∩ chosen| / |expected ∪ chosen| over the columns the facets read (a field
//              inside an object by its whole path where the expectation names it: `group.number`)
//   language   the config's `language:` (1 or 0)
//   top-1      queries whose first result has the expected title (of 5)
//
//   python3 Tests/relevance/strangers/make.py        make the data (once; offline after pip/apt)
//   node Tests/relevance/strangers/run.mjs [NAME…]   init, build and score (all, or the named)
//   --keep  leaves the built sites in the temporary folder it prints
//   --check exits 1 under the floors in expectations.json (`floors`), as the test command runs it
//   --sites DIR builds each site into DIR/NAME (kept) and lists a sample of their pages in
//               DIR/sample.txt — the search and 404 pages, the A–Z index and its first letter,
//               the first three record pages of each collection — for the Nu checker
import { readFileSync, existsSync, mkdtempSync, mkdirSync, rmSync, readdirSync, writeFileSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import { open } from '../../js/support/fixture.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..', '..')
const data = process.env.STRANGERS_DATA ?? join(here, 'data')
const args = process.argv.slice(2)
const keep = args.includes('--keep')
const sitesAt = args.indexOf('--sites')
const sites = sitesAt >= 0 ? args[sitesAt + 1] : null
const only = new Set(args.filter((a, i) => !a.startsWith('--') && (sitesAt < 0 || i !== sitesAt + 1)))
const { datasets, floors } = JSON.parse(readFileSync(join(here, 'expectations.json'), 'utf8'))

function generator() {
  const candidates = [process.env.GENERATE, join(root, '.build/debug/generate'), join(root, '.build/release/generate')]
  const found = candidates.find((path) => path && existsSync(path))
  if (!found) throw new Error('no generate binary: run `swift build` first or set GENERATE')
  return found
}

/** The first collection's title, popularity and facet expressions, and the language, read off
 * the YAML init writes (its own layout: two-space keys under `  - id:`). */
function picks(config) {
  const lines = config.split('\n')
  const language = lines.find((l) => l.startsWith('language: '))?.slice(10).trim()
  const start = lines.findIndex((l) => l.startsWith('  - id: '))
  let end = lines.findIndex((l, i) => i > start && l.startsWith('  - id: '))
  if (end < 0) end = lines.length
  const body = lines.slice(start, end)
  const value = (key) => {
    const line = body.find((l) => l.startsWith(`    ${key}: `))
    return line ? line.slice(key.length + 6).replace(/^"(.*)"$/, '$1') : null
  }
  const facets = []
  const at = body.findIndex((l) => l === '    facets:')
  if (at >= 0) for (const l of body.slice(at + 1)) {
    if (!l.startsWith('      ')) break
    facets.push(l.slice(l.indexOf(':') + 1).trim().replace(/^"(.*)"$/, '$1'))
  }
  return { language, title: value('title'), popularity: value('popularity'), subtitle: value('subtitle'), facets }
}

const names = (expression) => new Set((expression ?? '').replace(/`/g, '').split(/[^\p{L}\p{M}\p{N}_]+/u).filter(Boolean))

const scratch = sites ?? mkdtempSync(join(tmpdir(), 'strangers-'))
if (sites) mkdirSync(sites, { recursive: true })
const sample = []
/** A few pages of each kind from a built site (see --sites). */
function samplePages(site) {
  const pages = ['index.html', '404.html', 'browse/index.html'].map((p) => join(site, p)).filter(existsSync)
  const folders = readdirSync(site, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
  for (const folder of folders) {
    if (['idx', 'assets', 'images'].includes(folder)) continue
    const inner = readdirSync(join(site, folder), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
    const found = inner.map((name) => join(site, folder, name, 'index.html')).filter(existsSync)
    pages.push(...found.slice(0, folder === 'browse' ? 1 : 3))
  }
  return pages
}
const rows = []
for (const set of datasets) {
  if (only.size && !only.has(set.name)) continue
  const folder = join(data, set.name)
  if (!existsSync(folder)) throw new Error(`${folder} is missing: run python3 Tests/relevance/strangers/make.py`)
  const config = join(scratch, `${set.name}.yml`)
  const files = set.files.map((f) => join(folder, f))
  const out = join(scratch, set.name)
  if (sites) rmSync(out, { recursive: true, force: true })
  try {
    execFileSync(generator(), ['init', '--config', config, '--force', ...files], { stdio: 'pipe' })
    execFileSync(generator(), ['--config', config, '--output', out, '--quiet'], { stdio: 'pipe' })
  } catch (error) {
    const got = { title: null, popularity: null, facets: [], language: null }
    const why = String(error.stderr ?? error.message).trim().split('\n')[0]
    rows.push({ name: set.name, title: 0, popularity: 0, facets: 0, language: 0, top1: 0, got, misses: [`failed: ${why}`] })
    continue
  }
  const text = readFileSync(config, 'utf8')
  const got = picks(text)
  // A column name of several words is quoted in backticks (`Organization Name`).
  const bare = (got.title ?? '').replace(/^`(.*)`$/, '$1')
  // A field inside an object is reached by its path (GeoJSON's `properties.name`).
  // A title of two columns (a person's first and last names) is expected as both: the
  // expression must read exactly those.
  const title = Array.isArray(set.title)
    ? (names(got.title).size === set.title.length && set.title.every((c) => names(got.title).has(c)) ? 1 : 0)
    : bare === set.title || bare.endsWith(`.${set.title}`) || (names(got.title).has(set.title) && names(got.title).size === 1) ? 1 : 0
  const popularity = set.popularity === null
    ? (got.popularity === null || /^count\([^()]+\)( \* \d+)?( \+ count\([^()]+\)( \* \d+)?)*$/.test(got.popularity) ? 1 : 0)
    : (names(got.popularity).has(set.popularity) || (got.popularity ?? '').replace(/^`(.*)`$/, '$1') === set.popularity ? 1 : 0)
  // A facet reads a column, or a field inside an object by its path (`series.name`), which an
  // expectation may name whole.
  const path = (f) => f.replace(/`/g, '').replace(/^(?:\w+\()+/, '').replace(/[),].*$/, '')
  const chosen = new Set(got.facets.flatMap((f) => [...names(f), path(f)]))
  const expected = new Set(set.facets)
  const columns = new Set(got.facets.map((f) => expected.has(path(f))
    ? path(f) : [...names(f)].filter((n) => !['distinct', 'label'].includes(n)).pop()))
  const union = new Set([...expected, ...columns])
  const facets = union.size === 0 ? 1 : [...expected].filter((c) => chosen.has(c)).length / union.size
  const language = got.language === set.language ? 1 : 0
  const { engine } = open(out)
  let top1 = 0
  const misses = []
  for (const { q, expect } of set.queries) {
    const docs = (await engine.search(q, { tokens: [], limit: 10 })).docs
    if (docs[0]?.title === expect) top1++
    else misses.push(`"${q}" → ${docs.slice(0, 2).map((d) => d.title).join(' | ') || 'nothing'} (wanted ${expect})`)
  }
  rows.push({ name: set.name, title, popularity, facets, language, top1, got, misses })
  if (sites) sample.push(...samplePages(out))
}
if (sites) writeFileSync(join(sites, 'sample.txt'), sample.join('\n') + '\n')

const pad = (s, n) => String(s).padEnd(n)
console.log(`${pad('dataset', 14)} title  pop  facets  lang  top-1  picks (title · popularity · facets · language)`)
const total = { title: 0, popularity: 0, facets: 0, language: 0, top1: 0, queries: 0 }
for (const r of rows) {
  const facets = r.got.facets.length ? r.got.facets.join(', ') : '—'
  console.log(`${pad(r.name, 14)} ${pad(r.title, 6)} ${pad(r.popularity, 4)} ${pad(r.facets.toFixed(2), 7)} ${pad(r.language, 5)} ${pad(`${r.top1}/5`, 6)} ${r.got.title} · ${r.got.popularity ?? '—'} · ${facets} · ${r.got.language}`)
  for (const m of r.misses) console.log(`${' '.repeat(16)}miss: ${m}`)
  total.title += r.title; total.popularity += r.popularity; total.facets += r.facets
  total.language += r.language; total.top1 += r.top1; total.queries += 5
}
const n = rows.length
console.log(`\n${n} datasets: title ${total.title}/${n} · popularity ${total.popularity}/${n} · facets ${total.facets.toFixed(1)}/${n} · language ${total.language}/${n} · top-1 ${total.top1}/${total.queries}`)
if (!keep && !sites) rmSync(scratch, { recursive: true, force: true })
else console.log(`sites and configs in ${scratch}`)
if (args.includes('--check')) {
  const got = { title: total.title, popularity: total.popularity, facets: total.facets, language: total.language, top1: total.top1 }
  const under = Object.entries(floors ?? {}).filter(([key, floor]) => got[key] < floor)
  for (const [key, floor] of under) console.error(`strangers: ${key} ${got[key]} is under its floor ${floor}`)
  if (under.length) process.exit(1)
  console.log('strangers: every score at or above its floor')
}
