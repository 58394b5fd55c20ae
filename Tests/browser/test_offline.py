"""The offline worker (sw.js) in real Chromium: a visit keeps the page, its
assets and the index files it fetched; offline, a search those files answer
still works and any other says plainly that it needs the network; a rebuild
installs a new worker that deletes the old cache.

Each test builds the records fixture into a folder of its own and serves it
from a server it can rebuild under, as a host publishing a new version."""
import functools
import http.server
import pathlib
import subprocess
import tempfile
import threading
import time

import pytest

from conftest import REPO, Handler, site_policy
from helpers import final_search

FIXTURE = REPO / "Tests/GenerateKitTests/Fixtures/records/site.yml"
OFFLINE_LINE = "You\u2019re offline, and this search needs data not yet saved on this device."


def build(folder, title="Records"):
    """The records fixture with a title of our choosing, built into folder/site."""
    config = folder / "site.yml"
    text = FIXTURE.read_text().replace("../mini/data/", str(FIXTURE.parent.parent / "mini/data") + "/")
    config.write_text(text.replace("title: Records", f"title: {title}"))
    subprocess.run(["swift", "run", "-q", "generate", "--quiet", "--config", str(config),
                    "--output", str(folder / "site")], cwd=REPO, check=True)


@pytest.fixture
def served():
    with tempfile.TemporaryDirectory() as name:
        folder = pathlib.Path(name)
        build(folder)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder / "site")))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield folder, f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()
        server.server_close()


class RevalidatingHandler(Handler):
    """What Netlify, Cloudflare Pages and Vercel send by default: the browser's HTTP cache may
    keep a file but must ask again before using it, so offline only the worker can answer."""

    def end_headers(self):
        self.send_header("Content-Security-Policy", site_policy(self.directory))
        self.send_header("Cache-Control", "public, max-age=0, must-revalidate")
        http.server.SimpleHTTPRequestHandler.end_headers(self)


@pytest.fixture
def revalidated():
    with tempfile.TemporaryDirectory() as name:
        folder = pathlib.Path(name)
        build(folder)
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(RevalidatingHandler, directory=str(folder / "site")))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()
        server.server_close()


def controlled(page, url):
    """Opens the search page and waits until the worker controls it."""
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def cache_names(page):
    return page.evaluate("() => caches.keys()")


def forgive_offline_errors(problems):
    """Requests that fail offline are logged by the browser; nothing else may be."""
    problems[:] = [p for p in problems if "ERR_INTERNET_DISCONNECTED" not in p and "Failed to fetch" not in p
                   and "net::ERR_FAILED" not in p]


def test_offline_a_cached_search_works_and_an_uncached_one_says_so(new_page, served, problems):
    _, url = served
    page = new_page()
    controlled(page, url)
    final_search(page, "back")
    assert page.locator("#rows li").count() > 0
    page.context.set_offline(True)
    # A reload offline: the page, its script and stylesheet come from the cache.
    kept = []
    page.on("response", lambda r: "/idx/" in r.url and kept.append(r.from_service_worker))
    page.reload()
    page.wait_for_selector("#q")
    final_search(page, "back")
    assert "Back in Black" in page.locator("#rows li").first.inner_text()
    # The answer needed index files beyond those the page embeds: the cache's.
    assert kept and all(kept), kept
    # Words whose index files no visit fetched: the offline line, as text.
    final_search(page, "zydeco")
    empty = page.locator("#empty")
    assert empty.is_visible()
    assert page.locator("#empty-text").inner_text() == OFFLINE_LINE
    forgive_offline_errors(problems)


def test_modules_the_page_imports_on_demand_work_offline_before_any_use(new_page, served, problems):
    """A scope, a token or a typo loads a module the bundle leaves out (ui/filters.js,
    engine/typo.js): offline, it comes from the worker's cache though no visit used it."""
    _, url = served
    page = new_page()
    controlled(page, url)
    script = page.evaluate("() => [...document.scripts].map((s) => s.src).find((s) => s.endsWith('/js/app.js'))")
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    page.context.set_offline(True)
    for module in ("ui/filters.js", "engine/typo.js"):
        address = script.replace("app.js", module)
        assert address not in loaded, "the test needs a module this visit has not fetched"
        outcome = page.evaluate("(u) => import(u).then((m) => Object.keys(m).length, (e) => String(e))", address)
        assert isinstance(outcome, int) and outcome > 0, (module, outcome)
    forgive_offline_errors(problems)


