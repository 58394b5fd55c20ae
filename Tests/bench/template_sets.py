#!/usr/bin/env python3
"""Page-per-record builds from templates written as users write them: `generate` vs Hugo.

    python3 Tests/bench/template_sets.py [--sets minimal,verbose,layout,theme,airports,unicode] [--runs 3]

Each folder under Tests/bench/templates/ is one user's site: a `site.yml`, a
`templates/` folder and the Hugo layouts (`hugo/`) that write the same pages
from the same records. They were written from docs/templates.md and
docs/configuration.md alone, before anything was measured with them, in the
styles different users write: `minimal` (one page template, no partials, as
a Hugo user would start), `verbose` (a base template with blocks, partials,
nested sections, dotted names, "Depends on" links through a `refs` list and
tags through a join table), `layout` (the theme's layout replaced by the
user's own, many small partials, inverted sections), `theme` (round 2: a
Jekyll/Hugo theme's habits — a base layout of its own with blocks, header
and footer partials, a partial indented inside a list), and two `generate
init` sites on the strangers' datasets (`airports`, `unicode`) with a
record template added by hand.

The Debian sets read every package of apt's lists (`pages.debian_records`)
with what the other sets add from the same lists: its dependencies that are
packages of the index, its maintainer, homepage, installed size, priority
and debtags (a `package_tags` join table). The init sets read
`Tests/relevance/strangers/make.py`'s data (run it first).

Rows per set: cold builds of both tools, taking turns, and generate's
"Rendering pages" step (render, libxml2 check and write) beside Hugo's
whole build. Writes bench-out/template-sets/results.md and results.json.
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import glob
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
import pages as P  # noqa: E402

REPO = B.REPO
OUT = REPO / "bench-out" / "template-sets"
SETS = REPO / "Tests" / "bench" / "templates"
STRANGERS = REPO / "Tests" / "relevance" / "strangers" / "data"
MiB = 1024


# ------------------------------------------------------------------ records
def debian_tables(folder: Path) -> dict[str, list[dict]]:
    """Every package of apt's lists with its dependencies (the first name of each
    alternative, when it is a package of the index), maintainer, homepage, size,
    priority and debtags; the sections, maintainers and tags as tables of their own."""
    sys.path.insert(0, str(REPO / "Data" / "debian"))
    import prepare  # noqa: PLC0415

    base = {r["name"]: r for r in P.read_records(P.debian_records(folder))}
    stanzas: dict[str, dict] = {}
    for path in sorted(glob.glob("/var/lib/apt/lists/*_Packages*")):
        for s in prepare.stanzas(prepare.read(path)):
            stanzas.setdefault(s["Package"], s)
    packages, tags, package_tags, maintainers = [], {}, [], {}
    for name in sorted(base):
        record, s = base[name], stanzas.get(name, {})
        depends = []
        for alternative in (s.get("Pre-Depends", "") + "," + s.get("Depends", "")).split(","):
            first = alternative.split("|")[0].strip().split(" ")[0].split(":")[0]
            if first and first != name and first in base and first not in depends:
                depends.append(first)
        maintainer = s.get("Maintainer", "")
        email = re.search(r"<([^>]+)>", maintainer)
        maintainer_id = email.group(1) if email else maintainer
        if maintainer_id:
            maintainers.setdefault(maintainer_id, {"id": maintainer_id, "name": maintainer.split("<")[0].strip() or maintainer_id})
        packages.append({**record, "depends": depends, "maintainer": maintainer_id or None,
                         "homepage": s.get("Homepage") or None,
                         "size": int(s["Installed-Size"]) if s.get("Installed-Size", "").isdigit() else None,
                         "priority": s.get("Priority") or None})
        for tag in (t.strip() for t in s.get("Tag", "").split(",")):
            if "::" in tag:
                facet, value = tag.split("::", 1)
                tags.setdefault(tag, {"tag": tag, "facet": facet, "value": value})
                package_tags.append({"package": name, "tag": tag})
    sections = sorted({p["section"] for p in packages})
    return {"packages": packages, "sections": [{"name": s} for s in sections],
            "maintainers": sorted(maintainers.values(), key=lambda m: m["id"]),
            "tags": sorted(tags.values(), key=lambda t: t["tag"]), "package_tags": package_tags}


def sample(tables: dict, count: int) -> dict:
    """The `count` most depended-on packages, with only what they refer to."""
    packages = sorted(tables["packages"], key=lambda p: (-p["dependents"], p["name"]))[:count]
    kept = {p["name"] for p in packages}
    packages = [{**p, "depends": [d for d in p["depends"] if d in kept]} for p in sorted(packages, key=lambda p: p["name"])]
    rows = [r for r in tables["package_tags"] if r["package"] in kept]
    tags, maintainers, sections = {r["tag"] for r in rows}, {p["maintainer"] for p in packages}, {p["section"] for p in packages}
    return {"packages": packages, "sections": [s for s in tables["sections"] if s["name"] in sections],
            "maintainers": [m for m in tables["maintainers"] if m["id"] in maintainers],
            "tags": [t for t in tables["tags"] if t["tag"] in tags], "package_tags": rows}


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if v is not None}, ensure_ascii=False) + "\n"
                            for r in rows))


def hugo_front(title: str, params: dict, terms: dict[str, list[str]]) -> str:
    return json.dumps({"title": title, **params, **terms}, ensure_ascii=False) + "\n"


def debian_hugo_content(tables: dict, content: Path) -> None:
    """A content file per package, its section, maintainer and tags as taxonomy terms."""
    by_name = {p["name"]: p for p in tables["packages"]}
    required_by: dict[str, list[dict]] = {}
    for p in sorted(tables["packages"], key=lambda p: -p["dependents"]):
        for d in p["depends"]:
            if len(required_by.setdefault(d, [])) < 20:
                required_by[d].append({"name": p["name"], "version": p["version"]})
    names = {m["id"]: m["name"] for m in tables["maintainers"]}
    tags_of: dict[str, list[str]] = {}
    for row in tables["package_tags"]:
        tags_of.setdefault(row["package"], []).append(row["tag"])
    folder = content / "packages"
    folder.mkdir(parents=True)
    for p in tables["packages"]:
        params = {k: p.get(k) for k in ("version", "summary", "dependents", "homepage", "size", "priority")}
        params["depends"] = [{"name": d, "summary": by_name[d]["summary"], "section": by_name[d]["section"]}
                             for d in p["depends"]]
        params["requiredby"] = required_by.get(p["name"], [])
        params["maintainername"] = names.get(p.get("maintainer") or "", "")
        terms = {"debsections": [p["section"] or "none"], "maintainers": [p["maintainer"]] if p.get("maintainer") else [],
                 "tags": tags_of.get(p["name"], [])}
        (folder / f"{p['name']}.md").write_text(hugo_front(p["name"], params, terms))


# ------------------------------------------------------------------ init sites
def strangers_csv(name: str) -> Path:
    path = next(iter(sorted((STRANGERS / name).glob("*.csv"))), None)
    if path is None:
        sys.exit(f"no data for {name}: run `python3 Tests/relevance/strangers/make.py` first")
    return path


def init_hugo_content(spec: dict, content: Path) -> None:
    """A content file per CSV row: every column a parameter, the title column the title."""
    folder = content / spec["section"]
    folder.mkdir(parents=True)
    with strangers_csv(spec["data"]).open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            title = row[spec["title"]]
            slug = re.sub(r"[^a-z0-9]+", "-", row[spec["key"]].lower()).strip("-") or "x"
            (folder / f"{slug}.md").write_text(hugo_front(title, {k.lower(): v for k, v in row.items()},
                                                          {t: [row[t]] if row.get(t) else [] for t in spec.get("taxonomies", [])}))


# ------------------------------------------------------------------ sets
def prepare_set(name: str, out: Path, debian: dict | None) -> tuple[Path, Path]:
    """The project (config, data, templates) and the Hugo site for one set, written afresh."""
    source = SETS / name
    spec = json.loads((source / "set.json").read_text())
    project, hugo = out / name / "project", out / name / "hugo"
    for folder in (project, hugo):
        shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(source / "templates", project / "templates")
    shutil.copyfile(source / "site.yml", project / "site.yml")
    shutil.copytree(source / "hugo", hugo)
    if spec["data"] == "debian":
        for table, rows in debian.items():
            write_jsonl(project / f"{table}.jsonl", rows)
        debian_hugo_content(debian, hugo / "content")
    else:
        shutil.copytree(strangers_csv(spec["data"]).parent, project / "data")
        init_hugo_content(spec, hugo / "content")
    return project / "site.yml", hugo


def rendering_seconds(run: dict) -> float | None:
    ms = next((v for k, v in run.get("steps", {}).items() if k.startswith("Rendering")), None)
    return ms / 1000 if ms is not None else None


def report(res: dict) -> str:
    meta = res["meta"]
    rows = [f"# Page-per-record builds from users' templates: generate vs Hugo\n\n{meta['date']} · generate "
            f"`{meta['generate']}` · {meta.get('hugo_version', '')} · load {meta['load_start']} at start, "
            f"{meta.get('load_end', '?')} at end\n",
            "Wall seconds, median (min–max) of the cold runs; each run's 1-minute load in the JSON.\n",
            "| set | pages (generate / Hugo) | generate: rendering, checking, writing | generate: whole build | Hugo: whole build | Hugo ÷ generate (render / build) |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, r in res["sets"].items():
        g = [x for x in r.get("generate", {}).get("cold", []) if x.get("ok")]
        h = [x for x in r.get("hugo", {}).get("cold", []) if x.get("ok")]
        gw, hw = [x["wall"] for x in g], [x["wall"] for x in h]
        gr = [s for s in (rendering_seconds(x) for x in g) if s is not None]

        def ratio(a, b):
            return f"{B.median(a) / B.median(b):.2f}×" if a and b else "–"
        pages = r.get("generate", {}).get("summary_line", "").split(" pages")[0].replace("Built ", "")
        rows.append(f"| {name} | {pages or '–'} / {r.get('hugo', {}).get('pages', 0):,} | {P.rng(gr)} | {P.rng(gw)} | "
                    f"{P.rng(hw)} | {ratio(hw, gr)} / {ratio(hw, gw)} |")
    return "\n".join(rows) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="minimal,verbose,layout,airports,unicode")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--generate")
    ap.add_argument("--hugo", default=P.HUGO)
    ap.add_argument("--skip-hugo", action="store_true")
    ap.add_argument("--sample", type=int, help="only the N most depended-on packages (a quick check)")
    ap.add_argument("--reuse", action="store_true", help="keep the projects and Hugo sites already written")
    ap.add_argument("--prepare-only", action="store_true", help="write the projects and stop")
    ap.add_argument("--timeout", type=float, default=20 * 60)
    ap.add_argument("--max-rss", type=float, default=12)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--name", default="results", help="file name of the results, without extension")
    args = ap.parse_args(argv)
    json_path, md_path = args.out / f"{args.name}.json", args.out / f"{args.name}.md"
    if args.report_only:
        print(report(json.loads(json_path.read_text())))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    generate = B.find_generate(args.generate)
    if not generate and not args.prepare_only:
        sys.exit("no generator binary: build it with `swift build -c release` or pass --generate")
    names = [s for s in args.sets.split(",") if s]
    debian = None
    if not args.reuse and any(json.loads((SETS / n / "set.json").read_text())["data"] == "debian" for n in names):
        B.say("reading apt's lists…")
        debian = debian_tables(P.OUT / "data")
        if args.sample:
            debian = sample(debian, args.sample)
    meta = {"date": dt.datetime.now().strftime("%Y-%m-%d %H:%M"), "generate": str(generate),
            "load_start": round(os.getloadavg()[0], 2), "runs": args.runs}
    if not args.skip_hugo:
        meta["hugo_version"] = subprocess.run([args.hugo, "version"], capture_output=True, text=True).stdout.split(" BuildDate")[0].strip()
    res = {"meta": meta, "sets": {}}

    def save():
        json_path.write_text(json.dumps(res, indent=1, ensure_ascii=False, default=str))
        md_path.write_text(report(res))

    for name in names:
        B.say(f"== {name}: writing the project and the Hugo site…")
        if args.reuse and (args.out / name / "project" / "site.yml").exists():
            config, hugo_site = args.out / name / "project" / "site.yml", args.out / name / "hugo"
        else:
            config, hugo_site = prepare_set(name, args.out, debian)
        if args.prepare_only:
            continue
        tools = [("generate", P.Generate(generate, config, args.out / name / "site", args.timeout, args.max_rss))]
        if not args.skip_hugo:
            tools.append(("hugo", P.Hugo(args.hugo, hugo_site, args.timeout, args.max_rss)))
        entry = res["sets"].setdefault(name, {})
        failed = set()
        for _ in range(args.runs):
            for tool_name, tool in tools:
                if tool_name not in failed and not tool.run("cold"):
                    failed.add(tool_name)
                entry[tool_name] = tool.res
                for r in tool.res["cold"]:
                    r.pop("output", None) if tool_name == "hugo" else None
                save()
    meta["load_end"] = round(os.getloadavg()[0], 2)
    save()
    B.empty_trash()
    print(report(res))
    print(f"written: {md_path}")


if __name__ == "__main__":
    main()
