// Scores searches typed in the visitor's language (queries.json) on data nobody here prepared
// (make.py): for each dataset `generate init` writes a config beside the data, generate builds
// it, and each search's first result is compared with the title a person chose beforehand
// (top-1; top-3 also accepts a `top3` alternative in the first three). Prints a line per
// language and per kind of search, then every miss.
//
//   python3 Tests/relevance/languages/make.py          make the data (once; offline after pip/apt)
//   node Tests/relevance/languages/run.mjs [NAME…]     init, build and score (all, or the named)
//   --sites DIR  builds each site into DIR/NAME (kept) instead of a temporary folder
//   --check      exits 1 under the floors in queries.json (`floors`), as the test command runs it
import { readFileSync, existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import { open } from '../../js/support/fixture.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..', '..')
const data = process.env.LANGUAGES_DATA ?? join(here, 'data')
const args = process.argv.slice(2)
const sitesAt = args.indexOf('--sites')
const sites = sitesAt >= 0 ? args[sitesAt + 1] : null
const only = new Set(args.filter((a, i) => !a.startsWith('--') && (sitesAt < 0 || i !== sitesAt + 1)))
const { datasets, floors } = JSON.parse(readFileSync(join(here, 'queries.json'), 'utf8'))

function generator() {
  const candidates = [process.env.GENERATE, join(root, '.build/debug/generate'), join(root, '.build/release/generate')]
  const found = candidates.find((path) => path && existsSync(path))
  if (!found) throw new Error('no generate binary: run `swift build` first or set GENERATE')
  return found
}

const scratch = sites ?? mkdtempSync(join(tmpdir(), 'languages-'))
mkdirSync(scratch, { recursive: true })
const tally = (map, key) => map.get(key) ?? map.set(key, { top1: 0, top3: 0, n: 0 }).get(key)
const byLanguage = new Map()
const byKind = new Map()
const misses = []
const total = { top1: 0, top3: 0, n: 0 }
for (const set of datasets) {
  if (only.size && !only.has(set.name)) continue
  const folder = join(data, set.name)
  if (!existsSync(folder)) throw new Error(`${folder} is missing: run python3 Tests/relevance/languages/make.py`)
  const config = join(scratch, `${set.name}.yml`)
  const out = join(scratch, set.name)
  rmSync(out, { recursive: true, force: true })
  execFileSync(generator(), ['init', '--config', config, '--force', ...set.files.map((f) => join(folder, f))], { stdio: 'pipe' })
  execFileSync(generator(), ['--config', config, '--output', out, '--quiet'], { stdio: 'pipe' })
  const language = readFileSync(config, 'utf8').match(/^language: (.*)$/m)?.[1]
  if (language !== set.language) misses.push(`${set.name}: init chose the language ${language}`)
  const { engine } = open(out)
  for (const { q, expect, kind, top3 = [] } of set.queries) {
    const titles = (await engine.search(q, { tokens: [], limit: 10 })).docs.map((d) => d.title)
    const first = titles[0] === expect ? 1 : 0
    const three = first || titles.slice(0, 3).some((t) => t === expect || top3.includes(t)) ? 1 : 0
    for (const t of [tally(byLanguage, set.language), tally(byKind, kind), total]) {
      t.top1 += first; t.top3 += three; t.n++
    }
    if (!first) misses.push(`${set.name} ${kind}: "${q}" → ${titles.slice(0, 3).join(' | ') || 'nothing'} (wanted ${expect})`)
  }
}
if (!sites) rmSync(scratch, { recursive: true, force: true })

const row = (name, t) => `${name.padEnd(16)} ${`${t.top1}/${t.n}`.padEnd(8)} ${t.top3}/${t.n}`
console.log(`${'language'.padEnd(16)} ${'top-1'.padEnd(8)} top-3`)
for (const [name, t] of byLanguage) console.log(row(name, t))
console.log(`\n${'kind'.padEnd(16)} ${'top-1'.padEnd(8)} top-3`)
for (const [name, t] of [...byKind].sort((a, b) => b[1].n - a[1].n)) console.log(row(name, t))
console.log('')
for (const m of misses) console.log(`miss: ${m}`)
console.log(`\n${total.n} searches in ${byLanguage.size} languages: top-1 ${total.top1}/${total.n} · top-3 ${total.top3}/${total.n}`)
if (args.includes('--check')) {
  const under = Object.entries(floors ?? {}).filter(([key, floor]) => total[key] < floor)
  for (const [key, floor] of under) console.error(`languages: ${key} ${total[key]} is under its floor ${floor}`)
  if (under.length) process.exit(1)
  console.log('languages: every score at or above its floor')
}
