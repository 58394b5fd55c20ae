"""The page's own part of a warm keystroke, without the key's delivery or the browser's
editing: a script in the page sets the field's text, dispatches `input` and times to the
suggestion list's change (as run.py's 'any' mode sees it), a frame between texts; the sites
take turns, a fresh browser per site and round.

    .venv/bin/python Tests/bench/handler_ab.py before=/tmp/before-site after=site \\
        [--texts l,lo] [--rounds 4] [--per-round 120]

Prints each round's median per site, then every site's pooled median, p90 and p95. On a shared
machine compare the per-round medians: the handler is about a millisecond, and one busy moment
moves a tail more than any change to the page does.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
from tools import Ours  # noqa: E402

TIMED = """async ([texts, frames]) => {
  const input = document.getElementById('q'), list = document.getElementById('suggestions')
  const out = [], frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)))
  for (const t of texts) {
    for (let i = 0; i < frames; i++) await frame()
    const done = new Promise((r) => {
      const mo = new MutationObserver(() => { mo.disconnect(); r(performance.now()) })
      mo.observe(list, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-for'] })
    })
    const t0 = performance.now()
    input.value = t
    input.dispatchEvent(new Event('input', { bubbles: true }))
    out.push((await done) - t0)
  }
  return out
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sites", nargs="+", help="name=path of a built site")
    ap.add_argument("--texts", default="l,lo", help="texts typed in turn (each must change the list: two or more)")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--per-round", type=int, default=120)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    sites = dict(s.split("=", 1) for s in args.sites)
    texts = args.texts.split(",")
    series = texts * (args.per_round // len(texts))
    pooled = {name: [] for name in sites}
    with sync_playwright() as pw:
        for r in range(args.rounds):
            for name, path in sites.items():
                with B.GzipServer(Path(path)) as srv, B.launch(pw) as browser:
                    page = browser.new_page()
                    page.goto(srv.url + "/", wait_until="load")
                    Ours.wait_ready(page)
                    page.focus("#q")
                    page.evaluate(TIMED, [texts * 3, 1])  # the shards and the JIT warm
                    xs = page.evaluate(TIMED, [series, 1])
                    pooled[name] += xs
                    print(f"round {r + 1} {name}: median {statistics.median(xs):.2f} ms", flush=True)
    for name, xs in pooled.items():
        xs.sort()
        print(f"{name}: n {len(xs)} median {statistics.median(xs):.2f} p90 {xs[int(0.9 * len(xs))]:.2f} p95 {xs[int(0.95 * len(xs))]:.2f} ms")


if __name__ == "__main__":
    main()
