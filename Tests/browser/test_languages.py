"""The search page in the visitor's language, and right to left.

Two sites besides the default English one, each built once here (or taken
from ARABIC_SITE / WORLD_SITE, which Tests/run.sh builds): the Arabic
fixture (Tests/GenerateKitTests/Fixtures/arabic, `language: ar`, so
`dir="rtl"`) and the Japanese world example (Data/world, `language: ja`,
whose records are also searched in English, Chinese, Russian, Greek and
Korean). The patterns a visitor meets — typing, suggestions, a final
search and its count, a token, the scope bar's pill, Cancel — in each
site's words and, in Arabic, mirrored; then axe over every state, light and
dark, phone and desktop.
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

from conftest import REPO, Handler
from helpers import final_search, open_search, settle, type_query
from test_axe import SIZES, violations

CONFIGS = {
    "ar": ("ARABIC_SITE", "Tests/GenerateKitTests/Fixtures/arabic/site.yml"),
    "ja": ("WORLD_SITE", "Data/world/site.yml"),
}
# Words of the English interface that a visitor of these sites must not meet.
ENGLISH = ["Cancel", "Recently Searched", "Trending", "Browse", "Skip to", "results", "No Results", "Clear", "Suggestions"]


@pytest.fixture(scope="module")
def sites():
    """Each language's site, served on loopback: the one Tests/run.sh built, else built here."""
    with tempfile.TemporaryDirectory() as folder:
        servers, urls = [], {}
        for language, (variable, config) in CONFIGS.items():
            output = pathlib.Path(os.environ.get(variable) or pathlib.Path(folder) / language)
            if not (output / "index.html").is_file():
                subprocess.run(["swift", "run", "-q", "generate", "--quiet", "--config", config,
                                "--output", str(output)], cwd=REPO, check=True)
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(output)))
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            urls[language] = f"http://127.0.0.1:{server.server_address[1]}/"
        yield urls
        for server in servers:
            server.shutdown()
            server.server_close()


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def visible_english(page):
    text = page.evaluate("() => document.body.innerText")
    labels = page.evaluate("""() => [...document.querySelectorAll('[aria-label], [title]')]
        .filter((el) => el.getClientRects().length).map((el) => el.getAttribute('aria-label') ?? el.title)""")
    return [word for word in ENGLISH if word in text or any(word in label for label in labels)]


@pytest.mark.parametrize("language, query, count", [
    ("ar", "ال", r"^(\d+ (نتيجة|نتائج)|نتيجة واحدة|نتيجتان)$"),
    ("ja", "アメリカ", r"^[\d,]+件$"),
])
def test_the_page_speaks_the_sites_language(new_page, sites, language, query, count):
    page = new_page(viewport=SIZES["phone"])
    open_search(page, sites[language])
    root = page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]")
    assert root == [language, "rtl" if language == "ar" else ""]
    assert visible_english(page) == []
    page.locator("#q").click()
    settle(page)
    type_query(page, query)
    page.wait_for_selector(f"#suggestions[data-for='{query}'] .option")
    assert visible_english(page) == []
    page.keyboard.press("Enter")
    page.wait_for_selector("#rows .row")
    settle(page)
    shown = page.locator("#count").text_content()
    assert re.match(count, shown), shown
    assert visible_english(page) == []
    if os.environ.get("SHOTS_DIR"):
        page.screenshot(path=os.path.join(os.environ["SHOTS_DIR"], f"phone-light-{17 if language == 'ar' else 18}-{language}.png"))
    # Nothing found: the empty state and its advice in the language too.
    final_search(page, "zzqqxx")
    assert page.locator("#empty").is_visible()
    assert visible_english(page) == []


