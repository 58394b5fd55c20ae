"""Shared pieces of the benchmark: finding the tools, timing a build under a
watchdog, a threaded gzip HTTP server that counts bytes, and keystroke timing
in Chromium through Playwright."""
from __future__ import annotations

import gzip
import http.server
import mimetypes
import os
import re
import shutil
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


# ------------------------------------------------------------------ tools
def find_generate(explicit: str | None = None, debug_ok: bool = False) -> Path | None:
    """--generate / $GENERATE, then this repository's own `.build/release/generate`.
    With debug_ok (tests, not timings): the newer of `.build/release` and `.build/debug`
    (Tests/run.sh builds debug just before, so a release build may be stale). Nothing
    outside the repository is guessed at: another checkout has no such path."""
    usable = lambda c: c and Path(c).is_file() and os.access(c, os.X_OK)  # noqa: E731
    for c in (explicit, os.environ.get("GENERATE")):
        if usable(c):
            return Path(c)
    builds = [REPO / ".build" / "release" / "generate"]
    if debug_ok:
        builds.append(REPO / ".build" / "debug" / "generate")
    builds = sorted((b for b in builds if usable(b)), key=lambda b: b.stat().st_mtime, reverse=True)
    return builds[0] if builds else None


def find_pagefind(explicit: str | None = None) -> Path | None:
    if explicit:
        return Path(explicit)
    try:
        import pagefind_bin  # type: ignore
        p = Path(pagefind_bin.__file__).parent / "pagefind"
        if p.is_file():
            return p
    except ImportError:
        pass
    for c in (shutil.which("pagefind"), REPO / ".venv/lib/python3.11/site-packages/pagefind_bin/pagefind"):
        if c and Path(c).is_file():
            return Path(c)
    return None


