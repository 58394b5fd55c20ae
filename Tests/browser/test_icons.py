"""Facet icons as a person sees them: the Gapminder example's continent facet
names `globe`, one of the outline glyphs, and its token must show it drawn
with the text colour's stroke, not the tag glyph every unknown name falls
back to. Needs COUNTRIES_SITE (Tests/run.sh builds it); skipped without."""
import functools
import http.server
import os
import pathlib
import threading

import pytest

from conftest import Handler
from helpers import settle

COUNTRIES = pathlib.Path(os.environ.get("COUNTRIES_SITE", ".build/countries-site"))


@pytest.fixture(scope="module")
def countries():
    if not (COUNTRIES / "index.html").is_file():
        pytest.skip(f"no Gapminder site at {COUNTRIES} (set COUNTRIES_SITE)")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(COUNTRIES.resolve())))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_the_continent_token_shows_the_outline_globe(page, countries):
    page.goto(countries + "?token=continent:Asia")
    page.wait_for_selector("#tokens .token")
    # The outline glyphs come in their own file (ui/glyphs.js), fetched when one is first drawn.
    page.wait_for_function("() => document.querySelector('#tokens .token svg path')?.getAttribute('d')")
    settle(page)
    glyph = page.evaluate(
        """() => {
          const svg = document.querySelector('#tokens .token svg')
          const style = getComputedStyle(svg)
          const path = svg.querySelector('path')
          return { cls: svg.getAttribute('class'), fill: style.fill, stroke: style.stroke,
                   width: style.strokeWidth, d: path.getAttribute('d'),
                   color: getComputedStyle(svg.closest('.token')).color }
        }"""
    )
    assert glyph["cls"] == "icon stroked"
    assert glyph["fill"] == "none"
    assert glyph["stroke"] == glyph["color"]
    assert glyph["width"] == "1.5px"
    # The globe's equator, not the tag's outline.
    assert "M1.75 8h12.5" in glyph["d"]
