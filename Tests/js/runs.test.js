import test from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../Templates/assets/js/ui/store.js';
import { createRuns } from '../../Templates/assets/js/ui/runs.js';

// ui/runs.js against an engine whose answers land when the test says: the
// stale-result guard is what keeps a slow answer from replacing a newer one.
function slowEngine() {
  const calls = [];
  const engine = {
    ready: Promise.resolve({}),
    tokenSuggestions: () => [],
    suggest: (text) => new Promise((resolve) => calls.push({ text, answer: () => resolve({ completions: [], docs: [{ id: text.length, title: text }] }) })),
  };
  return { engine, calls };
}

const idle = { text: '', tokens: [], scope: 'all', kind: 'top', view: 'suggest', editing: true, groups: [], options: [], active: -1, results: null, busy: false, error: null, pending: false, recents: [] };
const tick = () => new Promise(setImmediate);
const shown = (store) => store.get().options.map((o) => o.doc.title);

test('a suggestion that lands after a newer one is dropped', async () => {
  const { engine, calls } = slowEngine();
  const store = createStore({ ...idle });
  const runs = createRuns({ store, engine, idle, address: () => {}, phrase: () => '' });
  store.set({ text: 'lo' });
  const first = runs.suggest();
  await tick();
  store.set({ text: 'lov' });
  const second = runs.suggest();
  await tick();
  assert.deepEqual(calls.map((c) => c.text), ['lo', 'lov']);
  calls[1].answer();
  await second;
  calls[0].answer();
  await first;
  assert.deepEqual(shown(store), ['lov']);
  assert.equal(store.get().suggested, 'lov');
});

test('drop forgets a run still waiting for its answer', async () => {
  const { engine, calls } = slowEngine();
  const store = createStore({ ...idle, text: 'lo' });
  const runs = createRuns({ store, engine, idle, address: () => {}, phrase: () => '' });
  const run = runs.suggest();
  await tick();
  runs.drop();
  calls[0].answer();
  await run;
  assert.deepEqual(store.get().options, [], 'Cancel came first: its idle state stays');
});
