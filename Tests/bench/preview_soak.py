#!/usr/bin/env python3
"""Preview soak benchmark: memory over many rebuilds, and what requests see meanwhile.

Copies the default site (Data/, with its templates) to a temporary folder, starts
`generate preview` on 127.0.0.1 with a free port, and edits the config N times
(a comment line, so every build is the same site). After each rebuild it reads
the server's resident memory from /proc. A second thread keeps requesting the
home page and one asset the whole time and counts every answer that is not 200:
the last good site must be served until the new one is swapped in.

A benchmark, not a test: it prints figures and exits 0 unless the server dies.

    swift build -c release
    python3 Tests/bench/preview_soak.py            # 200 rebuilds
    python3 Tests/bench/preview_soak.py --rebuilds 40 --generate .build/debug/generate
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import REPO, find_generate, stop  # noqa: E402


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Output:
    """Reads the server's stdout and stderr, counting finished builds (a
    failed build counts too, so a broken one cannot hang the benchmark)."""

    def __init__(self, stdout, stderr, log=None):
        self.log = log
        self.builds = 0
        self.failures: list[str] = []
        self.url: str | None = None
        self.changed = threading.Condition()
        threading.Thread(target=self.read, args=(stdout, False), daemon=True).start()
        threading.Thread(target=self.read, args=(stderr, True), daemon=True).start()

    def read(self, stream, is_error: bool):
        for raw in stream:
            line = raw.decode("utf-8", "replace")
            with self.changed:
                if self.log:
                    self.log.write(f"{time.monotonic():.2f} {'E' if is_error else 'O'} {line}")
                    self.log.flush()
                if is_error:
                    if "error:" in line:
                        self.failures.append(line.strip())
                        self.builds += 1
                elif line.startswith("Serving "):
                    self.url = line.split()[1]
                elif "Built in " in line:
                    # Not `startswith`: step lines printed by another
                    # writer can arrive without their line end.
                    self.builds += 1
                self.changed.notify_all()

    def wait(self, predicate, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(predicate, timeout)


class Requester(threading.Thread):
    """Requests a page and an asset in a loop; remembers every non-200."""

    def __init__(self, urls: list[str]):
        super().__init__(daemon=True)
        self.urls = urls
        self.stop = threading.Event()
        self.count = 0
        self.bad: dict[int, int] = {}

    def run(self):
        while not self.stop.is_set():
            for url in self.urls:
                try:
                    with urllib.request.urlopen(url, timeout=10) as response:
                        response.read()
                        status = response.status
                except urllib.error.HTTPError as error:
                    status = error.code
                except OSError:
                    status = -1
                self.count += 1
                if status != 200:
                    self.bad[status] = self.bad.get(status, 0) + 1
            time.sleep(0.01)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rebuilds", type=int, default=200)
    parser.add_argument("--generate", help="the generate binary (default: $GENERATE, then .build/release)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for one rebuild")
    parser.add_argument("--log", help="append the server's output to this file")
    args = parser.parse_args()

    binary = find_generate(args.generate)
    if binary is None:
        print("no generate binary: run `swift build -c release` or pass --generate", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="preview-soak-"))
    try:
        shutil.copytree(REPO / "Data", work / "Data")
        config = work / "Data" / "site.yml"
        original = config.read_text()
        server = subprocess.Popen(
            [str(binary), "preview", "--port", "0"],
            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        output = Output(server.stdout, server.stderr, open(args.log, "a") if args.log else None)
        try:
            if not output.wait(lambda: output.url is not None and output.builds >= 1, args.timeout):
                print("the server did not start", file=sys.stderr)
                return 1
            base = output.url
            with urllib.request.urlopen(base, timeout=10) as response:
                home = response.read().decode("utf-8", "replace")
            found = re.search(r'href="([^"]+\.css)"', home)
            asset = urllib.parse.urljoin(base, found.group(1)) if found else base
            requester = Requester([base, asset])
            requester.start()
            first = rss_mib(server.pid)
            samples = [(0, first)]
            print(f"{binary}\nafter the first build: {first:.0f} MiB", flush=True)
            started = time.monotonic()
            for number in range(1, args.rebuilds + 1):
                before = output.builds
                config.write_text(original + f"\n# soak {number}\n")
                if output.log:
                    output.log.write(f"{time.monotonic():.2f} soak: wrote edit {number}\n")
                if not output.wait(lambda: output.builds > before, args.timeout):
                    print(f"rebuild {number} did not finish in {args.timeout:.0f} s "
                          f"(RSS {rss_mib(server.pid):.0f} MiB)", file=sys.stderr)
                    return 1
                if server.poll() is not None:
                    print(f"the server exited with {server.returncode}", file=sys.stderr)
                    return 1
                rss = rss_mib(server.pid)
                samples.append((number, rss))
                if number % 20 == 0 or number == args.rebuilds:
                    print(f"after {number:4d} rebuilds: {rss:.0f} MiB", flush=True)
            requester.stop.set()
            requester.join()
            seconds = time.monotonic() - started
            settled = samples[min(10, len(samples) - 1)][1]
            last = samples[-1][1]
            peak = max(rss for _, rss in samples)
            print(f"rebuilds: {args.rebuilds} in {seconds:.0f} s")
            print(f"RSS: first build {first:.0f} MiB, after 10 rebuilds {settled:.0f} MiB, "
                  f"last {last:.0f} MiB, peak {peak:.0f} MiB; "
                  f"growth after warm-up {last - settled:+.0f} MiB")
            print(f"requests during rebuilds: {requester.count}, not 200: {requester.bad or 'none'}")
            if output.failures:
                print(f"failed builds: {len(output.failures)}, first: {output.failures[0]}")
            return 0
        finally:
            stop(server)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
