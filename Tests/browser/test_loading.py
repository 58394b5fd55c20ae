"""First use on a slow connection: what the page does before its script and
index have arrived, and what its HTML tells the browser to fetch at once.

A server that holds back chosen responses stands in for the slow network:
the script, or the index's term files, arrive seconds late.
"""
import json
import re
import time
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

answered = "(w) => { const l = document.getElementById('suggestions'); return l.dataset.for === w && l.querySelector('[role=option]') !== null }"


def suggestion_texts(page):
    return page.eval_on_selector_all("#suggestions [role=option]", "els => els.map((e) => e.textContent)")


def test_text_typed_before_the_script_runs_is_answered(page, slow_site):
    url, delays = slow_site
    delays.rules.append(("/js/", 5.0))  # the script (bundled or each module) arrives 5 s late
    page.goto(url, wait_until="commit")
    page.wait_for_selector("#q", state="visible")
    page.locator("#q").click()
    page.keyboard.type("metallica", delay=20)
    typed = time.monotonic()
    assert not delays.sent, "the script was still on its way while the text was typed"
    page.wait_for_function(answered, arg="metallica", timeout=15000)
    assert min(delays.sent.values()) > typed
    assert page.locator("#q").input_value() == "metallica"
    assert any("Metallica" in text for text in suggestion_texts(page))
    assert page.evaluate("document.activeElement.id") == "q"


def test_a_slow_index_shows_a_quiet_loading_line_never_an_empty_list(page, slow_site):
    url, delays = slow_site
    delays.rules.append(("/idx/t/", 2.0))  # every term file arrives 2 s late
    page.goto(url)
    page.wait_for_selector("#tiles .browse-tile", state="attached")  # the manifest is in
    page.locator("#q").click()
    page.keyboard.type("love", delay=20)
    loading = page.locator("#loading")
    loading.wait_for(state="visible", timeout=1500)
    assert loading.inner_text().strip()
    assert loading.get_attribute("role") == "status"
    page.wait_for_function(answered, arg="love", timeout=15000)
    assert loading.is_hidden()
    assert any("love" in text.lower() for text in suggestion_texts(page))


def test_a_shared_results_link_on_a_slow_connection_never_shows_a_blank_page(page, slow_site):
    """Loading… while the answer is on its way; the chip row keeps its place
    and shows its chips once, with the kinds that have results."""
    url, delays = slow_site
    delays.rules.append(("/idx/", 1.5))  # every index file the answer needs arrives 1.5 s late
    page.goto(url + "?q=love")
    loading = page.locator("#results-loading")
    loading.wait_for(state="visible", timeout=1500)
    assert loading.inner_text().strip() == "Loading\u2026"
    assert page.evaluate("() => document.getElementById('slot').dataset.state") == "chips", "the row's place is kept"
    assert page.evaluate("() => parseFloat(getComputedStyle(document.getElementById('chip-layer')).opacity)") == 0
    page.evaluate(
        """() => {
          window.__counts = []
          const layer = document.getElementById('chip-layer')
          const tick = () => {
            if (parseFloat(getComputedStyle(layer).opacity) > 0)
              __counts.push([...document.querySelectorAll('#chips .chip')].filter((c) => !c.hidden).length)
            if (!document.querySelector('#rows .row') || __counts.length < 20) requestAnimationFrame(tick)
          }
          tick()
        }"""
    )
    page.wait_for_selector("#rows .row", timeout=15000)
    page.wait_for_function("() => __counts.length >= 20")
    counts = page.evaluate("() => __counts")
    assert loading.is_hidden()
    assert len(set(counts)) == 1, f"the chip row changed shape once shown: {counts}"



def type_until_suggested(page, url, word):
    """Opens the search page, types `word` into the field as a person would, and waits until
    the suggestions shown answer it."""
    page.goto(url)
    page.wait_for_selector("#tiles .browse-tile", state="attached")
    page.locator("#q").click()
    page.keyboard.type(word, delay=20)
    page.wait_for_function(answered, arg=word, timeout=15000)


def test_enter_pressed_at_once_waits_for_the_final_searchs_code(page, slow_site):
    """The final search's code (ui/panel.js) is fetched in the background once suggestions have
    been read for a moment: an Enter pressed as soon as they show, on a connection that brings
    that module 2 s late, shows the loading line and then the results, not nothing."""
    url, delays = slow_site
    delays.rules.append(("/ui/panel.js", 2.0))
    type_until_suggested(page, url, "metallica")
    page.keyboard.press("Enter")
    pressed = time.monotonic()
    page.locator("#results-loading").wait_for(state="visible", timeout=1500)
    page.wait_for_selector("#rows .row", timeout=15000)
    sent = [at for path, at in delays.sent.items() if "/ui/panel.js" in path]
    assert sent and sent[0] > pressed, "the module was already in when Enter was pressed"
    titles = page.eval_on_selector_all("#rows .row-title", "els => els.map((e) => e.textContent)")
    assert any("Metallica" in title for title in titles), titles
    assert page.locator("#results-loading").is_hidden()


