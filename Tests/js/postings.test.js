import test from 'node:test';
import assert from 'node:assert/strict';
import { decode, union, intersect } from '../../Templates/assets/js/engine/postings.js';
import { distance, budget } from '../../Templates/assets/js/engine/typo.js';
import { Shard } from '../../Templates/assets/js/engine/postings.js';

const arr = (xs) => Int32Array.from(xs);

test('delta decoding: first value absolute, then differences', () => {
  assert.deepEqual([...decode([3, 1, 5, 2])], [3, 4, 9, 11]);
  assert.deepEqual([...decode([])], []);
  assert.deepEqual([...decode(undefined)], []);
});

test('union merges sorted lists without duplicates', () => {
  assert.deepEqual([...union([arr([1, 5, 9]), arr([2, 5, 10]), arr([])])], [1, 2, 5, 9, 10]);
  assert.deepEqual([...union([])], []);
});

test('intersect agrees with a naive intersection, including galloping over long lists', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let round = 0; round < 50; round++) {
    const lists = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
      const density = rand();
      return arr(Array.from({ length: 2000 }, (_, i) => i).filter(() => rand() < density));
    });
    const naive = lists[0].filter((x) => lists.every((l) => l.includes(x)));
    assert.deepEqual([...intersect(lists)], [...naive]);
  }
  const big = arr(Array.from({ length: 1_000_000 }, (_, i) => i * 2));
  assert.deepEqual([...intersect([big, arr([3, 4, 1_999_998, 2_000_000])])], [4, 1_999_998]);
});

test('Damerau–Levenshtein counts a transposition as one edit and stops past the budget', () => {
  assert.equal(distance('metalica', 'metallica', 2), 1);
  assert.equal(distance('beethovn', 'beethoven', 2), 1);
  assert.equal(distance('mteallica', 'metallica', 2), 1);
  assert.equal(distance('abcd', 'wxyz', 1), 2);
  assert.deepEqual(['mad', 'love', 'loverman', 'metallica'].map(budget), [0, 1, 2, 2]);
});

test('internal shard tops are [title matches, other matches], two delta lists', () => {
  const pair = new Shard({ prefix: 'm', terms: {}, tops: [[4, 5, 11], [2, 1]] });
  assert.deepEqual([...pair.tops[0]], [4, 9, 20]);
  assert.deepEqual([...pair.tops[1]], [2, 3]);
});

test('shard term lookup sorts keys, so numeric terms do not break prefix search', () => {
  const s = new Shard({ prefix: '1', terms: { 1999: [[1], []], 1: [[2], []], '1st': [[3], []], 19: [[4], []] } });
  assert.deepEqual(s.startingWith('19'), ['19', '1999']);
  assert.deepEqual(s.startingWith('1'), ['1', '19', '1999', '1st']);
});
