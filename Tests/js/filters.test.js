import test from 'node:test';
import assert from 'node:assert/strict';
import { filtersPhrase, widened } from '../../Templates/assets/js/ui/filters.js';

// The words ui/filters.js puts over results and into "No results", and what
// "search everything" leaves. Pure functions: no DOM needed.
const scopes = [{ id: 'all', label: 'Catalogue' }, { id: 'library', label: 'Library' }];
const jazz = { facet: 'genre', value: 'Jazz', label: 'Genre' };
const rock = { facet: 'genre', value: 'Rock', label: 'Genre' };
const state = (patch) => ({ text: '', tokens: [], scope: 'all', ...patch });

test('the phrase names a scope other than the first, then the tokens', () => {
  assert.equal(filtersPhrase(state({ text: 'miles' }), scopes), '');
  assert.equal(filtersPhrase(state({ scope: 'library' }), scopes), 'in Library');
  assert.equal(filtersPhrase(state({ tokens: [jazz] }), scopes), 'with Genre: Jazz');
  assert.equal(filtersPhrase(state({ scope: 'library', tokens: [jazz, rock] }), scopes),
    'in Library with Genre: Jazz or Rock', 'values of one facet are alternatives');
  assert.equal(filtersPhrase(state({ tokens: [jazz, { facet: 'mood', value: 'Calm', label: 'Mood' }, rock] }), scopes),
    'with Genre: Jazz or Rock and Mood: Calm');
});

test('widening drops the scope, and the tokens only when there is text to search', () => {
  assert.equal(widened(state({ text: 'miles' }), scopes), null, 'nothing to widen');
  assert.deepEqual(widened(state({ text: 'miles', scope: 'library', tokens: [jazz] }), scopes), { scope: 'all', tokens: [] });
  assert.deepEqual(widened(state({ text: 'miles', tokens: [jazz] }), scopes), { scope: 'all', tokens: [] });
  assert.deepEqual(widened(state({ scope: 'library', tokens: [jazz] }), scopes), { scope: 'all', tokens: [jazz] });
  assert.equal(widened(state({ tokens: [jazz] }), scopes), null, 'a token alone is the whole search');
});
