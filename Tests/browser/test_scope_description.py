"""A scope whose label cannot say what it holds ("Library") is described, from its
`description:` in the config: the segment's tooltip and accessible description.
Data: the default Chinook catalogue."""
from helpers import open_search, type_query


def test_the_library_scope_says_what_it_holds(page, site):
    open_search(page, site)
    type_query(page, "love")
    library = page.get_by_role("radio", name="Library")
    library.wait_for()
    assert library.get_attribute("title") == "What listener 12 bought"
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    radios = {n["name"]["value"]: n.get("description", {}).get("value") for n in nodes
              if n.get("role", {}).get("value") == "radio" and "name" in n}
    assert radios["Library"] == "What listener 12 bought", radios
    assert not radios["Catalogue"], "a scope without a description has none"
