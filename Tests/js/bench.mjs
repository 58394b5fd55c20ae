// Keystroke timing: node Tests/js/bench.mjs [SITE_DIR]   (default: the engine's fixture; a site
// with a queries.json beside idx/ brings its own queries)
// Types each query one character at a time through suggest(), then runs final searches.
// "warm" keystrokes are those that fetched nothing: their time is the engine's own work.
// CPU time is shown beside wall time: on a busy machine wall time also counts waiting for a core.
import { performance } from 'node:perf_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open, fixtureSite } from './support/fixture.mjs';

const QUERIES = ['metallica', 'led zeppelin', 'love', 'iron maiden', 'beethoven', 'bossa nova', 'miles davis',
  'the', 'rock', 'jazz', 'sao paulo', 'ac/dc', 'u2', 'black sabbath', 'queen', 'pink floyd', 'nirvana',
  'smells like', 'symphony no', 'concerto', 'blues', 'night', 'heart', 'dream', 'fire', 'money', 'river'];

const site = process.argv[2] || fixtureSite();
const queries = existsSync(join(site, 'queries.json')) ? JSON.parse(readFileSync(join(site, 'queries.json'), 'utf8')) : QUERIES;
// A throwaway engine first, so the measured one runs compiled code, as a page does after a few keystrokes.
const trial = open(site).engine;
for (const q of queries) { await trial.suggest(q); await trial.search(q); }
const { engine, log } = open(site);
await engine.ready;

const warm = [], cold = [], repeat = [], finals = [];
const cpu = { warm: [], cold: [], repeat: [], finals: [] };
const timed = async (list, cpuList, f) => {
  const t = performance.now(), c = process.cpuUsage();
  await f();
  const u = process.cpuUsage(c);
  list.push(performance.now() - t);
  cpuList.push((u.user + u.system) / 1000);
};
for (const q of queries) {
  for (let i = 1; i <= q.length; i++) {
    const fetched = log.length, t = performance.now(), c = process.cpuUsage();
    await engine.suggest(q.slice(0, i));
    const u = process.cpuUsage(c), hit = log.length === fetched;
    (hit ? warm : cold).push(performance.now() - t);
    (hit ? cpu.warm : cpu.cold).push((u.user + u.system) / 1000);
  }
}
for (const q of queries) for (let i = 1; i <= q.length; i++) {
  await timed(repeat, cpu.repeat, () => engine.suggest(q.slice(0, i)));
}
for (const q of queries) { await engine.search(q); }
for (const q of queries) await timed(finals, cpu.finals, () => engine.search(q));

const stats = (name, xs, cs) => {
  const at = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))]?.toFixed(2);
  const mean = (list) => (list.reduce((a, b) => a + b, 0) / list.length).toFixed(3);
  console.log(`${name.padEnd(36)} n=${String(xs.length).padStart(4)}  wall: mean ${mean(xs)} median ${at(xs, 0.5)} p95 ${at(xs, 0.95)} max ${at(xs, 1)} ms | cpu: mean ${mean(cs)} p95 ${at(cs, 0.95)} max ${at(cs, 1)} ms`);
};
stats('keystroke, shards cached, new word', warm, cpu.warm);
stats('keystroke that fetched (from disk)', cold, cpu.cold);
stats('keystroke repeated (all cached)', repeat, cpu.repeat);
stats('final search, warm', finals, cpu.finals);
console.log(`files fetched: ${log.length}`);
