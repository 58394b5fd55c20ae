"""Where a warm keystroke's time goes, and above all its slowest ones': run.py's warm series
(the same keys, the same timing: from the keydown's timestamp to the suggestion list's first
change) on one site, looked at one way per run.

    .venv/bin/python Tests/bench/keys_trace.py SITE [--query love] [--warm 200] MODE

- no mode: a Chromium trace, then for the slowest `--worst` keystrokes and as many about the
  median, the main-thread work inside each one's window by kind (the key's delivery before its
  first handler, handlers, style, layout, paint, garbage collection …) and the tasks in it;
  `--gc` adds V8's collector in detail, `--save` keeps the trace;
- `--phases`: no trace; listeners the page's own run after time each keystroke's delivery (its
  timestamp to the first keydown listener), the browser's editing (to the input event) and the
  page's handler (to the list's change): which phase the slowest 5 % lose their time in;
- `--profile`: V8's sampling profiler (50 µs), ms per keystroke by function, self and total
  (build the site with GENERATE_ESBUILD=none to keep the names);
- `--heap`: V8's sampling heap profiler, KB allocated per keystroke by function (garbage the
  collector must stop a keystroke for);
- `--cpu`: a light trace; the main thread's CPU time from each key to the next (the page's work
  and the frames it causes, which the machine's load moves less than wall time), what the tasks
  hold, and how many keystrokes a garbage collection fell in;
- `--restyle [N]`: a trace with Blink's invalidation tracking; per key (to the next key), the
  elements style recalculation visited and the layout objects layout found dirty (counts the
  load does not move), and what invalidated them, for all keys together and the first N;
- `--collect-between`: an experiment, a minor collection before every key (outside its window);
- `--final` (with any mode but `--phases`): the series is run.py's typo re-search instead
  (`--query metalica`): after one final search, a tap on the field and Enter on the same
  words, timed to the rows.

A trace or profiler slows the page, so those figures compare keystrokes and builds with each
other, not with `warm_ab.py`'s, which measures without one.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
from tools import SETTLED, Ours  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "toplevel",
              "disabled-by-default-devtools.timeline.stack", "cc", "benchmark"]
GC = ["disabled-by-default-v8.gc"]
# The kinds of work reported, as the trace names them (nested events are clipped to the window
# and counted under their own name; a RunTask's own time is what its children leave).
KINDS = ["RunTask", "EventDispatch", "FunctionCall", "v8.run", "TimerFire", "FireAnimationFrame", "UpdateLayoutTree",
         "Layout", "PrePaint", "Paint", "Layerize", "Commit", "MinorGC", "MajorGC", "V8.GC_SCAVENGER", "V8.GCScavenger",
         "V8.GC_MC_INCREMENTAL", "V8.GC_MARK_COMPACTOR", "BlinkGC.AtomicPhase", "ThreadState::incrementalMarkingStep",
         "HitTest", "ScheduleStyleRecalculation", "InvalidateLayout", "ParseHTML", "v8.compile", "V8.ScriptCompiler",
         "ProfileCall", "RunMicrotasks", "v8.callFunction", "UpdateLifecycle", "PageAnimator::serviceScriptedAnimations",
         "WidgetBaseInputHandler::OnHandleInputEvent", "BeginMainThreadFrame", "ProxyMain::BeginMainFrame",
         "LocalFrameView::RunPostLifecycleSteps", "IntersectionObserverController::computeIntersections",
         "ResizeObserverController::DeliverObservations", "ScrollAnchor", "MarkDOMContent",
         "HTMLInputElement::setValue", "TextControl::SetInnerEditorValue", "Document::UpdateStyleAndLayout"]

INVALIDATIONS = "disabled-by-default-devtools.timeline.invalidationTracking"
MARKED = B.ARM.replace("function done(v) {", "function done(v) { performance.mark('key-done');")
# Without a trace: where each keystroke's time went, from listeners the page's own run before
# (capture on window, added first): the key's delivery (its timestamp to the first keydown
# listener), the browser's editing (keydown listener to the input event's), the page's handler
# (input event to the list's change).
PHASES = """() => {
  if (window.__phases) return
  window.__phases = { key: 0, input: 0 }
  addEventListener('keydown', (e) => { window.__phases.key = performance.now(); window.__phases.stamp = e.timeStamp }, true)
  addEventListener('input', () => { window.__phases.input = performance.now() }, true)
}"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site")
    ap.add_argument("--query", default="love")
    ap.add_argument("--warm", type=int, default=200)
    ap.add_argument("--worst", type=int, default=10)
    ap.add_argument("--gc", action="store_true", help="also trace V8's garbage collector in detail")
    ap.add_argument("--save", help="write the trace's JSON here")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--profile", action="store_true", help="no trace: V8's sampling profiler (50 µs) over the keystrokes, self time by function")
    ap.add_argument("--heap", action="store_true", help="no trace: V8's sampling heap profiler, bytes allocated per keystroke by function")
    ap.add_argument("--collect-between", action="store_true",
                    help="an experiment: a full garbage collection before every key (outside its window), to see what GC is worth")
    ap.add_argument("--cpu", action="store_true",
                    help="a light trace: the renderer main thread's CPU time per keystroke, from its key to the next "
                         "(the page's work and the frames it causes), which the machine's load moves less than wall time")
    ap.add_argument("--restyle", type=int, nargs="?", const=0, metavar="N",
                    help="a trace with Blink's invalidation tracking: elements restyled and layout objects laid out from "
                         "each key to the next, and what invalidated them (N: list the invalidations of the first N keys)")
    ap.add_argument("--setup", help="JS run in the page before the series (an experiment: take something away and see)")
    ap.add_argument("--phases", action="store_true", help="no trace: time each keystroke's phases from listeners in the page")
    ap.add_argument("--final", action="store_true",
                    help="time run.py's typo re-searches instead of keystrokes: a tap on the field, then Enter on the same words "
                         "(use a typo as --query)")
    args = ap.parse_args(argv)
    q = args.query
    from playwright.sync_api import sync_playwright
    flags = ["--js-flags=--expose-gc"] if args.collect_between else []
    with sync_playwright() as pw, B.GzipServer(Path(args.site)) as srv, \
            pw.chromium.launch(executable_path=B.CHROMIUM, args=["--no-sandbox", *flags], headless=True) as browser:
        ctx = browser.new_context(viewport={"width": args.width, "height": 800})
        page = ctx.new_page()
        page.goto(srv.url + "/", wait_until="load")
        Ours.wait_ready(page)
        page.evaluate(MARKED, [Ours.results_root, "any", 30000])
        page.evaluate("(v) => window.__input(v)", q)
        page.evaluate("window.__t")
        mark = lambda p, sel, mode, timeout=30000: p.evaluate(MARKED, [sel, mode, timeout])  # noqa: E731

        def press(key, before=None):
            """One timed key: a keystroke, or with --final a re-search (run.py's: a tap on the
            field, its animations over, Enter)."""
            if args.final:
                page.click("#q")
                page.wait_for_function(SETTLED)
                mark(page, "#results", "rows")
            else:
                mark(page, Ours.results_root, "any")
            if before:
                before()
            page.keyboard.press(key)

        if args.final:  # the first final search (cold), then re-searches of the same words
            Ours.final_search(page, mark)
            page.evaluate("window.__t")
            keys, warmup = ["Enter"] * (args.warm + 2), 2
        else:
            page.focus("#q")
            keys = B.warm_keys(q, args.warm + 2 * len(q))
            warmup = 2 * (len(q) - 1)
        for key in keys[:warmup]:  # the first cycle fetches the prefixes' shards
            press(key)
            page.evaluate("window.__t")
        if args.profile:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 50})
            cdp.send("Profiler.start")
            for key in keys[warmup:]:
                press(key)
                page.evaluate("window.__t")
            prof = cdp.send("Profiler.stop")["profile"]
            if args.save:
                Path(args.save).write_text(json.dumps(prof))
            return profile(prof, len(keys) - warmup)
        if args.heap:
            cdp = ctx.new_cdp_session(page)
            cdp.send("HeapProfiler.enable")
            cdp.send("HeapProfiler.startSampling", {"samplingInterval": 256, "includeObjectsCollectedByMajorGC": True,
                                                    "includeObjectsCollectedByMinorGC": True})
            for key in keys[warmup:]:
                press(key)
                page.evaluate("window.__t")
            prof = cdp.send("HeapProfiler.stopSampling")["profile"]
            return heap(prof, len(keys) - warmup)
        if args.setup:
            page.evaluate(args.setup)
        if args.phases:
            page.evaluate(PHASES)
            rows = []
            for key in keys[warmup:]:
                press(key, before=(lambda: page.evaluate("gc({type: 'minor'})")) if args.collect_between else None)
                rows.append(page.evaluate("window.__t.then((t) => [t, window.__phases.key - window.__phases.stamp, "
                                          "window.__phases.input - window.__phases.key, t - (window.__phases.input - window.__phases.stamp)])"))
            return phases(rows, keys[warmup:], args.worst)
        categories = CATEGORIES + (GC if args.gc else [])
        if args.cpu:
            categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"]
        if args.restyle is not None:
            categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", INVALIDATIONS]
        browser.start_tracing(page=page, categories=categories)
        times = []
        for key in keys[warmup:]:
            press(key)
            times.append(page.evaluate("window.__t.then((t) => [t, window.__ti])"))
        raw = browser.stop_tracing()
    if args.save:
        Path(args.save).write_bytes(raw)
    events = json.loads(raw)["traceEvents"]
    if args.cpu:
        return cpu(events, times)
    if args.restyle is not None:
        return restyle(events, times, args.restyle)
    report(events, times, keys[warmup:], args.worst)


