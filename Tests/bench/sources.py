#!/usr/bin/env python3
"""Times the synthetic catalogue built from each data source.

    swift build -c release
    python3 Tests/bench/sources.py                        # 1M records: CSV, JSON Lines, SQLite
    python3 Tests/bench/sources.py --records 100k --runs 3

Makes the synthetic Chinook-shaped catalogue with synth.py (CSV, cached in
bench-out/sources/<n>/), converts it to JSON Lines (one .jsonl per table,
numbers as JSON numbers, empty fields as null) and to one SQLite database
(Data/chinook/make-sqlite.py's `convert`, the same typing), writes a config
per source that differs only in its `tables:`, then runs the release
`generate` on each and prints wall time, CPU time, peak memory (RSS) and the
"Loading data" step. The sites are compared file by file afterwards: the
three sources must give the same site. Only the standard library is used.
"""
from __future__ import annotations

import argparse
import filecmp
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as B  # noqa: E402
import synth  # noqa: E402

REPO = B.REPO
spec = importlib.util.spec_from_file_location("make_sqlite", REPO / "Data" / "chinook" / "make-sqlite.py")
make_sqlite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_sqlite)


def to_json_lines(folder: Path) -> None:
    """One .jsonl per CSV file, typed as the SQLite conversion types columns."""
    for path in sorted(folder.glob("*.csv")):
        header, rows = make_sqlite.read_csv(path)
        kinds = [make_sqlite.column_type([r[i] for r in rows]) for i in range(len(header))]
        with open(path.with_suffix(".jsonl"), "w", encoding="utf-8") as out:
            for row in rows:
                record = {name: make_sqlite.typed(value, kind) for name, value, kind in zip(header, row, kinds)}
                out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
                out.write("\n")


def config_for(text: str, source: str) -> str:
    """The synthetic site.yml with its tables read from `source`."""
    if source == "csv":
        return text
    if source == "jsonl":
        return re.sub(r"file: (\w+)\.csv", r"file: \1.jsonl", text)

    def replace(m: re.Match) -> str:
        indent, name, inline = m.group(1), m.group(2), m.group(3)
        if inline:  # artists: { file: artists.csv, key: id }
            return f"{indent}sqlite: catalogue.sqlite, table: {name}{inline}"
        return f"{indent}sqlite: catalogue.sqlite\n{indent.replace('{ ', '')}table: {name}"
    return re.sub(r"(\{ |^ +)file: (\w+)\.csv(,?)", replace, text, flags=re.M)


def prepare(n: int, out: Path) -> Path:
    data = out / "data"
    if not (data / "site.yml").exists():
        synth.generate(n, data)
    if not (data / "tracks.jsonl").exists():
        print("converting to JSON Lines…", flush=True)
        to_json_lines(data)
    if not (data / "catalogue.sqlite").exists():
        print("converting to SQLite…", flush=True)
        make_sqlite.convert(data, data / "catalogue.sqlite")
    text = (data / "site.yml").read_text(encoding="utf-8")
    for source in ("csv", "jsonl", "sqlite"):
        (data / f"site-{source}.yml").write_text(config_for(text, source), encoding="utf-8")
    return data


def size_of(data: Path, source: str) -> int:
    if source == "sqlite":
        return (data / "catalogue.sqlite").stat().st_size
    return sum(p.stat().st_size for p in data.glob(f"*.{source}"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", "-n", type=synth.parse_size, default=1_000_000)
    ap.add_argument("--sources", default="csv,jsonl,sqlite")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=REPO / "bench-out" / "sources")
    ap.add_argument("--generate", help="the generator binary (default .build/release/generate, or $GENERATE)")
    ap.add_argument("--timeout", type=float, default=1200)
    ap.add_argument("--max-rss", type=float, default=12, help="GiB")
    args = ap.parse_args(argv)

    generate = B.find_generate(args.generate)
    if generate is None:
        print("no generate binary: run `swift build -c release` or pass --generate", file=sys.stderr)
        return 2
    out = args.out / str(args.records)
    data = prepare(args.records, out)
    sources = args.sources.split(",")
    rows = []
    for source in sources:
        site = out / f"site-{source}"
        for run in range(args.runs):
            # --clean: a run over the last one's output would stop at "Up to date" (the build record).
            cmd = [generate, "--config", data / f"site-{source}.yml", "--output", site, "--verbose", "--clean"]
            r = B.timed(cmd, args.timeout, args.max_rss, cwd=REPO)
            steps = B.generator_steps(r["output"])
            rows.append((source, run + 1, r, steps.get("Loading data")))
            state = "ok" if r["ok"] else f"FAILED ({r['killed'] or 'exit ' + str(r['exit'])})"
            print(f"{source:6} run {run + 1}: {r['wall']:.1f} s wall, peak {r['rss_kib'] / 2**20:.2f} GiB, "
                  f"loading {steps.get('Loading data', '?')} ms — {state}", flush=True)
            if not r["ok"]:
                print(r["output"][-2000:], file=sys.stderr)

    print(f"\n{args.records:,} synthetic records (Tests/bench/synth.py), {generate}\n")
    print("| source | input | run | wall (s) | CPU (s) | peak RSS (GiB) | loading data (ms) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for source, run, r, loading in rows:
        cpu = f"{r['cpu']:.1f}" if r.get("cpu") is not None else "?"
        print(f"| {source} | {size_of(data, source) / 2**20:.0f} MiB | {run} | {r['wall']:.1f} | {cpu} | "
              f"{r['rss_kib'] / 2**20:.2f} | {loading if loading is not None else '?'} |")

    built = [s for s in sources if (out / f"site-{s}").is_dir()]
    for other in built[1:]:
        cmp = filecmp.dircmp(out / f"site-{built[0]}", out / f"site-{other}")
        same = not differences(cmp)
        print(f"\nsite from {other} {'is identical to' if same else 'DIFFERS from'} the site from {built[0]}")
        if not same:
            return 1
    return 0 if all(r["ok"] for _, _, r, _ in rows) else 1


def differences(cmp: filecmp.dircmp) -> list[str]:
    found = cmp.left_only + cmp.right_only + cmp.funny_files
    _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
    found += mismatch + errors
    for sub in cmp.subdirs.values():
        found += differences(sub)
    return found


if __name__ == "__main__":
    sys.exit(main())
