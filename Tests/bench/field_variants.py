"""Field visible on the slow phone for several built sites, run by run in turn.

    .venv/bin/python Tests/bench/field_variants.py --runs 11 \
        inline=bench-out/site-chinook linked=/tmp/site-before pagefind=bench-out/pagefind-chinook

`slowphone.py`'s profile (Slow 4G, 4x CPU, cache off) and its measure (the first
frame in which `#q` has a box), without the typing: so a variant with no script,
or a hand-edited copy of a search page, can be compared with others. Each run
loads every site once in turn, so all see the same moment's machine load; medians
of `--runs`, each run kept. `--strip-style NAME=SRC` adds a copy of SRC whose
`<style>` elements are emptied: what the stylesheet itself costs the first paint.
`--pagefind-ui NAME=PAGEFIND_SITE` adds Pagefind's own search page as its
documentation gives it (the Default UI: `pagefind-ui.css`, `pagefind-ui.js` and
`new PagefindUI({ element: "#search" })`), whose field the script makes, beside
the benchmark's bare `<input>` over Pagefind's API (`pagefind_corpus.py`).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import tempfile
from pathlib import Path

import benchlib as B
import slowphone as S

# Nothing is asked of the page before then (slowphone.field_visible): slower loads than that
# are still measured, only perturbed.
QUIET_MS = 1500

# Pagefind's documented set-up ("Adding the Pagefind UI to a page"), on a page otherwise bare.
DEFAULT_UI = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Pagefind Default UI</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link href="/pagefind/pagefind-ui.css" rel="stylesheet">
<script src="/pagefind/pagefind-ui.js"></script></head>
<body>
<div id="search"></div>
<script>window.addEventListener('DOMContentLoaded', () => { new PagefindUI({ element: "#search", showSubResults: true }); });</script>
</body></html>
"""


def visible_ms(browser, srv) -> float:
    ctx, page = S.phone_page(browser)
    S.throttle(ctx.new_cdp_session(page))
    page.goto(srv.url + "/", wait_until="commit")
    value = S.field_visible(page, QUIET_MS)
    ctx.close()
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="+", help="NAME=FOLDER, a built site each")
    ap.add_argument("--strip-style", action="append", default=[], help="NAME=FOLDER: a copy without its <style> rules")
    ap.add_argument("--pagefind-ui", action="append", default=[], help="NAME=FOLDER: a Pagefind site's Default UI page")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    sites = dict(s.split("=", 1) for s in args.sites)
    with tempfile.TemporaryDirectory() as scratch:
        for spec in args.strip_style:
            name, source = spec.split("=", 1)
            copy = Path(scratch) / name
            shutil.copytree(source, copy, symlinks=True)
            page = copy / "index.html"
            page.write_text(re.sub(r"<style>.*?</style>", "<style></style>", page.read_text(), flags=re.S))
            sites[name] = str(copy)
        for spec in args.pagefind_ui:
            name, source = spec.split("=", 1)
            copy = Path(scratch) / name
            copy.mkdir()
            shutil.copytree(Path(source) / "pagefind", copy / "pagefind")  # the server serves no link out of its folder
            (copy / "index.html").write_text(DEFAULT_UI, encoding="utf-8")
            sites[name] = str(copy)
        kept = B.in_turn(sites, visible_ms, args.runs)
    for name, values in kept.items():
        print(f"{name:20} field visible median {statistics.median(values):5.0f} ms  "
              f"runs {[round(v) for v in values]}  (load {os.getloadavg()[0]:.1f})")
    # Round by round against the first site named: the load moves both alike.
    first, *others = kept
    for name in others:
        deltas = [b - a for a, b in zip(kept[first], kept[name])]
        q1, _, q3 = statistics.quantiles(deltas, n=4) if len(deltas) > 1 else (deltas[0],) * 3
        print(f"{name:20} minus {first}: paired median {statistics.median(deltas):+5.0f} ms (q1-q3 {q1:+.0f} to {q3:+.0f}), "
              f"sooner in {sum(d < 0 for d in deltas)} of {len(deltas)} rounds")


if __name__ == "__main__":
    main()