def cpu(events, times):
    """Main-thread CPU (thread time) of the tasks from each key to the next, and of garbage collection."""
    pid, tid, dones = main_thread(events)
    tasks = [e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and e["name"] == "RunTask"]
    gcs = [e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and e["name"] in ("MinorGC", "MajorGC")]
    starts = [d - t * 1000 for d, (t, _) in zip(dones, times)]
    per, gc = [], []
    # What a task is, by the first of these names inside it (else "other").
    kinds = ["EventDispatch", "FireAnimationFrame", "UpdateLayoutTree", "Layout", "Paint", "Commit", "TimerFire", "FunctionCall",
             "EvaluateScript", "v8.evaluateModule", "ParseHTML", "MinorGC", "MajorGC"]
    inner = collections.defaultdict(list)
    for e in events:
        if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and e["name"] in kinds:
            inner[e["name"]].append(e)
    by_kind = collections.Counter()
    for e in tasks:
        if not (starts[0] <= e["ts"] < starts[-1]):
            continue
        end = e["ts"] + e["dur"]
        kind = next((k for k in kinds if any(e["ts"] <= x["ts"] < end for x in inner[k])), "other")
        by_kind[kind] += e.get("tdur", e["dur"]) / 1000
    for a, b in zip(starts, starts[1:]):
        per.append(sum(e.get("tdur", e["dur"]) for e in tasks if a <= e["ts"] < b) / 1000)
        gc.append(sum(e["dur"] for e in gcs if a <= e["ts"] < b) / 1000)
    ts = [t for t, _ in times]
    print(f"{len(per)} keystrokes: wall median {B.median(ts):.2f} p95 {B.percentile(ts, 95):.2f} ms; main-thread CPU from a key "
          f"to the next: median {B.median(per):.2f}, p95 {B.percentile(per, 95):.2f}, mean {sum(per) / len(per):.2f} ms; "
          f"garbage collection {sum(gc) / len(gc):.3f} ms per keystroke, in {sum(1 for g in gc if g)} of them")
    print("  tasks by what they hold, ms CPU per keystroke: " + ", ".join(f"{k} {v / len(per):.2f}" for k, v in by_kind.most_common()))


