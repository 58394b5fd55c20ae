"""Where the slow phone's time goes before the search field shows, from Chromium's trace.

    .venv/bin/python Tests/bench/field_trace.py --runs 9 base=site cv=/dev/shm/cv pagefind=bench-out/pagefind-chinook

`field_variants.py`'s load (Slow 4G, 4x CPU, cache off, sites in turn, a first
unkept round), traced: for each site the medians of the field visible (ms from
navigation start), when the body's first bytes were parsed, and the main thread's
HTML parsing (with the inline stylesheet's), style recalculation and layout from
then until the field had a box, and body → visible. The CPU parts move less with
the machine's load than the end-to-end time does, so a change worth 10 ms shows.
"""
from __future__ import annotations

import argparse
import json
import statistics

import benchlib as B
import slowphone as S

PHASES = ("ParseHTML", "UpdateLayoutTree", "Layout")


def traced(browser, srv) -> dict:
    ctx, page = S.phone_page(browser)
    S.throttle(ctx.new_cdp_session(page))
    browser.start_tracing(page=page, categories=["devtools.timeline", "blink.user_timing", "loading"])
    page.goto(srv.url + "/", wait_until="commit")
    visible = S.field_visible(page)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    ctx.close()
    start = min(e["ts"] for e in events if e.get("name") == "navigationStart")
    ms = lambda ts: (ts - start) / 1000  # noqa: E731
    # The blank page before navigation is parsed too, before the response came.
    body = min(e["ts"] for e in events if e.get("name") == "ParseHTML" and e.get("ph") == "X" and ms(e["ts"]) > 100)
    row = {"visible": visible, "body": ms(body), "body→visible": visible - ms(body)}
    for phase in PHASES:
        row[phase] = sum(e["dur"] for e in events if e.get("name") == phase and e.get("ph") == "X"
                         and e["ts"] >= body and ms(e["ts"]) < visible + 1) / 1000
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="+", help="NAME=FOLDER, a built site each")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    sites = dict(s.split("=", 1) for s in args.sites)
    kept = B.in_turn(sites, traced, args.runs)
    for name, rows in kept.items():
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        print(f"{name:12} visible {med['visible']:4.0f}  body parsed from {med['body']:4.0f}  "
              f"body→visible {med['body→visible']:4.0f}  parse {med['ParseHTML']:5.1f}  "
              f"style {med['UpdateLayoutTree']:5.1f}  layout {med['Layout']:5.1f} ms  "
              f"(layouts {[round(r['Layout']) for r in rows]})")


if __name__ == "__main__":
    main()
