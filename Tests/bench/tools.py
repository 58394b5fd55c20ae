"""One small adapter per search page the benchmark drives.

Everything that differs between this project's search page and Pagefind's
JS API page lives here — where results appear, when the page is ready, how a
final search is made, which file is which — so the measuring code in
`run.py` and `slowphone.py` reads the same for both tools.
"""
from __future__ import annotations

# Time-based animations over (Tests/browser/helpers.py): the idle header's scroll-driven ones run
# for as long as the page can scroll.
SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running' || !(a.timeline instanceof DocumentTimeline))"


class Ours:
    """This project's real search page: the `#q` combobox and its `#suggestions` listbox."""

    name = "ours"
    label = "generate"
    results_root = "#suggestions"
    final_root = "#results"
    has_final_search = True
    has_engine = True
    # In-page: the text the shown suggestions answer ('' for the idle list), or null.
    answered_for = "(() => { const l = document.getElementById('suggestions'); return l && l.childElementCount ? (l.dataset.for ?? null) : null })()"

    @staticmethod
    def categorize(path: str) -> str:
        if path.startswith("/idx/"):
            return "index"
        return "page" if path.endswith(("/", ".html", ".css", ".js")) else "other"  # other: the icon

    @staticmethod
    def wait_ready(page) -> None:
        page.wait_for_load_state("networkidle")
        page.focus("#q")
        page.wait_for_selector("#suggestions [role=option]", timeout=30000)  # trending: the engine is ready

    @staticmethod
    def shown(page, final: bool) -> dict:
        if final:
            return {"shown": page.eval_on_selector_all("#rows .row-title", "els => els.map(e => e.textContent)")[:10],
                    "correction": page.eval_on_selector("#correction", "e => e.hidden ? '' : e.textContent")}
        return {"shown": page.eval_on_selector_all("#suggestions .option-doc .row-title", "els => els.map(e => e.textContent)"),
                "completions": page.eval_on_selector_all("#suggestions .option-completion", "els => els.map(e => e.textContent)")}

    @staticmethod
    def final_search(page, arm) -> None:
        """Arms the results panel and presses Enter (the query is already in the field), after a
        click on the field as a person's tap (focus() on a field that still has focus is no event,
        and the page lets go of it once a final search's rows are on screen) and, as a person
        takes longer than that, once the tap's animations are over (the scope bar comes in over
        the chips): a key pressed while they run waits behind their frames, 3-20 ms on this
        shared machine, which is the machine's and not the search's time."""
        page.click("#q")
        page.wait_for_function(SETTLED)
        arm(page, "#results", "rows", 180000)
        page.keyboard.press("Enter")


class Pagefind:
    """Pagefind's JS API on a minimal page (`pagefind_corpus.py`), as its default UI uses it."""

    name = "pagefind"
    label = "Pagefind"
    results_root = "#results"
    final_root = "#results"
    has_final_search = False
    has_engine = False
    answered_for = "(() => { const l = document.getElementById('results'); return l && l.childElementCount ? (l.dataset.for ?? null) : null })()"

    @staticmethod
    def categorize(path: str) -> str:
        if path.startswith("/pagefind/"):
            name = path.rsplit("/", 1)[-1]
            if name.startswith(("pagefind.js", "pagefind-worker", "wasm.")):
                return "library"
            return "index"
        return "page"

    @staticmethod
    def wait_ready(page) -> None:
        page.wait_for_function("window.__pagefindReady === true", timeout=60000)
        page.wait_for_load_state("networkidle")
        page.focus("#q")

    @staticmethod
    def shown(page, final: bool) -> dict:
        return {"shown": page.eval_on_selector_all("#results li", "els => els.map(e => e.textContent)"),
                "total": page.evaluate("window.__lastTotal")}

    @staticmethod
    def final_search(page, arm) -> None:
        """No final search in Pagefind's API: the query is entered again."""
        arm(page, "#results", "any")
        page.evaluate("() => window.__input(document.getElementById('q').value)")


TOOLS = {"ours": Ours, "pagefind": Pagefind}
