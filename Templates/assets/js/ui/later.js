// What the search page's first query never needs, fetched by app.js when results first show or a
// few seconds after the page has loaded: the hook that fetches the sort menu, and the offline
// worker's registration. Out of the page's bundle, so the first query does not carry either.

// ui/sort.js, the results' sort menu, comes when results first show a kind that has sort options
// (Top Results only has those every kind has), or the address names one.
const SORT = new URL('./sort.js', import.meta.url).href

export function mountLater({ store, runs, address }) {
  let sorting = false
  const sort = (s) => {
    const m = s.manifest, all = m?.kinds.length
    if (sorting || s.view !== 'results' || !(s.sort || m?.sorts?.some((o) => (s.kind === 'top' ? o.kinds.length === all : o.kinds.includes(s.kind))))) return
    sorting = true
    import(SORT).then((module) => module.mountSort({ store, runs, address }), () => { sorting = false })
  }
  store.subscribe(sort)
  sort(store.get())
}

// The offline worker (sw.js), when the site has one: its scope is the base. Registered a few
// seconds after the page has loaded, when idle (Workbox's advice, a step further), and never
// before: once it is active it is told what this visit fetched before it could see (sw.js keeps
// those).
export function register() {
  const worker = document.querySelector('meta[name="service-worker"]')?.content
  if (!worker) return
  navigator.serviceWorker?.register(worker).then(() => navigator.serviceWorker.ready)
    .then((r) => r.active?.postMessage(performance.getEntriesByType('resource').map((e) => e.name))).catch(() => {})
}
