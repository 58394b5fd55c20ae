"""Screenshots for a person to look at: phone and desktop, light and dark,
idle, typing, tokens, results, detail pages (an artist with its shelves, a
playlist, and its top bar suggesting), the filters named in results and in No Results, the sort menu
and a range token. Runs only when SHOTS_DIR is set."""
import os
import pathlib

import pytest

from conftest import site_dir
from helpers import final_search, open_search, settle, type_query

SHOTS = os.environ.get("SHOTS_DIR")
pytestmark = pytest.mark.skipif(not SHOTS, reason="set SHOTS_DIR to take screenshots")

SITE = site_dir() if SHOTS else None
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_screenshots(new_page, site, size, scheme):
    folder = pathlib.Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page = new_page(viewport=SIZES[size], color_scheme=scheme, device_scale_factor=2 if size == "phone" else 1)

    def shot(name):
        settle(page)
        page.mouse.move(0, 0)
        page.screenshot(path=str(folder / f"{size}-{scheme}-{name}.png"))

    open_search(page, site)
    shot("1-idle")
    page.locator("#q").click()
    shot("2-focused")
    type_query(page, "meta")
    page.wait_for_selector("#suggestions[data-for=meta] .option")
    shot("3-typing")
    page.keyboard.press("Enter")
    page.wait_for_selector("#rows .row")
    shot("4-results")
    page.locator("#chip-albums").click()
    shot("5-albums")
    page.locator("#q").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.locator("#suggestions .option-filter", has_text="Jazz").first.click()
    page.keyboard.type("miles")
    page.wait_for_selector("#suggestions[data-for=miles] .option")
    shot("6-token")
    if size == "phone":
        page.set_viewport_size({"width": 320, "height": 690})
        page.evaluate("() => document.documentElement.style.fontSize = '200%'")
        page.wait_for_selector("#scope-button", state="visible")
        page.locator("#scope-button").click()
        shot("7-compact-scope")
        page.keyboard.press("Escape")
        page.evaluate("() => document.documentElement.style.fontSize = ''")
        page.set_viewport_size(SIZES[size])
    page.locator("#cancel").click()
    final_search(page, "love")
    page.mouse.move(200, 400)
    for _ in range(4):
        page.mouse.wheel(0, 150)
        page.wait_for_timeout(60)
    page.mouse.wheel(0, -60)
    page.wait_for_timeout(100)
    shot("8-scrolled")
    # Detail pages: a hero, shelves that scroll sideways, song rows.
    page.goto(site + detail("artists", "*-ac-dc"))
    shot("9-artist")
    page.goto(site + detail("playlists", "1-music"))
    shot("10-playlist")
    # The top bar's field suggests as the search page's does.
    page.locator("#q").click()
    page.keyboard.type("love", delay=20)
    page.wait_for_selector("#suggestions [role=option]")
    shot("13-detail-typing")
    # Filters you can see: named over the results, and under No Results.
    page.goto(site + "?q=miles&token=genre:Jazz")
    page.wait_for_selector("#filters:not([hidden])")
    shot("11-filtered")
    page.goto(site + "?q=miles&token=genre:Jazz&scope=library")
    page.wait_for_selector("#empty-widen:not([hidden])")
    shot("12-no-results")
    # Sort and ranges: songs by length with the sort menu open, and a range as a token.
    page.goto(site + "?q=love&kind=songs&sort=length")
    page.wait_for_selector("#sort:not([hidden])")
    page.locator("#sort-button").click()
    page.wait_for_selector("#sort-menu:not([hidden])")
    shot("19-sorted")
    page.keyboard.press("Escape")
    page.goto(site + "?q=love&token=length:%3C3:00")
    page.wait_for_selector("#tokens li")
    page.wait_for_selector("#rows .row")
    shot("20-range")


def detail(folder, pattern):
    return next((SITE / folder).glob(pattern)).relative_to(SITE).as_posix() + "/"
