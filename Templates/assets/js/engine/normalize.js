// Search normalisation, identical to the Swift index builder's (FORMAT.md "Normalisation")
// Tests/Shared/normalization-cases.json holds both sides to it.
const FOLD = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ς: 'σ', ة: 'ه', ى: 'ي', ی: 'ي', ک: 'ك', ـ: '' }
const CHUNK = /[^\p{White_Space}]+/gu
// Letters, digits, and vowel signs that take their own space (Mc: the ा of भारत) or are kept (Thai…).
const TERM = /[\p{L}\p{N}\p{Mc}\p{Mn}]+/gu
// A decimal digit of any script is its ASCII digit (٢٦ → 26, २०११ → 2011): digits come in tens, 0 to 9.
const digit = (c) => { let n = c.codePointAt(0), k = 0; while (/\p{Nd}/u.test(String.fromCodePoint(n - k - 1))) k++; return k % 10 }

// Terms keep apostrophes as separators (`keep`), so L'Arc is found by `l arc`, `arc` and `larc`.
// Combining marks go, but Thai, Lao, Myanmar and Khmer ones (their vowels and tones: กุ้ง is not กง).
// Folded: final sigma (JS lower-cases a word-final Σ to ς), Arabic and Persian letters people type
// one for the other (ة ه, ى ی ي, ک ك, tatweel), hiragana as katakana (らーめん finds ラーメン).
export const normalize = (text, keep = false) => String(text).normalize('NFKD').replace(/[^\P{Mn}\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF]/gu, '').toLowerCase()
  .replace(/[ßæœøđðłþıςةىیکـ]/g, (c) => FOLD[c]).replace(/['’ʼ]/g, keep ? "'" : '')
  .replace(/[\u3041-\u309e]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 96)).replace(/[^\P{Nd}0-9]/gu, digit)

// A lone `&` is the word `and`, so `page and plant` finds Page & Plant.
const chunks = (s) => (s.match(CHUNK) || []).map((c) => c.match(TERM) || (/^&+$/.test(c) ? ['and'] : []))

// AC/DC is indexed as ac, dc and acdc, so that ac/dc, acdc and "ac dc" all find it; a chunk
// of three runs or more also as each tail run together (python3-zope.interface: zopeinterface).
// Duplicates stay, as in the Swift TextNormalizer.terms.
const tails = (ts) => ts.slice(1, -1).map((_, i) => ts.slice(i + 1).join(''))
export const terms = (text) => chunks(normalize(text, true))
  .flatMap((ts) => [...(ts.length > 1 ? [...ts, ts.join(''), ...tails(ts)] : ts), ...ts.flatMap(pieces)])

// Han, Hiragana, Katakana and Hangul (after NFKD: conjoining jamo): the Swift TextNormalizer.isCJK ranges.
const CJK = /[\u1100-\u11FF\u3040-\u30FF\u3130-\u318F\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\u{20000}-\u{3134F}]+/gu
const SPOTS = /[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u1100-\u11FF\u3040-\u30FF\u3130-\u318F\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\u{20000}-\u{3134F}]+/gu

// A Hangul syllable, which NFKD writes as its jamo (leading consonants, vowels, trailing ones), is
// one character, as its reader sees it: pairs of jamo would find scattered letters (독일의 is 독일
// and the particle 의, not ㄷㅗ, ㅗㄱ…). The Swift TextNormalizer.characters.
const chars = (s) => s.match(/[\u1100-\u115F]+[\u1160-\u11A7]*[\u11A8-\u11FF]*|[^]/gu) || []

// A CJK stretch of two characters or more is also indexed by each pair of neighbours and its last
// character (東京都 → 東京, 京都, 都), so any character or pair starts a term: 京 finds 東京.
export function cjkPieces(run) {
  const out = []
  for (const [stretch] of run.matchAll(CJK)) {
    const cs = chars(stretch)
    if (cs.length < 2) continue
    for (let i = 0; i + 1 < cs.length; i++) out.push(cs[i] + cs[i + 1])
    out.push(cs[cs.length - 1])
  }
  return out
}

// Thai, Lao, Myanmar and Khmer: no spaces between words, and no dictionary here (ICU's holds
// เชียงใหม่ and กรุงเทพมหานคร whole). A stretch is also indexed from each letter that can start a
// syllable (not a following vowel ะ า ๅ, ฯ, ๆ, nor a letter after a leading vowel เ–ไ) but its last
// letter, up to 20 characters, so ใหม่ finds เชียงใหม่ by prefix. The Swift forEachSpacelessPiece.
const SPACELESS = /[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF]+/g
const START = /(?<![เ-ไເ-ໄ])[^\P{L}ะาฯๅๆະາຯໆ]/gu
const starts = (run) => [...run.matchAll(SPACELESS)].flatMap((m) => [...m[0].replace(/\P{L}*\p{L}\P{L}*$/u, '').matchAll(START)]
  .map((s) => [m.index + s.index, m.index + m[0].length]).filter(([at]) => at > 0))
export const pieces = (run) => [...cjkPieces(run), ...starts(run).map(([at, end]) => run.slice(at, Math.min(at + 20, end)))]

// A query word that is all CJK and longer than a pair is searched as its pairs, every one required
// (東京タワー → 東京, 京タ, タワ, ワー), as the index holds them; a pair or a character is a word.
const cjkOnly = (w) => chars(w).length > 2 && w.replace(CJK, '') === ''
const pairs = (w) => { const cs = chars(w); return cs.slice(0, -1).map((c, i) => c + cs[i + 1]) }

export const queryChunks = (text) => chunks(normalize(text, true)).filter((ts) => ts.length)
  .flatMap((ts) => (ts.length === 1 && cjkOnly(ts[0]) ? pairs(ts[0]).map((p) => [p]) : [ts]))
// Every keystroke asks again of the same titles and words: a pure function of a string keeps its
// answers (up to 2,000; never to be changed by a caller), so a keystroke makes little garbage
// and the collector seldom stops one.
export const remember = (f, m = new Map()) => (x) => m.get(x) ?? (m.size > 2e3 && m.clear(), m.set(x, f(x)).get(x))
export const queryWords = remember((text) => queryChunks(text).map((ts) => ts.join('')))
const lettersOf = remember((title) => normalize(title).replace(/[^\p{L}\p{N}\p{Mc}\p{Mn}]/gu, ''))

// A title's terms as the index makes them (`terms`), each with where its units stand in the
// title: normalising code point by code point remembers where each normalised unit came from (é
// becomes two units under NFKD). Once per title.
const spotsOf = remember((title) => {
  let s = ''
  const from = [], to = [], spots = []
  for (let i = 0; i < title.length;) {
    const ch = String.fromCodePoint(title.codePointAt(i))
    const n = ch < '\x80' ? ch.toLowerCase() : normalize(ch, true)
    for (let k = 0; k < n.length; k++) { s += n[k]; from.push(i); to.push(i + ch.length) }
    i += ch.length
  }
  // A term's place: where it starts (its units run on from there), or each unit's (a chunk run together).
  for (const chunk of s.matchAll(CHUNK)) {
    const parts = [...chunk[0].matchAll(TERM)]
    for (const m of parts) {
      const at = chunk.index + m.index
      spots.push([m[0], at])
      // A CJK pair or character inside a run starts wherever it stands (cjkPieces), and so, to
      // mark it, does a Thai, Lao, Myanmar or Khmer word (pieces: the index has the syllable starts).
      for (const c of m[0].matchAll(SPOTS)) {
        for (let k = c.index; k < c.index + c[0].length; k++) {
          if (/[\uDC00-\uDFFF]/.test(m[0][k])) continue
          spots.push([m[0].slice(k, c.index + c[0].length), at + k])
        }
      }
    }
    // The chunk run together, and each of its tails (`terms`).
    for (let t = 0; t < parts.length - 1; t++) {
      const tail = parts.slice(t)
      spots.push([tail.map((m) => m[0]).join(''), tail.flatMap((m) => Array.from({ length: m[0].length }, (_, k) => chunk.index + m.index + k))])
    }
  }
  return [from, to, spots]
})

// [start, end) UTF-16 ranges of the original title where a term starts with a word.
export function highlightRanges(title, words) {
  const ranges = []
  if (!words.some((w) => w && lettersOf(title).includes(w))) return ranges // most results match elsewhere
  const [from, to, spots] = spotsOf(title)
  for (const [term, p] of spots) {
    for (const w of words) {
      if (!w || !term.startsWith(w)) continue
      let end = to[p[w.length - 1] ?? p + w.length - 1]
      while (/\p{M}/u.test(title[end] || '')) end++ // a decomposed é keeps its accent inside the mark
      ranges.push([from[p[0] ?? p], end])
    }
  }
  ranges.sort((a, b) => a[0] - b[0])
  const out = []
  for (const r of ranges) {
    const last = out[out.length - 1]
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1])
    else out.push(r)
  }
  return out
}
