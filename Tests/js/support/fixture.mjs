// The engine's test fixture, built by the real generator (Tests/js/fixtures/music/site.yml),
// served to the engine through an instrumented fetchJSON, so tests can count exactly which
// files a query made the browser download.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../../Templates/assets/js/engine/engine.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CONFIG = join(REPO, 'Tests', 'js', 'fixtures', 'music', 'site.yml');
const ORIGIN = 'https://example.test/sub/';

/** The generator: $GENERATE, else the newest of this repository's debug and release builds. */
function generator() {
  if (process.env.GENERATE) return process.env.GENERATE;
  const built = ['debug', 'release'].map((c) => join(REPO, '.build', c, 'generate')).filter((p) => existsSync(p));
  if (!built.length) throw new Error('no generator binary: run `swift build` first, or set GENERATE');
  return built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

let built = null;
/** The fixture site: $FIXTURE_SITE, else built once per test process into a temporary folder. */
export function fixtureSite() {
  if (process.env.FIXTURE_SITE) return process.env.FIXTURE_SITE;
  if (!built) {
    const folder = mkdtempSync(join(tmpdir(), 'engine-fixture-'));
    process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
    built = join(folder, 'site');
    execFileSync(generator(), ['--config', CONFIG, '--output', built], { stdio: 'pipe' });
  }
  return built;
}

/** The manifest path under `site/idx/`: the search page names it; tests find it by its stem. */
export function manifestName(site) {
  const idx = join(site, 'idx');
  if (!existsSync(idx)) return null;
  return readdirSync(idx).find((f) => /^manifest\.[0-9a-f]{10}\.json$/.test(f)) || null;
}

/**
 * A fetched file's readable name: `idx/manifest`, `idx/t/<prefix>` for a term shard, `idx/f/<name>` for a filter file,
 * `idx/d/<n>` for a document shard, else its path without the content hash.
 */
export function fileName(site, url) {
  if (/^idx\/t\/s[^/.]*\.[0-9a-f]+\.json$/.test(url)) return `idx/t/${JSON.parse(readFileSync(join(site, url), 'utf8')).prefix}`;
  // Every other file is its name less its content hash (`idx/d/f3.1a2b3c4d.json` → `idx/d/f3`).
  return url.replace(/\.[0-9a-f]{6,10}\.json$/, '');
}

/** An engine on `site` served at https://example.test/sub/, and the URLs it fetched (log). */
export function open(site = fixtureSite(), { edit } = {}) {
  const log = [];
  const fetchJSON = async (url) => {
    log.push(url.slice(ORIGIN.length));
    const path = decodeURIComponent(new URL(url).pathname.slice(new URL(ORIGIN).pathname.length));
    const value = JSON.parse(readFileSync(join(site, path), 'utf8'));
    return edit ? edit(path, value) : value;
  };
  const engine = createEngine({ manifestURL: `${ORIGIN}idx/${manifestName(site)}`, fetchJSON });
  return { engine, log, fetchJSON, names: () => log.map((u) => fileName(site, u)) };
}

/** A site built by the real generator from `config` (a path under the repository) into a temporary folder. */
export function buildSite(config) {
  const folder = mkdtempSync(join(tmpdir(), 'engine-site-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  const site = join(folder, 'site');
  execFileSync(generator(), ['--config', join(REPO, config), '--output', site, '--quiet'], { stdio: 'pipe' });
  return site;
}
