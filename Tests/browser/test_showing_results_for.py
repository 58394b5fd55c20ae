"""The "Showing results for / Search instead for" line, as a person reads it.

A query whose words together find nothing drops the least specific of them and
says so; a correction names what was searched and offers the words as typed;
no line ever stands over No Results. Data: the default Chinook catalogue.
"""
import re

from helpers import final_search, open_search


def note(page):
    return page.locator("#correction")


def test_a_dropped_word_is_said_plainly(page, site):
    open_search(page, site)
    final_search(page, "joao gilberto")
    assert page.locator("#rows li").count() > 0, "no dead end"
    text = note(page).inner_text()
    assert note(page).is_visible()
    assert text.startswith("No results for all of \u201cjoao gilberto\u201d. Showing results for "), text
    assert page.locator("#empty").is_hidden()


def test_a_correction_offers_the_words_as_typed(page, site):
    open_search(page, site)
    final_search(page, "metalica")
    assert "Showing results for metallica." in note(page).inner_text()
    assert "Metallica" in page.locator("#rows .row-title").first.inner_text()
    instead = note(page).get_by_role("button", name="metalica")
    assert "Search instead for metalica" in note(page).inner_text()
    instead.click()
    page.wait_for_selector("#empty:not([hidden])")
    assert note(page).is_hidden(), "no line over No Results"
    assert page.locator("#q").input_value() == "metalica"
    # The choice is in the address: a reload (or a shared link) keeps the
    # words as typed instead of correcting them again.
    page.wait_for_url(re.compile(r"typed=1"))
    page.reload()
    page.wait_for_selector("#empty:not([hidden])")
    assert note(page).is_hidden()
    assert page.locator("#q").input_value() == "metalica"
    # A new search corrects again.
    final_search(page, "metalica")
    assert note(page).is_visible() and "metallica" in note(page).inner_text()


def test_no_line_over_no_results(page, site):
    open_search(page, site)
    final_search(page, "qqxzzv metalica zzqqv")
    # The words that find nothing go; metallica is corrected and found.
    assert page.locator("#rows li").count() > 0
    final_search(page, "qqxzzv")
    assert page.locator("#empty").is_visible()
    assert note(page).is_hidden()
