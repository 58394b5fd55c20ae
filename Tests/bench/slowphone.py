"""The benchmark's "slow phone": first use of a search page on Lighthouse's Slow 4G.

Chromium through Playwright, throttled with the DevTools protocol as Lighthouse's
mobile profile does: 150 ms round trip, 1.6 Mbps down, 750 Kbps up, the cache
off, and the CPU slowed 4×. A fresh context opens the page; as soon as the
search field is visible (the first frame in which `#q` has a box) it is focused
and the word is typed one key every 150 ms, as a person would. Recorded, from
navigation start:

- *field visible*: that first frame;
- *interactive*: the first keystroke answered (suggestions shown for any
  prefix of the word), and how long after the field showed;
- *first suggestions*: the suggestions shown are the answer for the whole word;
- *requests* the server saw up to then, their gzip bytes, and the *round-trip
  depth*: the longest chain of requests each of which started only after the one
  before it had finished (from the protocol's request timings; an upper bound,
  since a request that merely came later counts as waiting).
"""
from __future__ import annotations

import os
import time

import benchlib as B

SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 93_750}
CPU_SLOWDOWN = 4
KEY_INTERVAL = 0.150
# A page that has not answered by then never will (its typed text was lost).
ANSWER_TIMEOUT_MS = 20_000

# Installed before any page script: records when the field first has a box, every keydown,
# and every change of the text the shown suggestions answer.
INSTRUMENT = """(() => {
  const phone = window.__phone = { visible: null, keys: [], answers: [] };
  let shown;
  window.__phoneShown = new Promise((resolve) => { shown = resolve; });
  // Resolves once the shown suggestions answer `word` (false after `ms`): awaited, not polled.
  const waiting = [];
  window.__phoneAnswer = (word, ms) => new Promise((resolve) => {
    if (phone.answers.some((a) => a[1] === word)) return resolve(true);
    waiting.push([word, resolve]);
    setTimeout(() => resolve(false), ms);
  });
  const answeredFor = () => ANSWERED_FOR;
  const check = () => {
    let v = null;
    try { v = answeredFor(); } catch { v = null; }
    const last = phone.answers[phone.answers.length - 1];
    if (v !== null && v !== undefined && v !== '' && (!last || last[1] !== v)) {
      phone.answers.push([performance.now(), v]);
      for (const [word, resolve] of waiting) if (word === v) resolve(true);
    }
  };
  addEventListener('keydown', (e) => phone.keys.push([e.timeStamp, e.key]), true);
  // The observer starts once the field shows (no key is typed before): observing the
  // document while it is parsed queued a record for every node the parser inserted,
  // delivered at each script's microtask checkpoint, which cost a page with more markup
  // more of its main thread before its field's frame (ours 5-6 ms at 4x, Pagefind's 1.7).
  const frame = () => {
    // Pagefind's Default UI makes its own field, with no id.
    const q = document.getElementById('q') || document.querySelector('.pagefind-ui__search-input');
    if (!q || q.getBoundingClientRect().width === 0) return requestAnimationFrame(frame);
    shown(phone.visible = performance.now());
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    check();
  };
  requestAnimationFrame(frame);
})()"""


def chain_depth(requests: list[dict]) -> int:
    """The longest chain of requests where each started after the previous one finished."""
    done = sorted((r for r in requests if r.get("end") is not None), key=lambda r: r["start"])
    depth = {}
    for i, r in enumerate(done):
        before = [depth[j] for j in range(i) if done[j]["end"] <= r["start"] + 0.5]
        depth[i] = 1 + max(before, default=0)
    return max(depth.values(), default=0)


def phone_page(browser, answered_for: str = "null"):
    """A fresh context as the phone: 390 px, touch, the page's timing instrumented."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ctx.add_init_script(INSTRUMENT.replace("ANSWERED_FOR", answered_for))
    return ctx, ctx.new_page()


def throttle(cdp) -> None:
    """Slow 4G with the cache off and the CPU slowed, on the page's protocol session."""
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def field_visible(page, quiet_ms: int = 0) -> float:
    """Waits for the search field's first box; ms from navigation start.

    Awaits the instrument's promise rather than polling (Playwright's `wait_for_function`
    builds its predicate with `eval`, which the site's strict policy refuses once the
    navigation commits, so it failed now and then). The first call into a page installs
    Playwright's own script there, 15-20 ms of its main thread at 4x CPU, which landed
    between the head's and the body's parsing: with `quiet_ms` nothing is asked of the
    page before then (for measures that need only the figure, not the moment)."""
    if quiet_ms:
        page.wait_for_timeout(quiet_ms)
    for _ in range(50):
        try:
            return page.evaluate("() => window.__phoneShown")
        except Exception as e:  # noqa: BLE001 — the about:blank context went away under it
            if "context was destroyed" not in str(e) and "navigat" not in str(e):
                raise
    raise RuntimeError("the page kept navigating")


