// Word forms (FORMAT.md "Word forms"): English plurals and -ed/-ing endings meet at one stem,
// Snowball English (Porter2) steps 1a–1c, the same as the Swift index builder's WordForms.
// Tests/Shared/word-forms-cases.json holds both sides to it. Another language Snowball covers is
// stemmed by the index builder alone; the engine meets its forms through snowball.js, fetched only
// by such a site, which sets the manifest's `options.stem`. A language without rules has none.
const V = /[aeiouy]/
// Porter2's R1 is empty: no non-vowel follows a vowel before the word's end.
const noR1 = (w) => !/[aeiouy][^aeiouy]./.test(w)
// A short syllable ends the word: non-vowel, vowel, non-vowel other than w, x, y; or a
// two-letter word of vowel, non-vowel.
const short = (w) => (w.length === 2 ? /^[aeiouy][^aeiouy]$/ : /[^aeiouy][aeiouy][^aeiouywx]$/).test(w)

export function englishStem(w) {
  if (w.length < 4 || /[^a-z]/.test(w)) return w
  // Step 1a: plurals.
  if (/sses$/.test(w)) w = w.slice(0, -2)
  else if (/ie[ds]$/.test(w)) w = w.slice(0, w.length > 4 ? -2 : -1)
  else if (!/(us|ss)$/.test(w) && /s$/.test(w) && V.test(w.slice(0, -2))) w = w.slice(0, -1)
  // Step 1b: -eed, -ed, -ing.
  let m = /eed(ly)?$/.exec(w)
  if (m) {
    if (!noR1(w.slice(0, m.index + 1))) w = w.slice(0, m.index) + 'ee'
  } else if ((m = /(ed|edly|ing|ingly)$/.exec(w)) && V.test(w.slice(0, m.index))) {
    w = w.slice(0, m.index)
    if (/(at|bl|iz)$/.test(w)) w += 'e'
    else if (/(bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(w)) w = w.slice(0, -1)
    else if (noR1(w) && short(w)) w += 'e'
  }
  // Step 1c: a final y after a non-vowel is i (country, countries → countri).
  return w.length > 2 ? w.replace(/([^aeiouy])y$/, '$1i') : w
}

// The stem function for a manifest's `options`, or none.
export const stemmer = (options) => (options?.forms === 'en' ? englishStem : options?.stem)
