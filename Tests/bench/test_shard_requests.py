"""The index is fetched piecemeal: a query costs the manifest (unless the page
embeds it), one term shard per query word and the document shards of the
results shown that the term shards did not carry (and the field shards beside them of results
found outside their titles) — never the whole index. Builds a 20,000-record synthetic site with the generator, serves it
gzipped on 127.0.0.1 and searches it in Chromium, counting `idx/` requests.

    .venv/bin/python -m pytest -q Tests/bench/test_shard_requests.py

Skips (with the reason) when there is no generator binary ($GENERATE, or this
repository's .build/release or .build/debug), no Chromium or no Playwright.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
import synth  # noqa: E402
from records import load_records, pick_rare_word, terms  # noqa: E402

RECORDS = 20_000


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    generate = B.find_generate(debug_ok=True)
    if not generate:
        pytest.skip("no generator binary: run `swift build -c release` (looked in $GENERATE, .build/release, .build/debug)")
    if not Path(B.CHROMIUM).exists():
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (.venv: pip install playwright)")
    root = tmp_path_factory.mktemp("shards")
    data, out = root / "data", root / "site"
    synth.generate(RECORDS, data, quiet=True)
    r = subprocess.run([str(generate), "--config", str(data / "site.yml"), "--output", str(out), "--quiet"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{generate} failed:\n{r.stdout}\n{r.stderr}"
    manifest_path = next((out / "idx").glob("manifest.*.json"))
    # The search page embeds the manifest (and a small index's directories): those are never fetched.
    block = re.search(r'<script type="application/json" id="index-data">(.*?)</script>', (out / "index.html").read_text(), re.S)
    embedded = {"/" + p for p in json.loads(block.group(1))} if block else set()
    return {"dir": out, "records": load_records(data), "manifest": json.loads(manifest_path.read_text()),
            "manifest_path": "/idx/" + manifest_path.name, "embedded": embedded}


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = B.launch(pw)
        yield b
        b.close()


# The hex digits of a shard's hash, as the page reads them (engine/loader.js).
HASH_DIGITS = int(re.search(r"export const HASH_DIGITS = (\d+)", (B.REPO / "Templates/assets/js/engine/loader.js").read_text()).group(1))


def unpack(text):
    """A run's front-coded prefixes (FORMAT.md): dots cut the previous prefix, a comma keeps it."""
    prev = re.match(r"[^.,]*", text).group(0)
    out = [prev]
    for cut, tail in re.findall(r"(\.+|,)([^.,]*)", text[len(prev):]):
        prev = (prev if cut == "," else prev[: len(prev) - len(cut)]) + tail
        out.append(prev)
    return out


def shard_for(site, word):
    """FORMAT.md: the shard with the longest prefix the term starts with, found through the
    first letter's directory when the manifest lists directories. Returns the requests it
    takes: [directory?, shard]."""
    manifest, wanted = site["manifest"], []
    runs = list(manifest.get("termShards", []))  # [first, prefixes, hashes]: shards first, first + 1, …
    directory = dict(manifest.get("termDirectories", [])).get(word[:1])
    if directory is not None:
        wanted.append("/idx/" + directory)
        runs += json.loads((site["dir"] / "idx" / directory).read_text())["termShards"]
    # a shard is <termShardFolder>s<prefix>.<hash>.json (a prefix beyond a-z0-9 as "-" and its
    # UTF-8 bytes in hex), its hash the run's i-th of HASH_DIGITS
    name = lambda p: p if re.fullmatch(r"[a-z0-9]*", p) else "-" + p.encode().hex()
    d = HASH_DIGITS
    prefixes = {p: f"s{name(p)}.{h[d * i:d * i + d]}" for first, ps, h in runs for i, p in enumerate(unpack(ps))}
    for k in range(len(word), -1, -1):
        if word[:k] in prefixes:
            return wanted + [f"/idx/{manifest['termShardFolder']}{prefixes[word[:k]]}.json"]
    return wanted


