#!/usr/bin/env python3
"""Side-by-side benchmark: this project's `generate` vs Pagefind, on the same records.

    .venv/bin/python Tests/bench/run.py [--sizes chinook,100k,1m] [--runs 3]

See Tests/bench/README.md. Writes bench-out/results.md and bench-out/results.json.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
import pagefind_corpus  # noqa: E402
import slowphone  # noqa: E402
import synth  # noqa: E402
from records import CHINOOK, load_records, pick_rare_word  # noqa: E402
from tools import TOOLS, Ours  # noqa: E402

REPO = B.REPO
OUT = REPO / "bench-out"
KiB, MiB, GiB = 1024, 1024**2, 1024**3

# The issue's targets for this project, and Pagefind's reference figures from the issue.
TARGETS = {
    "chinook": {"build_s": 0.5, "first_kb": 30, "warm_p95_ms": 5, "page_kb": 25, "phone_ratio": 2},
    "100k": {"build_s": 6.5, "rss_mib": 350, "first_kb": 100, "warm_p95_ms": 16, "page_kb": 25, "phone_ratio": 3},
    "1m": {"build_s": 60, "rss_mib": 2048, "first_kb": 150, "warm_p95_ms": 16, "page_kb": 25},
}
PAGEFIND_ISSUE = {
    "chinook": {"build": "5.1 s", "rss": "129 MiB", "first": "145–163 KB, 11–13 req", "cold": "130–175 ms", "warm": "~40 ms"},
    "100k": {"build": "65.5 s", "rss": "3.5 GiB", "first": "0.74–1.34 MB, 11–15 req", "cold": "0.2–1.3 s", "warm": "up to 10 s"},
}


# ------------------------------------------------------------------ datasets
def size_key(s: str) -> str:
    return s.strip().lower()


def records_for(size: str) -> int | None:
    return None if size == "chinook" else synth.parse_size(size)


def dataset(size: str) -> tuple[Path, Path]:
    """(CSV folder, site config) for a size; synthetic data is generated once and cached."""
    if size == "chinook":
        return CHINOOK, REPO / "Data" / "site.yml"
    n = records_for(size)
    folder = OUT / "data" / size
    stamp = folder / ".stamp"
    want = f"{n} {synth.SEED} {(Path(synth.__file__)).stat().st_mtime_ns}"
    if not (stamp.exists() and stamp.read_text() == want):
        shutil.rmtree(folder, ignore_errors=True)
        B.say(f"[{size}] generating {n:,} synthetic records…")
        synth.generate(n, folder)
        stamp.write_text(want)
    return folder, folder / "site.yml"


def pagefind_site(size: str, data: Path) -> Path:
    folder = OUT / f"pagefind-{size}"
    stamp = folder / ".stamp"
    src = (data / "tracks.csv").stat().st_mtime_ns
    want = f"{src} {pagefind_corpus.corpus_version()}"
    if not (stamp.exists() and stamp.read_text() == want):
        shutil.rmtree(folder, ignore_errors=True)
        B.say(f"[{size}] rendering the Pagefind corpus…")
        pagefind_corpus.build(data, folder)
        stamp.write_text(want)
    pagefind_corpus.write_search_page(folder)
    return folder


# ------------------------------------------------------------------ builds
def summarize_runs(runs: list[dict]) -> dict:
    ok = [r for r in runs if r["ok"]]
    s = {"runs": len(runs), "ok_runs": len(ok), "loads": [r["load"] for r in runs],
         "walls": [r["wall"] for r in runs], "killed": next((r["killed"] for r in runs if r["killed"]), None)}
    if not ok:
        s["error"] = (runs[-1]["killed"] or runs[-1]["output"][-2000:]) if runs else "not run"
        s["rss_mib_seen"] = max((r["rss_kib"] for r in runs), default=0) / KiB
        return s
    s.update(wall=B.median([r["wall"] for r in ok]), cpu=B.median([r["cpu"] for r in ok]),
             rss_mib=B.median([r["rss_kib"] for r in ok]) / KiB)
    return s


def build_ours(size, config, generate, runs, timeout, max_rss, rebuild=True) -> dict:
    out = OUT / f"site-{size}"
    results = []
    cmd = [generate, "--config", config, "--output", out, "--verbose"]
    for i in range(runs):
        # Like Pagefind's runs: the previous output is set aside first (untimed; B.set_aside says
        # why not removed), with what the last build kept beside it; a rebuild over an existing
        # site is timed separately below.
        for folder in [out, *out.parent.glob(f".{out.name}.*")]:
            B.set_aside(folder)
        os.sync()
        B.say(f"[{size}] generate run {i + 1}/{runs} (load {os.getloadavg()[0]:.1f})…")
        r = B.timed(cmd, timeout, max_rss, cwd=REPO)
        r["steps"] = B.generator_steps(r["output"])
        results.append(r)
        B.say(f"    {r['wall']:.2f} s, {r['rss_kib'] / KiB:.0f} MiB, ok={r['ok']} {r['killed'] or ''} {r['steps']}")
        if not r["ok"]:
            break
    s = summarize_runs(results)
    if rebuild and s.get("ok_runs"):
        B.say(f"[{size}] generate rebuild over the existing output (load {os.getloadavg()[0]:.1f})…")
        r = B.timed(cmd, timeout, max_rss, cwd=REPO)
        s["rebuild"] = {"wall": r["wall"], "cpu": r["cpu"], "rss_mib": r["rss_kib"] / KiB, "ok": r["ok"],
                        "load": r["load"], "steps_ms": B.generator_steps(r["output"])}
        B.say(f"    {r['wall']:.2f} s {s['rebuild']['steps_ms']}")
    ok = [r for r in results if r["ok"]]
    if ok:
        names = list(ok[0]["steps"])
        s["steps_ms"] = {n: B.median([r["steps"].get(n) for r in ok]) for n in names}
        last = ok[-1]["output"]
        s["summary_line"] = next((ln for ln in last.splitlines() if ln.startswith("Built ")), "")
        s["index_bytes"], s["index_files"] = B.dir_size(out / "idx")
        s["site_bytes"], s["site_files"] = B.dir_size(out)
    s["site"] = str(out)
    return s


def build_pagefind(size, site, pagefind, runs, timeout, max_rss) -> dict:
    results = []
    for i in range(runs):
        B.set_aside(site / "pagefind")
        os.sync()
        B.say(f"[{size}] pagefind run {i + 1}/{runs} (load {os.getloadavg()[0]:.1f})…")
        r = B.timed([pagefind, "--site", site], timeout, max_rss, cwd=REPO)
        results.append(r)
        B.say(f"    {r['wall']:.2f} s, {r['rss_kib'] / KiB:.0f} MiB, ok={r['ok']} {r['killed'] or ''}")
        if not r["ok"]:
            break
    s = summarize_runs(results)
    if s.get("ok_runs"):
        s["index_bytes"], s["index_files"] = B.dir_size(site / "pagefind")
        s["pages"] = next((int(ln.split()[1]) for ln in results[-1]["output"].splitlines()
                           if ln.strip().startswith("Indexed") and ln.strip().endswith("pages")), None)
    s["site"] = str(site)
    return s


# ------------------------------------------------------------------ browser
def transfer(tool, log) -> dict:
    cats = {}
    for path, n in log:
        c = cats.setdefault(tool.categorize(path), {"bytes": 0, "requests": 0})
        c["bytes"] += n
        c["requests"] += 1
    return {"bytes": sum(n for _, n in log), "requests": len(log), "by": cats, "files": log}


ENGINE_ONLY = """async (texts) => {
  const href = [...document.querySelectorAll('link[rel=modulepreload], script[type=module]')]
    .map((e) => e.href || e.src).find((u) => /engine\\/engine\\.js$/.test(u))
    ?? new URL('js/engine/engine.js', document.querySelector('script[type=module]').src.replace(/js\\/[^/]+\\.js$/, '')).href;
  const { createEngine } = await import(href);
  const manifestURL = new URL(document.querySelector('meta[name="search-index"]').content, location.href).href;
  const engine = createEngine({ manifestURL });
  await engine.ready;
  for (const t of texts) await engine.suggest(t);
  const out = [];
  for (const t of texts) { const t0 = performance.now(); await engine.suggest(t); out.push(performance.now() - t0); }
  return out;
}"""


def arm(page, sel, mode, timeout=30000):
    page.evaluate(B.ARM, [sel, mode, timeout])


def warm_series(page, tool, q, final, warm_count, series_budget) -> dict:
    """Warm keystrokes on a page that has answered `q` (or repeated final searches)."""
    times, input_delays, t_start = [], [], time.monotonic()
    handled = []  # final searches: from the key's first handler (no delivery), as Pagefind's page times from its JS
    if final:
        for _ in range(min(20, warm_count)):
            if time.monotonic() - t_start > series_budget:
                break
            tool.final_search(page, arm)
            t, tk = page.evaluate("window.__t.then((t) => [t, window.__tk])")
            times.append(t)
            handled.append(t - (tk or 0) if t >= 0 else t)
    else:
        page.focus("#q")
        for i, key in enumerate(B.warm_keys(q, warm_count + 2 * len(q))):
            if time.monotonic() - t_start > series_budget:
                break
            arm(page, tool.results_root, "any")
            page.keyboard.press(key)
            t, ti = page.evaluate("window.__t.then((t) => [t, window.__ti])")
            if i >= 2 * (len(q) - 1):  # the first cycle is a warm-up: it fetches the prefixes' shards
                times.append(t)
                input_delays.append(ti)
    return {"warm_times": times, "warm_n": len([t for t in times if t >= 0]), "warm_timeouts": len([t for t in times if t < 0]),
            "warm_median_ms": B.median([t for t in times if t >= 0]), "warm_p95_ms": B.percentile(times, 95),
            "warm_input_delay_median_ms": B.median(input_delays),
            **({"warm_handled_median_ms": B.median([t for t in handled if t >= 0]), "warm_handled_p95_ms": B.percentile(handled, 95)} if handled else {}),
            "warm_budget_hit": time.monotonic() - t_start > series_budget}


def engine_alone(page, q, warm_count) -> dict:
    """The engine alone (no UI): the texts the warm keystrokes produced, on a second engine
    instance in the page, timed after one warm-up pass."""
    texts, cur = [], q
    for key in B.warm_keys(q, warm_count + 2 * len(q)):
        cur = cur[:-1] if key == "Backspace" else cur + key
        texts.append(cur)
    try:
        et = page.evaluate(ENGINE_ONLY, texts)
        return {"engine_warm_median_ms": B.median(et), "engine_warm_p95_ms": B.percentile(et, 95)}
    except Exception as e:  # the engine's module layout may change
        return {"engine_error": str(e)[:300]}


def measure_tool(pw, tool, site: Path, queries: dict, warm_count: int, series_budget: float, cold_runs: int = 1) -> dict:
    """Cold first query (fresh context: bytes from navigation to results, time from input to
    results), then warm keystrokes on the same page."""
    res = {"queries": {}}
    with B.GzipServer(site) as srv, B.launch(pw) as browser:
        def fresh():
            ctx = browser.new_context()
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            srv.take()
            page.goto(srv.url + "/", wait_until="load")
            tool.wait_ready(page)
            return ctx, page, errors

        # warm-up context: fills the server's gzip cache so cold timings do not include compression
        ctx, page, _ = fresh()
        for q in queries.values():
            arm(page, tool.results_root, "any")
            page.evaluate("(v) => window.__input(v)", q)
            page.evaluate("window.__t")
        ctx.close()

        for label, q in queries.items():
            B.say(f"    {tool.name}: {label} '{q}' (load {os.getloadavg()[0]:.1f})")
            load = os.getloadavg()[0]
            ctx, page, errors = fresh()
            ready_log = list(srv.log)
            arm(page, tool.results_root, "any", 120000)
            page.evaluate("(v) => window.__input(v)", q)
            cold = page.evaluate("window.__t")
            entry = {"query": q, "load": round(load, 2), "cold_ms": cold}
            final = label == "typo"
            if final and tool.has_final_search:
                entry["partial_ms"] = cold
                entry["partial_first"] = transfer(tool, list(srv.log))
                tool.final_search(page, arm)
                entry["cold_ms"] = cold = page.evaluate("window.__t")
            time.sleep(0.3)  # let stragglers (prefetches) land so they are counted
            entry["first"] = transfer(tool, srv.take())
            entry["ready"] = transfer(tool, ready_log)
            entry.update(tool.shown(page, final and tool.has_final_search))
            entry.update(warm_series(page, tool, q, final, warm_count, series_budget))
            if tool.has_engine and not final:
                entry.update(engine_alone(page, q, warm_count))
            entry["errors"] = errors
            ctx.close()
            # More cold samples, each in a fresh context (one is at the mercy of the machine's load):
            # the median is reported, every sample kept.
            colds = [cold]
            for _ in range(cold_runs - 1):
                ctx, page, _ = fresh()
                arm(page, tool.results_root, "any", 120000)
                page.evaluate("(v) => window.__input(v)", q)
                c = page.evaluate("window.__t")
                if final and tool.has_final_search:
                    tool.final_search(page, arm)
                    c = page.evaluate("window.__t")
                colds.append(c)
                ctx.close()
            if cold_runs > 1:
                entry["cold_runs"], entry["cold_ms"] = colds, B.median([c for c in colds if c >= 0])
            res["queries"][label] = entry
            B.say(f"      cold {entry['cold_ms']:.1f} ms (of {len(colds)}), {entry['first']['bytes'] / 1000:.1f} KB in {entry['first']['requests']} req; "
                  f"warm median {entry['warm_median_ms']} p95 {entry['warm_p95_ms']} (n={entry['warm_n']}); shown {len(entry['shown'])}")
    # The page's own bytes come with the first query measured ("common" in run.py's own set).
    first = res["queries"].get("common") or next(iter(res["queries"].values()))
    if tool is Ours:
        page = first["first"]["by"].get("page", {})
        res["page_bytes"], res["page_requests"] = page.get("bytes"), page.get("requests")
    else:
        lib = first["first"]["by"].get("library", {})
        res["library_bytes"], res["library_requests"] = lib.get("bytes"), lib.get("requests")
        srv2 = B.GzipServer(site)
        ui = sum(len(srv2.load(f"/pagefind/{n}")[0] or b"") for n in ("pagefind-ui.js", "pagefind-ui.css"))
        res["ui_bytes"] = ui  # Pagefind's default UI bundle, not loaded by the harness page
    return res


# ------------------------------------------------------------------ report
def kb(n):
    return None if n is None else n / 1000


def fmt_num(v, unit="", nd=1):
    if v is None:
        return "–"
    if unit == " ms" and v < 0:
        return "timeout"
    if isinstance(v, float) and v >= 100:
        nd = 0
    return f"{v:,.{nd}f}{unit}"


def ratio(pf, ours):
    if pf is None or ours in (None, 0) or pf < 0 or ours < 0:
        return "–"
    r = pf / ours
    return f"{r:,.2f}×" if r < 1 else f"{r:,.1f}×"


def check(v, target, lower_is_better=True):
    if v is None or target is None:
        return ""
    return "✅" if v < target else f"❌ ({v / target:.1f}× target)"


def report(results: dict) -> str:
    rows = []
    hdr = ("| size | metric | generate | target | Pagefind (here) | Pagefind ÷ generate | Pagefind (issue) |\n"
           "|---|---|---:|---|---:|---:|---|")
    for size, r in results["sizes"].items():
        start = len(rows)
        no_pf_browser = not (r.get("pagefind") or {}).get("browser")
        t = TARGETS.get(size, {})
        ref = PAGEFIND_ISSUE.get(size, {})
        o, p = r.get("ours", {}), r.get("pagefind", {})
        ob, pb = o.get("build", {}), p.get("build", {})
        if str(pb.get("error", "")).startswith("not run"):
            p, pb = {}, {"skipped": True}
        recs = r.get("records")
        rows.append(f"| **{size}** | records (pages built) | {recs:,} ({ob.get('summary_line', '').split(' pages')[0].replace('Built ', '') or '–'} pages) | | "
                    f"{fmt_num(pb.get('pages'), nd=0)} pages | | |")
        note = f"median of {ob.get('ok_runs', 0)}" + (f"; load {ob['loads'][0][0]}" if ob.get("loads") else "")
        pnote = f"median of {pb.get('ok_runs', 0)}"
        if ob.get("error"):
            rows.append(f"| | build | FAILED: {str(ob['error'])[:120]} | | | | |")
        else:
            if pb.get("killed"):
                pb = {**pb, "error": f"stopped by the watchdog: {pb['killed']}"}
            pcell = ("not run (see note)" if pb.get("skipped") else
                     f"FAILED: {pb['error'] if isinstance(pb['error'], str) and len(pb['error']) < 160 else 'see results.json'}" if pb.get("error") else
                     f"{fmt_num(pb.get('wall'), ' s', 2)} ({pnote})")
            rows.append(f"| | build wall ({note}) | {fmt_num(ob.get('wall'), ' s', 2)} | < {t.get('build_s', '–')} s {check(ob.get('wall'), t.get('build_s'))} | "
                        f"{pcell} | {ratio(pb.get('wall'), ob.get('wall'))} | {ref.get('build', '')} |")
            rows.append(f"| | build CPU (user+sys) | {fmt_num(ob.get('cpu'), ' s', 2)} | | {fmt_num(pb.get('cpu'), ' s', 2)} | {ratio(pb.get('cpu'), ob.get('cpu'))} | |")
            rt = t.get("rss_mib")
            rows.append(f"| | build peak RSS | {fmt_num(ob.get('rss_mib'), ' MiB', 0)} | {'< ' + str(rt) + ' MiB ' + check(ob.get('rss_mib'), rt) if rt else ''} | "
                        f"{fmt_num(pb.get('rss_mib'), ' MiB', 0) if pb.get('rss_mib') else ('≥ ' + fmt_num(pb['rss_mib_seen'], ' MiB', 0) + ' when stopped') if pb.get('rss_mib_seen') else '–'} | "
                        f"{ratio(pb.get('rss_mib'), ob.get('rss_mib')) if pb.get('rss_mib') else ('≥ ' + ratio(pb.get('rss_mib_seen'), ob.get('rss_mib'))) if pb.get('rss_mib_seen') else '–'} | {ref.get('rss', '')} |")
            rb = ob.get("rebuild")
            if rb:
                rsteps = ", ".join(f"{k} {v / 1000:.2f}" for k, v in (rb.get("steps_ms") or {}).items())
                rows.append(f"| | rebuild over the previous output (1 run; load {rb['load'][0]}) | {fmt_num(rb.get('wall'), ' s', 2)} ({rsteps}) | "
                            f"{'< ' + str(t.get('build_s')) + ' s ' + check(rb.get('wall'), t.get('build_s')) if t.get('build_s') else ''} | | | |")
            steps = ", ".join(f"{k} {v / 1000:.2f}" for k, v in (ob.get("steps_ms") or {}).items())
            rows.append(f"| | build steps (s, median) | {steps} | | | | |")
            rows.append(f"| | index on disk | {fmt_num(kb(ob.get('index_bytes')), ' KB', 0)} in {fmt_num(ob.get('index_files'), nd=0)} files | | "
                        f"{fmt_num(kb(pb.get('index_bytes')), ' KB', 0)} in {fmt_num(pb.get('index_files'), nd=0)} files | {ratio(pb.get('index_bytes'), ob.get('index_bytes'))} | |")
        ob_, pbw = o.get("browser"), p.get("browser")
        if ob_ or pbw:
            ob_ = ob_ or {"queries": {}}
            pbw = pbw or {"queries": {}}
            if ob_.get("page_bytes") is not None:
                rows.append(f"| | search page HTML+CSS+JS (gzip) | {kb(ob_['page_bytes']):.1f} KB in {ob_['page_requests']} req | < {t.get('page_kb')} KB {check(kb(ob_['page_bytes']), t.get('page_kb'))} | "
                            f"pagefind.js+worker+wasm {fmt_num(kb(pbw.get('library_bytes')), ' KB')} ({pbw.get('library_requests', '–')} req); + default UI js/css {fmt_num(kb(pbw.get('ui_bytes')), ' KB')} | | |")
            orq, prq = ob_["queries"].get("common", {}).get("ready"), pbw["queries"].get("common", {}).get("ready")
            if orq or prq:
                def cat(x, c):
                    return (x or {}).get("by", {}).get(c, {})
                rows.append(f"| | loaded before the first keystroke | {fmt_num(kb((orq or {}).get('bytes')), ' KB')} in {(orq or {}).get('requests', '–')} req "
                            f"(manifest/index {fmt_num(kb(cat(orq, 'index').get('bytes')), ' KB')}) | | "
                            f"{fmt_num(kb((prq or {}).get('bytes')), ' KB')} in {(prq or {}).get('requests', '–')} req (init: entry+meta {fmt_num(kb(cat(prq, 'index').get('bytes')), ' KB')}) | "
                            f"{ratio((prq or {}).get('bytes'), (orq or {}).get('bytes'))} | |")
            for label in ("common", "prefix", "rare", "typo"):
                oq, pq = ob_["queries"].get(label), pbw["queries"].get(label)
                if not oq and not pq:
                    continue
                q = (oq or pq)["query"]
                of, pf = (oq or {}).get("first", {}), (pq or {}).get("first", {})
                oidx = of.get("by", {}).get("index", {})
                pidx = pf.get("by", {}).get("index", {})
                shown_o = len(oq["shown"]) if oq else None
                shown_p = f"{len(pq['shown'])} of {pq.get('total')}" if pq else "–"
                kind = "Enter → results" if label == "typo" else "first suggestions"
                ft = t.get("first_kb")
                rows.append(f"| | `{q}` ({label}): first query, gzip bytes from page load | "
                            f"{fmt_num(kb(of.get('bytes')), ' KB')} in {of.get('requests', '–')} req (index {fmt_num(kb(oidx.get('bytes')), ' KB')} / {oidx.get('requests', 0)} req) | "
                            f"< {ft} KB {check(kb(of.get('bytes')), ft)} | {fmt_num(kb(pf.get('bytes')), ' KB')} in {pf.get('requests', '–')} req (index {fmt_num(kb(pidx.get('bytes')), ' KB')} / {pidx.get('requests', 0)} req) | "
                            f"{ratio(pf.get('bytes'), of.get('bytes'))} | {ref.get('first', '') if label == 'common' else ''} |")
                corr = f"; “{oq.get('correction')}”" if oq and oq.get("correction") else ""
                of_n = lambda e: f", median of {len(e['cold_runs'])}" if e and e.get("cold_runs") else ""  # noqa: E731
                rows.append(f"| | `{q}`: cold, input → {kind} | {fmt_num((oq or {}).get('cold_ms'), ' ms')} ({shown_o} shown{corr}{of_n(oq)}) | | "
                            f"{fmt_num((pq or {}).get('cold_ms'), ' ms')} ({shown_p}{of_n(pq)}) | {ratio((pq or {}).get('cold_ms'), (oq or {}).get('cold_ms'))} | {ref.get('cold', '') if label == 'common' else ''} |")
                if oq and oq.get("engine_warm_median_ms") is not None:
                    rows.append(f"| | `{q}`: breakdown of a warm keystroke (median) | keydown→input event {fmt_num(oq.get('warm_input_delay_median_ms'), ' ms', 2)}; "
                                f"engine alone (`engine.suggest`, same texts: kept answers since h-keys; a new text is `Tests/js/bench.mjs`) {fmt_num(oq['engine_warm_median_ms'], ' ms', 2)} (p95 {fmt_num(oq['engine_warm_p95_ms'], ' ms', 2)}) | | "
                                f"keydown→input event {fmt_num((pq or {}).get('warm_input_delay_median_ms'), ' ms', 2)} | | |")
                wt = t.get("warm_p95_ms")
                wn = (oq or {}).get("warm_n"), (pq or {}).get("warm_n")
                handled = lambda e: (f"; from the key's handler {fmt_num(e['warm_handled_median_ms'], ' ms')} / {fmt_num(e['warm_handled_p95_ms'], ' ms')}"  # noqa: E731
                                     if e and e.get("warm_handled_p95_ms") is not None else "")
                budget = " (time budget hit)" if pq and pq.get("warm_budget_hit") else ""
                rows.append(f"| | `{q}`: warm {'re-search' if label == 'typo' else 'keystroke'} median / p95 | "
                            f"{fmt_num((oq or {}).get('warm_median_ms'), ' ms')} / {fmt_num((oq or {}).get('warm_p95_ms'), ' ms')} (n={wn[0]}{handled(oq)}) | "
                            f"{'p95 < ' + str(wt) + ' ms ' + check((oq or {}).get('warm_p95_ms'), wt) if label != 'typo' else ''} | "
                            f"{fmt_num((pq or {}).get('warm_median_ms'), ' ms')} / {fmt_num((pq or {}).get('warm_p95_ms'), ' ms')} (n={wn[1]}){budget} | "
                            f"{ratio((pq or {}).get('warm_p95_ms'), (oq or {}).get('warm_p95_ms'))} (p95) | {ref.get('warm', '') if label == 'common' else ''} |")
        if no_pf_browser:  # blank the Pagefind cells of the browser rows
            for i in range(start, len(rows)):
                cells = rows[i].strip().strip("|").split("|")
                if len(cells) == 7 and ("query" in cells[1] or "keystroke" in cells[1] or "search page" in cells[1]
                                        or "cold" in cells[1] or "before the first" in cells[1] or "re-search" in cells[1]):
                    cells[4], cells[5] = " – ", " "
                    rows[i] = "|" + "|".join(cells) + "|"
        rows += slowphone.report_rows(size, o.get("phone"), p.get("phone"), t.get("phone_ratio"))
        for n in r.get("notes", []):
            rows.append(f"| | note | {n} | | | | |")
    meta = results["meta"]
    head = (f"# generate vs Pagefind\n\n{meta['date']} · {meta['machine']} · generate: `{meta['generate']}` "
            f"(modified {meta['generate_mtime']}, sha256 {meta.get('generate_sha256', '?')}) · the built-in theme compiled in, Data/templates at run time · Pagefind {meta['pagefind_version']} · Chromium {meta.get('chromium', '?')} · "
            f"runs: {meta['runs']} · load average at start {meta['load_start']}\n\n"
            "Bytes are gzip bytes on the wire (body, level-6 gzip for text; Pagefind's own files are pre-compressed). "
            "First query: a fresh browser context loads the search page and the query is entered at once (one `input` event); "
            "bytes count everything from navigation to the first rendered results. Cold/warm: ms from the `input`/keydown "
            "event to the results DOM update (MutationObserver). generate is measured through its real search page "
            "(suggestions listbox `#suggestions`; the typo row is a final search: Enter → `#rows`); Pagefind through its "
            "JS API (`search()` + `data()` of the first 5 results, rendered into a list), as its default UI does. "
            "Ratios are Pagefind ÷ generate (> 1× means generate is smaller/faster).\n\n")
    return head + hdr + "\n" + "\n".join(rows) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description="generate vs Pagefind benchmark")
    ap.add_argument("--sizes", default="chinook,100k", help="comma list: chinook, 20k, 100k, 1m, … (default chinook,100k)")
    ap.add_argument("--runs", type=int, default=3, help="builds per tool and size (median reported)")
    ap.add_argument("--runs-1m", type=int, default=1, help="builds at 1M records and more (default 1)")
    ap.add_argument("--generate", help="generator binary (default: $GENERATE, then this repository's .build/release/generate)")
    ap.add_argument("--pagefind", help="pagefind binary (default: the pagefind_bin package, then PATH)")
    ap.add_argument("--tools", default="ours,pagefind")
    ap.add_argument("--skip-browser", action="store_true", help="no loopback browser measurements")
    ap.add_argument("--skip-phone", action="store_true", help="no slow-phone measurements")
    ap.add_argument("--phone-runs", type=int, default=5, help="slow-phone runs per tool and word (median reported)")
    ap.add_argument("--skip-build", action="store_true", help="reuse the sites already built in bench-out/")
    ap.add_argument("--reuse-pagefind", action="store_true",
                    help="reuse Pagefind's index already in bench-out/ (with --update its build figures are kept)")
    ap.add_argument("--warm", type=int, default=100, help="warm keystrokes per query")
    ap.add_argument("--cold-runs", type=int, default=1, help="cold first queries per query, each in a fresh context (median reported)")
    ap.add_argument("--timeout", type=float, default=20 * 60, help="per build, seconds (the watchdog kills it)")
    ap.add_argument("--max-rss", type=float, default=12, help="per build, GiB (the watchdog kills it)")
    ap.add_argument("--pagefind-max-records", default="100k",
                    help="largest size Pagefind is run at (Pagefind needed 3.5 GiB at 100k; 1M would need far more than this machine has)")
    ap.add_argument("--series-budget", type=float, default=120, help="seconds per warm keystroke series")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--update", action="store_true",
                    help="merge into the existing results.json (e.g. add one tool or size) instead of starting afresh")
    ap.add_argument("--report-only", action="store_true", help="rewrite results.md from results.json and print it")
    args = ap.parse_args(argv)
    if args.report_only:
        results = json.loads((args.out / "results.json").read_text())
        (args.out / "results.md").write_text(report(results))
        print(report(results))
        return

    sizes = [size_key(s) for s in args.sizes.split(",") if s.strip()]
    tools = set(args.tools.split(","))
    generate = B.find_generate(args.generate)
    pagefind = B.find_pagefind(args.pagefind)
    if "ours" in tools and not generate:
        sys.exit("no generator binary: build it with `swift build -c release` or pass --generate")
    if "pagefind" in tools and not pagefind:
        sys.exit("no pagefind binary: `pip install 'pagefind[bin]'` or pass --pagefind")
    pf_version = subprocess.run([pagefind, "--version"], capture_output=True, text=True).stdout.strip() if pagefind else "–"
    pf_max = synth.parse_size(args.pagefind_max_records)
    args.out.mkdir(parents=True, exist_ok=True)

    meta = {
        "date": dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": f"{platform.platform()}, {os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / GiB:.0f} GiB RAM",
        "generate": str(generate), "generate_mtime": dt.datetime.fromtimestamp(generate.stat().st_mtime).strftime("%Y-%m-%d %H:%M") if generate else "–",
        "pagefind_version": pf_version, "runs": args.runs, "load_start": round(os.getloadavg()[0], 2), "sizes": sizes,
    }
    if generate:
        import hashlib
        meta["generate_sha256"] = hashlib.sha256(generate.read_bytes()).hexdigest()[:12]
    try:
        meta["chromium"] = subprocess.run([B.CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip().split()[-1]
    except OSError:
        pass
    results = {"meta": meta, "sizes": {}}
    json_path, md_path = args.out / "results.json", args.out / "results.md"
    if args.update and json_path.exists():
        old = json.loads(json_path.read_text())
        old["meta"].setdefault("updates", []).append({k: meta[k] for k in ("date", "generate", "generate_sha256", "load_start", "sizes") if k in meta} | {"tools": sorted(tools)})
        results = old

    def save():
        json_path.write_text(json.dumps(results, indent=1, ensure_ascii=False, default=str))
        md_path.write_text(report(results))

    for size in sizes:
        t0 = time.monotonic()
        data, config = dataset(size)
        records = load_records(data)
        rare, rare_df = pick_rare_word(records)
        queries = {"common": "love", "prefix": "lo", "rare": rare, "typo": "metalica"}
        n = records_for(size)
        runs = args.runs_1m if (n or 0) >= 1_000_000 else args.runs
        prev = results["sizes"].get(size, {}) if args.update else {}
        r = results["sizes"][size] = {"records": len(records), "queries": queries, "rare_df": rare_df,
                                      "runs": runs, "notes": []}
        for tool in ("ours", "pagefind"):
            if tool not in tools and tool in prev:
                r[tool] = prev[tool]
        r["notes"] = [n for n in prev.get("notes", []) if not (("pagefind" in tools and "Pagefind not run" in n) or "build run(s)" in n)]
        if runs < args.runs:
            r["notes"].append(f"{runs} build run(s) per tool at this size, to save time (others: median of {args.runs})")
        B.say(f"== {size}: {len(records):,} records; queries {queries} (rare word in {rare_df} records)")
        if "ours" in tools:
            o = r["ours"] = {}
            out = OUT / f"site-{size}"
            if args.skip_build and (out / "index.html").exists():
                o["build"] = {"note": "reused"}
            else:
                o["build"] = build_ours(size, config, generate, runs, args.timeout, args.max_rss)
            save()
        if "pagefind" in tools:
            p = r["pagefind"] = {}
            if (n or 0) > pf_max:
                p["build"] = {"error": f"not run above {args.pagefind_max_records} records (see --pagefind-max-records)"}
                r["notes"].append(f"Pagefind not run at {size}: at 100k it already needs GiBs of RAM (issue: 3.5 GiB); "
                                  f"pass --pagefind-max-records {size} to try (the watchdog stops it at {args.max_rss} GiB / {args.timeout / 60:.0f} min)")
            else:
                site = pagefind_site(size, data)
                if (args.skip_build or args.reuse_pagefind) and (site / "pagefind" / "pagefind.js").exists():
                    p["build"] = {"note": "reused"}
                else:
                    p["build"] = build_pagefind(size, site, pagefind, runs, args.timeout, args.max_rss)
            save()
        for name in ("ours", "pagefind"):  # measurements skipped this time keep their last figures
            if name in r and r[name].get("build") == {"note": "reused"} and "build" in prev.get(name, {}):
                r[name]["build"] = prev[name]["build"]
            for k in ("browser", "phone"):
                if name in r and k in prev.get(name, {}):
                    r[name].setdefault(k, prev[name][k])
        sites = {"ours": OUT / f"site-{size}", "pagefind": OUT / f"pagefind-{size}"}
        usable = [name for name in ("ours", "pagefind") if name in tools and not r[name]["build"].get("error")]
        if usable and not (args.skip_browser and args.skip_phone):
            from playwright.sync_api import sync_playwright
            with sync_playwright() as pw:
                for name in usable if not args.skip_browser else []:
                    B.say(f"[{size}] browser: {TOOLS[name].label}")
                    r[name]["browser"] = measure_tool(pw, TOOLS[name], sites[name], queries, args.warm, args.series_budget,
                                                      args.cold_runs)
                    save()
                if usable and not args.skip_phone:
                    B.say(f"[{size}] slow phone: {', '.join(TOOLS[n].label for n in usable)}, run by run in turn")
                    words = {k: queries[k] for k in ("common", "prefix", "rare")}
                    phone = slowphone.measure(pw, [(TOOLS[n], sites[n]) for n in usable], words, args.phone_runs)
                    for name in usable:
                        r[name]["phone"] = phone[name]
                    save()
        r["seconds"] = round(time.monotonic() - t0, 1)
        save()
    results["meta"]["load_end"] = round(os.getloadavg()[0], 2)
    save()
    B.empty_trash()
    print(report(results))
    print(f"written: {md_path.relative_to(REPO) if md_path.is_relative_to(REPO) else md_path}, {json_path.name}")


if __name__ == "__main__":
    main()
