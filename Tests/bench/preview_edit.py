#!/usr/bin/env python3
"""Preview edit latency: from saving a file to the reloaded page, on the Debian site.

Copies Data/debian (or another package list, --data) to a temporary folder with
a templates folder of its own that overrides the built-in theme's search page
(and, with --pages, its record page), starts `generate preview` on 127.0.0.1
with a free port, and listens on /__preview/events as an open page does. Then,
--rounds times each:

  template  writes templates/search.mustache with a new `data-edit` attribute
            (with --pages: templates/record.mustache, so every package page);
  data      changes one package's summary (vim's) in packages.jsonl.

For each it prints the time from the write to the reload event that names the
page, and to the page fetched again over HTTP with the edit in it — the
browser's part of a reload (parsing, fetching assets it has cached) is left
out — and to the end of the build. The listener names its page as the reload
client does, so the server renders, checks and reloads it before the rest of
the site (--unnamed: it does not, and reloads once the whole site is
checked). The page is answered from memory while the build renders the rest
and writes the folder; the next edit waits until that is done. The server
waits 150 ms for files to settle (on Linux inotify tells it of a save at once;
elsewhere it polls every 300 ms), and that wait is part of every figure.

A benchmark, not a test: it prints figures and exits 0 unless the server dies.

    swift build -c release
    python3 Tests/bench/preview_edit.py                        # 27,282 packages
    python3 Tests/bench/preview_edit.py --data /tmp/all.jsonl  # every package (Tests/bench/README.md)
    python3 Tests/bench/preview_edit.py --pages                # a page per package
    python3 Tests/bench/preview_edit.py --pages --unnamed      # the same, no page rendered first
"""
from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import REPO, find_generate, stop  # noqa: E402
from preview_soak import Output, rss_mib  # noqa: E402


