// The offline worker's registration, fetched by app.js a few seconds after the page has loaded,
// so the first query does not carry it.

/**
 * Registers sw.js (its scope is the base) and, once it is active, tells it what this visit
 * fetched before it could see, which sw.js keeps too (a host's `max-age=0, must-revalidate` leaves
 * nothing in the HTTP cache for it to find later).
 */
export function register() {
  const worker = document.querySelector('meta[name="service-worker"]')?.content
  navigator.serviceWorker?.register(worker).then(() => navigator.serviceWorker.ready)
    .then((r) => r.active?.postMessage(performance.getEntriesByType('resource').map((e) => e.name))).catch(() => {})
}
