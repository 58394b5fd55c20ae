// Distinct kinds (FORMAT.md "distinct"): each document's group, numbered apart across kinds, into
// `state.groupOf`. Fetched by kinds.js only on a site with a distinct kind.
export function groupsOf(manifest, learn, loader, state) {
  return Promise.all(manifest.kinds.map((k, i) => k.distinct && Promise.all([learn(i), loader.load(k.distinct)])))
    .then((files) => {
      const groupOf = new Int32Array(state.kindOf.length).fill(-1)
      let base = 0
      files.forEach((f) => {
        if (!f) return
        const [list, { groups }] = f
        let most = 0
        list.forEach((id, j) => { groupOf[id] = base + groups[j]; most = Math.max(most, groups[j] + 1) })
        base += most
      })
      state.groupOf = groupOf
    })
}
