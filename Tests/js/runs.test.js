import test from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../Templates/assets/js/ui/store.js';
import { createRuns } from '../../Templates/assets/js/ui/runs.js';
import { open } from './support/fixture.mjs';

// ui/runs.js against an engine whose answers land when the test says: the
// stale-result guard is what keeps a slow answer from replacing a newer one.
function slowEngine() {
  const calls = [];
  const engine = {
    ready: Promise.resolve({}),
    tokenSuggestions: () => [],
    suggest: (text) => new Promise((resolve) => calls.push({ text, answer: () => resolve({ completions: [], docs: [{ id: text.length, title: text }], corrected: [], dropped: [] }) })),
  };
  return { engine, calls };
}

const idle = { text: '', tokens: [], scope: 'all', kind: 'top', view: 'suggest', editing: true, groups: [], options: [], active: -1, results: null, busy: false, error: null, pending: false, recents: [] };
const tick = () => new Promise(setImmediate);
const later = () => new Promise((resolve) => setTimeout(resolve, 0));
const panel = { now: () => null, soon: () => {} };
const shown = (store) => store.get().options.map((o) => o.doc.title);

test('a suggestion that lands after a newer one is dropped', async () => {
  const { engine, calls } = slowEngine();
  const store = createStore({ ...idle });
  const runs = createRuns({ store, engine, panel, idle, address: () => {}, phrase: () => '' });
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
  const runs = createRuns({ store, engine, panel, idle, address: () => {}, phrase: () => '' });
  const run = runs.suggest();
  await tick();
  runs.drop();
  calls[0].answer();
  await run;
  assert.deepEqual(store.get().options, [], 'Cancel came first: its idle state stays');
});

// The final search's module (ui/panel.js) is fetched in the background; a typo's suggestions are a
// guess that Enter confirms, so after one it is asked for at once, and an Enter pressed straight
// after typing `metalica` does not wait for it. Other words leave it for a moment of reading.
test('suggestions that correct a typo fetch the final search at once, others only after a moment', async () => {
  const { engine } = open();
  for (const [text, corrected] of [['metalica', true], ['metallica', false], ['love', false]]) {
    const asked = [];
    const store = createStore({ ...idle, text });
    const runs = createRuns({ store, engine, panel: { now: () => null, soon: () => asked.push(text) }, idle, address: () => {}, phrase: () => '' });
    await runs.suggest();
    assert.ok(store.get().options.some((o) => o.type === 'doc'), text);
    await later();
    assert.deepEqual(asked, corrected ? [text] : [], text);
    runs.drop();
  }
});
