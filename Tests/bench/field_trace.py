"""Where the slow phone's time goes before the search field shows, from Chromium's trace.

    .venv/bin/python Tests/bench/field_trace.py --runs 9 base=site cv=/dev/shm/cv pagefind=bench-out/pagefind-chinook

`field_variants.py`'s load (Slow 4G, 4x CPU, cache off, sites in turn, a first
unkept round), traced. For each site, the medians, in ms from navigation start
(the page's `performance.now()` origin) or as main-thread durations at 4x CPU:

- the document's request: sent, response headers, last byte (and its bytes);
- the renderer's navigation commit (the task that swaps in the new document,
  creates its script contexts and hands it the body bytes received so far) and
  how long it took;
- HTML parsing (with the inline stylesheet's) from the commit to the field's box: in
  how many chunks, the first one's length, the frames rendered between it and the
  field's frame, and the time from its end to the last chunk's start;
- the frame the field first has a box in (`requestAnimationFrame`, which is what
  `slowphone.py` polls: its `getBoundingClientRect` forces that frame's style
  recalculation and layout, so *visible* comes before the frame's paint), its
  style recalculation and layout;
- the same main-thread phases as thread CPU time (`cpu_*`: less than the wall
  time, as the thread's clock leaves out most of the slowdown's pauses and of the
  time other work on the machine had the core), and all the main thread's tasks
  from the commit to the field's box (`cpu_main`);
- the font lookups before the field's box (`font_lookups`: each family of a
  `font-family` list tried until one is installed, a round trip to the browser
  process each on Linux) and the time in Chromium's font cache around them
  (`fonts`, `cpu_fonts`: finding the faces, their per-size render settings);
- the elements restyled and the layout objects laid out up to the field's box
  (`restyled`, `dirty`: counts, which the load does not move);
- that frame's pre-paint, paint and layerize + commit to the compositor, and
  Chromium's first contentful paint (FCP: the frame handed to the compositor,
  after raster).

The CPU parts move less with the machine's load than the end-to-end time does,
so a change worth 10 ms shows. `--timeline NAME` also prints one run's main-thread
events for that site; `--selectors` traces Chromium's selector statistics as well
(`disabled-by-default-blink.debug`'s `SelectorStats`: time, match attempts and
matches of each selector in every style recalculation up to the field's box) and
prints each site's costliest selectors, summed over its runs. They slow the style
recalculations they measure, so compare the other columns without it.
"""
from __future__ import annotations

import argparse
import json
import statistics

import benchlib as B
import slowphone as S

# Nothing is asked of the page before then (slowphone.field_visible): slower loads than that
# are still measured, only perturbed.
QUIET_MS = 1500

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading", "navigation", "fonts"]
SHOWN = {"RunTask", "RenderFrameImpl::CommitNavigation", "FrameLoader::CommitDocumentLoader", "RenderFrameImpl::DidCommitNavigation",
         "DocumentLoader::CreateParserPostCommit", "HTMLDocumentParser::MaybeFetchQueuedPreloads", "ResourceSendRequest",
         "ResourceReceiveResponse", "ResourceFinish", "ParseHTML", "FireAnimationFrame", "UpdateLayoutTree", "Layout", "PrePaint",
         "Paint", "Layerize", "Commit", "EvaluateScript", "firstPaint", "firstContentfulPaint", "domInteractive"}
COLUMNS = ("sent", "headers", "html_end", "html_bytes", "commit", "commit_ms", "parse_from", "parse", "chunks",
           "first_chunk", "frames_before", "between", "frame", "style",
           "layout", "visible", "prepaint", "paint", "layerize_commit", "fcp",
           "cpu_commit", "cpu_parse", "cpu_style", "cpu_layout", "cpu_main", "font_lookups", "fonts", "cpu_fonts", "restyled", "dirty")


def label(e: dict) -> str:
    """An event's name; for a chunk of HTML parsing, the lines it parsed."""
    if e["name"] != "ParseHTML":
        return e["name"]
    start = e.get("args", {}).get("beginData", {}).get("startLine")
    end = e.get("args", {}).get("endData", {}).get("endLine")
    return f"ParseHTML lines {start}-{end}"