def doc_titles(site_dir, path):
    return {d[1] for d in json.loads((site_dir / path.lstrip("/")).read_text())["docs"]}


def open_search(browser, srv):
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(srv.url + "/")
    page.wait_for_load_state("networkidle")
    page.focus("#q")
    page.wait_for_selector("#suggestions [role=option]")  # trending: the manifest is in
    return ctx, page


# Resolves once <html data-wait> is "false": the results' rows and the chips' totals are in
# (ui/header.js). A promise, not `wait_for_function`, whose `eval` the strict policy refuses.
TOTALS_IN = """() => new Promise((resolve, reject) => {
  const root = document.documentElement
  const timer = setTimeout(() => reject(new Error('the chips never got their totals')), 20000)
  const check = () => root.dataset.wait === 'false' && (clearTimeout(timer), resolve(true))
  if (!check()) new MutationObserver(check).observe(root, { attributes: true, attributeFilter: ['data-wait'] })
})"""


def settled_take(srv, quiet=0.3, limit=5.0):
    """The server's log once nothing has been added to it for `quiet` seconds. It logs a request
    after sending its body, so a page that has its answer can be a moment ahead of the log: on a
    loaded machine the kinds' file, asked for as the rows were drawn, was missed."""
    log, last, start = [], time.monotonic(), time.monotonic()
    while time.monotonic() - last < quiet and time.monotonic() - start < limit:
        time.sleep(0.05)
        more = srv.take()
        if more:
            log += more
            last = time.monotonic()
    return log


def idx_requests(log):
    return [p for p, _ in log if p.startswith("/idx/")]


FIELD_SHARD = re.compile(r"^/idx/d/f(\d+)\.[0-9a-f]+\.json$")
# The files of document shard hashes (FORMAT.md "Stable names"), read once before the first document shard.
HASHES = re.compile(r"^/idx/d/h\d+\.[0-9a-f]+\.json$")


def field_shards(site, reqs, shown):
    """The field shards among `reqs` (FORMAT.md "Field shards"), each beside the document shard
    of a result shown: they say where a row found outside its title matched."""
    fields = [p for p in reqs if FIELD_SHARD.match(p)]
    for p in fields:
        beside = re.sub(r"/f(\d+)\.([0-9a-f]+)\.json$", r"/\1.\2.json", p)
        assert doc_titles(site["dir"], beside) & set(shown), f"{p} is beside none of the results {shown}"
    assert len(set(fields)) == len(fields) <= len(shown), f"field shards: {fields}"
    return fields


def type_query(page, text):
    page.evaluate(B.ARM, ["#suggestions", "any", 20000])
    page.evaluate("(v) => window.__input(v)", text)
    assert page.evaluate("window.__t") >= 0, "no suggestions rendered"
    return page.eval_on_selector_all("#suggestions .option-doc .row-title", "els => els.map(e => e.textContent)")


