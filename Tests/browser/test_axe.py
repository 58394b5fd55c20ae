"""axe-core over one page of every type, light and dark, phone and desktop.

Every state of the search page (idle, focused, typing, results, a token
with no results, the compact scope menu), an artist, album, playlist and
genre page, the 404 page, a Gapminder country page (that site is built
here from Data/gapminder/site.yml), and the built-in record page (built
here from Tests/GenerateKitTests/Fixtures/records/site.yml, which has no
templates of its own). Any violation fails, with its rule, its
impact and the first nodes it found, so a template change cannot quietly
bring back tinted text below 4.5:1 or links told apart by colour alone.
"""
import functools
import http.server
import os
import pathlib
import re
import subprocess
import tempfile
import threading

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import REPO, Handler, site_dir
from helpers import final_search, open_search, settle, type_query

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
AXE = Axe()
# Another Gapminder config (to measure an older set of templates, say).
COUNTRIES = os.environ.get("COUNTRIES_CONFIG", "Data/gapminder/site.yml")


def first_page(folder, pattern):
    found = sorted(site_dir().glob(f"{folder}/{pattern}/index.html"))
    assert found, f"no page matches {folder}/{pattern}"
    return found[0].parent.relative_to(site_dir()).as_posix() + "/"


@pytest.fixture(scope="session")
def countries():
    """The Gapminder site, built once into a temporary folder and served."""
    with tempfile.TemporaryDirectory() as folder:
        output = pathlib.Path(folder) / "site"
        subprocess.run(
            ["swift", "run", "-q", "generate", "--quiet", "--config", COUNTRIES, "--output", str(output)],
            cwd=REPO, check=True)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(output)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        page = sorted(output.glob("countries/*/index.html"))[0].parent.name
        yield f"http://127.0.0.1:{server.server_address[1]}/countries/{page}/"
        server.shutdown()
        server.server_close()


def violations(page, name):
    settle(page)
    found = AXE.run(page).response["violations"]
    return [
        f"{name}: {v['id']} ({v['impact']}, {len(v['nodes'])} nodes) {v['help']}: "
        + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:3])
        for v in found
    ]


def search_states(page, site, size):
    """Yields the name of each state of the search page once it shows."""
    open_search(page, site)
    yield "search idle"
    page.locator("#q").click()
    settle(page)
    yield "search focused"
    type_query(page, "love")
    page.wait_for_selector("#suggestions[data-for=love] .option")
    yield "search typing"
    page.keyboard.press("Enter")
    page.wait_for_selector("#rows .row")
    yield "search results"
    page.locator("#chip-albums").click()
    page.wait_for_selector("#chip-albums[aria-selected=true]")
    yield "search albums chip"
    page.goto(site + "?q=zzzzqqq&token=genre:Jazz&scope=library")
    page.wait_for_selector("#empty:not([hidden])")
    yield "search no results with filters"
    page.goto(site + "?q=miles&token=genre:Jazz")
    page.wait_for_selector("#rows .row")
    yield "search results with filters"
    if size == "phone":
        open_search(page, site)
        page.set_viewport_size({"width": 320, "height": 690})
        page.evaluate("() => document.documentElement.style.fontSize = '200%'")
        type_query(page, "a")
        page.wait_for_selector("#scope-button", state="visible")
        page.locator("#scope-button").click()
        yield "search compact scope menu"
        page.keyboard.press("Escape")
        page.evaluate("() => document.documentElement.style.fontSize = ''")
        page.set_viewport_size(SIZES[size])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_every_page_type_has_no_axe_violations(new_page, site, countries, records, size, scheme):
    page = new_page(viewport=SIZES[size], color_scheme=scheme)
    found = []
    for name in search_states(page, site, size):
        found += violations(page, name)
    details = {
        "artist": first_page("artists", "*-ac-dc"),
        "album": first_page("albums", "4-let-there-be-rock"),
        "playlist": first_page("playlists", "1-music"),
        "genre": first_page("genres", "*-jazz"),
    }
    for name, path in details.items():
        page.goto(site + path)
        found += violations(page, name)
    page.goto(site + details["artist"])
    page.locator("#q").click()
    page.keyboard.type("love", delay=20)
    page.wait_for_selector("#suggestions [role=option]")
    page.keyboard.press("ArrowDown")
    found += violations(page, "artist, suggestions in the top bar")
    page.goto(site + details["artist"] + "#all-albums")
    found += violations(page, "artist, See All albums")
    page.goto(site + "404.html")
    found += violations(page, "404")
    # The A–Z pages: the hub, a collection's list, a facet's values, a value's records.
    for path in ["browse/", "browse/artists/", "browse/genre/", "browse/genre/jazz/"]:
        page.goto(site + path)
        found += violations(page, f"browse {path}")
    page.goto(countries)
    found += violations(page, "country (Gapminder)")
    for path in ["albums/11-back-in-black/", "artists/2-ac-dc/", "playlists/7-road-trip/"]:
        page.goto(records + path)
        page.wait_for_selector("main.record h1")
        found += violations(page, f"record page {path}")
    nodes = sum(int(re.search(r", (\d+) nodes\)", line).group(1)) for line in found)
    print(f"\naxe {size} {scheme}: {len(found)} violations, {nodes} nodes")
    assert not found, "\n".join(found)