def phases(events: list[dict], visible: float) -> tuple[dict, list[tuple]]:
    """The run's figures, and its main-thread events (ms, duration, name) up to the FCP."""
    nav = next(e for e in events if e.get("name") == "navigationStart"
               and e.get("args", {}).get("data", {}).get("documentLoaderURL", "").startswith("http"))
    t0, pid, main = nav["ts"], nav["pid"], nav["tid"]
    ms = lambda ts: (ts - t0) / 1000  # noqa: E731
    on_main = [e for e in events if e.get("pid") == pid and e.get("tid") == main and e.get("ph") in ("X", "I", "i", "R", "n")]
    row: dict = {"visible": visible}
    request = next(e for e in on_main if e["name"] == "ResourceSendRequest" and e["args"]["data"].get("resourceType") == "Document")
    rid = request["args"]["data"]["requestId"]
    response = next(e for e in on_main if e["name"] == "ResourceReceiveResponse" and e["args"]["data"]["requestId"] == rid)
    timing = response["args"]["data"].get("timing") or {}
    base = timing.get("requestTime", 0) * 1e6
    row["sent"] = ms(base) + timing.get("sendStart", 0)
    row["headers"] = ms(base) + timing.get("receiveHeadersEnd", 0)
    finish = next(e for e in on_main if e["name"] == "ResourceFinish" and e["args"]["data"]["requestId"] == rid)
    row["html_end"] = ms(finish["args"]["data"]["finishTime"] * 1e6)
    row["html_bytes"] = finish["args"]["data"].get("encodedDataLength")
    commit = next(e for e in on_main if e["name"] == "RenderFrameImpl::CommitNavigation" and ms(e["ts"]) > 0)
    task = max((e for e in on_main if e["name"] == "RunTask" and e["ts"] <= commit["ts"] <= e["ts"] + e.get("dur", 0)),
               key=lambda e: e["dur"])
    row["commit"], row["commit_ms"] = ms(task["ts"]), task["dur"] / 1000
    until = t0 + (visible + 1) * 1000
    span = lambda name: [e for e in on_main if e["name"] == name and task["ts"] <= e["ts"] < until]  # noqa: E731
    parses = span("ParseHTML")
    row["parse_from"] = ms(parses[0]["ts"]) if parses else None
    row["parse"] = sum(e["dur"] for e in parses) / 1000
    frame = [e for e in span("FireAnimationFrame")]
    row["frame"] = ms(frame[-1]["ts"]) if frame else None
    # How the parser cut the page: its chunks (of 0.1 ms or more: not the end of file's)
    # before the field's frame, the first one's length (Chromium yields only once <body> has
    # begun, and only past its 10 ms budget), the frames rendered between the first chunk and
    # the field's frame (an empty body's, when the head alone took the budget), and the time
    # from the first chunk's end to the last one's start.
    chunks = [e for e in parses if e.get("dur", 0) >= 100 and (not frame or e["ts"] < frame[-1]["ts"])]
    row["chunks"] = len(chunks)
    if chunks:
        row["first_chunk"] = chunks[0]["dur"] / 1000
        row["frames_before"] = sum(1 for e in frame[:-1] if e["ts"] >= chunks[0]["ts"])
        row["between"] = (chunks[-1]["ts"] - chunks[0]["ts"] - chunks[0]["dur"]) / 1000 if len(chunks) > 1 else 0.0
    row["style"] = sum(e["dur"] for e in span("UpdateLayoutTree")) / 1000
    row["layout"] = sum(e["dur"] for e in span("Layout")) / 1000
    # What they did, in counts the machine's load does not move: the elements style
    # recalculation visited and the layout objects layout found dirty.
    row["restyled"] = sum(e.get("args", {}).get("elementCount", 0) for e in span("UpdateLayoutTree"))
    row["dirty"] = sum(e.get("args", {}).get("beginData", {}).get("dirtyObjects", 0) for e in span("Layout"))
    # The same as thread CPU time (`tdur`): what moves least with other work on the machine.
    cpu = lambda es: sum(e.get("tdur", e["dur"]) for e in es) / 1000  # noqa: E731
    row["cpu_commit"] = cpu([task])
    row["cpu_parse"], row["cpu_style"], row["cpu_layout"] = (cpu(span(n)) for n in ("ParseHTML", "UpdateLayoutTree", "Layout"))
    tasks = sorted(span("RunTask"), key=lambda e: e["ts"])
    outer, reach = [], 0
    for e in tasks:
        if e["ts"] >= reach:
            outer.append(e)
            reach = e["ts"] + e["dur"]
    row["cpu_main"] = cpu(outer)
    # The font lookups before the field's box: each family of a `font-family` list that a
    # style or layout needs, tried in order until one is installed (on Linux a round trip
    # to the browser process each, `FontDataManager::onMatchFamilyStyle`), and the
    # outermost `FontCache::GetFontPlatformData` calls around them.
    row["font_lookups"] = len(span("FontDataManager::onMatchFamilyStyle"))
    fonts, reach = [], 0
    for e in sorted(span("FontCache::GetFontPlatformData"), key=lambda e: e["ts"]):
        if e["ts"] >= reach:
            fonts.append(e)
            reach = e["ts"] + e.get("dur", 0)
    row["fonts"], row["cpu_fonts"] = sum(e.get("dur", 0) for e in fonts) / 1000, cpu(fonts)
    after = [e for e in on_main if e["ts"] >= until]
    first = lambda name: next((e for e in after if e["name"] == name), None)  # noqa: E731
    for key, name in (("prepaint", "PrePaint"), ("paint", "Paint")):
        e = first(name)
        row[key] = e["dur"] / 1000 if e else None
    layerize, commit_cc = first("Layerize"), first("Commit")
    row["layerize_commit"] = ((layerize or {}).get("dur", 0) + (commit_cc or {}).get("dur", 0)) / 1000
    fcp = next((e for e in events if e.get("name") == "firstContentfulPaint" and e.get("pid") == pid), None)
    row["fcp"] = ms(fcp["ts"]) if fcp else None
    end = fcp["ts"] if fcp else until
    timeline = sorted((ms(e["ts"]), e.get("dur", 0) / 1000, label(e)) for e in on_main
                      if task["ts"] - 20_000 <= e["ts"] <= end and e["name"] in SHOWN
                      and (e["name"] != "RunTask" or e.get("dur", 0) >= 1000))
    return row, timeline


