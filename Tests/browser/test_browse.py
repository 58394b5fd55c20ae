"""Browsing from the idle page: every kind ("All Albums") and every facet
that makes tokens is one tap away, and a kind lists without a query, most
popular first — the same list `?kind=` gives."""
from helpers import open_search, settle


def titles(page, count=5):
    page.wait_for_selector("#results-panel:not([hidden]) #rows li")
    return page.locator("#rows li").evaluate_all(
        f"(rows) => rows.slice(0, {count}).map((row) => row.textContent.trim())")


def test_every_kind_is_listed_on_the_idle_page_and_browses_without_a_query(page, site):
    open_search(page, site)
    kinds = page.locator(".browse-kinds .term")
    assert kinds.all_text_contents() == ["All Artists", "All Albums", "All Songs", "All Playlists", "All Genres"]
    assert page.locator("#kinds-title").text_content() == "Browse Music"

    kinds.filter(has_text="All Albums").click()
    shown = titles(page)
    settle(page)
    assert "kind=albums" in page.url and "q=" not in page.url
    assert page.locator("#q").input_value() == ""
    assert page.locator("#chip-albums").get_attribute("aria-selected") == "true"
    assert len(shown) == 5

    # The same list an address with ?kind=albums gives: most popular first.
    page.goto(site + "?kind=albums")
    assert titles(page) == shown

    # Back from the list is the idle page again.
    page.go_back()
    page.wait_for_selector("#idle-view:not([hidden])")


def test_each_facet_with_tokens_gets_its_tiles(page, records):
    open_search(page, records)
    headings = page.locator("#idle-view .section-title").all_text_contents()
    # No trending terms in this config: no empty Trending section either.
    assert headings == ["Browse Records", "Genre", "Artist"]
    artist = page.locator(".browse-more .browse-tile").first
    label = artist.get_attribute("aria-label")
    assert label.startswith("Artist: ")
    artist.click()
    page.wait_for_selector("#results-panel:not([hidden]) #rows li")
    assert page.locator("#tokens .token").count() == 1
    assert page.locator("#tokens .token-label").text_content() == label.removeprefix("Artist: ")
    assert "token=artist" in page.url


def test_a_site_with_one_scope_shows_no_scope_bar(page, records):
    # The records fixture declares no scopes: "All" alone is no choice, so
    # typing keeps the slot empty instead of showing a one-segment control.
    open_search(page, records)
    page.locator("#q").click()
    page.keyboard.type("a", delay=20)
    page.wait_for_timeout(300)
    assert page.locator("#segmented [data-scope]").count() == 1
    assert page.evaluate("document.documentElement.dataset.slot") == "none"
    assert page.evaluate("document.getElementById('scope-layer').inert")
