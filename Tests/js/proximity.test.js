import test from 'node:test'
import assert from 'node:assert/strict'
import { near, proximityFirst, side } from '../../Templates/assets/js/engine/rank.js'
import { englishStem } from '../../Templates/assets/js/engine/forms.js'

test('words side by side and in order, the last a prefix', () => {
  assert.ok(side(['the', 'dark', 'side', 'of', 'the', 'moon'], ['side', 'of']))
  assert.ok(side(['the', 'dark', 'side'], ['dark', 'si']))
  assert.ok(!side(['side', 'the', 'dark'], ['dark', 'side']))
  assert.ok(!side(['dark', 'and', 'side'], ['dark', 'side']))
})

test('with word forms, words side by side meet in any form', () => {
  assert.ok(!side(['mozilla', 'firefox', 'web', 'browser'], ['web', 'browsers']))
  assert.ok(side(['mozilla', 'firefox', 'web', 'browser'], ['web', 'browsers'], englishStem))
  assert.ok(side(['loved', 'songs'], ['love', 'song'], englishStem))
  assert.ok(side(['web', 'browser'], ['web', 'brow'], englishStem), 'the last word is still a prefix')
})

test('among equals, the record whose words stand together comes first; rule order holds', () => {
  const docs = [
    { id: 1, title: 'Love Me Do', subtitle: 'Song · Rock' },
    { id: 2, title: 'Rock Me Love', subtitle: 'Song · Pop' },
    { id: 3, title: 'Rock Love', subtitle: 'Song · Jazz' },
    { id: 4, title: 'Rock Love', subtitle: 'Song · Jazz' },
  ]
  // Documents 1–3 meet the same rules; 4 meets one more and must stay first.
  const sets = [new Int32Array([1, 2, 3, 4]), new Int32Array([4])]
  const ranked = [docs[3], docs[0], docs[1], docs[2]]
  const order = proximityFirst(ranked, ['rock', 'love'], sets).map((d) => d.id)
  assert.deepEqual(order, [4, 3, 1, 2])
})

test('one word: the page is left as ranked', () => {
  const docs = [{ id: 2, title: 'b' }, { id: 1, title: 'a' }]
  assert.equal(proximityFirst(docs, ['a'], []), docs)
})

test('the parts of a name stand side by side, and a word and a number are the word', () => {
  // python3-yaml is python3 and yaml, side by side: `python yaml` is near in it, as in a summary.
  const docs = [
    { id: 1, title: 'python3-pykwalify', subtitle: 'Python YAML/JSON schema validation' },
    { id: 2, title: 'python3-yaml', subtitle: 'YAML parser and emitter for Python3' },
    { id: 3, title: 'yaml-python', subtitle: '' },
  ]
  const sets = [new Int32Array([1, 2, 3])]
  assert.deepEqual(proximityFirst(docs, ['python', 'yaml'], sets).map((d) => d.id), [1, 2, 3])
  assert.deepEqual(proximityFirst([docs[2], docs[1]], ['python', 'yaml'], sets).map((d) => d.id), [2, 3])
  const same = near(englishStem)
  assert.equal(same('python3'), 'python')
  assert.equal(same('gtk4'), 'gtk')
  assert.equal(same('12'), '12', 'a number after digits is a number')
  assert.equal(same('browsers'), 'browser')
  assert.equal(near(null)('python3'), 'python', 'without word forms too')
})
