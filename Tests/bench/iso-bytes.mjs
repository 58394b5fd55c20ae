// First-query bytes (gzip -9) on the iso example sites (Data/iso): the search page, its
// stylesheet and script, the index files the engine fetches for one typed word, and
// engine/snowball.js where the manifest lists endings (FORMAT.md "Word forms").
//
//   node Tests/bench/iso-bytes.mjs FOLDER…   each FOLDER holding the sites as es/ de/ ru/ ja/ ar/
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'
import { open } from '../js/support/fixture.mjs'
const gz = (p) => gzipSync(readFileSync(p), { level: 9 }).length
const queries = { es: 'dinares', de: 'kronen', ru: 'франков', ja: 'ドイツ', ar: 'دولار' }
for (const sites of process.argv.slice(2)) {
  for (const [lang, q] of Object.entries(queries)) {
    const site = join(sites, lang)
    const html = readFileSync(join(site, 'index.html'), 'utf8')
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
    const page = gz(join(site, 'index.html')) + assets.reduce((n, a) => n + gz(join(site, a)), 0)
    const { engine, log } = open(site)
    await engine.suggest(q, { limit: 8 })
    const idx = log.filter((u) => !/manifest\./.test(u)).reduce((n, u) => n + gz(join(site, decodeURIComponent(new URL(u, 'https://example.test/sub/').pathname.slice(5)))), 0)
    const manifest = JSON.parse(readFileSync(join(site, 'idx', readdirSync(join(site, 'idx')).find((f) => /^manifest\./.test(f))), 'utf8'))
    const folder = join(site, 'assets', readdirSync(join(site, 'assets')).find((f) => existsSync(join(site, 'assets', f, 'js/engine/snowball.js'))) ?? 'x')
    const snow = manifest.options.endings ? gz(join(folder, 'js/engine/snowball.js')) : 0
    console.log(sites, lang, q, 'page', page, 'index', idx, 'snowball.js', snow, 'total', page + idx + snow, 'endings', manifest.options.endings?.length ?? 0)
  }
}
