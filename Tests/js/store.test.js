import test from 'node:test';
import assert from 'node:assert/strict';
import { writeURL } from '../../Templates/assets/js/ui/store.js';

// ui/store.js writes the page's state to the address. Node has no location or
// history, so each test gives it a small stand-in that records what was written.
function browser(search = '') {
  const written = [];
  const location = { pathname: '/music/', search };
  const record = (kind) => (state, _title, url) => {
    written.push({ kind, url });
    location.search = url.slice(location.pathname.length);
    history.state = state;
  };
  const history = { state: null, pushState: record('push'), replaceState: record('replace') };
  Object.assign(globalThis, { location, history });
  return written;
}

const state = (patch) => ({ text: '', tokens: [], scope: 'all', kind: 'top', view: 'results', ...patch });

test('a final search gets its own entry with the query, tokens, scope and kind', () => {
  const written = browser();
  writeURL(state({ text: 'miles', tokens: [{ facet: 'genre', value: 'Jazz' }], scope: 'library', kind: 'albums' }), 'all', 'final');
  assert.deepEqual(written, [{ kind: 'push', url: '/music/?q=miles&token=genre%3AJazz&scope=library&kind=albums' }]);
});

test('the idle page is the bare path', () => {
  const written = browser('?q=miles');
  writeURL(state({ view: 'idle' }), 'all', 'final');
  assert.deepEqual(written, [{ kind: 'push', url: '/music/' }]);
});

// Safari before 17 has no URLSearchParams.size: reading it gives undefined, and
// the address must still carry the search.
test('the address updates where URLSearchParams has no size', () => {
  const size = Object.getOwnPropertyDescriptor(URLSearchParams.prototype, 'size');
  Object.defineProperty(URLSearchParams.prototype, 'size', { get: () => undefined, configurable: true });
  try {
    const written = browser();
    writeURL(state({ text: 'miles' }), 'all', 'final');
    assert.deepEqual(written, [{ kind: 'push', url: '/music/?q=miles' }]);
  } finally {
    if (size) Object.defineProperty(URLSearchParams.prototype, 'size', size);
    else delete URLSearchParams.prototype.size;
  }
});
