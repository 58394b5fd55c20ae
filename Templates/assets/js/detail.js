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

// A picture (`{{> art}}`) that fails is hidden, leaving its tile with the initial: here, since the
// site's CSP blocks an inline onerror. Captured, as `error` does not bubble; one that failed before
// this module ran is complete with no size.
const failed = (img) => img.setAttribute('data-state', 'failed')
document.addEventListener('error', (event) => {
  if (event.target instanceof HTMLImageElement && event.target.classList.contains('art-image')) failed(event.target)
}, true)
for (const img of document.querySelectorAll('img.art-image')) if (img.complete && !img.naturalWidth) failed(img)
