"""Query completions in real Chromium on the default site: they keep the typed
words, mark the part not typed, forgive a typo while typing, and a tap on one
searches the whole completed query."""
from helpers import open_search, settle, type_query


def completions(page, typed):
    page.wait_for_selector(f"#suggestions[data-for='{typed}'] :is(.option-completion, .option-doc)")
    settle(page)
    return page.locator("#suggestions .option-completion")


def test_completions_keep_the_typed_words_and_mark_the_rest(page, site):
    open_search(page, site)
    type_query(page, "led zep")
    options = completions(page, "led zep")
    texts = [t.strip() for t in options.all_inner_texts()]
    assert texts and texts[0] == "led zeppelin", texts
    assert all(t.startswith("led ") for t in texts), texts
    # Apple marks what a tap would add, not what was typed.
    assert options.first.locator("mark").inner_text() == "pelin"


def test_a_tap_on_a_completion_searches_the_whole_query(page, site):
    open_search(page, site)
    type_query(page, "pearl j")
    options = completions(page, "pearl j")
    assert [t.strip() for t in options.all_inner_texts()][0] == "pearl jam"
    options.first.click()
    page.wait_for_selector("#results-panel:not([hidden]) #rows li")
    assert page.locator("#q").input_value() == "pearl jam"
    assert "Pearl Jam" in page.locator("#rows .row-title").first.inner_text()


def test_a_typo_is_forgiven_while_typing(page, site):
    open_search(page, site)
    type_query(page, "zepelin")
    options = completions(page, "zepelin")
    assert "zeppelin" in [t.strip() for t in options.all_inner_texts()]
    assert "Zeppelin" in page.locator("#suggestions .option-doc").first.inner_text()


def test_no_run_together_form_is_offered(page, site):
    open_search(page, site)
    type_query(page, "clapton")
    completions(page, "clapton")
    texts = page.locator("#suggestions .option-completion").all_inner_texts()
    assert not any("claptoncollins" in t for t in texts), texts