def test_right_to_left_mirrors_the_field_the_pill_the_tokens_and_the_rows(new_page, sites):
    page = new_page(viewport=SIZES["phone"])
    open_search(page, sites["ar"])
    page.locator("#q").click()
    settle(page)
    field, icon, cancel = box(page, "#field"), box(page, "#field .icon"), box(page, "#cancel")
    assert icon["x"] > field["x"] + field["width"] / 2, "the magnifier starts the field, on the right"
    assert cancel["x"] + cancel["width"] < field["x"] + field["width"] / 2, "Cancel sits at the field's end, on the left"
    # The field draws back from the left to make room: Cancel is what is under its middle.
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button')?.id",
                        [cancel["x"] + cancel["width"] / 2, cancel["y"] + cancel["height"] / 2])
    assert hit == "cancel"
    # The scope bar: the first segment on the right, the pill under the one chosen, arrows mirrored.
    type_query(page, "ال")
    page.wait_for_selector("#suggestions[data-for='ال'] .option")
    segments = page.locator("#segmented .seg")
    assert box(page, "#segmented .seg >> nth=0")["x"] > box(page, "#segmented .seg >> nth=1")["x"]
    segments.nth(2).click()
    settle(page)
    thumb, chosen = box(page, ".seg-thumb"), segments.nth(2).bounding_box()
    assert abs(thumb["x"] - chosen["x"]) < 1 and abs(thumb["width"] - chosen["width"]) < 1, (thumb, chosen)
    segments.nth(2).focus()
    page.keyboard.press("ArrowLeft")
    settle(page)
    assert page.locator('#segmented [aria-checked="true"]').get_attribute("data-scope") == "europe"
    thumb, chosen = box(page, ".seg-thumb"), segments.nth(3).bounding_box()
    assert abs(thumb["x"] - chosen["x"]) < 1, (thumb, chosen)
    # A token starts the field, on the right of the text; its label is Arabic.
    segments.nth(0).click()
    type_query(page, "آسيا")
    page.locator("#suggestions .option-filter").first.click()
    page.wait_for_selector("#tokens .token")
    token, text = box(page, "#tokens .token"), box(page, "#q")
    assert token["x"] > text["x"], (token, text)
    assert page.locator("#tokens .token-remove").get_attribute("aria-label").startswith("إزالة")
    # A result row: the artwork on the right, the text after it to its left.
    open_search(page, sites["ar"])
    final_search(page, "مصر")
    art, title = box(page, "#rows .row .artwork"), box(page, "#rows .row .row-text")
    assert art["x"] > title["x"], (art, title)
    # Its disclosure chevron, at the row's end on the left, points left, as iOS mirrors it: the
    # two borders drawn at the top and right point along the rotation's x axis (cos < 0: left).
    turn = page.evaluate("getComputedStyle(document.querySelector('#rows .row-link'), '::before').transform")
    cos = float(turn.removeprefix("matrix(").split(",")[0])
    assert cos < 0, f"the chevron points right in a right-to-left page: {turn}"


def test_a_site_of_many_languages_keeps_one_interface_and_searches_them_all(new_page, sites):
    # The world site's records are Japanese titles with English, Russian and Korean names searched too.
    page = new_page(viewport=SIZES["phone"])
    open_search(page, sites["ja"])
    for query, title in [("germany", "ドイツ"), ("Герм", "ドイツ"), ("일본", "日本")]:
        final_search(page, query)
        assert title in page.locator("#rows").text_content(), query
        assert re.match(r"^[\d,]+件$", page.locator("#count").text_content())
        assert visible_english(page) == []


def states(page, site, size, query):
    open_search(page, site)
    yield "idle"
    page.locator("#q").click()
    settle(page)
    yield "focused"
    type_query(page, query)
    page.wait_for_selector(f"#suggestions[data-for='{query}'] .option")
    yield "typing"
    page.keyboard.press("Enter")
    page.wait_for_selector("#rows .row")
    yield "results"
    page.locator("#rows .row a").first.click()
    page.wait_for_selector("main.record h1")
    yield "record page"
    page.goto(site + "404.html")
    yield "404"
    for path in ["browse/", "browse/countries/"]:
        page.goto(site + path)
        yield f"browse {path}"
    if size == "phone":
        open_search(page, site)
        page.set_viewport_size({"width": 320, "height": 690})
        page.evaluate("() => document.documentElement.style.fontSize = '200%'")
        type_query(page, query)
        page.wait_for_selector("#suggestions .option")
        if page.locator("#scope-button").is_visible():
            page.locator("#scope-button").click()
            yield "compact scope menu"
        page.evaluate("() => document.documentElement.style.fontSize = ''")
        page.set_viewport_size(SIZES[size])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language, query", [("ar", "ال"), ("ja", "アメリカ")])
def test_no_axe_violations_in_either_language(new_page, sites, language, query, size, scheme):
    page = new_page(viewport=SIZES[size], color_scheme=scheme)
    found = []
    for name in states(page, sites[language], size, query):
        found += violations(page, f"{language} {name}")
    assert not found, "\n".join(found)