def one_run(browser, srv, tool, word: str) -> dict:
    ctx, page = phone_page(browser, tool.answered_for)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A CSP violation (the server sends the site's `_headers` policy) is a console error.
    page.on("console", lambda m: m.type == "error" and errors.append(m.text[:200]))
    cdp = ctx.new_cdp_session(page)
    requests: dict[str, dict] = {}
    t0: list[float] = []

    def sent(e):
        if not t0:
            t0.append(e["timestamp"])
        requests.setdefault(e["requestId"], {"url": e["request"]["url"], "start": (e["timestamp"] - t0[0]) * 1000, "end": None})

    def finished(e):
        r = requests.get(e["requestId"])
        if r is not None and t0:
            r["end"] = (e["timestamp"] - t0[0]) * 1000
            r["bytes"] = e.get("encodedDataLength")

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", finished)
    # Playwright also sees a dedicated worker's requests (Pagefind fetches its index from one),
    # which the page's own protocol session does not.
    seen: list[dict] = []

    def done(request):
        t = request.timing
        if t and t.get("startTime", -1) > 0 and t.get("responseEnd", -1) >= 0:
            seen.append({"url": request.url, "t": t["startTime"], "end_rel": t["responseEnd"]})

    page.on("requestfinished", done)
    throttle(cdp)
    srv.take()
    page.goto(srv.url + "/", wait_until="commit")
    field_visible(page)
    start = time.monotonic()
    page.focus("#q")
    for i, key in enumerate(word):
        delay = start + i * KEY_INTERVAL - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        page.keyboard.press(key)
    # Awaited as the field is (field_visible): no predicate `eval`ed under the strict policy.
    if not page.evaluate("([w, ms]) => window.__phoneAnswer(w, ms)", [word, ANSWER_TIMEOUT_MS]):
        errors.append(f"no answer for {word!r} within {ANSWER_TIMEOUT_MS} ms")
    phone = page.evaluate("window.__phone")
    log = srv.take()
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    ctx.close()

    answers = phone["answers"]
    full = next((t for t, v in answers if v == word), None)
    typed = [k for k in phone["keys"] if k[1] in word]
    first_key = typed[0][0] if typed else None
    first_answer = next((t for t, v in answers if word.startswith(v)), None)
    until = full if full is not None else float("inf")
    # Playwright's timings are wall-clock (ms since the epoch): line them up with the
    # protocol's at the page's own request, then prefer them (they include workers).
    doc = next((r for r in seen if r["url"].rstrip("/") == srv.url), None)
    if doc:
        requests = {str(i): {"url": r["url"], "start": r["t"] - doc["t"], "end": r["t"] - doc["t"] + r["end_rel"]}
                    for i, r in enumerate(seen)}
    before = [r for r in requests.values() if r["start"] <= until]
    html_end = next((r["end"] for r in requests.values() if r["url"].rstrip("/") == srv.url and r["end"]), None)
    return {
        "visible_ms": phone["visible"],
        "first_key_ms": first_key,
        "interactive_ms": first_answer,
        "first_key_answered_after_visible_ms": None if first_answer is None else first_answer - phone["visible"],
        "answer_ms": full,
        "html_ms": html_end,
        "requests": len(before),
        "requests_served": len(log),
        "bytes_served": sum(n for _, n in log),
        "depth": chain_depth(before),
        "answers": answers[:12],
        "errors": errors,
        "network": sorted(({"url": r["url"].replace(srv.url, ""), "start": round(r["start"]), "end": r["end"] and round(r["end"])}
                           for r in before), key=lambda r: r["start"]),
    }


def measure(pw, pages: list, words: dict[str, str], runs: int) -> dict:
    """`pages`: (tool, site) pairs. Each run loads every tool's page in turn, so both see the
    same moment's machine load (other work shares its cores); median of `runs` per word,
    every run kept in the JSON. Returns {tool name: figures}."""
    out = {tool.name: {"network": SLOW_4G, "cpu_slowdown": CPU_SLOWDOWN, "key_interval_ms": KEY_INTERVAL * 1000, "words": {}}
           for tool, _ in pages}
    servers = [B.GzipServer(site).__enter__() for _, site in pages]
    try:
        with B.launch(pw) as browser:
            for (tool, _), srv in zip(pages, servers):
                one_run(browser, srv, tool, next(iter(words.values())))  # fills the server's gzip cache
            for label, word in words.items():
                kept = {tool.name: [] for tool, _ in pages}
                for i in range(runs):
                    for (tool, _), srv in zip(pages, servers):
                        r = one_run(browser, srv, tool, word)
                        r["load"] = round(os.getloadavg()[0], 2)
                        kept[tool.name].append(r)
                        B.say(f"    slow phone {tool.name} {label} '{word}' run {i + 1}: visible {r['visible_ms'] or 0:.0f} ms, "
                              f"first key answered {r['interactive_ms'] or -1:.0f} ms, '{word}' {r['answer_ms'] or -1:.0f} ms, "
                              f"{r['requests']} req, depth {r['depth']}, {r['bytes_served'] / 1000:.1f} KB (load {r['load']}) {r['errors'] or ''}")
                for name, runs_ in kept.items():
                    med = lambda k: B.median([r[k] for r in runs_ if r[k] is not None])  # noqa: E731
                    out[name]["words"][label] = {
                        "word": word,
                        **{k: med(k) for k in ("visible_ms", "interactive_ms", "first_key_answered_after_visible_ms", "answer_ms",
                                                "html_ms", "requests", "depth", "bytes_served")},
                        "timeouts": sum(1 for r in runs_ if r["answer_ms"] is None),
                        "runs": runs_,
                    }
    finally:
        for srv in servers:
            srv.__exit__(None, None, None)
    return out


def report_rows(size: str, ours: dict | None, pf: dict | None, target_ratio: float | None) -> list[str]:
    """Rows for the benchmark table (same seven columns)."""
    def fmt(v, unit=" ms"):
        return "–" if v is None else f"{v:,.0f}{unit}"

    def ratio(a, b):
        return "–" if a is None or not b else f"{a / b:.1f}×"

    rows = []
    ow, pw_ = (ours or {}).get("words", {}), (pf or {}).get("words", {})
    labels = [lb for lb in ("common", "prefix", "rare") if lb in ow or lb in pw_]
    if not labels:
        return rows
    first = ow.get(labels[0]) or {}
    pfirst = pw_.get(labels[0]) or {}
    rows.append(f"| | **slow phone** (Slow 4G + 4× CPU, median of {len(first.get('runs', pfirst.get('runs', [])))}): field visible | "
                f"{fmt(first.get('visible_ms'))} | | {fmt(pfirst.get('visible_ms'))} | {ratio(pfirst.get('visible_ms'), first.get('visible_ms'))} | |")
    after = first.get("first_key_answered_after_visible_ms")
    rows.append(f"| | slow phone: first keystroke answered (from navigation; after the field showed) | "
                f"{fmt(first.get('interactive_ms'))} ({fmt(after)}) | < 1 s after visible {'✅' if after is not None and after < 1000 else '❌'} | "
                f"{fmt(pfirst.get('interactive_ms'))} ({fmt(pfirst.get('first_key_answered_after_visible_ms'))}) | "
                f"{ratio(pfirst.get('interactive_ms'), first.get('interactive_ms'))} | |")
    for lb in labels:
        o, p = ow.get(lb) or {}, pw_.get(lb) or {}
        word = o.get("word") or p.get("word")
        r = (p.get("answer_ms") or 0) / o["answer_ms"] if o.get("answer_ms") and p.get("answer_ms") else None
        target = ""
        if target_ratio and lb == "common":
            target = f"≥ {target_ratio:g}× sooner {'✅' if r and r >= target_ratio else '❌'}"
        depth = f", depth {o.get('depth'):.0f}" if o.get("depth") is not None else ""
        pdepth = f", depth {p.get('depth'):.0f}" if p.get("depth") is not None else ""
        # A run whose typed text was lost never answers: said, not hidden in the median.
        depth += f"; {o['timeouts']} of {len(o['runs'])} runs never answered" if o.get("timeouts") else ""
        pdepth += f"; {p['timeouts']} of {len(p['runs'])} runs never answered" if p.get("timeouts") else ""
        rows.append(f"| | slow phone: first suggestions for `{word}` ({lb}), requests, round-trip depth | "
                    f"{fmt(o.get('answer_ms'))}, {fmt(o.get('requests'), '')} req, {fmt((o.get('bytes_served') or 0) / 1000, ' KB') if o else '–'}{depth} | {target} | "
                    f"{fmt(p.get('answer_ms'))}, {fmt(p.get('requests'), '')} req, {fmt((p.get('bytes_served') or 0) / 1000, ' KB') if p else '–'}{pdepth} | "
                    f"{ratio(p.get('answer_ms'), o.get('answer_ms'))} | |")
    return rows
