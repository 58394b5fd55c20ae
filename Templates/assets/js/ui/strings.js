// The page's words come written into the script in the site's language: the
// generator replaces each text after a `t:` marker comment with the site's
// (ScriptStrings.swift; the keys are Templates/strings/en.yml's). What also
// needs the visitor's number is here.

let rules, numbers

/**
 * `forms` — a count's texts by CLDR plural category, every category of the
 * language written in (UIStrings.forms) — for `n`, with `{count}` written the
 * language's way. The page's language is read on first use, not on import.
 */
export const plural = (n, forms) => {
  const lang = document.documentElement.lang
  rules ??= new Intl.PluralRules(lang)
  // One formatter kept: `n.toLocaleString(lang)` makes a new one on every call (a keystroke's
  // announcement asks for one), and writes the same digits.
  numbers ??= new Intl.NumberFormat(lang)
  return forms[rules.select(n)].replace('{count}', numbers.format(n))
}

/** [before, node, after]: `text` with `node` where it says `{query}` (which every translation keeps). */
export const around = (text, node) => (text = text.split('{query}'), [text[0], node, text[1]])
