"""The site without JavaScript: the search page says what it needs and links
the A–Z browse pages, which reach every record by plain links."""
from helpers import open_search


def test_without_javascript_the_form_submits_and_browse_links_reach_a_record(new_page, site):
    page = new_page(java_script_enabled=False)
    page.goto(site)
    note = page.locator("#idle-view .note")
    assert "Search needs JavaScript" in note.inner_text()
    # Submitting keeps the words in the address (a script-enabled visit would
    # search them) and lands on the same page with the same way out.
    page.fill("#q", "back in black")
    page.press("#q", "Enter")
    page.wait_for_url("**/?q=back+in+black")
    page.get_by_role("link", name="Browse every record A–Z").click()
    page.wait_for_url("**/browse/")
    assert page.locator("h1").inner_text() == "Browse Music"
    page.locator("main").get_by_role("link", name="Artists", exact=True).click()
    page.wait_for_url("**/browse/artists/")
    # The jump to A lands on the page holding the first artist under A.
    page.get_by_role("navigation", name="Jump to letter").get_by_role("link", name="A", exact=True).click()
    page.locator("main").get_by_role("link", name="AC/DC", exact=True).click()
    page.wait_for_url("**/artists/*ac-dc/")
    assert page.locator("h1").inner_text() == "AC/DC"


def test_without_javascript_a_facet_value_lists_its_records(new_page, site):
    page = new_page(java_script_enabled=False)
    page.goto(site + "browse/")
    page.locator("main").get_by_role("link", name="Genre", exact=True).click()
    row = page.locator(".browse-list li", has=page.get_by_role("link", name="Heavy Metal", exact=True))
    assert row.locator(".song-sub").inner_text().endswith("records")
    row.get_by_role("link").click()
    page.wait_for_url("**/browse/genre/heavy-metal/")
    assert page.locator("h1").inner_text() == "Heavy Metal"
    assert page.locator(".browse-list li a").count() > 10
    # Long lists are cut into pages that link each other.
    page.goto(site + "browse/songs/")
    assert "Page 1 of" in page.locator(".browse-pager").inner_text()
    page.get_by_role("link", name="Next").click()
    page.wait_for_url("**/browse/songs/page-2/")
    assert "Page 2 of" in page.locator(".browse-pager").inner_text()


def test_without_javascript_the_header_stays_whole_when_the_page_scrolls(new_page, site):
    # The idle header collapses with the scroll by lengths ui/header.js measures; without the
    # script there are none, and the field and title must stay as they are at rest.
    page = new_page(java_script_enabled=False, viewport={"width": 390, "height": 480})
    page.goto(site)
    assert page.evaluate("document.documentElement.scrollHeight") > 480 + 200
    page.evaluate("scrollTo(0, 200)")
    page.wait_for_timeout(300)
    assert page.evaluate("scrollY") == 200
    field = page.locator(".field")
    box = field.bounding_box()
    assert box["height"] > 30 and box["y"] >= 0
    assert field.evaluate("e => getComputedStyle(e).opacity") == "1"
    assert page.locator(".large-title").evaluate("e => getComputedStyle(e).opacity") == "1"


def test_without_javascript_the_content_starts_where_the_script_puts_it(new_page, site):
    # The content is padded by the fixed header's height, which ui/header.js measures; until it
    # has (and without the script) the stylesheet's own figure stands in. Short of the header's
    # height, the idle view's first lines sat under the header, and moved down 9-17 px when the
    # script first ran, a few hundred ms after they showed on a slow phone.
    padding = "parseFloat(getComputedStyle(document.getElementById('main')).paddingTop)"
    for width in (390, 1280):
        page = new_page(java_script_enabled=False, viewport={"width": width, "height": 800})
        page.goto(site)
        before = page.evaluate(padding)
        page = new_page(viewport={"width": width, "height": 800})
        page.goto(site)
        measured = None
        for _ in range(50):
            measured = page.evaluate("document.documentElement.style.getPropertyValue('--header-h')")
            if measured:
                break
            page.wait_for_timeout(100)
        assert measured, "ui/header.js never measured the header"
        assert abs(before - page.evaluate(padding)) < 1, (width, before, measured)
