"""Hostile values in a site nobody configured: `generate init` on a CSV and a
JSON file written by an attacker, built with the built-in theme, then driven
in Chromium. No dialog opens, no element or attribute the data spelt exists,
and every value reads back as the text it was — in suggestions, result rows,
chips, tokens and record pages. Also served under the site's own policy, so a
script that ran would also be a CSP report here."""
import functools
import http.server
import json
import os
import pathlib
import subprocess
import tempfile
import threading

import pytest

from conftest import REPO, Handler
from test_artwork import png
from helpers import final_search, open_search, settle, type_query

SCRIPT = "</script><script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(2)>'
MUSTACHE = "{{site.title}} {{{record.title}}} {{> layout}}"
BIDI = "Abc\u202eevil\u202c"
SEPARATORS = "line\u2028para\u2029end"
AMP = "Tom &amp; Jerry &lt;b&gt;"

# The people: titles the attack spells, kinds the init makes facets of,
# links and pictures that are scripts.
PEOPLE = [
    ["id", "name", "group", "homepage", "photo", "note"],
    ["1", SCRIPT + " Ada", "alpha<b>", "https://example.org/a", "https://example.org/a.png", SEPARATORS],
    ["2", IMG + " Alan", "beta\"'", "https://example.org/b", "https://example.org/b.png", MUSTACHE],
    ["3", MUSTACHE + " Grace", "alpha<b>", "https://example.org/c", "https://example.org/c.png", BIDI],
    ["4", BIDI + " Edsger", "beta\"'", "javascript:alert(3)", "data:text/html,<script>alert(4)</script>", AMP],
    ["5", AMP + " Barbara", "gamma&amp;", "https://example.org/e", "https://example.org/e.png", IMG],
    ["6", SEPARATORS + " Donald", "gamma&amp;", "https://example.org/f", "https://example.org/f.png", SCRIPT],
] + [
    # Enough people for init to take the groups, each shared by many, as a facet.
    [str(i), f"Person {name}", ("alpha<b>", "beta\"'", "gamma&amp;")[i % 3], f"https://example.org/{i}",
     f"https://example.org/{i}.png", "Plain"]
    for i, name in enumerate(["Quine", "Rivest", "Shamir", "Thompson", "Ullman", "Valiant", "Wirth", "Yao",
                              "Zuse", "Backus", "Church", "Floyd", "Gray", "Hamming", "Iverson", "Kay", "Lamport",
                              "McCarthy", "Naur", "Perlis"], start=7)
]

BOOKS = [
    {"code": f"k{i}", "title": title, "person_id": i, "blurb": blurb}
    for i, (title, blurb) in enumerate(
        [(SCRIPT + " Notes", IMG), (IMG + " Numbers", SCRIPT), (MUSTACHE + " Manual", SEPARATORS),
         (BIDI + " Harmful", MUSTACHE), (AMP + " Abstraction", BIDI), (SEPARATORS + " Art", AMP)], start=1)
]


COVER = png((20, 40, 90), (90, 160, 230))


def csv_text(rows):
    return "".join(",".join('"' + cell.replace('"', '""') + '"' for cell in row) + "\n" for row in rows)


@pytest.fixture(scope="module")
def hostile():
    with tempfile.TemporaryDirectory() as name:
        folder = pathlib.Path(name)
        (folder / "people.csv").write_text(csv_text(PEOPLE))
        (folder / "books.json").write_text(json.dumps(BOOKS, ensure_ascii=False))
        # GENERATE names a built executable to use instead of `swift run` (which builds first).
        run = [os.environ["GENERATE"]] if os.environ.get("GENERATE") else [
            "swift", "run", "-q", "--package-path", str(REPO), "generate"]
        made = subprocess.run([*run, "init", "people.csv", "books.json"], cwd=folder, capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
        built = subprocess.run([*run, "--quiet"], cwd=folder, capture_output=True, text=True)
        assert built.returncode == 0, built.stderr + (folder / "site.yml").read_text()
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder / "site")))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}/", folder
        server.shutdown()
        server.server_close()


