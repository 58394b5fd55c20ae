"""Cold first queries of one query on several sites, taking turns: run.py measures one
tool after the other, minutes apart, and on a shared machine the load drifts between
them; here sample i of every site is taken back to back, so a drift hits all alike.

    .venv/bin/python Tests/bench/cold_ab.py --query metalica \\
        ours=bench-out/site-chinook pagefind=bench-out/pagefind-chinook [before=/tmp/site] [--runs 9] [--warm 10]

Each sample is run.py's cold measurement: a fresh context loads the page, the query
is entered (`metalica`-like typos as a final search on generate's page: Enter →
rows), and the ms from the input (or keydown) to the rendered results are recorded.
A site whose name starts with `pagefind` is driven as Pagefind's page. Prints each
site's samples, median and the load average.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
from tools import TOOLS  # noqa: E402


def cold(browser, srv, tool, query, final, warm=0):
    """The cold sample, and `warm` re-searches on the same page after it (run.py's warm series)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(srv.url + "/", wait_until="load")
        tool.wait_ready(page)
        arm = lambda p, sel, mode, timeout=120000: p.evaluate(B.ARM, [sel, mode, timeout])  # noqa: E731
        arm(page, tool.results_root, "any")
        page.evaluate("(v) => window.__input(v)", query)
        t = page.evaluate("window.__t")
        if final and tool.has_final_search:
            tool.final_search(page, arm)
            t = page.evaluate("window.__t")
        again = []
        for _ in range(warm):
            tool.final_search(page, arm)
            again.append(page.evaluate("window.__t.then((t) => [t, window.__tk ?? 0])"))
        return t, again
    finally:
        ctx.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="+", help="name=folder; a name starting with `pagefind` is Pagefind's page")
    ap.add_argument("--query", default="metalica")
    ap.add_argument("--final", action=argparse.BooleanOptionalAction, default=True,
                    help="a final search (Enter) on generate's page (default: yes)")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--warm", type=int, default=0,
                    help="re-searches (the same query again) after each cold sample, on its page; their median and p95 are printed")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    sites = [(name, Path(folder), TOOLS["pagefind" if name.startswith("pagefind") else "ours"])
             for name, folder in (s.split("=", 1) for s in args.sites)]
    samples = {name: [] for name, _, _ in sites}
    warm = {name: [] for name, _, _ in sites}
    loads = []
    servers = [B.GzipServer(folder).__enter__() for _, folder, _ in sites]
    try:
        with sync_playwright() as pw, B.launch(pw) as browser:
            for (name, _, tool), srv in zip(sites, servers):  # warm-up: fills each server's gzip cache
                cold(browser, srv, tool, args.query, args.final)
            for i in range(args.runs):
                loads.append(os.getloadavg()[0])
                for (name, _, tool), srv in zip(sites if i % 2 == 0 else sites[::-1], servers if i % 2 == 0 else servers[::-1]):
                    t, again = cold(browser, srv, tool, args.query, args.final, args.warm)
                    samples[name].append(t)
                    warm[name] += again
    finally:
        for srv in servers:
            srv.__exit__(None, None, None)
    print(f"`{args.query}` cold, {args.runs} turns (order alternating), load {min(loads):.1f}–{max(loads):.1f}:")
    for name, values in samples.items():
        print(f"  {name:10} median {B.median([v for v in values if v >= 0]):6.1f} ms   "
              + " ".join(f"{v:.1f}" for v in values))
    if args.warm:
        print(f"`{args.query}` warm re-search, {args.warm} after each cold sample:")
        for name, values in warm.items():
            ok = [t for t, _ in values if t >= 0]
            handled = [t - k for t, k in values if t >= 0]  # from the key's first handler: no delivery
            print(f"  {name:10} median {B.median(ok):5.1f} ms  p95 {B.percentile(ok, 95):5.1f} ms  max {max(ok):5.1f} ms"
                  f"  (n={len(ok)}, timeouts {len(values) - len(ok)});  from the key's handler: median "
                  f"{B.median(handled):5.1f} ms  p95 {B.percentile(handled, 95):5.1f} ms")


if __name__ == "__main__":
    main()
