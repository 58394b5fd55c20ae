"""Browser scenarios for the search page.

Serves SITE_DIR (default `site`) on 127.0.0.1 under SITE_BASE (default `/`)
with the Content-Security-Policy the build wrote into the site's `_headers`
(`default-src 'self'` and the hash of the search page's inline stylesheet,
never 'unsafe-inline'), drives Debian's Chromium
through Playwright, and fails a test whose page logged a console error or
warning, threw, or violated the CSP.
"""
import functools
import http.server
import os
import pathlib
import subprocess
import tempfile
import threading
import time

import pytest
from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CSP = "default-src 'self'"


def site_policy(folder):
    """The Content-Security-Policy the build wrote for the site in `folder` (`_headers`);
    without one (a site an older build wrote, with no inline style) the strict policy."""
    headers = pathlib.Path(folder) / "_headers"
    if not headers.is_file():
        return CSP
    for line in headers.read_text().splitlines():
        name, _, value = line.strip().partition(": ")
        if name == "Content-Security-Policy":
            assert value.startswith(CSP) and "unsafe" not in value, value
            return value
    raise AssertionError(f"{headers} names no Content-Security-Policy")


def site_dir():
    raw = pathlib.Path(os.environ.get("SITE_DIR", "site"))
    for candidate in (raw, REPO / raw):
        if (candidate / "index.html").is_file():
            return candidate.resolve()
    pytest.exit(f"no built site at {raw} (set SITE_DIR or run the generator first)", returncode=2)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".css": "text/css",
        ".svg": "image/svg+xml",
    }
    base = "/"
    # None: the policy of the site served (`_headers` in `directory`), read per response.
    policy = None

    def translate_path(self, path):
        # Serve the site under its base path, as a host serving a sub-path would.
        if self.base != "/" and path.startswith(self.base):
            path = "/" + path[len(self.base):]
        return super().translate_path(path)

    def end_headers(self):
        self.send_header("Content-Security-Policy", self.policy or site_policy(self.directory))
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def site():
    base = os.environ.get("SITE_BASE", "/")
    handler = type("SiteHandler", (Handler,), {"base": base})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site_dir())))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{base}"
    server.shutdown()
    server.server_close()


class Delays:
    """What the delaying server holds back: (path fragment, seconds) pairs, and
    when each delayed response was finally sent (time.monotonic())."""

    def __init__(self):
        self.rules: list[tuple[str, float]] = []
        self.sent: dict[str, float] = {}
        self.requested: list[str] = []

    def delay_for(self, path):
        return next((seconds for fragment, seconds in self.rules if fragment in path), 0)


@pytest.fixture(scope="session")
def _slow_server():
    delays = Delays()

    class SlowHandler(Handler):
        def do_GET(self):
            delays.requested.append(self.path)
            wait = delays.delay_for(self.path)
            if wait:
                time.sleep(wait)
            super().do_GET()
            if wait:
                delays.sent[self.path] = time.monotonic()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SlowHandler, directory=str(site_dir())))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", delays
    server.shutdown()
    server.server_close()


@pytest.fixture
def slow_site(_slow_server):
    """The site served at / by a server that delays the responses a test names:
    `url, delays = slow_site; delays.rules.append(("/js/", 1.5))`."""
    url, delays = _slow_server
    delays.rules.clear()
    delays.sent.clear()
    delays.requested.clear()
    yield url, delays
    delays.rules.clear()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        yield browser
        browser.close()


REPORT_CSP = """
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspReport(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`)
})
"""


def _new_page(browser, problems, **options):
    options.setdefault("viewport", {"width": 390, "height": 844})
    context = browser.new_context(**options)
    context.expose_function("__cspReport", lambda message: problems.append(f"CSP: {message}"))
    context.add_init_script(REPORT_CSP)
    page = context.new_page()
    page.on("console", lambda m: _console(m, problems))
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.set_default_timeout(5000)
    return context, page


def _console(message, problems):
    if message.type not in ("error", "warning"):
        return
    # The browser asks for /favicon.ico on its own; test_site_has_an_icon
    # reports a missing icon once instead of failing every scenario.
    if message.location.get("url", "").endswith("/favicon.ico"):
        return
    problems.append(f"console.{message.type}: {message.text}")


@pytest.fixture
def problems():
    return []


@pytest.fixture
def page(browser, problems):
    context, page = _new_page(browser, problems)
    yield page
    context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def new_page(browser, problems):
    """Opens a page with other context options (viewport, colour scheme, motion)."""
    contexts = []

    def make(**options):
        context, page = _new_page(browser, problems, **options)
        contexts.append(context)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="session")
def records():
    """The records fixture (the built-in theme alone, two token facets), built once and served."""
    with tempfile.TemporaryDirectory() as folder:
        output = pathlib.Path(folder) / "site"
        subprocess.run(
            ["swift", "run", "-q", "generate", "--quiet", "--config",
             "Tests/GenerateKitTests/Fixtures/records/site.yml", "--output", str(output)],
            cwd=REPO, check=True)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(output)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()
        server.server_close()