def restyle(events, times, shown):
    """Per key (from its keydown to the next key's): the elements style recalculation visited
    (`UpdateLayoutTree`'s elementCount), the layout objects layout found dirty (`Layout`'s
    dirtyObjects), and the invalidations that caused them, by node and reason."""
    pid, tid, dones = main_thread(events)
    starts = [d - t * 1000 for d, (t, _) in zip(dones, times)] + [float("inf")]
    mine = [e for e in events if e.get("pid") == pid]
    style, dirty, why = [], [], []
    for i, (a, b) in enumerate(zip(starts, starts[1:])):
        inside = [e for e in mine if a <= e["ts"] < b]
        style.append(sum(e.get("args", {}).get("elementCount", 0) for e in inside if e["name"] == "UpdateLayoutTree"))
        dirty.append(sum(e["args"]["beginData"].get("dirtyObjects", 0) for e in inside
                         if e["name"] == "Layout" and "beginData" in e.get("args", {})))
        reasons = collections.Counter()
        for e in inside:
            if "InvalidationTracking" not in e["name"]:
                continue
            d = e.get("args", {}).get("data", {})
            what = d.get("changedClass") or d.get("changedAttribute") or d.get("changedId") or d.get("changedPseudo") or ""
            node = d.get("nodeName", "?")
            reasons[f"{e['name'].replace('InvalidationTracking', '')}: {node} {d.get('reason', '')} {what}".strip()] += 1
        why.append(reasons)
    n = len(style)
    print(f"{n} keys: elements restyled a key median {B.median(style):.0f} (min {min(style)}, max {max(style)}, "
          f"total {sum(style)}); dirty layout objects a key median {B.median(dirty):.0f} (min {min(dirty)}, "
          f"max {max(dirty)}, total {sum(dirty)})")
    together = sum(why, collections.Counter())
    print("  invalidations a key, all keys together:")
    for k, v in together.most_common(40):
        print(f"    {v / n:6.1f}  {k}")
    for i in range(min(shown, n)):
        print(f"  key {i}: {style[i]} restyled, {dirty[i]} dirty")
        for k, v in why[i].most_common(25):
            print(f"      {v:4d}  {k}")


