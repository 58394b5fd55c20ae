"""Pictures and symbols (a collection's `image:` and `symbol:`) in result rows
and suggestions, on Tests/GenerateKitTests/Fixtures/pictures: served under the
policy the build computes for it, `default-src 'self'; img-src 'self'
https://covers.example`, with covers.example answered by the test itself (one
cover, one 404). Screenshots at 390 and 1280 px, light and dark, go to
SHOTS_DIR when it is set."""
import functools
import http.server
import os
import pathlib
import subprocess
import tempfile
import struct
import threading
import zlib

import pytest

from conftest import REPO, Handler, _new_page, site_policy
from helpers import final_search, open_search, settle, type_query

POLICY = "default-src 'self'; img-src 'self' https://covers.example"


@pytest.fixture(scope="module")
def pictures():
    with tempfile.TemporaryDirectory() as folder:
        output = pathlib.Path(folder) / "site"
        subprocess.run(
            ["swift", "run", "-q", "generate", "--quiet", "--config",
             "Tests/GenerateKitTests/Fixtures/pictures/site.yml", "--output", str(output)],
            cwd=REPO, check=True)
        # The policy the build wrote: the remote covers' origin, and the search page's stylesheet hash.
        policy = site_policy(output)
        assert policy.startswith(POLICY + "; style-src 'self' 'sha256-"), policy
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(output)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()
        server.server_close()


def png(top, bottom, size=96):
    """A square PNG fading from one colour to another: a cover that reads as a picture."""
    rows = b"".join(
        b"\x00" + bytes(round(a + (b - a) * y / (size - 1)) for a, b in zip(top, bottom)) * size for y in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PICTURES = {"kind-of-blue.png": png((20, 40, 90), (90, 160, 230)), "miles.png": png((60, 40, 30), (220, 170, 120))}


def covers(page):
    """covers.example, answered here: two covers, and missing.png, a 404."""
    def answer(route):
        name = route.request.url.rsplit("/", 1)[-1]
        if name not in PICTURES:
            route.fulfill(status=404, body="")
        else:
            route.fulfill(status=200, body=PICTURES[name], content_type="image/png")
    page.route("https://covers.example/**", answer)


def without_missing_cover(problems):
    # Chromium itself logs every failed load; the 404 is the point of the scenario, so that one
    # line is expected. Anything else — a CSP violation, an error of ours — still fails.
    return [p for p in problems if not ("404" in p and "Failed to load resource" in p)]


@pytest.fixture
def art_page(browser):
    problems, contexts = [], []

    def make(**options):
        context, page = _new_page(browser, problems, **options)
        contexts.append(context)
        covers(page)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not without_missing_cover(problems), "\n".join(problems)


def tile(page, title):
    return page.locator("#rows .row", has=page.locator(".row-title", has_text=title)).locator(".artwork")


def test_a_row_shows_its_picture_lazy_and_sized_and_a_404_leaves_the_initials(art_page, pictures):
    page = art_page()
    open_search(page, pictures)
    final_search(page, "blue")
    kind = tile(page, "Kind of Blue").locator("img")
    kind.wait_for(state="attached")
    assert kind.get_attribute("src") == "https://covers.example/kind-of-blue.png"
    assert kind.get_attribute("loading") == "lazy"
    assert kind.get_attribute("decoding") == "async"
    assert kind.get_attribute("alt") == ""
    assert (kind.get_attribute("width"), kind.get_attribute("height")) == ("48", "48")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#rows img')].some((i) => i.complete && i.naturalWidth > 0)")
    box = tile(page, "Kind of Blue").bounding_box()
    image = kind.bounding_box()
    assert (round(image["width"]), round(image["height"])) == (round(box["width"]), round(box["height"]))
    # The local file, copied under images/ by its content.
    local = tile(page, "Blue Train").locator("img")
    assert "/images/" in local.get_attribute("src") and local.get_attribute("src").endswith(".png")
    # The 404: the picture goes, the tile keeps its initials, no broken-image icon.
    lines = tile(page, "Blue Lines")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#rows .row')].some((r) => r.textContent.includes('Blue Lines') && !r.querySelector('img'))")
    assert lines.inner_text() == "BL"
    # Refused values (a javascript: URL, a path out of the folder) show the tile alone.
    assert tile(page, "Blue Monday").locator("img").count() == 0
    assert tile(page, "Blue Velvet").locator("img").count() == 0


def test_an_emoji_is_the_artwork_and_artists_are_circles(art_page, pictures):
    page = art_page()
    open_search(page, pictures)
    final_search(page, "blue heart")
    heart = tile(page, "blue heart")
    assert heart.inner_text() == "💙"
    assert "artwork-symbol" in heart.get_attribute("class")
    final_search(page, "miles")
    miles = tile(page, "Miles Davis")
    assert miles.locator("img").get_attribute("src") == "https://covers.example/miles.png"
    assert page.evaluate("(el) => getComputedStyle(el).borderRadius", miles.element_handle()) == "50%"


def test_suggestions_show_pictures_too(art_page, pictures):
    page = art_page()
    open_search(page, pictures)
    type_query(page, "kind")
    page.wait_for_selector("#suggestions .option-doc .artwork img")
    img = page.locator("#suggestions .option-doc .artwork img").first
    assert img.get_attribute("src") == "https://covers.example/kind-of-blue.png"


def test_the_record_page_shows_the_picture_over_the_tile(art_page, pictures):
    page = art_page()
    page.goto(pictures + "albums/1-kind-of-blue/")
    img = page.locator(".hero .art img.art-image")
    assert img.get_attribute("src") == "https://covers.example/kind-of-blue.png"
    page.wait_for_function("() => document.querySelector('.hero .art img').naturalWidth > 0")
    page.goto(pictures + "albums/3-blue-lines/")
    page.wait_for_selector(".hero .art img[data-state=failed]", state="attached")
    assert not page.locator(".hero .art img").is_visible()
    assert page.locator(".hero .art .art-initial").inner_text() == "B"


SHOTS = os.environ.get("SHOTS_DIR")
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.mark.skipif(not SHOTS, reason="set SHOTS_DIR to take screenshots")
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_screenshots(art_page, pictures, size, scheme):
    folder = pathlib.Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page = art_page(viewport=SIZES[size], color_scheme=scheme)
    open_search(page, pictures)
    final_search(page, "blue")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#rows img')].every((i) => i.complete)")
    settle(page)
    page.screenshot(path=str(folder / f"artwork-{size}-{scheme}-results.png"))
    type_query(page, "blue")
    page.wait_for_selector("#suggestions[data-for=blue] .option-doc")
    settle(page)
    page.screenshot(path=str(folder / f"artwork-{size}-{scheme}-suggestions.png"))
    page.goto(pictures + "albums/1-kind-of-blue/")
    page.wait_for_function("() => document.querySelector('.hero .art img').complete")
    page.screenshot(path=str(folder / f"artwork-{size}-{scheme}-record.png"))
    page.goto(pictures + "artists/1-miles-davis/")
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    page.screenshot(path=str(folder / f"artwork-{size}-{scheme}-artist.png"))
    page.goto(pictures + "emoji/1-blue-heart/")
    page.screenshot(path=str(folder / f"artwork-{size}-{scheme}-emoji.png"))
