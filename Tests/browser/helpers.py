"""What the scenarios do to the page, in a person's terms."""

# Time-based animations only: the idle header's scroll-driven ones run for as long as the page can scroll.
SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running' || !(a.timeline instanceof DocumentTimeline))"


def open_search(page, site, query=""):
    page.goto(site + query)
    # The engine has its manifest once the browse tiles (built from it) exist.
    page.wait_for_selector("#tiles .browse-tile", state="attached")
    settle(page)


def settle(page):
    page.wait_for_function(SETTLED)


def state(page):
    return page.evaluate(
        """() => ({ ...document.documentElement.dataset,
                   slotState: document.getElementById('slot').dataset.state })"""
    )


def type_query(page, text):
    field = page.locator("#q")
    field.click()
    if field.input_value():
        page.keyboard.press("Control+A")
        page.keyboard.press("Backspace")
    field.press_sequentially(text, delay=15)


def address_has(page, *parts):
    """Waits for the address to hold every part: a final search writes its history entry once its
    first rows are on screen."""
    page.wait_for_url(lambda url: all(part in url for part in parts))


def final_search(page, text):
    type_query(page, text)
    page.keyboard.press("Enter")
    page.wait_for_selector("#results-panel:not([hidden]) #rows li, #empty:not([hidden])")
    settle(page)


def layer_style(page, layer_id):
    return page.evaluate(
        """(id) => { const s = getComputedStyle(document.getElementById(id));
                    return { opacity: parseFloat(s.opacity), transform: s.transform,
                             inert: document.getElementById(id).inert } }""",
        layer_id,
    )
