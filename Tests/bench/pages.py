#!/usr/bin/env python3
"""Page-heavy benchmark: a page for every record, `generate` vs Hugo on the same records.

    python3 Tests/bench/pages.py [--runs 3] [--skip-hugo] [--skip-preview]

The catalogue is Debian's whole package index (every package of apt's lists,
~63,700 records: `Data/debian/prepare.py` with no section left out), built with
`Data/debian/site.yml` (a page per package and per section). Rows: cold build
into an emptied folder, rebuild with nothing changed over the existing site
(generate checks its build record and the live site, then says "up to date"),
a build after a one-record data edit (one package's summary; for Hugo its
content file), and in `generate preview` the time from a template save, and
from a one-record data edit, to the reloaded page served with the change. Hugo renders the same
records as a page each (one content file per package, a taxonomy term page per
section) in the same run. See Tests/bench/README.md.
Writes bench-out/pages/results.md and results.json.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402

REPO = B.REPO
OUT = REPO / "bench-out" / "pages"
HUGO = "/usr/bin/hugo"
MiB = 1024


# ------------------------------------------------------------------ records
def debian_records(folder: Path) -> Path:
    """Every package of apt's lists as JSON lines, made once per change of the lists."""
    sys.path.insert(0, str(REPO / "Data" / "debian"))
    import prepare  # noqa: PLC0415

    lists = sorted(Path("/var/lib/apt/lists").glob("*_Packages*"))
    want = " ".join(f"{p.name}:{p.stat().st_mtime_ns}" for p in lists) + f" {Path(prepare.__file__).stat().st_mtime_ns}"
    data, stamp = folder / "packages.jsonl", folder / ".stamp"
    if data.exists() and stamp.exists() and stamp.read_text() == want:
        return data
    if not lists:
        sys.exit("no package lists in /var/lib/apt/lists: run `apt-get update` first")
    B.say("preparing every package of apt's lists (Data/debian/prepare.py, no section left out)…")
    folder.mkdir(parents=True, exist_ok=True)
    prepare.LEFT_OUT = set()
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        prepare.main([str(p) for p in lists])
    data.write_text(text.getvalue())
    stamp.write_text(want)
    return data


SECTIONS = """  - id: sections
    label: Sections
    singular: Section
    table: sections
    title: name
    page: { path: "sections/{{slug}}/" }
templates: templates
"""


def project(data: Path, folder: Path) -> Path:
    """`Data/debian/site.yml` over all the records, with a page per package and per section:
    the packages get `page:`, and a `sections` table (one record per section, which a
    package's `section` refers to) gets a collection with pages of its own. The repository's
    Templates/ (the built-in theme's source) is copied beside it, so preview can edit one."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(data, folder / "packages.jsonl")
    sections = sorted({r["section"] for r in read_records(data)})
    (folder / "sections.jsonl").write_text("".join(json.dumps({"name": s}) + "\n" for s in sections))
    shutil.rmtree(folder / "templates", ignore_errors=True)
    shutil.copytree(REPO / "Templates", folder / "templates")
    config = (REPO / "Data" / "debian" / "site.yml").read_text()
    for old, new in [
        ("  packages: { file: packages.jsonl, key: name }",
         "  packages: { file: packages.jsonl, key: name, refs: { section: sections } }\n"
         "  sections: { file: sections.jsonl, key: name }"),
        ("      section: section\n", "      section: section.name\n    page: { path: \"packages/{{slug}}/\" }\n"),
    ]:
        if old not in config:
            sys.exit(f"Data/debian/site.yml changed: cannot find {old!r} to make the page-per-record config")
        config = config.replace(old, new)
    (folder / "site.yml").write_text(config + SECTIONS)
    return folder / "site.yml"


def read_records(data: Path) -> list[dict]:
    return [json.loads(line) for line in data.read_text().splitlines() if line.strip()]


# ------------------------------------------------------------------ generate
def beside(output: Path, kind: str) -> list[Path]:
    return list(output.parent.glob(f".{output.name}.{kind}*"))


def wait_for_removal(output: Path, limit: float = 300) -> float:
    """Seconds until the sites that a build left to its background removal are gone."""
    t0 = time.monotonic()
    while beside(output, "old-") and time.monotonic() - t0 < limit:
        time.sleep(0.1)
    return time.monotonic() - t0


def publish_counts(output: str) -> str:
    return next((ln.strip() for ln in output.splitlines() if "files written" in ln), "")


EDITED = "vim"


def edit_record(text: str, run: int) -> str:
    """The JSON-lines text with package `EDITED`'s summary changed for edit `run`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        record = json.loads(line) if line.strip() else {}
        if record.get("name") == EDITED:
            record["summary"] = f"Edited summary {run}"
            lines[i] = json.dumps(record, ensure_ascii=False)
            return "\n".join(lines) + "\n"
    sys.exit(f"no package {EDITED!r} to edit")


