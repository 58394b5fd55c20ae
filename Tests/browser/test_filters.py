"""Filters you can see, and records `where:` hides.

The results and "No results" name the scope and tokens a search ran under,
with one tap to search everything; a scope does not outlive the field being
cleared. And on the default site, artists without albums and empty or
duplicate playlists are nowhere: not in results, not as pages, not as links.
"""
import re

from conftest import site_dir
from helpers import final_search, open_search, settle, state, type_query


def announced(page):
    return page.locator("#announcer").inner_text()


def test_no_results_names_scope_and_token_and_widens_in_one_tap(page, site):
    page.goto(site + "?q=miles&token=genre:Jazz&scope=library")
    page.wait_for_selector("#empty:not([hidden])")
    settle(page)
    text = page.locator("#empty-text").inner_text()
    assert text == "No results for \u201cmiles\u201d in Library with Genre: Jazz."
    widen = page.locator("#empty-widen")
    assert widen.is_visible() and widen.inner_text() == "Search the whole catalogue"

    widen.click()
    page.wait_for_selector("#rows .row")
    assert page.locator("#tokens .token").count() == 0
    assert page.get_attribute("#scope-all", "aria-checked") == "true"
    assert "scope=" not in page.url and "token=" not in page.url and "q=miles" in page.url
    assert page.locator("#filters").is_hidden(), "nothing left to name"
    assert re.search(r"\d+ results?$", announced(page))
    # Back returns to the filtered search.
    page.go_back()
    page.wait_for_selector("#empty:not([hidden])")
    assert page.locator("#tokens .token").count() == 1


def test_results_name_the_filters_in_force(page, site):
    open_search(page, site)
    page.goto(site + "?q=miles&token=genre:Jazz")
    page.wait_for_selector("#rows .row")
    settle(page)
    line = page.locator("#filters")
    assert line.is_visible()
    assert re.fullmatch(r"\d+ results? with Genre: Jazz", page.locator("#filters-text").inner_text())
    assert page.locator("#count").is_hidden(), "one count, with the filters in it"
    assert page.locator("#filters-widen").inner_text() == "Search All"
    assert "results with Genre: Jazz" in announced(page)
    # The line sits above the rows, under the chips.
    assert line.bounding_box()["y"] < page.locator("#rows .row").first.bounding_box()["y"]

    page.locator("#filters-widen").click()
    page.wait_for_function("() => !document.querySelector('#tokens .token')")
    page.wait_for_selector("#rows .row")
    assert line.is_hidden()


def test_a_stale_link_keeps_its_token_and_finds_nothing_rather_than_the_whole_kind(page, site):
    # Links from before the data changed: a genre that is gone, then a whole facet.
    for token, named in (("genre:Polka", "Genre: Polka"), ("mood:Calm", "mood: Calm")):
        page.goto(site + f"?token={token}&kind=songs")
        page.wait_for_selector("#empty:not([hidden])")
        settle(page)
        assert page.locator("#rows .row").count() == 0, token
        assert page.locator("#tokens .token-label").all_inner_texts() == [token.split(":")[1]]
        assert page.locator("#empty-text").inner_text() == f"No results with {named}."
        assert "token=" in page.url and "kind=" not in page.url


def test_scope_change_is_announced_and_cleared_field_drops_the_scope(page, site):
    open_search(page, site)
    type_query(page, "love")
    settle(page)
    page.locator("#scope-library").click()
    page.wait_for_function("() => document.getElementById('announcer').textContent.includes('Scope: Library')")
    assert "scope=library" in page.url

    page.locator("#field-clear").click()
    settle(page)
    assert state(page)["slot"] == "none", "the scope bar hides with the field empty"
    page.wait_for_function("() => document.getElementById('scope-all').getAttribute('aria-checked') === 'true'")
    assert "scope=" not in page.url
    # The next search is not filtered by a scope nobody can see.
    final_search(page, "love")
    assert page.locator("#filters").is_hidden()


def test_where_hides_artists_without_albums_and_empty_or_duplicate_playlists(page, site):
    # João Gilberto has no albums in Chinook: searching finds no page for him.
    open_search(page, site)
    final_search(page, "joao gilberto")
    titles = page.locator("#rows .row-title").all_inner_texts()
    assert "João Gilberto" not in titles
    assert not any(t.endswith("0 albums") for t in page.locator("#rows .row-sub").all_inner_texts())

    final_search(page, "music")
    page.locator("#chip-playlists").click()
    page.wait_for_selector("#chip-playlists[aria-selected=true]")
    page.wait_for_selector("#rows .row")
    settle(page)
    rows = page.locator("#rows .row").evaluate_all(
        "(rows) => rows.map((r) => [r.querySelector('.row-title').textContent, r.querySelector('.row-sub').textContent])")
    assert rows.count(["Music", "Playlist · 3,290 songs"]) == 1, rows
    assert not [r for r in rows if r[1].endswith(" 0 songs")], rows

    # Pages: the first "Music" and "TV Shows" only; none for the empty ones.
    pages = {p.name for p in (site_dir() / "playlists").iterdir()}
    assert "1-music" in pages and "8-music" not in pages
    assert "3-tv-shows" in pages and "10-tv-shows" not in pages
    assert not any(name.endswith(("-movies", "-audiobooks")) for name in pages), pages
    assert not any(p.name.endswith("-joao-gilberto") for p in (site_dir() / "artists").iterdir())



def test_two_values_of_one_facet_find_either(page, site):
    def count(query):
        page.goto(site + query)
        page.wait_for_selector("#filters:not([hidden])")
        return int(page.locator("#filters-text").inner_text().split()[0].replace(",", ""))

    blues, rock = count("?token=genre:Blues"), count("?token=genre:Rock")
    either = count("?token=genre:Blues&token=genre:Rock")
    assert either > max(blues, rock), (blues, rock, either)
    assert page.locator("#tokens .token").count() == 2
    assert "Genre: Blues or Rock" in page.locator("#filters-text").inner_text()
