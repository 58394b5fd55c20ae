import test from 'node:test';
import assert from 'node:assert/strict';
import { open } from './support/fixture.mjs';
import { createStore, saveRecents } from '../../Templates/assets/js/ui/store.js';
import { createRuns } from '../../Templates/assets/js/ui/runs.js';

// Issue 33: a completion is offered as the data spells it, never folded, and
// never twice; a recent search and a trending term that differ only in case
// or accents show once.

test('a completed word keeps the accents the records write it with', async () => {
  const { engine } = open();
  // "Antônio" is in Garota de Ipanema's subtitle, "Beyoncé" the title of one that holds "crazy".
  assert.deepEqual((await engine.suggest('garota ant')).completions, ['garota antônio']);
  assert.deepEqual((await engine.suggest('crazy bey')).completions, ['crazy beyoncé']);
  // The title's phrase and the completed term are one search: offered once.
  assert.deepEqual((await engine.suggest('beyo')).completions, ['beyoncé']);
});

test('recents differing only in case or accents are kept once', () => {
  const list = saveRecents('/', [{ text: 'metallica', tokens: [] }, { text: 'Metallica', tokens: [] }, { text: 'Beyonce', tokens: [] }, { text: 'beyoncé', tokens: [] }]);
  assert.deepEqual(list.map((r) => r.text), ['metallica', 'Beyonce']);
});

test('the empty field lists a trending term once when it is also a recent search', async () => {
  const engine = { ready: Promise.resolve({}), tokenSuggestions: () => [] };
  const store = createStore({
    text: '', tokens: [], scope: 'all', kind: 'top', view: 'suggest', editing: true, groups: [], options: [], active: -1,
    results: null, busy: false, error: null, pending: false,
    recents: [{ text: 'metallica', tokens: [] }], manifest: { trending: ['Metallica', 'Bossa Nova'] },
  });
  const runs = createRuns({ store, engine, idle: {}, address: () => {}, phrase: () => '' });
  await runs.suggest();
  const texts = store.get().options.map((o) => o.recent?.text ?? o.text);
  assert.deepEqual(texts, ['metallica', 'Bossa Nova']);
});
