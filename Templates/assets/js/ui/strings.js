// The page's words come written into the script in the site's language: the
// generator replaces each text after a `/*t:key*/` marker with the site's
// (ScriptStrings.swift; the keys are Templates/strings/en.yml's). What also
// needs the visitor's number is here.

const lang = document.documentElement.lang

/** `forms` — a count's texts by CLDR plural category — for `n`, its `{count}` written the language's way. */
export const plural = (n, forms) => (forms[new Intl.PluralRules(lang).select(n)] ?? forms.other).replace('{count}', n.toLocaleString(lang))

/** [before, node, after]: `text` with `node` where it says `{query}`. */
export const around = (text, node) => {
  const [before, after = ''] = text.split('{query}')
  return [before, node, after]
}
