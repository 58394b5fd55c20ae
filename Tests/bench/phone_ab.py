"""The slow phone's first answer for two of our sites, paired: each round loads both in turn.

    .venv/bin/python Tests/bench/phone_ab.py BEFORE_SITE AFTER_SITE [ROUNDS] [WORD]

`slowphone.measure` (Slow 4G, 4x CPU, cache off) on both sites, `ROUNDS` (7) rounds of
`WORD` (`love`). A 5-run median of one site (`run.py`) moves by 30-75 ms from run to run;
this prints each round's difference, so a change is judged by how often it is sooner.
"""
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

import slowphone as S
from tools import Ours


class Before(Ours):
    name = "before"


class After(Ours):
    name = "after"


def main() -> None:
    before, after = Path(sys.argv[1]), Path(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    word = sys.argv[4] if len(sys.argv) > 4 else "love"
    with sync_playwright() as pw:
        out = S.measure(pw, [(Before, before), (After, after)], {"word": word}, rounds)
    for name, r in out.items():
        w = r["words"]["word"]
        print(f"{name}: field {w['visible_ms']:.0f} ms, `{word}` {w['answer_ms']:.0f} ms, "
              f"{w['requests']} req, {w['bytes_served']} B (medians of {rounds})")
    b, a = ([x["answer_ms"] for x in out[n]["words"]["word"]["runs"]] for n in ("before", "after"))
    diffs = sorted(round(y - x) for x, y in zip(b, a) if x is not None and y is not None)
    print(f"after - before, by round: {diffs} ms; after sooner in {sum(d < 0 for d in diffs)} of {len(diffs)}")


if __name__ == "__main__":
    main()