def test_a_record_page_visited_online_opens_offline(new_page, served, problems):
    _, url = served
    page = new_page()
    controlled(page, url)
    page.goto(url + "artists/2-ac-dc/")
    page.context.set_offline(True)
    page.goto(url + "artists/2-ac-dc/")
    assert page.locator("h1").inner_text() == "AC/DC"
    # Its stylesheet came from the cache as well: the page has its look.
    assert page.evaluate("() => getComputedStyle(document.querySelector('.topbar')).display") != "inline"
    forgive_offline_errors(problems)


def test_a_rebuild_installs_a_new_worker_that_deletes_the_old_cache(new_page, served, problems):
    folder, url = served
    page = new_page()
    controlled(page, url)
    first = cache_names(page)
    assert len(first) == 1 and first[0].startswith("generate:/:"), first
    build(folder, title="Records Two")
    page.goto(url)
    # The browser checks sw.js on navigation, finds new bytes, installs the
    # new worker, which takes over and deletes the old build's cache.
    # Asked again and again: wait_for_function takes a returned promise itself
    # for a yes, so it cannot wait for caches.keys().
    for _ in range(300):
        names = cache_names(page)
        if len(names) == 1 and names[0] != first[0]:
            break
        page.wait_for_timeout(100)
    assert len(names) == 1 and names[0] != first[0], f"the old build's cache is still there: {names}"
    assert page.title() == "Records Two"
    second = cache_names(page)
    # Offline, the page kept is the new one.
    page.context.set_offline(True)
    page.reload()
    assert page.title() == "Records Two"
    assert cache_names(page) == second
    forgive_offline_errors(problems)


def index_files_kept(page, cache):
    return page.evaluate(
        "(n) => caches.open(n).then((c) => c.keys()).then((k) => k.map((r) => r.url).filter((u) => /\\/idx\\/[tdf]\\//.test(u)))",
        cache)


def test_a_rebuild_carries_over_the_index_files_whose_bytes_it_left_alone(new_page, served, problems):
    """Index files are named by their own bytes (FORMAT.md "Stable names"): a rebuild that
    changed none of them leaves their names, and the new worker takes them into its cache, so a
    search made before the deploy still works offline after it."""
    folder, url = served
    page = new_page()
    controlled(page, url)
    final_search(page, "back")
    first = cache_names(page)
    before = index_files_kept(page, first[0])
    assert any("/idx/t/" in u for u in before), before
    build(folder, title="Records Two")
    page.goto(url)
    for _ in range(300):
        names = cache_names(page)
        if len(names) == 1 and names[0] != first[0]:
            break
        page.wait_for_timeout(100)
    assert len(names) == 1 and names[0] != first[0], names
    assert set(before) <= set(index_files_kept(page, names[0]))
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#q")
    final_search(page, "back")
    assert "Back in Black" in page.locator("#rows li").first.inner_text()
    forgive_offline_errors(problems)


def test_a_search_made_before_the_worker_installed_works_offline_on_a_revalidating_host(
        new_page, revalidated, problems):
    """The worker installs seconds after the page loads; a search made before then fetched
    index files it never saw. The page names them to it once it is active, and it keeps them."""
    page = new_page()
    page.goto(revalidated)
    final_search(page, "back")
    assert "Back in Black" in page.locator("#rows li").first.inner_text()
    assert page.evaluate("() => navigator.serviceWorker.controller") is None, "searched before the worker ran"
    fetched = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.includes('/idx/'))")
    assert fetched
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
    # Every index file of that search is kept (the answer offline needs them all); wait_for_function
    # would take the promise itself for a yes, so ask until the answer is yes.
    deadline = time.monotonic() + 5
    kept = "(urls) => Promise.all(urls.map((u) => caches.match(u))).then((kept) => kept.every(Boolean))"
    while not page.evaluate(kept, fetched):
        assert time.monotonic() < deadline, "the index files fetched before the worker ran were not kept"
        page.wait_for_timeout(100)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#q")
    final_search(page, "back")
    assert "Back in Black" in page.locator("#rows li").first.inner_text()
    assert page.locator("#empty").is_hidden()
    forgive_offline_errors(problems)