class Events(threading.Thread):
    """An open page's event stream: every reload with the time it arrived.
    Like the reload client it names its page, which the server then renders
    first; with page=None it does not, as a page of an older client."""

    def __init__(self, port: int, page: str | None):
        super().__init__(daemon=True)
        self.port = port
        self.page = page
        self.reloads: list[tuple[float, list[str] | None]] = []
        self.changed = threading.Condition()

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port)
        query = "" if self.page is None else "?page=" + urllib.parse.quote(self.page, safe="")
        connection.request("GET", "/__preview/events" + query, headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        event, data = None, []
        while True:
            line = response.fp.readline()
            if not line:
                return
            line = line.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: "):
                data.append(line[len("data: "):])
            elif line == "":
                if event == "reload":
                    text = "\n".join(data)
                    pages = None if text == "*" else json.loads(text)
                    with self.changed:
                        self.reloads.append((time.monotonic(), pages))
                        self.changed.notify_all()
                event, data = None, []

    def wait_for(self, page: str, after: int, timeout: float) -> tuple[float, list[str] | None] | None:
        """The first reload after the `after`th one that names `page`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for moment, pages in self.reloads[after:]:
                    if pages is None or page in pages:
                        return moment, pages
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8", "replace")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="a packages.jsonl (default: Data/debian/packages.jsonl)")
    parser.add_argument("--pages", action="store_true", help="give every package a page (the built-in record page)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--unnamed", action="store_true",
                        help="the listener does not name its page: it reloads once the whole site is checked")
    parser.add_argument("--generate", help="the generate binary (default: $GENERATE, then .build/release)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds to wait for one rebuild")
    parser.add_argument("--log", help="append the server's output to this file")
    args = parser.parse_args()

    binary = find_generate(args.generate)
    if binary is None:
        print("no generate binary: run `swift build -c release` or pass --generate", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="preview-edit-"))
    try:
        data = Path(args.data) if args.data else REPO / "Data" / "debian" / "packages.jsonl"
        shutil.copy(data, work / "packages.jsonl")
        config = (REPO / "Data" / "debian" / "site.yml").read_text()
        config += "templates: templates\n"
        if args.pages:
            config = config.replace("    popularity: dependents\n",
                                    "    popularity: dependents\n    page: { path: \"packages/{{slug}}/\" }\n")
        (work / "site.yml").write_text(config)
        (work / "templates").mkdir()
        shutil.copy(REPO / "Templates" / "search.mustache", work / "templates" / "search.mustache")
        shutil.copy(REPO / "Templates" / "record.mustache", work / "templates" / "record.mustache")
        records = (work / "packages.jsonl").read_text().splitlines(keepends=True)
        vim = next(i for i, line in enumerate(records) if json.loads(line)["name"] == "vim")

        server = subprocess.Popen(
            [str(binary), "preview", "--config", "site.yml", "--output", "preview-site", "--port", "0"],
            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        output = Output(server.stdout, server.stderr, open(args.log, "a") if args.log else None)
        try:
            started = time.monotonic()
            if not output.wait(lambda: output.url is not None and output.builds >= 1, args.timeout):
                print("the server did not start", file=sys.stderr)
                return 1
            base = output.url
            port = int(re.search(r":(\d+)/", base).group(1))
            print(f"{binary}\n{len(records)} packages{', a page each' if args.pages else ''}; "
                  f"first build and start: {time.monotonic() - started:.1f} s", flush=True)
            if args.pages:
                template, page, needle = "record.mustache", "/packages/vim/index.html", '<h1 data-edit="{n}">'
                old = "<h1>"
            else:
                template, page, needle = "search.mustache", "/index.html", 'data-edit="{n}"'
                old = 'id="search-title"'
            events = Events(port, None if args.unnamed else page)
            events.start()
            time.sleep(0.5)
            original = (work / "templates" / template).read_text()
            url = base + page.removeprefix("/").removesuffix("index.html")
            results: dict[str, list[tuple[float, float, int, float, float]]] = {"template": [], "data": []}
            for number in range(1, args.rounds + 1):
                for kind in ("template", "data"):
                    marker = f"edit {kind} {number}"
                    before = len(events.reloads)
                    builds = output.builds
                    t0 = time.monotonic()
                    if kind == "template":
                        edited = needle.format(n=number)
                        replacement = edited if args.pages else f'{old} {edited}'
                        (work / "templates" / template).write_text(original.replace(old, replacement, 1))
                        expect = edited
                    else:
                        record = json.loads(records[vim])
                        record["summary"] = f"Vi IMproved, {marker}"
                        lines = records.copy()
                        lines[vim] = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
                        (work / "packages.jsonl").write_text("".join(lines))
                        # Without pages the summary is in the index, not the page.
                        expect = marker if args.pages else None
                    found = events.wait_for(page, before, args.timeout)
                    if found is None:
                        print(f"{kind} edit {number}: no reload of {page} within {args.timeout:.0f} s "
                              f"(failures: {output.failures[-1:]})", file=sys.stderr)
                        return 1
                    moment, pages = found
                    body = fetch(url)
                    t1 = time.monotonic()
                    if expect is not None and expect not in body:
                        print(f"{kind} edit {number}: the page does not show the edit", file=sys.stderr)
                        return 1
                    named = -1 if pages is None else len(pages)
                    # The rest of the site is rendered, checked and written
                    # after the reload: let it finish, or the next edit's
                    # figure includes the rest of it.
                    output.wait(lambda: output.builds > builds, args.timeout)
                    done = time.monotonic() - t0
                    # After a data edit a page that names the index reloads
                    # again once the new index is built.
                    time.sleep(0.2)
                    with events.changed:
                        last = max(m for m, p in events.reloads[before:] if p is None or page in p)
                    results[kind].append((moment - t0, t1 - t0, named, done, last - t0))
                    if server.poll() is not None:
                        print(f"the server exited with {server.returncode}", file=sys.stderr)
                        return 1
                    time.sleep(0.5)
            for kind, rows in results.items():
                for number, (event, loaded, named, done, last) in enumerate(rows, 1):
                    pages_named = "every page" if named < 0 else f"{named} pages named"
                    print(f"{kind:8} edit {number}: reload event {event:6.2f} s, page fetched {loaded:6.2f} s "
                          f"({pages_named}), last reload of the page {last:6.2f} s, "
                          f"whole site written {done:6.2f} s")
                print(f"{kind:8} median: page fetched {statistics.median(r[1] for r in rows):.2f} s")
            # What keeping the last build in memory costs.
            print(f"server RSS after the edits: {rss_mib(server.pid):.0f} MiB")
            return 0
        finally:
            stop(server)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
