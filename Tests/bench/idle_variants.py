"""The slow phone's field and the idle view under it, for several built sites in turn, cold and warm.

    .venv/bin/python Tests/bench/idle_variants.py --runs 9 base=site split=/dev/shm/split

`field_variants.py`'s load (Slow 4G, 4x CPU, 390 px, sites in turn), measuring as well the
first frame in which the idle view's first term (`#idle-view .term`) has a box, and the
page's layout shifts (`layout-shift` entries, their sum and count, up to 0.5 s after the
field). Cold: the cache off, as `field_variants.py`. Warm: a second visit in the same
context with the cache on (what a returning visitor's cached stylesheet or script gives).
Medians of `--runs`: field visible, idle term visible, their difference; the largest sum.
"""
from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from playwright.sync_api import sync_playwright

import benchlib as B
import slowphone as S

QUIET_MS = 1500

EXTRA = """(() => {
  window.__shift = 0; window.__shifts = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) { window.__shift += e.value; window.__shifts += 1; }
  }).observe({ type: 'layout-shift', buffered: true });
  const frame = () => {
    const term = document.querySelector('#idle-view .term');
    if (!term || term.getBoundingClientRect().width === 0) return requestAnimationFrame(frame);
    window.__idle = performance.now();
  };
  requestAnimationFrame(frame);
})()"""


def one(browser, srv, warm: bool) -> tuple[float, float, float, int]:
    ctx, page = S.phone_page(browser)
    ctx.add_init_script(EXTRA)
    cdp = ctx.new_cdp_session(page)
    if warm:
        page.goto(srv.url + "/", wait_until="load")
        page.wait_for_timeout(QUIET_MS)
    S.throttle(cdp)
    if warm:
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    page.goto(srv.url + "/", wait_until="commit")
    visible = S.field_visible(page, QUIET_MS)
    page.wait_for_timeout(500)
    idle, shift, shifts = page.evaluate("() => [window.__idle ?? NaN, window.__shift, window.__shifts]")
    ctx.close()
    return visible, idle, shift, shifts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="+", help="NAME=FOLDER, a built site each")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    sites = dict(s.split("=", 1) for s in args.sites)
    with sync_playwright() as pw, B.launch(pw) as browser:
        for warm in (False, True):
            kept = {name: [] for name in sites}
            for _ in range(args.runs):
                for name, root in sites.items():
                    with B.GzipServer(Path(root)) as srv:
                        kept[name].append(one(browser, srv, warm))
            for name, runs in kept.items():
                field = statistics.median(r[0] for r in runs)
                idle = statistics.median(r[1] for r in runs)
                gap = statistics.median(r[1] - r[0] for r in runs)
                print(f"{'warm' if warm else 'cold'} {name:12} field {field:5.0f} ms  idle term {idle:5.0f} ms  "
                      f"(+{gap:.0f})  layout shift max {max(r[2] for r in runs):.4f} in {max(r[3] for r in runs)}")


if __name__ == "__main__":
    main()