def check_partial(site, log, word, shown):
    reqs = idx_requests(log)
    total_files = sum(1 for p in (site["dir"] / "idx").rglob("*.json"))
    once = 0 if site["manifest_path"] in site["embedded"] else 1
    assert reqs.count(site["manifest_path"]) == once, f"manifest fetched {reqs.count(site['manifest_path'])}×: {reqs}"
    t = [p for p in reqs if p.startswith("/idx/t/")]
    wanted = [p for p in shard_for(site, word) if p not in site["embedded"]]
    assert t == wanted, f"term shards for '{word}': {t}, expected {wanted}"
    fields = field_shards(site, reqs, shown)
    d = [p for p in reqs if p.startswith("/idx/d/") and p not in fields and not HASHES.match(p)]
    # A term shard carries the rows of its words' first answers (FORMAT.md `docs`): only the
    # results shown that none carried cost a document shard, each holding one of them.
    carried = {row[2] for p in t for row in json.loads((site["dir"] / p.lstrip("/")).read_text()).get("docs", [])}
    missing = [s for s in shown if s not in carried]
    assert len(d) <= len(missing), f"{len(d)} document shards for {len(missing)} results shown that no term shard carried: {d}"
    assert len(set(d)) == len(d), f"a document shard fetched twice: {d}"
    for p in d:
        assert doc_titles(site["dir"], p) & set(missing), f"{p} holds none of the results {missing}"
    hashes = [p for p in reqs if HASHES.match(p)]
    assert len(hashes) <= 1 and (hashes or not d), f"document shard hashes: {hashes}"
    other = [p for p in reqs if p not in t + d + fields + hashes and p != site["manifest_path"]]
    assert not other, f"unexpected index requests: {other}"
    # Besides the manifest, term and field shards: a document shard per result shown at most, and
    # the one file of their hashes.
    assert len(reqs) - len(fields) - len(hashes) <= once + len(t) + len(shown) < total_files, f"{len(reqs)} of {total_files} index files"


def test_rare_word_fetches_only_its_shards(site, browser):
    word, df = pick_rare_word(site["records"])
    with B.GzipServer(site["dir"]) as srv:
        srv.take()
        ctx, page = open_search(browser, srv)
        shown = type_query(page, word)
        assert shown, f"'{word}' (in {df} records) found nothing"
        log = settled_take(srv)
        check_partial(site, log, word, shown)

        # The final search (Enter) of the same word: the term shard is cached; it may read the
        # document shards of every match (there are at most 3), nothing else.
        page.evaluate(B.ARM, ["#results", "rows", 20000])
        page.keyboard.press("Enter")
        assert page.evaluate("window.__t") >= 0, "no results rendered"
        rows = page.eval_on_selector_all("#rows .row-title", "els => els.map(e => e.textContent)")
        assert rows and len(rows) <= df + 1
        # The chips' totals come after the rows (the kinds' file, on a small index): all the
        # search asked for is in once they are, and then the server has logged it too.
        page.evaluate(TOTALS_IN)
        reqs = idx_requests(settled_take(srv))
        t_ok = [p for p in reqs if p in shard_for(site, word)]
        fields = field_shards(site, reqs, rows)
        d = [p for p in reqs if p.startswith("/idx/d/") and p not in fields and not HASHES.match(p)]
        assert not t_ok, f"term shard fetched again: {reqs}"
        assert len(d) <= len(rows), f"{len(d)} document shards for {len(rows)} results: {reqs}"
        # Up to 50,000 documents the engine also reads every kind's documents (a few KB, one
        # file) so that every chip gets its count; past that, a Top Results search reads none.
        kinds = [p for p in reqs if re.match(r"/idx/f/kinds?[.-]", p)]
        if site["manifest"]["docCount"] > 50_000:
            assert not kinds, f"kind files on a large index: {kinds}"
        else:
            assert len(kinds) == 1 and kinds[0] == "/idx/" + site["manifest"]["kindsFile"], f"kind files: {kinds}"
        assert not [p for p in reqs if p not in d + fields + kinds and not p.startswith("/idx/t/") and not HASHES.match(p)], f"unexpected: {reqs}"
        assert len(reqs) - len(kinds) - len(fields) <= len(rows) + 1, f"final search fetched {reqs}"
        ctx.close()


def test_common_word_suggestions_fetch_only_shown_documents(site, browser):
    """`love` matches thousands of records: suggestions still cost one term shard and the
    document shards of the (at most 8) suggestions shown that the term shard did not carry."""
    with B.GzipServer(site["dir"]) as srv:
        srv.take()
        ctx, page = open_search(browser, srv)
        shown = type_query(page, "love")
        assert shown
        assert sum(1 for r in site["records"] if "love" in terms(r.title)) > 100
        check_partial(site, settled_take(srv), "love", shown)
        ctx.close()
