import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { normalize, terms, queryWords, highlightRanges } from '../../Templates/assets/js/engine/normalize.js';

const cases = JSON.parse(readFileSync(new URL('../Shared/normalization-cases.json', import.meta.url), 'utf8'));

test('shared normalisation cases give the same terms as the Swift index builder must', () => {
  assert.ok(cases.length >= 30);
  for (const { input, terms: expected } of cases) assert.deepEqual(terms(input), expected, JSON.stringify(input));
});

test('normalize folds case, diacritics, compatibility forms and in-word apostrophes', () => {
  assert.equal(normalize('São'), 'sao');
  assert.equal(normalize('Beyoncé'), normalize('BEYONCE'));
  assert.equal(normalize('ＡＣ／ＤＣ'), 'ac/dc');
  assert.equal(normalize('Straße'), 'strasse');
  assert.equal(normalize('Ørsted'), 'orsted');
  assert.equal(normalize('ﬁne'), 'fine');
  assert.equal(normalize("Don't"), 'dont');
  assert.equal(normalize("rock ’n’ roll"), 'rock n roll');
});

test('a query chunk with punctuation is searched as its concatenation', () => {
  assert.deepEqual(queryWords('AC/DC'), ['acdc']);
  assert.deepEqual(queryWords('ac dc'), ['ac', 'dc']);
  assert.deepEqual(queryWords('acdc'), ['acdc']);
  assert.deepEqual(queryWords('R.E.M.'), ['rem']);
  assert.deepEqual(queryWords("guns n' roses"), ['guns', 'n', 'roses']);
  assert.deepEqual(queryWords('São  Paulo '), ['sao', 'paulo']);
  assert.deepEqual(queryWords(' - / '), []);
});

test('highlight ranges point into the original title', () => {
  assert.deepEqual(highlightRanges('Beyoncé', ['beyon']), [[0, 5]]);
  assert.deepEqual(highlightRanges('Beyoncé', ['beyonce']), [[0, 7]]);
  assert.deepEqual(highlightRanges('Beyonce\u0301 Live', ['beyonce']), [[0, 8]], 'a combining accent stays with its letter');
  assert.deepEqual(highlightRanges('AC/DC', ['ac']), [[0, 2]]);
  assert.deepEqual(highlightRanges('AC/DC', ['acd']), [[0, 4]]);
  assert.deepEqual(highlightRanges('AC/DC', ['ac', 'dc']), [[0, 2], [3, 5]]);
  assert.deepEqual(highlightRanges('São Paulo Sessions', ['sao', 'se']), [[0, 3], [10, 12]]);
  // ß is one character that normalises to two: a prefix ending inside it marks all of it.
  assert.deepEqual(highlightRanges('Straße', ['stras']), [[0, 5]]);
  assert.deepEqual(highlightRanges("Don't Cry", ['dont']), [[0, 5]]);
  assert.deepEqual(highlightRanges('ﬁnal', ['fi']), [[0, 1]]);
  // 𝔐 and 𠀀 are two UTF-16 units each.
  assert.deepEqual(highlightRanges('𝔐etal', ['me']), [[0, 3]]);
  assert.deepEqual(highlightRanges('a 𠀀𠀀x', ['𠀀𠀀']), [[2, 6]]);
  assert.deepEqual(highlightRanges('Love Me Like You Do', ['lo']), [[0, 2]]);
  // Only word prefixes: "yon" is inside "Beyoncé".
  assert.deepEqual(highlightRanges('Beyoncé', ['yon']), []);
  assert.deepEqual(highlightRanges('Beyoncé', []), []);
});

test('every indexed term of a title is highlighted, and the marked text is that term', () => {
  for (const { input } of cases) {
    for (const t of terms(input)) {
      if (t === 'and' && !/and/i.test(input)) continue // the word a lone & stands for: nothing to mark
      const ranges = highlightRanges(input, [t]);
      assert.ok(ranges.length, `${t} in ${JSON.stringify(input)}`);
      // The marked text, folded to its letters, digits and vowel signs (queryWords would cut CJK into pairs).
      // A Hangul piece may cut a syllable (NFKD makes it jamo): its mark is the whole syllables.
      const marked = (a, b) => normalize(input.slice(a, b)).replace(/[^\p{L}\p{N}\p{Mc}\p{Mn}]/gu, '');
      for (const [a, b] of ranges) {
        if (/[\u1100-\u11FF]/.test(t)) assert.ok(marked(a, b).includes(t), `${t} in ${JSON.stringify(input)}`);
        else assert.equal(marked(a, b), t, `${t} in ${JSON.stringify(input)}`);
      }
    }
  }
});

test('apostrophes and & split words the way people type them', () => {
  assert.deepEqual(terms("L'Arc En Ciel"), ['l', 'arc', 'larc', 'en', 'ciel'])
  assert.deepEqual(queryWords("l'arc en ciel"), ['larc', 'en', 'ciel'])
  assert.deepEqual(queryWords('page & plant'), ['page', 'and', 'plant'])
  assert.deepEqual(highlightRanges("L'Arc En Ciel", ['l', 'arc']), [[0, 1], [2, 5]])
})

test('CJK text is indexed by pairs and last characters, and a longer CJK query word by its pairs', () => {
  assert.deepEqual(terms('東京'), ['東京', '東京', '京']);
  assert.deepEqual(queryWords('東京タワー'), ['東京', '京タ', 'タワ', 'ワー']);
  assert.deepEqual(queryWords('京'), ['京']);
  assert.deepEqual(queryWords('東京'), ['東京']);
  assert.deepEqual(highlightRanges('東京タワー', ['京']), [[1, 2]]);
});

test('letters a native speaker types one for the other normalise alike (the Swift test lettersTypedOneForTheOtherAreOne)', () => {
  const same = [['らーめん', 'ラーメン'], ['ﾗｰﾒﾝ', 'ラーメン'], ['القاهره', 'القاهرة'], ['مستشفي', 'مستشفى'], ['كتاب', 'كـتـاب'],
    ['ايران', 'ایران'], ['كرمان', 'کرمان'], ['26', '٢٦'], ['12', '۱۲'], ['2011', '२०११'], ['9', '๙'], ['οδος', 'ΟΔΟΣ'], ['κυπροσ', 'Κύπρος']];
  for (const [typed, written] of same) assert.equal(normalize(typed), normalize(written), `${typed} for ${written}`);
  assert.notEqual(normalize('भारत'), normalize('भरत'));
  assert.deepEqual(queryWords('भारत'), ['भारत'], 'a vowel sign is no separator');
});

test('a word inside a Thai name starts a term, keeps its vowels and tones, and is marked where it stands', () => {
  assert.ok(terms('เชียงใหม่').includes('ใหม่'));
  assert.ok(!terms('เชียงใหม่').some((t) => t.startsWith('ชีย')), 'a consonant after a leading vowel starts no piece');
  assert.deepEqual(queryWords('ใหม่'), ['ใหม่'], 'a query word is not cut');
  assert.notEqual(normalize('กุ้ง'), normalize('ฮ่องกง').slice(-2), 'Thai vowels and tones are kept');
  assert.deepEqual(highlightRanges('เชียงใหม่', ['ใหม']), [[5, 9]]);
  assert.deepEqual(highlightRanges('กรุงเทพมหานคร', ['เทพ']), [[4, 7]]);
});
