// Word forms (FORMAT.md "Word forms"): English plurals and -ed/-ing endings meet at one stem,
// Snowball English (Porter2) steps 1a–1c, the same as the Swift index builder's WordForms.
// Tests/Shared/word-forms-cases.json holds both sides to it. A language without rules has none.
const VOWEL = /[aeiouy]/
const DOUBLE = /(bb|dd|ff|gg|mm|nn|pp|rr|tt)$/

// Porter2's R1: what follows the first non-vowel after a vowel.
function r1(w) {
  for (let i = 1; i < w.length; i++) if (!VOWEL.test(w[i]) && VOWEL.test(w[i - 1])) return i + 1
  return w.length
}

// A short syllable ends the word: non-vowel, vowel, non-vowel other than w, x, y; or a
// two-letter word of vowel, non-vowel.
function shortSyllable(w) {
  const n = w.length
  if (n === 2) return VOWEL.test(w[0]) && !VOWEL.test(w[1])
  return n > 2 && !VOWEL.test(w[n - 3]) && VOWEL.test(w[n - 2]) && !/[aeiouywx]/.test(w[n - 1])
}

export function englishStem(word) {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word
  let w = word
  // Step 1a: plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2)
  else if (w.endsWith('ied') || w.endsWith('ies')) w = w.length > 4 ? w.slice(0, -2) : w.slice(0, -1)
  else if (w.endsWith('us') || w.endsWith('ss')) { /* kept */ }
  else if (w.endsWith('s') && VOWEL.test(w.slice(0, -2))) w = w.slice(0, -1)
  // Step 1b: -eed, -ed, -ing.
  const eed = ['eedly', 'eed'].find((e) => w.endsWith(e))
  if (eed) {
    if (w.length - eed.length >= r1(w)) w = w.slice(0, -eed.length) + 'ee'
  } else {
    const end = ['ingly', 'edly', 'ing', 'ed'].find((e) => w.endsWith(e))
    if (end && VOWEL.test(w.slice(0, -end.length))) {
      w = w.slice(0, -end.length)
      if (/(at|bl|iz)$/.test(w)) w += 'e'
      else if (DOUBLE.test(w)) w = w.slice(0, -1)
      else if (r1(w) >= w.length && shortSyllable(w)) w += 'e'
    }
  }
  // Step 1c: a final y after a non-vowel is i (country, countries → countri).
  if (w.length > 2 && w.endsWith('y') && !VOWEL.test(w[w.length - 2])) w = w.slice(0, -1) + 'i'
  return w
}

// The stem function for a manifest's `options.forms`, or null.
export const stemmer = (forms) => (forms === 'en' ? englishStem : null)