def profile(prof, n):
    """Self and total time per function (ms per keystroke), from the samples."""
    nodes = {x["id"]: x for x in prof["nodes"]}
    parent = {c: x["id"] for x in prof["nodes"] for c in x.get("children", [])}
    deltas = prof["timeDeltas"]
    self_t, total_t = collections.Counter(), collections.Counter()
    for sid, dt in zip(prof["samples"], deltas[1:] + [0]):
        f = nodes[sid]["callFrame"]
        name = lambda f: f"{f['functionName'] or '(anon)'} {f['url'].split('/')[-1]}:{f['lineNumber'] + 1}"  # noqa: E731
        self_t[name(f)] += dt
        seen, at = set(), sid
        while at is not None:
            k = name(nodes[at]["callFrame"])
            if k not in seen:
                total_t[k] += dt
                seen.add(k)
            at = parent.get(at)
    skip = ("(idle)", "(program)", "(root)")
    print("self ms per keystroke:")
    for k, v in self_t.most_common(45):
        if not k.startswith(skip):
            print(f"  {v / 1000 / n:.3f}  {k}")
    print("total ms per keystroke:")
    for k, v in total_t.most_common(60):
        if not k.startswith(skip):
            print(f"  {v / 1000 / n:.3f}  {k}")
    # The call tree, ms per keystroke, down to 0.02 ms.
    self_us = collections.Counter()
    for sid, dt in zip(prof["samples"], deltas[1:] + [0]):
        self_us[sid] += dt
    def tot(i):
        return self_us[i] + sum(tot(c) for c in nodes[i].get("children", []))
    def show(i, depth):
        t = tot(i) / 1000 / n
        f = nodes[i]["callFrame"]
        if t < 0.02 or (f["functionName"] or "").startswith(skip):
            return
        print(f"{'  ' * depth}{t:.3f} {f['functionName'] or '(anon)'} {f['url'].split('/')[-1]}:{f['lineNumber'] + 1}")
        for c in sorted(nodes[i].get("children", []), key=tot, reverse=True):
            show(c, depth + 1)
    print("tree:")
    show(prof["nodes"][0]["id"], 0)


def heap(prof, n):
    """Bytes allocated per keystroke, by the allocating function (self) and by caller (total)."""
    self_b, total_b = collections.Counter(), collections.Counter()

    def walk(node, stack):
        f = node["callFrame"]
        k = f"{f['functionName'] or '(anon)'} {f['url'].split('/')[-1]}:{f['lineNumber'] + 1}"
        self_b[k] += node["selfSize"]
        for s_ in set(stack + [k]):
            total_b[s_] += node["selfSize"]
        for c in node.get("children", []):
            walk(c, stack + [k])
    walk(prof["head"], [])
    print(f"allocated per keystroke: {sum(self_b.values()) / n / 1000:.1f} KB (sampled); self, KB:")
    for k, v in self_b.most_common(40):
        print(f"  {v / n / 1000:7.1f}  {k}")
    print("total, KB:")
    for k, v in total_b.most_common(50):
        print(f"  {v / n / 1000:7.1f}  {k}")