# ------------------------------------------------------------------ timing a build
def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def timed(cmd: list[str], timeout: float, max_rss_gib: float, cwd: Path | None = None) -> dict:
    """Runs cmd under /usr/bin/time -v-like accounting (wall, user+sys CPU, peak RSS).
    A watchdog kills the command (SIGKILL, by pid) past `timeout` s or `max_rss_gib`."""
    with tempfile.TemporaryDirectory() as tmp:
        tf, log = Path(tmp) / "time", Path(tmp) / "out"
        load0 = os.getloadavg()[0]
        with open(log, "w") as out:
            p = subprocess.Popen(["/usr/bin/time", "-f", "%e %U %S %M %x", "-o", str(tf), *map(str, cmd)],
                                 stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
            t0, killed, seen = time.monotonic(), None, 0
            while p.poll() is None:
                time.sleep(0.2)
                kids = _children(p.pid)
                rss = sum(_rss_kib(k) for k in kids)
                seen = max(seen, rss)
                el = time.monotonic() - t0
                reason = (f"timeout after {el:.0f} s" if el > timeout else
                          f"RSS {rss / 2**20:.1f} GiB > limit {max_rss_gib} GiB after {el:.0f} s" if rss > max_rss_gib * 2**20 else None)
                if reason and not killed:
                    killed = reason
                    for k in kids:
                        try:
                            os.kill(k, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
            wall_outer = time.monotonic() - t0
        text = log.read_text(errors="replace")
        fields = tf.read_text().strip().splitlines()[-1].split() if tf.exists() else []
        load1 = os.getloadavg()[0]
    r = {"cmd": " ".join(map(str, cmd)), "output": text, "load": [round(load0, 2), round(load1, 2)], "killed": killed}
    if len(fields) == 5:
        r.update(wall=float(fields[0]), cpu=float(fields[1]) + float(fields[2]), rss_kib=int(fields[3]), exit=int(fields[4]))
    else:
        r.update(wall=wall_outer, cpu=None, rss_kib=seen, exit=p.returncode)
    r["ok"] = r["exit"] == 0 and not killed
    return r


STEP = re.compile(r"^\[(\d+)/(\d+)\] (.+?) \((\d+) ms\)", re.M)


def generator_steps(output: str) -> dict[str, int]:
    steps = {}
    for m in STEP.finditer(output):
        name = re.sub(r" to .*$", "", m.group(3))  # "Publishing to X" -> "Publishing"
        steps[name] = int(m.group(4))
    return steps


def dir_size(path: Path) -> tuple[int, int]:
    total = files = 0
    for root, _, names in os.walk(path):
        for n in names:
            total += os.path.getsize(os.path.join(root, n))
            files += 1
    return total, files


# ------------------------------------------------------------------ the server
GZIP_EXT = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".wasm"}


def cache_control(path: str) -> str:
    """What docs/deploying.md tells a host to send: files named by their content
    (`/assets/`, `/images/`, `/idx/` but its `manifest.json` copy) are immutable,
    everything else is revalidated. Pagefind's files keep `no-cache`. Before this the
    icon was fetched twice in a first query (once more when the page writes the
    query into the address), which no host following those headers does."""
    if path.startswith(("/assets/", "/images/")):
        return "public, max-age=31536000, immutable"
    if path.startswith("/idx/") and path != "/idx/manifest.json":
        return "public, max-age=31536000, immutable"
    return "no-cache"


def site_policy(root: Path) -> str | None:
    """The Content-Security-Policy a site's `_headers` file names, if it has one."""
    headers = Path(root) / "_headers"
    if not headers.is_file():
        return None
    for line in headers.read_text().splitlines():
        name, _, value = line.strip().partition(": ")
        if name == "Content-Security-Policy":
            return value
    return None


class GzipServer:
    """Serves a folder on 127.0.0.1 from a thread, gzip-compressing text
    responses (Content-Encoding: gzip, level 6, like nginx/Netlify defaults) and
    logging (path, body bytes sent) per request. Pagefind's own files (.pagefind,
    .pf_*) are gzip already and are sent as they are. A site whose build wrote a
    `_headers` file (generate's) is served with the Content-Security-Policy in it,
    as Netlify or Cloudflare Pages would: the strict policy, with the hash of the
    search page's inline stylesheet."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self.log: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.cache: dict[str, tuple[bytes, bool]] = {}
        self.policy = site_policy(self.root)
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # TCP_NODELAY, as nginx (`tcp_nodelay on`) and CDNs serve: the headers and the body
            # are two writes, and with Nagle's algorithm the body waited for the browser's
            # delayed ACK of the headers, a 40 ms stall on some requests, whichever tool.
            disable_nagle_algorithm = True

            def log_message(self, *a):
                pass

            def do_GET(self):
                path = unquote(urlsplit(self.path).path)
                body, gz = server.load(path)
                if body is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    with server.lock:
                        server.log.append((path, 0))
                    return
                self.send_response(200)
                ctype = mimetypes.guess_type(path if not path.endswith("/") else "x.html")[0] or "application/octet-stream"
                if path.endswith(".wasm"):
                    ctype = "application/wasm"
                self.send_header("Content-Type", ctype)
                if gz:
                    self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", cache_control(path))
                if server.policy:
                    self.send_header("Content-Security-Policy", server.policy)
                self.end_headers()
                self.wfile.write(body)
                with server.lock:
                    server.log.append((path, len(body)))

        class Threaded(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.httpd = Threaded(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def load(self, path: str):
        if path in self.cache:
            return self.cache[path]
        rel = path.lstrip("/")
        f = (self.root / rel).resolve()
        if f.is_dir() or path.endswith("/"):
            f = f / "index.html"
        if self.root not in f.parents and f != self.root or not f.is_file():
            return None, False
        data = f.read_bytes()
        gz = f.suffix in GZIP_EXT
        if gz:
            data = gzip.compress(data, compresslevel=6, mtime=0)
        self.cache[path] = (data, gz)
        return data, gz

    def take(self) -> list[tuple[str, int]]:
        with self.lock:
            out, self.log = self.log, []
        return out

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


# ------------------------------------------------------------------ keystroke timing in the page
# Arms a MutationObserver on `root`; resolves window.__t with ms from the next
# keydown (event.timeStamp) or from window.__input(value) to the first mutation
# that satisfies the mode: 'any' (any child-list change under root) or 'rows'
# (this project's final-search results rendered: rows or the empty state shown
# and aria-busy false); 'any' also counts a change of the root's `data-for` (the
# text the list answers). -1 on timeout.
ARM = """([sel, mode, timeout]) => {
  const root = document.querySelector(sel);
  window.__t = new Promise((resolve) => {
    let t0 = null;
    const ready = () => {
      if (mode !== 'rows') return true;
      const panel = document.getElementById('results-panel');
      const rows = document.getElementById('rows'), empty = document.getElementById('empty');
      return !panel.hidden && panel.getAttribute('aria-busy') === 'false' && (rows.childElementCount > 0 || !empty.hidden);
    };
    const mo = new MutationObserver(() => { if (t0 !== null && ready()) done(performance.now() - t0); });
    const timer = setTimeout(() => done(-1), timeout);
    function done(v) {
      mo.disconnect(); clearTimeout(timer);
      window.removeEventListener('keydown', key, true); window.removeEventListener('input', inp, true);
      resolve(v);
    }
    // __tk: the key's delivery, from the event's time to the first handler (a key pressed while a
    // frame is drawn waits for it); a search timed from JS (Pagefind's page) has none.
    function key(e) { if (t0 === null) { t0 = e.timeStamp; window.__tk = performance.now() - e.timeStamp; } }
    // keydown -> input event: the browser's own delivery time, a floor under every figure
    function inp() { if (t0 !== null && window.__ti === null) window.__ti = performance.now() - t0; }
    window.__ti = null;
    window.__tk = null;
    // 'any' also counts the list saying which text it answers (data-for): rows kept
    // from the keystroke before may leave nothing else to change.
    mo.observe(root, mode === 'rows' ? { childList: true, subtree: true, attributes: true }
      : { childList: true, subtree: true, attributes: true, attributeFilter: ['data-for'] });
    window.addEventListener('keydown', key, true);
    window.addEventListener('input', inp, true);
    window.__input = (value) => {
      const input = document.getElementById('q');
      t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
  });
}"""


def in_turn(sites: dict[str, str], measure, runs: int) -> dict[str, list]:
    """Serves each built site (NAME -> folder) on its own loopback port and runs
    `measure(browser, server)` on every site in turn, `runs` rounds, after one
    unkept round that fills each server's gzip cache: so every site sees the same
    load, which is the fair comparison on a shared machine. Each round starts one
    site further along the list (a site's place in the round, such as coming right
    after another's context closed, is then no one site's bias). Returns each
    site's results in round order."""
    from playwright.sync_api import sync_playwright

    servers = {name: GzipServer(Path(folder)).__enter__() for name, folder in sites.items()}
    kept: dict[str, list] = {name: [] for name in sites}
    try:
        with sync_playwright() as pw, launch(pw) as browser:
            for srv in servers.values():
                measure(browser, srv)
            names = list(servers)
            for round in range(runs):
                for name in names[round % len(names) :] + names[: round % len(names)]:
                    kept[name].append(measure(browser, servers[name]))
    finally:
        for srv in servers.values():
            srv.__exit__(None, None, None)
    return kept


def percentile(values: list[float], p: float) -> float | None:
    v = sorted(x for x in values if x is not None and x >= 0)
    if not v:
        return None
    k = max(0, min(len(v) - 1, int(round(p / 100 * len(v) + 0.5)) - 1))  # nearest rank
    return v[k]


def median(values):
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def warm_keys(query: str, count: int) -> list[str]:
    """Keystrokes that type `query` one character at a time, back down to its
    first character and up again (never an empty field), `count` of them,
    starting from the full query typed."""
    keys, n = [], len(query)
    if n < 2:
        return ["Backspace", query] * (count // 2)
    cur = n
    going_down = True
    while len(keys) < count:
        if going_down:
            keys.append("Backspace")
            cur -= 1
            if cur == 1:
                going_down = False
        else:
            keys.append(query[cur])
            cur += 1
            if cur == n:
                going_down = True
    return keys


def stop(process: subprocess.Popen, timeout: float = 10) -> None:
    """Ends a server the benchmark started (`generate preview`): asked first, killed if it lingers."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()


def launch(pw):
    return pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)


def say(*a):
    print(*a, file=sys.stderr, flush=True)


def remove(path: Path) -> None:
    """`rm -rf`: several times faster than shutil.rmtree on 64,000 folders (untimed, but it adds up)."""
    subprocess.run(["rm", "-rf", "--", str(path)], check=False)


TRASH: list[Path] = []


def set_aside(path: Path) -> None:
    """Empties a cold build's output by renaming it into a trash folder beside it, removed when
    the benchmark ends. Removing it instead would bill the next build for it: for minutes
    after 140,000 files and folders are deleted, ext4 skips each recently freed inode when it
    allocates a new one (`recently_deleted` in its inode allocator: a cold build measured
    2-6x its system time, and the penalty grows run after run)."""
    if not path.exists() and not path.is_symlink():
        return
    trash = path.parent / ".bench-trash"
    trash.mkdir(exist_ok=True)
    target = trash / f"{path.name}-{time.time_ns()}"
    path.rename(target)
    TRASH.append(trash)


def empty_trash() -> None:
    for trash in set(TRASH):
        remove(trash)
