"""axe-core over sites nobody configured: `generate init` on public datasets
(Tests/relevance/strangers, made by its make.py before the browser tests),
then a build, as a new user would do it, with nothing edited. Each site's
search page idle, focused (the panel of suggestions), typing and with
results, a record page and the A–Z pages, light and dark, phone and
desktop; then every one of the datasets (expectations.json), desktop and
light: its search page with the results of its first judged query, a
record page and the A–Z index. Any violation fails, as
in test_axe.py. The test command builds the sites once
(`run.mjs --sites`) and names their folder in STRANGERS_SITES; without it
each is built here.
"""
import functools
import http.server
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading

import pytest

from conftest import REPO, Handler
from helpers import settle, type_query
from test_axe import SIZES, violations

DATA = REPO / "Tests" / "relevance" / "strangers" / "data"
# A script of its own, a list field and a symbol, codes and a completeness signal:
# three shapes nobody here designed, and a word each that finds something.
DATASETS = {"countries-ru": "герм", "emoji": "heart", "us-states": "new"}
EXPECTATIONS = json.loads((REPO / "Tests" / "relevance" / "strangers" / "expectations.json").read_text())
PREBUILT = os.environ.get("STRANGERS_SITES")


def built(name, output):
    """Runs init on the dataset's files in a copy of its folder, then builds it
    (or takes the site the test command built)."""
    if PREBUILT and (pathlib.Path(PREBUILT) / name / "index.html").is_file():
        return pathlib.Path(PREBUILT) / name
    source = DATA / name
    if not source.is_dir():
        pytest.skip(f"no {source}: run Tests/relevance/strangers/make.py first")
    work = output / "data"
    shutil.copytree(source, work)
    files = sorted(p.name for p in work.iterdir() if p.is_file())
    subprocess.run(["swift", "run", "-q", "--package-path", str(REPO), "generate", "init", *files],
                   cwd=work, check=True, capture_output=True)
    site = output / "site"
    subprocess.run(["swift", "run", "-q", "--package-path", str(REPO), "generate", "--quiet",
                    "--config", str(work / "site.yml"), "--output", str(site)], check=True)
    return site


def serve(names):
    """Each named dataset's site, built once and served on loopback."""
    with tempfile.TemporaryDirectory() as folder:
        servers, sites = [], {}
        for name in names:
            output = pathlib.Path(folder) / name
            output.mkdir()
            site = built(name, output)
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            sites[name] = (f"http://127.0.0.1:{server.server_address[1]}/", site)
        yield sites
        for server in servers:
            server.shutdown()
            server.server_close()


@pytest.fixture(scope="module")
def strangers():
    yield from serve(DATASETS)


@pytest.fixture(scope="module")
def every_stranger():
    yield from serve([d["name"] for d in EXPECTATIONS["datasets"]])


def record_page(site):
    """The first record page of the site's first collection (every path but idx, assets, browse)."""
    skip = {"idx", "assets", "browse", "images"}
    for folder in sorted(p for p in site.iterdir() if p.is_dir() and p.name not in skip):
        pages = sorted(folder.glob("*/index.html"))
        if pages:
            return pages[0].parent.relative_to(site).as_posix() + "/"
    raise AssertionError(f"no record page in {site}")


def test_every_init_site_has_no_axe_violations(new_page, every_stranger):
    page = new_page(viewport=SIZES["desktop"], color_scheme="light")
    found = []
    for dataset in EXPECTATIONS["datasets"]:
        name, query = dataset["name"], dataset["queries"][0]["q"]
        url, folder = every_stranger[name]
        page.goto(url)
        settle(page)
        page.locator("#q").fill(query)
        page.keyboard.press("Enter")
        page.wait_for_selector("#rows .row")
        found += violations(page, f"{name}: results for {query!r}")
        page.goto(url + record_page(folder))
        found += violations(page, f"{name}: record page")
        page.goto(url + "browse/")
        found += violations(page, f"{name}: browse")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_init_sites_have_no_axe_violations(new_page, strangers, size, scheme):
    page = new_page(viewport=SIZES[size], color_scheme=scheme)
    found = []
    for name, word in DATASETS.items():
        url, folder = strangers[name]
        # A site without facets has no browse tiles to wait for (helpers.open_search).
        page.goto(url)
        settle(page)
        found += violations(page, f"{name}: search idle")
        page.locator("#q").click()
        # Never blank: the focused field offers searches or tokens.
        page.wait_for_selector("#suggestions .option")
        settle(page)
        found += violations(page, f"{name}: search focused")
        type_query(page, word)
        page.wait_for_selector(f"#suggestions[data-for='{word}'] .option")
        found += violations(page, f"{name}: search typing")
        page.keyboard.press("Enter")
        page.wait_for_selector("#rows .row")
        found += violations(page, f"{name}: search results")
        page.goto(url + record_page(folder))
        found += violations(page, f"{name}: record page")
        page.goto(url + "browse/")
        found += violations(page, f"{name}: browse")
    assert not found, "\n".join(found)