def test_suggestions_that_correct_a_typo_fetch_the_final_searchs_code_at_once(page, slow_site):
    """A typo's suggestions are a guess that Enter confirms, so the final search's code
    (ui/panel.js) is asked for as soon as they show, not after the moment of reading that a
    word spelled right waits (0.6 s): an Enter pressed straight after typing `metalica` does
    not wait for that request."""
    url, delays = slow_site
    delays.rules.append(("/ui/panel.js", 0.3))
    type_until_suggested(page, url, "metalica")
    shown = time.monotonic()
    while not any("/ui/panel.js" in path for path in delays.requested) and time.monotonic() - shown < 0.45:
        page.wait_for_timeout(10)
    assert any("/ui/panel.js" in path for path in delays.requested), "not asked for while the typo's suggestions showed"
    page.keyboard.press("Enter")
    page.wait_for_selector("#rows .row", timeout=15000)
    titles = page.eval_on_selector_all("#rows .row-title", "els => els.map((e) => e.textContent)")
    assert any("Metallica" in title for title in titles), titles


class Head(HTMLParser):
    """The fetches a page's HTML names: stylesheets, scripts, preloads, and its JSON data blocks."""

    def __init__(self):
        super().__init__()
        self.named: list[tuple[str, str]] = []
        self.data: dict[str, str] = {}
        self.inline_styles = 0
        self._block = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") in ("stylesheet", "modulepreload", "preload", "icon"):
            self.named.append((a["rel"], a["href"]))
        elif tag == "script" and a.get("src"):
            self.named.append(("script", a["src"]))
        elif tag == "script" and a.get("type") == "application/json":
            self._block = a.get("id", "")
            self.data[self._block] = ""
        elif tag == "style":
            self.inline_styles += 1
        elif tag == "meta" and a.get("name") == "search-index":
            self.named.append(("index", a["content"]))

    def handle_data(self, data):
        if self._block is not None:
            self.data[self._block] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._block = None


def test_the_html_names_everything_the_first_answer_needs(page, slow_site):
    """Every file the first answer waits on, other than the term and document
    files chosen by what is typed, is named in the page's HTML (so the browser
    asks for all of them in one round trip); the manifest and the first-letter
    directories come embedded, so they are never fetched; the stylesheet is in the page
    (one <style>, allowed by its hash), so no file stands before the first paint."""
    url, delays = slow_site
    html = page.request.get(url).text()
    head = Head()
    head.feed(html)
    named = {urljoin(url, href) for _, href in head.named}
    styles = [href for rel, href in head.named if rel == "stylesheet"]
    assert styles == [] and head.inline_styles == 1, (styles, head.inline_styles)

    embedded = json.loads(head.data["index-data"])
    manifest_url = urljoin(url, next(href for rel, href in head.named if rel == "index"))
    embedded_urls = {urljoin(url, path) for path in embedded}
    assert manifest_url in embedded_urls, "the manifest is embedded in the page"
    manifest = embedded[next(p for p in embedded if urljoin(url, p) == manifest_url)]
    for _, path in manifest.get("termDirectories", []):
        assert urljoin(manifest_url, path) in embedded_urls, f"directory {path} is embedded"

    fetched = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(url)
    page.locator("#q").click()
    page.keyboard.type("love", delay=40)
    page.wait_for_function(answered, arg="love", timeout=15000)
    for u in fetched:
        path = urlsplit(u).path
        if u == url or path.endswith("/favicon.ico"):
            continue
        if re.search(r"/idx/(t|d)/", path) and "/dir-" not in path:
            continue  # chosen by the typed text
        assert u in named, f"{path} was fetched but the HTML does not name it"
    assert not any(u in embedded_urls for u in fetched), "an embedded index file was fetched again"
    scripts = [u for u in fetched if u.endswith(".js")]
    assert scripts and all(s in named for s in scripts)
    if not any(rel == "modulepreload" for rel, _ in head.named):  # bundled (esbuild was there)
        page_files = {u for u in fetched if not re.search(r"/idx/", urlsplit(u).path)}
        assert len(page_files) <= 3, page_files  # the HTML (its stylesheet inside), one script, the icon
