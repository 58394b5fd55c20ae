// Word forms, held to the cases the Swift index builder is held to (Tests/Shared/word-forms-cases.json).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { englishStem, stemmer } from '../../Templates/assets/js/engine/forms.js';

const shared = JSON.parse(readFileSync(new URL('../Shared/word-forms-cases.json', import.meta.url), 'utf8'));

test('every shared case stems as the Swift side does', () => {
  for (const { word, stem } of shared.cases) assert.equal(englishStem(word), stem, word);
});

test('forms meet at one stem; a language without rules has none', () => {
  for (const group of [['love', 'loves', 'loved', 'loving'], ['country', 'countries'], ['remaster', 'remastered']]) {
    assert.equal(new Set(group.map(englishStem)).size, 1, group.join());
  }
  assert.equal(englishStem('1977'), '1977');
  assert.equal(stemmer({ forms: 'en' }), englishStem);
  assert.equal(stemmer(undefined), undefined);
  assert.equal(stemmer({ forms: 'pt' }), undefined);
});