def phases(rows, keys, worst):
    ts = [r[0] for r in rows]
    cols = ("delivery", "editing", "handler")
    print(f"{len(ts)} keystrokes: median {B.median(ts):.2f} ms, p95 {B.percentile(ts, 95):.2f} ms; "
          + "; ".join(f"{c} median {B.median([r[i + 1] for r in rows]):.2f} p95 {B.percentile([r[i + 1] for r in rows], 95):.2f}" for i, c in enumerate(cols)))
    order = sorted(range(len(ts)), key=lambda i: -ts[i])
    n = max(1, len(ts) // 20)
    print(f"the slowest {n} (5 %), mean: " + ", ".join(f"{c} {sum(rows[i][j + 1] for i in order[:n]) / n:.2f}" for j, c in enumerate(cols))
          + f"; the rest: " + ", ".join(f"{c} {sum(rows[i][j + 1] for i in order[n:]) / (len(ts) - n):.2f}" for j, c in enumerate(cols)))
    for i in order[:worst]:
        print(f"  key {i} `{keys[i]}` {ts[i]:.2f} ms: " + ", ".join(f"{c} {rows[i][j + 1]:.2f}" for j, c in enumerate(cols)))


def main_thread(events):
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    marks = [e for e in events if e.get("name") == "key-done"]
    pid = marks[0]["pid"]
    tid = next(t for (p, t), n in names.items() if p == pid and n == "CrRendererMain")
    return pid, tid, sorted(e["ts"] for e in marks)


def report(events, times, keys, worst):
    pid, tid, dones = main_thread(events)
    if len(dones) != len(times):
        print(f"{len(dones)} marks for {len(times)} keystrokes: the trace lost some", file=sys.stderr)
    on = sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X"), key=lambda e: e["ts"])
    ts = [t for t, _ in times]
    print(f"{len(ts)} keystrokes of `{keys[0]}…`: median {B.median(ts):.2f} ms, p95 {B.percentile(ts, 95):.2f} ms, "
          + (f"keydown→input median {B.median([i for _, i in times]):.2f} ms" if times[0][1] is not None else "(no input event)"))
    order = sorted(range(len(ts)), key=lambda i: -ts[i])
    mid = len(order) // 2
    chosen = [("slowest", i) for i in order[:worst]] + [("median", i) for i in order[mid - worst // 2: mid + worst // 2]]
    totals = {"slowest": collections.Counter(), "median": collections.Counter()}
    for group, i in chosen:
        end = dones[i]
        start = end - ts[i] * 1000
        inside = [e for e in on if e["ts"] < end and e["ts"] + e.get("dur", 0) > start]
        by = collections.Counter()
        for e in inside:
            clip = (min(end, e["ts"] + e.get("dur", 0)) - max(start, e["ts"])) / 1000
            by[e["name"]] += clip
        first = next((e for e in inside if e["name"] == "EventDispatch" and e["args"].get("data", {}).get("type") == "keydown"), None)
        delivery = (first["ts"] - start) / 1000 if first else None
        tasks = [e for e in inside if e["name"] == "RunTask"]
        totals[group].update({k: v for k, v in by.items()})
        totals[group]["(delivery)"] += delivery or 0
        shown = ", ".join(f"{k} {v:.2f}" for k, v in by.most_common() if k in KINDS and v >= 0.05)
        editing = f" (keydown→input {times[i][1]:.2f})" if times[i][1] is not None else ""
        print(f"[{group}] key {i} `{keys[i]}` {ts[i]:.2f} ms{editing}; before the keydown's handler "
              f"{delivery if delivery is None else round(delivery, 2)} ms; {len(tasks)} tasks: {shown}")
        for e in tasks:
            kids = [c for c in inside if c is not e and e["ts"] <= c["ts"] < e["ts"] + e["dur"] and c["name"] != "RunTask"]
            top = collections.Counter()
            for c in kids:
                top[c["name"]] += c.get("dur", 0) / 1000
            src = e["args"].get("src_func") or e["args"].get("src_file") or ""
            print(f"      task at {(e['ts'] - start) / 1000:+.2f} ms, {e['dur'] / 1000:.2f} ms {src}: "
                  + ", ".join(f"{k} {v:.2f}" for k, v in top.most_common(7)))
    for group, c in totals.items():
        n = sum(1 for g, _ in chosen if g == group)
        print(f"mean per keystroke, {group} {n}: " + ", ".join(f"{k} {v / n:.2f}" for k, v in c.most_common(16) if k in KINDS or k == "(delivery)"))


if __name__ == "__main__":
    main()
