"""Why did this match? A row found by a word outside its title says where, as a person reads it.

A song found by its composer shows "Composer: …" with the word marked; a song
found by its artist marks the artist in its subtitle. Data: the default
Chinook catalogue, and the Debian example (PACKAGES_SITE) for a summary.
"""
import functools
import http.server
import os
import pathlib
import threading

import pytest

from conftest import Handler
from helpers import final_search, open_search, settle, type_query


def row(page, title, scope="#rows"):
    return page.locator(f"{scope} .row-text").filter(has=page.locator(".row-title", has_text=title)).first


def line(row_text):
    """The row's lines as text, and the marked words of each."""
    return row_text.evaluate(
        """(el) => [...el.children].map((c) => ({ cls: c.className, text: c.textContent,
             marks: [...c.querySelectorAll('mark')].map((m) => m.textContent),
             tags: [...c.querySelectorAll('*')].map((e) => e.localName) }))""")


def test_a_song_found_by_its_composer_says_composer_with_the_word_marked(page, site):
    open_search(page, site)
    final_search(page, "lennon")
    lines = line(row(page, "Norwegian Wood"))
    assert [x["text"] for x in lines] == ["Norwegian Wood", "Song \u00b7 Milton Nascimento \u00b7 6:54",
                                          "Composer: John Lennon, Paul McCartney"], lines
    assert lines[0]["marks"] == [] and lines[1]["marks"] == []
    assert lines[2]["marks"] == ["Lennon"] and lines[2]["tags"] == ["mark"], "text and <mark>, nothing else"
    assert row(page, "Norwegian Wood").locator(".row-match").is_visible()
    # A title holding the word says nothing more.
    assert [x["marks"] for x in line(row(page, "Para Lennon E McCartney"))][0] == ["Lennon"]
    assert row(page, "Para Lennon E McCartney").locator(".row-match").count() == 0
    # The link's name, which a screen reader reads, says it too.
    name = page.locator("#rows a").filter(has_text="Norwegian Wood").first.text_content()
    assert "Composer: John Lennon, Paul McCartney" in name


def test_suggestions_say_where_too_and_follow_the_typing(page, site):
    open_search(page, site)
    type_query(page, "lenno")
    # The list answers the whole word, not a key before it (data-for names what it answers).
    page.wait_for_selector('#suggestions[data-for="lenno"] .option-doc .row-match mark')
    hint = row(page, "Norwegian Wood", "#suggestions").locator(".row-match")
    assert hint.text_content() == "Composer: John Lennon, Paul McCartney"
    assert hint.locator("mark").all_text_contents() == ["Lenno"]
    page.keyboard.type("n")
    page.wait_for_function(
        """() => [...document.querySelectorAll('#suggestions .row-match mark')].some((m) => m.textContent === 'Lennon')""")


def test_a_song_found_by_its_artist_marks_the_subtitle(page, site):
    open_search(page, site)
    final_search(page, "apocalyptica")
    subtitles = page.locator("#rows .row-sub:not(.row-match)")
    marked = [m for m in subtitles.evaluate_all("(els) => els.map((e) => [...e.querySelectorAll('mark')].map((m) => m.textContent))") if m]
    assert marked and all(m == ["Apocalyptica"] for m in marked), marked


@pytest.fixture(scope="module")
def packages():
    """The Debian example (PACKAGES_SITE, which Tests/run.sh builds); skipped without."""
    folder = pathlib.Path(os.environ.get("PACKAGES_SITE", ".build/packages-site"))
    if not (folder / "index.html").is_file():
        pytest.skip(f"no package index site at {folder} (set PACKAGES_SITE)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder.resolve())))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_a_package_found_by_its_summary_shows_the_words_marked_in_view(page, packages):
    """The subtitle prints the summary, so the words are marked there; it wraps rather than
    hide them behind its ellipsis on a phone."""
    page.goto(packages + "?q=web+browser")
    page.wait_for_selector("#rows li")
    settle(page)
    lynx = row(page, "lynx")
    lines = line(lynx)
    assert lines[0]["marks"] == [], "the title holds neither word"
    assert lines[1]["text"].endswith("classic non-graphical (text-mode) web browser"), lines
    assert lines[1]["marks"] == ["web", "browser"] and lines[1]["tags"] == ["mark", "mark"], lines
    assert lynx.locator(".row-match").count() == 0, "no line of its own: the subtitle says it"
    seen = lynx.evaluate("""(el) => {
      const sub = el.querySelector('.row-sub').getBoundingClientRect(), mark = [...el.querySelectorAll('.row-sub mark')].at(-1).getBoundingClientRect()
      return mark.right <= sub.right + 0.5 && mark.bottom <= sub.bottom + 0.5 && mark.width > 0 }""")
    assert seen, "the marked words are inside the subtitle's visible box"
