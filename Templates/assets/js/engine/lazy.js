// A module of engine/ fetched only when first needed (typo.js when a word finds nothing,
// optional.js when the words together find nothing, groups.js on a site with a distinct kind,
// snowball.js on a site in a language Snowball covers), so it stays out of the page's bundle: a
// specifier the bundler cannot read is not inlined (esbuild inlines a literal import()). It names
// the module from engine/ and from the bundle (js/app.js) alike, as both ship.
export const lazy = (name) => import((import.meta.url.includes('/engine/') ? './' : './engine/') + name + '.js')
