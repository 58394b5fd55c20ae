"""Warm keystrokes and typo re-searches of this project's search page on several sites,
taking turns: run.py's own browser measurement (`measure_tool`: the cold first query, 100
warm keystrokes, 20 typo re-searches, the engine alone) on each site in round i back to
back, so the load of a shared machine drifts over all alike.

    .venv/bin/python Tests/bench/warm_ab.py before=/tmp/before-site after=site [--rounds 3] \\
        [--queries '{"common": "love", "prefix": "lo", "rare": "kissed", "typo": "metalica"}']

Prints every round's figures per site and query, then the median over the rounds of each
figure (warm median, warm p95, the typo's from its first handler, the engine alone) and the
load average, then every round's keystrokes pooled: their median, p95 and p99, and the share
over 5 ms (a p95 of 100 keystrokes is their 5th worst, which one busy moment decides; pooled,
the rounds' tails are weighed together). Build both sites with the same generator options;
only the page's code or index should differ.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
import run  # noqa: E402
from tools import Ours  # noqa: E402

FIGURES = ("warm_median_ms", "warm_p95_ms", "warm_handled_median_ms", "warm_handled_p95_ms", "engine_warm_median_ms", "cold_ms")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sites", nargs="+", help="name=path of a built site")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warm", type=int, default=100, help="warm keystrokes per query")
    ap.add_argument("--queries", default='{"common": "love", "prefix": "lo", "rare": "kissed", "typo": "metalica"}')
    args = ap.parse_args(argv)
    sites = dict(s.split("=", 1) for s in args.sites)
    queries = json.loads(args.queries)
    got = {name: {label: {f: [] for f in FIGURES} for label in queries} for name in sites}
    pooled = {name: {label: [] for label in queries} for name in sites}
    loads = []
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        for r in range(args.rounds):
            for name, path in sites.items():
                loads.append(os.getloadavg()[0])
                res = run.measure_tool(pw, Ours, Path(path), queries, args.warm, 120, 1)
                for label, e in res["queries"].items():
                    pooled[name][label] += [t for t in e.get("warm_times", []) if t >= 0]
                    for f in FIGURES:
                        if e.get(f) is not None:
                            got[name][label][f].append(e[f])
                    B.say(f"round {r + 1} {name} {label} `{e['query']}`: " + ", ".join(f"{f} {e.get(f)}" for f in FIGURES if e.get(f) is not None))
    print(f"load average during the runs: {min(loads):.1f}–{max(loads):.1f}")
    for label, q in queries.items():
        for name in sites:
            figures = got[name][label]
            print(f"{label} `{q}` {name}: " + ", ".join(f"{f} {B.median(v):.2f}" for f, v in figures.items() if v))
    for label, q in queries.items():
        for name in sites:
            t = pooled[name][label]
            if t:
                print(f"pooled {label} `{q}` {name}: n {len(t)}, median {B.median(t):.2f}, p95 {B.percentile(t, 95):.2f}, "
                      f"p99 {B.percentile(t, 99):.2f} ms, over 5 ms {sum(1 for x in t if x > 5) / len(t):.1%}")


if __name__ == "__main__":
    main()