class Generate:
    """`generate --verbose` builds of the project, timed: cold (the output and every folder
    beside it — staging folders, the kept previous site, the build record — removed first,
    untimed), over the last build with nothing changed (the build record and a walk of the
    live site say it is up to date), or after a one-record data edit (every step runs;
    publishing updates the site the one before replaced, writing only the changed files)."""

    def __init__(self, generate: Path, config: Path, output: Path, timeout: float, max_rss: float):
        self.cmd = [generate, "--config", config, "--output", output, "--verbose"]
        self.data = config.parent / "packages.jsonl"
        self.output, self.timeout, self.max_rss = output, timeout, max_rss
        self.res: dict = {"cold": [], "rebuild": [], "edit": []}

    def run(self, kind: str) -> bool:
        if kind == "cold":
            for folder in [self.output, *beside(self.output, "")]:
                B.set_aside(folder)  # the site, staging folders, the kept previous site, the build record
            os.sync()  # the last build's disk work is not billed to this one
        else:
            wait_for_removal(self.output)
        if kind == "edit":
            # Each edit builds over the one before: one package's summary differs.
            self.original = getattr(self, "original", None) or self.data.read_text()
            self.data.write_text(edit_record(self.original, len(self.res["edit"])))
        runs = self.res[kind]
        B.say(f"generate {kind} {len(runs) + 1} (load {os.getloadavg()[0]:.1f})…")
        r = B.timed(self.cmd, self.timeout, self.max_rss, cwd=REPO)
        r["steps"] = B.generator_steps(r["output"])
        r["published"] = publish_counts(r["output"]) or next(
            (ln.strip() for ln in r["output"].splitlines() if ln.startswith("Up to date")), "")
        runs.append(r)
        B.say(f"    {r['wall']:.2f} s, {r['rss_kib'] / MiB:.0f} MiB, ok={r['ok']} {r['steps']}; {r['published']}")
        if not r["ok"]:
            B.say(r["output"][-2000:])
            return False
        if kind == "cold":
            self.res["summary_line"] = next((ln for ln in r["output"].splitlines() if ln.startswith("Built ")), "")
            self.res["site_bytes"], self.res["site_files"] = B.dir_size(self.output)
        return True


