// Query completions as Apple shows them: the whole query the tap would search, with the part
// the person has not typed marked (bold), the typed words plain. The engine offers completions
// that keep the typed words (engine/complete.js); a correction shows as the completion too.
import { fold } from './dom.js'

/** [start, end) of `text` past its longest start in common with what was typed. */
export function untypedMarks(text, typed) {
  const t = fold(typed.trimStart()), f = fold(text)
  // Folding must keep the length for ranges to line up; otherwise compare lower case.
  const [a, b] = f.length === text.length ? [f, t] : [text.toLowerCase(), typed.trimStart().toLowerCase()]
  let n = 0
  while (n < a.length && n < b.length && a[n] === b[n]) n++
  return n < text.length ? [[n, text.length]] : []
}

export const completionOptions = (completions, typed) =>
  completions.map((text) => ({ type: 'completion', text, marks: untypedMarks(text, typed) }))
