// Detail pages: the search field in the top bar. Without a script it is a
// plain GET form (Enter opens the search page with the query); suggestions
// while typing come with the field's first focus, so a page that is only
// read never loads the search code. A specifier the bundler cannot read
// keeps ui/lookup.js (a bundle of its own) out of this small file.
const field = document.getElementById('q')
const LOOKUP = './ui/lookup.js'
const start = () => import(new URL(LOOKUP, import.meta.url).href).then((module) => module.mountLookup(field))
if (field) {
  if (document.activeElement === field) start()
  else field.addEventListener('focus', start, { once: true })
}