# ------------------------------------------------------------------ Hugo
HUGO_CONFIG = """baseURL = "/"
title = "Packages"
disableKinds = ["RSS"]
[taxonomies]
  debsection = "debsections"
"""
HUGO_BASEOF = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main>{{ block "main" . }}{{ end }}</main></body></html>
"""
HUGO_SINGLE = """{{ define "main" }}<h1>{{ .Title }}</h1>
<p>{{ .Params.version }} · {{ .Params.summary }}</p>
<dl><dt>Version</dt><dd>{{ .Params.version }}</dd>
<dt>Summary</dt><dd>{{ .Params.summary }}</dd>
<dt>Section</dt><dd>{{ range .GetTerms "debsections" }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}</dd>
<dt>Dependents</dt><dd>{{ .Params.dependents }}</dd></dl>{{ end }}
"""
HUGO_LIST = """{{ define "main" }}<h1>{{ .Title }}</h1>
<p>{{ len .Pages }} pages</p>
<ul>{{ range first 100 .Pages.ByTitle }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
"""


def hugo_site(records: list[dict], data: Path, folder: Path) -> Path:
    """A minimal Hugo site: one content file per package (JSON front matter), its
    section as a taxonomy term, a single and a list layout. Written once per data."""
    stamp = folder / ".stamp"
    layouts = hashlib.sha256((HUGO_SINGLE + HUGO_LIST + HUGO_CONFIG + HUGO_BASEOF).encode()).hexdigest()[:12]
    want = f"{data.stat().st_mtime_ns} {len(records)} {layouts}"
    if stamp.exists() and stamp.read_text() == want:
        return folder
    B.say(f"writing the Hugo site ({len(records):,} content files)…")
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "layouts" / "_default").mkdir(parents=True)
    (folder / "config.toml").write_text(HUGO_CONFIG)
    for name, text in {"baseof": HUGO_BASEOF, "single": HUGO_SINGLE, "list": HUGO_LIST}.items():
        (folder / "layouts" / "_default" / f"{name}.html").write_text(text)
    content = folder / "content" / "packages"
    content.mkdir(parents=True)
    for r in records:
        front = {"title": r["name"], "version": r["version"], "summary": r["summary"],
                 "dependents": r["dependents"], "debsections": [r["section"] or "none"]}
        (content / f"{r['name']}.md").write_text(json.dumps(front, ensure_ascii=False) + "\n")
    stamp.write_text(want)
    return folder


class Hugo:
    """`hugo --quiet` builds of the Hugo site, timed: cold (`public/` and `resources/` removed
    first, untimed) or again over its own output."""

    def __init__(self, hugo: str, site: Path, timeout: float, max_rss: float):
        self.public = site / "public"
        self.cmd = [hugo, "--quiet", "--source", site, "--destination", self.public]
        self.site, self.timeout, self.max_rss = site, timeout, max_rss
        self.res: dict = {"cold": [], "rebuild": [], "edit": []}

    def run(self, kind: str) -> bool:
        if kind == "cold":
            B.set_aside(self.public)
            B.set_aside(self.site / "resources")
            os.sync()
        content = self.site / "content" / "packages" / f"{EDITED}.md"
        if kind == "edit":
            self.original = getattr(self, "original", None) or content.read_text()
            front = json.loads(self.original)
            content.write_text(json.dumps(dict(front, summary=f"Edited summary {len(self.res['edit'])}"),
                                          ensure_ascii=False) + "\n")
        runs = self.res[kind]
        B.say(f"hugo {kind} {len(runs) + 1} (load {os.getloadavg()[0]:.1f})…")
        r = B.timed(self.cmd, self.timeout, self.max_rss, cwd=self.site)
        runs.append(r)
        B.say(f"    {r['wall']:.2f} s, {r['rss_kib'] / MiB:.0f} MiB, ok={r['ok']} {r['output'][-300:].strip()}")
        if not r["ok"]:
            return False
        if kind == "cold":
            self.res["site_bytes"], self.res["site_files"] = B.dir_size(self.public)
            self.res["pages"] = sum(1 for _ in self.public.rglob("index.html"))
        return True


# ------------------------------------------------------------------ preview
def preview_times(generate: Path, folder: Path, records: list[dict], edits: int, timeout: float) -> dict:
    """`generate preview` over the project, its page open: seconds from a template save, and
    from a one-record data edit, until the open page is told to reload and is served with the
    change, and until the build is done (the rest of the site rendered, checked and written).
    The page is "open" as a browser tab is: a listener on the reload event stream naming it
    (`preview_edit.Events`), so the server renders, checks and reloads it first."""
    from preview_edit import Events  # noqa: PLC0415
    from preview_soak import Output  # noqa: PLC0415

    output = folder / "preview-site"
    server = subprocess.Popen([str(generate), "preview", "--config", "site.yml", "--output", str(output), "--port", "0"],
                              cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = Output(server.stdout, server.stderr)
    result: dict = {"template_save_s": [], "data_edit_s": [], "template_build_s": [], "data_build_s": []}
    try:
        t0 = time.monotonic()
        if not out.wait(lambda: out.url is not None and out.builds >= 1, timeout):
            return {"error": "the preview server did not start", **result}
        result["first_build_s"] = round(time.monotonic() - t0, 2)
        base = out.url.rstrip("/")
        # A mid-sized, ordinary package whose page is edited.
        record = next(r for r in records if r["name"] == "vim") if any(r["name"] == "vim" for r in records) else records[len(records) // 2]
        page = next((p for p in (f"/packages/{record['name']}/", f"/packages/{record['name']}.html") if fetch(base + p)), None)
        if page is None:
            return {"error": f"no page found for {record['name']}", **result}
        result["page"] = page
        # Named as the reload client names its page: the file's address.
        opened = page + "index.html" if page.endswith("/") else page
        events = Events(int(base.rsplit(":", 1)[1]), opened)
        events.start()
        time.sleep(0.5)  # the stream is open before the first save
        template = folder / "templates" / "record.mustache"
        original_template = template.read_text()
        data = folder / "packages.jsonl"
        original_data = data.read_text()
        line = json.dumps({k: record[k] for k in ("name", "version", "section", "summary", "dependents")},
                          ensure_ascii=False, separators=(",", ":"))
        try:
            for n in range(edits):
                mark = f"bench-template-{n}-{time.time_ns()}"
                shown, built = edit_and_wait(
                    out, events, opened, lambda: template.write_text(original_template + f"\n<!-- {mark} -->\n"),
                    base + page, mark, timeout)
                result["template_save_s"].append(shown)
                result["template_build_s"].append(built)
                mark = f"Edited summary {n} {time.time_ns()}"
                edited = dict(record, summary=mark)
                new_line = json.dumps(edited, ensure_ascii=False, separators=(",", ":"))
                shown, built = edit_and_wait(
                    out, events, opened, lambda: data.write_text(original_data.replace(line, new_line, 1)),
                    base + page, mark, timeout)
                result["data_edit_s"].append(shown)
                result["data_build_s"].append(built)
                B.say(f"    preview: template save {result['template_save_s'][-1]} s, data edit {result['data_edit_s'][-1]} s")
        finally:
            template.write_text(original_template)
            data.write_text(original_data)
    finally:
        B.stop(server, timeout=20)
    return result


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8", "replace")
    except OSError:
        return None


def edit_and_wait(out, events, page: str, edit, url: str, mark: str, timeout: float) -> tuple[float | None, float | None]:
    """Seconds from the save to the open page's reload answered with `mark` (the reload event
    naming `page`, then `url` fetched until it shows the mark: after a data edit a page that
    names the index may reload twice), and to the end of the build. The next edit waits for the
    build, as the server would make it."""
    builds, reloads = out.builds, len(events.reloads)
    t0 = time.monotonic()
    edit()
    shown = None
    while time.monotonic() - t0 < timeout:
        if events.wait_for(page, reloads, 0.02) is not None or out.builds > builds:
            text = fetch(url)
            if text is not None and mark in text:
                shown = round(time.monotonic() - t0, 2)
                break
    out.wait(lambda: out.builds > builds, max(0.0, timeout - (time.monotonic() - t0)))
    built = round(time.monotonic() - t0, 2) if out.builds > builds else None
    return shown, built


# ------------------------------------------------------------------ report
def rng(values: list[float], unit=" s") -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "–"
    lo, mid, hi = min(values), B.median(values), max(values)
    return f"{mid:.2f}{unit}" if len(values) == 1 else f"{mid:.2f}{unit} ({lo:.2f}–{hi:.2f})"


def report(res: dict) -> str:
    g, h, p = res.get("generate") or {}, res.get("hugo") or {}, res.get("preview") or {}
    meta = res["meta"]

    def walls(runs):
        return [r["wall"] for r in runs if r.get("ok")]

    def rss(runs):
        return max((r["rss_kib"] for r in runs if r.get("ok")), default=0) / MiB

    gc, hc, hr = walls(g.get("cold", [])), walls(h.get("cold", [])), walls(h.get("rebuild", []))
    ge, he = walls(g.get("edit", [])), walls(h.get("edit", []))
    g1, gs = walls(g.get("rebuild", [])[:1]), walls(g.get("rebuild", [])[1:])

    def ratio(a, b):
        return f"{B.median(a) / B.median(b):.2f}×" if a and b else ""

    def share(a):
        return f" ({B.median(a) / B.median(gc) * 100:.0f} % of cold)" if a and gc else ""

    rows = [
        f"# A page per record: generate vs Hugo\n\n{meta['date']} · {meta['machine']} · generate `{meta['generate']}` · "
        f"{meta.get('hugo_version', 'Hugo not run')} · {res['records']:,} records · load average at start {meta['load_start']}, "
        f"at end {meta.get('load_end', '?')}\n",
        "Times are wall seconds, median (min–max) of the runs; peak RSS is the largest of the runs.\n",
        "| | generate | Hugo | Hugo ÷ generate |", "| --- | ---: | ---: | ---: |",
        f"| pages written | {g.get('summary_line', '').split(' pages')[0].replace('Built ', '') or '–'} "
        f"({g.get('site_files', 0):,} files) | {h.get('pages', 0):,} ({h.get('site_files', 0):,} files) | |",
        f"| cold build, emptied output | {rng(gc)}, {rss(g.get('cold', [])):.0f} MiB | {rng(hc)}, {rss(h.get('cold', [])):.0f} MiB | {ratio(hc, gc)} |",
        f"| rebuild, nothing changed: the first after a cold build | {rng(g1)}{share(g1)} | {rng(hr)} | {ratio(hr, g1)} |",
        f"| rebuild, nothing changed: the next ones | {rng(gs)}{share(gs)} | | {ratio(hr, gs)} |",
        f"| build after a one-record data edit | {rng(ge)}{share(ge)} | {rng(he)} | {ratio(he, ge)} |",
    ]
    for label, runs in (("cold", g.get("cold", [])), ("first rebuild", g.get("rebuild", [])[:1]),
                        ("next rebuilds", g.get("rebuild", [])[1:]), ("data edit", g.get("edit", []))):
        runs = [r for r in runs if r.get("ok")]
        if runs:
            names = list(runs[0]["steps"])
            steps = ", ".join(f"{n.split()[0].lower()} {B.median([r['steps'].get(n, 0) for r in runs]) / 1000:.2f}" for n in names) or "–"
            published = f"; {runs[-1]['published']}" if runs[-1].get("published") else ""
            rows.append(f"| generate {label}: steps (s, median){published} | {steps} | | |")
    if p.get("error"):
        rows.append(f"| preview | {p['error']} | | |")
    elif p:
        rows.append(f"| preview: first build | {p.get('first_build_s', '–')} s | | |")
        rows.append(f"| preview: template save → the open page reloaded with the change | {rng(p.get('template_save_s', []))} | | |")
        rows.append(f"| … → the whole site rendered, checked and written | {rng(p.get('template_build_s', []))} | | |")
        rows.append(f"| preview: one-record data edit → the open page reloaded with it | {rng(p.get('data_edit_s', []))} | | |")
        rows.append(f"| … → the whole site rendered, checked and written | {rng(p.get('data_build_s', []))} | | |")
    return "\n".join(rows) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="timed builds of each kind per tool (median and range reported)")
    ap.add_argument("--generate", help="generator binary (default: $GENERATE, then .build/release/generate)")
    ap.add_argument("--hugo", default=HUGO)
    ap.add_argument("--skip-hugo", action="store_true")
    ap.add_argument("--skip-generate", action="store_true")
    ap.add_argument("--skip-preview", action="store_true")
    ap.add_argument("--edits", type=int, default=3, help="preview edits of each kind (median reported)")
    ap.add_argument("--timeout", type=float, default=20 * 60, help="per build, seconds (the watchdog kills it)")
    ap.add_argument("--max-rss", type=float, default=12, help="per build, GiB")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    json_path, md_path = args.out / "results.json", args.out / "results.md"
    if args.report_only:
        print(report(json.loads(json_path.read_text())))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    generate = B.find_generate(args.generate)
    if not generate and not args.skip_generate:
        sys.exit("no generator binary: build it with `swift build -c release` or pass --generate")
    data = debian_records(args.out / "data")
    records = read_records(data)
    config = project(data, args.out / "project")
    if len(records) < 60_000:
        B.say(f"note: only {len(records):,} records in apt's lists (fewer than 60,000: is `apt-get update` done?)")
    meta = {"date": dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "machine": f"{os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB RAM",
            "generate": str(generate), "load_start": round(os.getloadavg()[0], 2), "runs": args.runs}
    res = {"meta": meta, "records": len(records)}

    def save():
        json_path.write_text(json.dumps(res, indent=1, ensure_ascii=False, default=str))
        md_path.write_text(report(res))

    B.say(f"== {len(records):,} records, a page each")
    if not args.skip_hugo:
        meta["hugo_version"] = subprocess.run([args.hugo, "version"], capture_output=True, text=True).stdout.split(" BuildDate")[0].strip()
    # The tools take turns, run by run, so that both meet the same load from
    # the rest of the machine: cold builds first, then the rebuilds.
    tools = []
    if not args.skip_generate:
        tools.append(("generate", Generate(generate, config, args.out / "site", args.timeout, args.max_rss)))
    if not args.skip_hugo:
        site = hugo_site(records, data, args.out / "hugo")
        tools.append(("hugo", Hugo(args.hugo, site, args.timeout, args.max_rss)))
    failed = set()
    for kind in ("cold", "rebuild", "edit"):
        for _ in range(args.runs):
            for name, tool in tools:
                if name not in failed and not tool.run(kind):
                    failed.add(name)
                res[name] = tool.res
                save()
    for name, tool in tools:
        if getattr(tool, "original", None):
            (tool.data if name == "generate" else tool.site / "content" / "packages" / f"{EDITED}.md").write_text(tool.original)
    if not args.skip_preview and not args.skip_generate:
        B.say("generate preview: template save and data edit to the reloaded page…")
        res["preview"] = preview_times(generate, args.out / "project", records, args.edits, args.timeout)
        save()
    meta["load_end"] = round(os.getloadavg()[0], 2)
    save()
    B.empty_trash()
    print(report(res))
    print(f"written: {md_path}")


if __name__ == "__main__":
    main()
