"""Results a visitor can steer: the sort menu in the results header and span tokens.

On the default site (Data/site.yml) songs sort by Title and Length and filter
to a span of Length ("Length: <3:00"). The menu is an APG menu button: it
opens with a click or the arrow keys, moves with the arrows, closes with
Escape, and its choice is in the address, restored on reload and on Back.
"""
import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from helpers import final_search, open_search, settle, type_query

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def seconds(subtitle):
    """A song row's length, from its subtitle "Song · Artist · 4:03"."""
    m = re.search(r"(\d+):(\d\d)$", subtitle)
    return int(m.group(1)) * 60 + int(m.group(2))


def subtitles(page):
    return page.locator("#rows .row .row-sub:not(.row-match)").all_inner_texts()


def titles(page):
    return page.locator("#rows .row .row-title").all_inner_texts()


def until(page, read, ok):
    """`read(page)` once `ok` holds of it (rows are replaced a moment after the menu closes)."""
    for _ in range(50):
        value = read(page)
        if ok(value):
            return value
        page.wait_for_timeout(100)
    raise AssertionError(f"never: {value}")


def ascending(values):
    return len(values) >= 10 and values == sorted(values)


def choose_sort(page, label):
    page.locator("#sort-button").click()
    page.locator("#sort-menu [role=menuitemradio]", has_text=label).click()
    page.wait_for_function("(l) => document.getElementById('sort-button-label').textContent === l", arg=label)
    page.wait_for_selector("#results-panel:not([hidden]) #rows li")
    settle(page)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_songs_sort_by_length_and_the_address_keeps_it(new_page, site, size, scheme):
    page = new_page(viewport=SIZES[size], color_scheme=scheme)
    open_search(page, site)
    final_search(page, "love")
    page.locator("#chip-songs").click()
    page.wait_for_function("() => document.getElementById('chip-songs').ariaSelected === 'true'")
    page.wait_for_selector("#sort:not([hidden])")
    settle(page)
    button = page.locator("#sort-button")
    assert page.locator("#sort-button-label").inner_text() == "Relevance"
    # In the results header, on the count's line, inside the page's width.
    box, count = button.bounding_box(), page.locator("#count").bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (count["y"] + count["height"] / 2)) < 8
    assert box["x"] + box["width"] <= SIZES[size]["width"]
    relevance = titles(page)

    choose_sort(page, "Length")
    lengths = until(page, lambda p: [seconds(s) for s in subtitles(p)], ascending)
    assert titles(page) != relevance
    assert "sort=length" in page.url and "kind=songs" in page.url
    assert page.locator("#announcer").inner_text().startswith(("Sorted by Length", "Songs:"))

    page.reload()
    page.wait_for_selector("#rows li")
    page.wait_for_selector("#sort:not([hidden])")
    assert page.locator("#sort-button-label").inner_text() == "Length"
    again = [seconds(s) for s in subtitles(page)]
    n = min(len(again), len(lengths))
    assert again[:n] == lengths[:n], "a reload shows the same order"

    choose_sort(page, "Title")
    until(page, lambda p: [t.casefold() for t in titles(p)], ascending)
    assert "sort=title" in page.url
    if size == "phone" and scheme == "light":
        page.screenshot(path="/tmp/sort-menu-phone.png")


def test_back_restores_the_sort_of_the_search_before(page, site):
    page.goto(site + "?q=love&kind=songs&sort=length")
    page.wait_for_selector("#sort:not([hidden])")
    lengths = [seconds(s) for s in subtitles(page)]
    assert lengths == sorted(lengths)
    final_search(page, "rock")
    assert page.locator("#sort-button-label").inner_text() == "Relevance", "a new search in Top Results"
    page.go_back()
    page.wait_for_function("() => document.getElementById('sort-button-label')?.textContent === 'Length'")
    page.wait_for_selector("#rows li")
    again = [seconds(s) for s in subtitles(page)]
    assert again[:12] == lengths[:12]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_menu_works_from_the_keyboard_and_axe_finds_nothing_with_it_open(new_page, site, size, scheme):
    page = new_page(viewport=SIZES[size], color_scheme=scheme)
    page.goto(site + "?q=love&kind=songs")
    page.wait_for_selector("#sort:not([hidden])")
    settle(page)
    button = page.locator("#sort-button")
    assert button.get_attribute("aria-haspopup") == "menu"
    button.focus()
    page.keyboard.press("ArrowDown")
    assert button.get_attribute("aria-expanded") == "true"
    focused = lambda: page.evaluate("() => document.activeElement.textContent")  # noqa: E731
    assert focused() == "Relevance", "the checked item takes focus"
    found = Axe().run(page).response["violations"]
    if size == "phone":
        page.screenshot(path=f"/tmp/sort-menu-open-{scheme}.png")
    assert not found, [(v["id"], [(n["target"], n["failureSummary"]) for n in v["nodes"][:3]]) for v in found]
    page.keyboard.press("End")
    assert focused() == "Length"
    page.keyboard.press("ArrowDown")
    assert focused() == "Relevance", "the arrows wrap"
    page.keyboard.press("Escape")
    assert button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.id") == "sort-button"
    assert page.locator("#results-panel").is_visible(), "Escape closes the menu, not the search"
    page.keyboard.press("ArrowUp")
    assert focused() == "Length"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('sort-button-label').textContent === 'Length'")
    page.wait_for_selector("#rows li")
    assert page.evaluate("() => document.activeElement.id") == "sort-button"
    until(page, lambda p: [seconds(s) for s in subtitles(p)], ascending)


@pytest.mark.parametrize("size", SIZES)
def test_a_length_span_is_offered_typed_and_combined_with_words(new_page, site, size):
    page = new_page(viewport=SIZES[size])
    open_search(page, site)
    type_query(page, "length")
    offered = page.locator("#suggestions [role=option]", has_text="Length: <3:00")
    offered.wait_for()
    offered.click()
    page.wait_for_selector("#tokens .token")
    assert page.locator("#tokens .token-label").inner_text() == "<3:00"
    page.locator("#q").press_sequentially("love", delay=15)
    page.keyboard.press("Enter")
    page.wait_for_selector("#rows li")
    settle(page)
    assert "token=length%3A%3C3%3A00" in page.url or "token=length:<3:00" in page.url
    lengths = [seconds(s) for s in subtitles(page) if re.search(r"\d:\d\d$", s)]
    assert lengths and all(n < 180 for n in lengths), lengths

    # Typed: a span after the range's name becomes a token too.
    type_query(page, "length:5:00..6:00")
    typed = page.locator("#suggestions [role=option]", has_text="Length: 5:00–6:00")
    typed.wait_for()
    typed.click()
    page.keyboard.press("Enter")
    page.wait_for_selector("#rows li")
    settle(page)
    page.locator("#chip-songs").click()
    page.wait_for_function("() => document.getElementById('chip-songs').ariaSelected === 'true'")
    page.wait_for_selector("#rows li")
    settle(page)
    # Two spans of one range are alternatives, as two values of a facet are.
    either = [seconds(s) for s in subtitles(page)]
    assert either and all(n < 180 or 300 <= n <= 360 for n in either), either
    assert any(n >= 300 for n in either), either
    page.reload()
    page.wait_for_selector("#tokens .token")
    assert page.locator("#tokens .token-label").all_inner_texts() == ["<3:00", "5:00–6:00"]
