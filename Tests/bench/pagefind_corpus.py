#!/usr/bin/env python3
"""Render a Chinook-shaped dataset as plain HTML pages for Pagefind.

    python3 Tests/bench/pagefind_corpus.py --data Data/chinook --out bench-out/pagefind-chinook

One page per artist, album, track and playlist (for Chinook: 275 + 347 +
3,503 + 18 = 4,143 pages), with the same title and subtitle as this
project's index and the same other searched fields (album: artist; song:
artist, album, composer; playlist: its top artists), so both tools index the
same words:

    <main data-pagefind-body><h1 data-pagefind-meta="title">…</h1><p>subtitle</p><p>other fields</p></main>

Also writes `index.html`, the benchmark's search page for Pagefind: it loads
Pagefind's JS API (`/pagefind/pagefind.js`), and on every `input` event runs
`pagefind.search(q)` and `data()` for the first five results — what Pagefind's
own UI does — and renders their titles into `#results`. It has no
`data-pagefind-body`, so Pagefind does not index it.
"""
from __future__ import annotations

import argparse
import html
import sys
import time
import hashlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import load_records  # noqa: E402

PAGE = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{t}</title></head>'
        '<body><main data-pagefind-body><h1 data-pagefind-meta="title">{t}</h1><p>{s}</p>{x}</main></body></html>\n')

SEARCH_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Pagefind benchmark</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<input id="q" type="search" name="q" autocomplete="off" aria-label="Search">
<ul id="results"></ul>
<script type="module" src="/bench-search.js"></script>
</body></html>
"""

# Pagefind's default UI: import pagefind.js, init, then per input search() and
# data() of the first results shown (5 per page in its UI), newest query wins.
SEARCH_JS = """const pagefind = await import('/pagefind/pagefind.js');
await pagefind.init();
const input = document.getElementById('q'), list = document.getElementById('results');
let latest = 0;
async function run() {
  const id = ++latest, q = input.value;
  const r = await pagefind.search(q);
  if (id !== latest) return;
  const data = r ? await Promise.all(r.results.slice(0, 5).map((x) => x.data())) : [];
  if (id !== latest) return;
  window.__lastTotal = r ? r.results.length : 0;
  list.replaceChildren(...data.map((d) => { const li = document.createElement('li'); li.textContent = d.meta.title; return li; }));
  list.dataset.for = q;
}
input.addEventListener('input', run);
// Text typed before the library loaded is answered too, as this project's page does.
if (input.value) run();
window.__pagefindReady = true;
"""


def corpus_version() -> str:
    """Changes when the pages Pagefind indexes would (not when the search page does)."""
    return hashlib.sha256((PAGE + Path(__file__).read_text().split("def build(")[1]).encode()).hexdigest()[:12]


def write_search_page(out: Path) -> None:
    """The benchmark's search page; rewritten on every run, apart from the corpus."""
    (out / "index.html").write_text(SEARCH_PAGE, encoding="utf-8")
    (out / "bench-search.js").write_text(SEARCH_JS, encoding="utf-8")


def build(data: Path, out: Path, quiet: bool = False) -> int:
    t0 = time.perf_counter()
    records = load_records(data, kinds=("artists", "albums", "songs", "playlists"))
    out.mkdir(parents=True, exist_ok=True)
    esc = html.escape
    made = set()
    for r in records:
        folder = out / r.kind / r.key[-2:].rjust(2, "0")  # 100 buckets per kind
        if folder not in made:
            folder.mkdir(parents=True, exist_ok=True)
            made.add(folder)
        x = f"<p>{esc(r.extra)}</p>" if r.extra else ""
        with open(folder / f"{r.key}.html", "w", encoding="utf-8") as f:
            f.write(PAGE.format(t=esc(r.title), s=esc(r.subtitle), x=x))
    write_search_page(out)
    if not quiet:
        print(f"pagefind corpus: {len(records):,} pages into {out} in {time.perf_counter() - t0:.1f} s")
    return len(records)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="folder with the Chinook-shaped CSV tables")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    build(args.data, args.out)


if __name__ == "__main__":
    main()