def traced(browser, srv) -> dict:
    ctx, page = S.phone_page(browser)
    S.throttle(ctx.new_cdp_session(page))
    browser.start_tracing(page=page, categories=CATEGORIES)
    page.goto(srv.url + "/", wait_until="commit")
    visible = S.field_visible(page, QUIET_MS)
    page.wait_for_timeout(200)  # the frame's paint and FCP
    events = json.loads(browser.stop_tracing())["traceEvents"]
    ctx.close()
    row, timeline = phases(events, visible)
    row["timeline"] = timeline
    row["selectors"] = selector_stats(events, row)
    return row


def selector_stats(events: list[dict], row: dict) -> dict:
    """Per selector (and its sheet): [microseconds, match attempts, matches], summed over the
    style recalculations from navigation start to the field's box."""
    nav = next(e for e in events if e.get("name") == "navigationStart"
               and e.get("args", {}).get("data", {}).get("documentLoaderURL", "").startswith("http"))
    until = nav["ts"] + (row["visible"] + 1) * 1000
    out: dict = {}
    for e in events:
        if e.get("name") != "SelectorStats" or not nav["ts"] <= e["ts"] < until:
            continue
        for t in e.get("args", {}).get("selector_stats", {}).get("selector_timings", []):
            sums = out.setdefault(f'{t["selector"]}  ({t["style_sheet_id"].split("-")[0]})', [0, 0, 0])
            sums[0] += t["elapsed (us)"]
            sums[1] += t["match_attempts"]
            sums[2] += t["match_count"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="+", help="NAME=FOLDER, a built site each")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--timeline", action="append", default=[], help="NAME: print the median run's main-thread events")
    ap.add_argument("--json", help="write every run's figures here")
    ap.add_argument("--selectors", action="store_true", help="also trace selector statistics; print the costliest")
    args = ap.parse_args()
    if args.selectors:
        CATEGORIES.append("disabled-by-default-blink.debug")
    sites = dict(s.split("=", 1) for s in args.sites)
    kept = B.in_turn(sites, traced, args.runs)
    med = {}
    for name, rows in kept.items():
        med[name] = {k: statistics.median(r[k] for r in rows if r.get(k) is not None) for k in COLUMNS
                     if any(r.get(k) is not None for r in rows)}
    print("| ms, median of %d | %s |" % (args.runs, " | ".join(sites)))
    print("| --- |" + " ---: |" * len(sites))
    for k in COLUMNS:
        print(f"| {k} | " + " | ".join(f"{med[n].get(k, float('nan')):,.1f}" for n in sites) + " |")
    for name in sites:
        spread = sorted(r["visible"] for r in kept[name])
        print(f"{name}: visible runs {[round(v) for v in spread]}")
    for name in args.timeline:
        rows = sorted(kept[name], key=lambda r: r["visible"])
        for t, d, n in rows[len(rows) // 2]["timeline"]:
            print(f"  {name} {t:8.1f} {d:6.1f} {n}")
    for name in sites if args.selectors else []:
        total: dict = {}
        for r in kept[name]:
            for sel, (us, attempts, matches) in r["selectors"].items():
                sums = total.setdefault(sel, [0, 0, 0])
                sums[0], sums[1], sums[2] = sums[0] + us, sums[1] + attempts, sums[2] + matches
        runs = len(kept[name])
        print(f"{name}: selectors, {sum(v[0] for v in total.values()) / runs:,.0f} us a run in all "
              f"({len(total)} selectors); the costliest, a run: us, attempts, matches")
        for sel, (us, attempts, matches) in sorted(total.items(), key=lambda kv: -kv[1][0])[:12]:
            print(f"  {us / runs:7.1f} {attempts / runs:6.1f} {matches / runs:6.1f}  {sel[:100]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({n: [{k: v for k, v in r.items() if k not in ("timeline", "selectors")} for r in rows] for n, rows in kept.items()}, f, indent=1)


if __name__ == "__main__":
    main()
