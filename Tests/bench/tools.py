"""One small adapter per search page the benchmark drives.

Everything that differs between this project's search page and Pagefind's
JS API page lives here — where results appear, when the page is ready, how a
final search is made, which file is which — so the measuring code in
`run.py` and `slowphone.py` reads the same for both tools.
"""
from __future__ import annotations


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
        click on the field as a user's tap: focus() on a field that still has focus is no event,
        and the page lets go of it in the task after a final search."""
        page.click("#q")
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
