"""Word forms beyond English in real Chromium: on the Spanish iso example
(Data/iso/es) a plural typed finds the singular the site holds, through
engine/snowball.js, which the page fetches only there — the English
catalogue never asks for it.
"""
import functools
import http.server
import os
import pathlib
import subprocess
import tempfile
import threading

import pytest

from conftest import REPO, Handler
from helpers import final_search, open_search, settle


@pytest.fixture(scope="session")
def spanish():
    """Data/iso/es, from $ISO_SITES when the test command built it, else built here."""
    with tempfile.TemporaryDirectory() as folder:
        output = pathlib.Path(os.environ["ISO_SITES"]) / "es" if os.environ.get("ISO_SITES") else pathlib.Path(folder) / "site"
        if not os.environ.get("ISO_SITES"):
            subprocess.run(
                ["swift", "run", "-q", "generate", "--quiet", "--config", "Data/iso/es/site.yml", "--output", str(output)],
                cwd=REPO, check=True)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(output)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()
        server.server_close()


def fetched_modules(page):
    names = []
    page.on("request", lambda request: names.append(request.url.rsplit("/", 1)[-1]))
    return names


def test_a_spanish_plural_finds_the_singular(page, spanish):
    names = fetched_modules(page)
    # A site without facets has no browse tiles for open_search to wait for.
    page.goto(spanish)
    settle(page)
    final_search(page, "dinares iraquíes")
    assert page.locator("#rows .row-title").first.inner_text() == "Dinar iraquí"
    assert "snowball.js" in names


def test_the_english_catalogue_never_fetches_the_snowball_module(page, site):
    names = fetched_modules(page)
    open_search(page, site)
    final_search(page, "loves")
    assert page.locator("#rows li").count() > 0
    assert "snowball.js" not in names