INJECTED = """() => {
  const found = []
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      if (attr.name.startsWith('on')) found.push(`${el.tagName} ${attr.name}`)
      if (/^\\s*(javascript|data):/i.test(attr.value) && ['href', 'src', 'action', 'formaction'].includes(attr.name))
        found.push(`${el.tagName} ${attr.name}=${attr.value}`)
    }
    if (el.tagName === 'B' || (el.tagName === 'IMG' && el.getAttribute('src') === 'x')) found.push(el.outerHTML)
  }
  for (const s of document.scripts) if (/alert\\(/.test(s.textContent) && s.type !== 'application/json' && s.type !== 'application/ld+json') found.push('script: ' + s.textContent.slice(0, 80))
  return found
}"""


def watch(page):
    """Records every dialog; answers the pictures' host (example.org) with a cover."""
    dialogs = []
    page.route("https://example.org/**", lambda route: route.fulfill(status=200, body=COVER, content_type="image/png"))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return dialogs


def assert_clean(page, dialogs):
    assert not dialogs, dialogs
    assert page.evaluate(INJECTED) == []


@pytest.mark.parametrize("value", [SCRIPT, IMG, MUSTACHE, BIDI, AMP, SEPARATORS])
def test_a_hostile_title_reads_as_text_in_suggestions_results_and_its_page(page, hostile, value):
    site, _ = hostile
    dialogs = watch(page)
    open_search(page, site)
    word = {"Ada": "ada", SCRIPT: "ada", IMG: "alan", MUSTACHE: "grace", BIDI: "edsger", AMP: "barbara",
            SEPARATORS: "donald"}[value]
    name = {SCRIPT: "Ada", IMG: "Alan", MUSTACHE: "Grace", BIDI: "Edsger", AMP: "Barbara", SEPARATORS: "Donald"}[value]
    type_query(page, word)
    page.wait_for_selector(f"#suggestions[data-for={word}] [role=option]")
    options = page.locator("#suggestions [role=option]").all_inner_texts()
    assert any(value.replace("\u2028", "").replace("\u2029", "") in o.replace("\u2028", "").replace("\u2029", "")
               or value in o for o in options), options
    assert_clean(page, dialogs)
    page.keyboard.press("Enter")
    page.wait_for_selector("#results-panel:not([hidden]) #rows li")
    settle(page)
    titles = page.locator("#rows .row-title").all_text_contents()
    assert f"{value} {name}" in titles, titles
    assert_clean(page, dialogs)
    # The record's own page: its heading is the title, as text.
    page.locator("#rows .row-title", has_text=name).first.click()
    page.wait_for_load_state("load")
    assert page.locator("h1").first.text_content().strip() == f"{value} {name}"
    assert page.title().startswith(f"{value} {name}")
    assert_clean(page, dialogs)


def test_facet_values_with_markup_are_text_in_scopes_tiles_rows_and_tokens(page, hostile):
    site, _ = hostile
    dialogs = watch(page)
    open_search(page, site)
    # init made the groups scopes and a facet: the scope bar and the idle tiles spell them.
    text = page.evaluate("() => document.body.innerText")
    for group in ("alpha<b>", "beta\"'", "gamma&amp;"):
        assert group in text, group
    assert_clean(page, dialogs)
    final_search(page, "person")
    assert_clean(page, dialogs)
    subtitles = " ".join(page.locator("#rows .row").all_inner_texts())
    assert "alpha<b>" in subtitles and "gamma&amp;" in subtitles, subtitles
    assert page.locator("#chips-top .chip, #chips .chip").count() > 0
    # A token of the facet, typed: offered as text, and in the field as text once chosen.
    type_query(page, "alpha")
    page.wait_for_selector("#suggestions [role=option]")
    options = " ".join(page.locator("#suggestions [role=option]").all_inner_texts())
    assert "alpha<b>" in options, options
    assert_clean(page, dialogs)


def test_a_script_link_and_a_data_picture_are_never_followed(page, hostile):
    site, folder = hostile
    dialogs = watch(page)
    open_search(page, site)
    final_search(page, "edsger")
    assert_clean(page, dialogs)
    page.locator("#rows .row-title", has_text="Edsger").first.click()
    page.wait_for_load_state("load")
    assert_clean(page, dialogs)
    for link in page.locator("a").all():
        href = link.get_attribute("href") or ""
        assert not href.lower().startswith(("javascript:", "data:")), href
    for image in page.locator("img").all():
        assert not (image.get_attribute("src") or "").lower().startswith(("javascript:", "data:text"))
