// Serves an index folder to the engine through an instrumented fetchJSON, so tests can count
// exactly which files a query made the browser download.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../../Templates/assets/js/engine/engine.js';

export const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'site');
const ORIGIN = 'https://example.test/sub/';

/** The manifest path under `site/idx/`: the search page names it; tests find it by its stem. */
export function manifestName(site) {
  const idx = join(site, 'idx');
  if (!existsSync(idx)) return null;
  return readdirSync(idx).find((f) => /^manifest\.[0-9a-f]{10}\.json$/.test(f)) || null;
}

/** An engine on `site` served at https://example.test/sub/, and the URLs it fetched (log). */
export function open(site = FIXTURE, { edit } = {}) {
  const log = [];
  const fetchJSON = async (url) => {
    log.push(url.slice(ORIGIN.length));
    const path = decodeURIComponent(new URL(url).pathname.slice(new URL(ORIGIN).pathname.length));
    const value = JSON.parse(readFileSync(join(site, path), 'utf8'));
    return edit ? edit(path, value) : value;
  };
  const engine = createEngine({ manifestURL: `${ORIGIN}idx/${manifestName(site)}`, fetchJSON });
  return { engine, log, fetchJSON };
}
