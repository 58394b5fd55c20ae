#!/usr/bin/env python3
"""Times the PostgreSQL source against files, with a server Tests/postgres/start.sh started.

    source Tests/postgres/start.sh        # in bash: a loopback server, Chinook loaded
    python3 Tests/postgres/bench.py [--generate .build/release/generate] [--runs 3]

Two figures, each printed with the file-based build beside it:
1. the default site: Data/site.yml (CSV files) against Data/site-sqlite.yml with
   every `sqlite:` replaced by the server (the same tables, loaded by start.sh);
2. a 100k-row table: the `tracks` table of Tests/bench/synth.py's 120k-record
   catalogue (101,550 rows × 9 columns), copied into the schema `bench` by
   Tests/postgres/load.py, built as one collection without pages, from the
   server and from the CSV file; rows/s is rows over the "Loading data" step.
Wall time, CPU time and peak memory per build (Tests/bench/benchlib.timed);
every build is --clean (a build from PostgreSQL always rebuilds anyway).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "Tests" / "bench"))
import benchlib as B  # noqa: E402

OUT = REPO / "bench-out" / "postgres"


def psql(url: str, password: str, stdin: bytes) -> None:
    env = dict(os.environ, PGPASSWORD=password, PGOPTIONS="-c client_min_messages=warning")
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", url], input=stdin, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def build(generate: Path, config: Path, out: Path, runs: int) -> dict:
    results = []
    for _ in range(runs):
        r = B.timed([generate, "--config", config, "--output", out, "--clean", "--verbose"],
                    timeout=1800, max_rss_gib=8)
        if not r["ok"]:
            sys.exit(f"build failed: {r['cmd']}\n{r['output'][-2000:]}")
        r["steps"] = B.generator_steps(r["output"])
        results.append(r)
    wall = statistics.median(r["wall"] for r in results)
    load = statistics.median(r["steps"].get("Loading data", 0) for r in results)
    return {"wall": wall, "load_ms": load, "cpu": statistics.median(r["cpu"] for r in results),
            "rss_mib": max(r["rss_kib"] for r in results) / 1024}


def postgres_config(text: str, url: str) -> str:
    source = f'postgres: "{url}", passwordEnv: GENERATE_TEST_POSTGRES_PASSWORD'
    return (text.replace("{ sqlite: chinook/chinook.sqlite,", "{ " + source + ",")
            .replace("    sqlite: chinook/chinook.sqlite\n",
                     f'    postgres: "{url}"\n    passwordEnv: GENERATE_TEST_POSTGRES_PASSWORD\n')
            .replace("templates: templates\n", f"templates: {REPO / 'Data' / 'templates'}\n"))


TRACKS = """title: Tracks
tables:
  tracks: {{ {source}, key: id }}
collections:
  - {{ id: tracks, label: Tracks, table: tracks, title: name, url: "/tracks/{{{{id}}}}" }}
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--generate")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    url, password = os.environ.get("GENERATE_TEST_POSTGRES"), os.environ.get("GENERATE_TEST_POSTGRES_PASSWORD")
    if not url or not password:
        sys.exit("no server: `source Tests/postgres/start.sh` first")
    generate = B.find_generate(args.generate, debug_ok=True)
    if not generate:
        sys.exit("no generate binary: swift build -c release")
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"generate: {generate}; {args.runs} runs each, medians; load average {os.getloadavg()[0]:.1f}")

    config = OUT / "site-postgres.yml"
    config.write_text(postgres_config((REPO / "Data" / "site-sqlite.yml").read_text(), url))
    files = build(generate, REPO / "Data" / "site.yml", OUT / "site-files", args.runs)
    server = build(generate, config, OUT / "site-postgres", args.runs)
    for name, r in (("files", files), ("postgres", server)):
        print(f"default site from {name:8}: {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU, "
              f"loading {r['load_ms']} ms, peak {r['rss_mib']:.0f} MiB")

    csv = OUT / "catalogue"
    if not (csv / "tracks.csv").exists():
        subprocess.run([sys.executable, REPO / "Tests" / "bench" / "synth.py", "--records", "120k", "--out", csv],
                       check=True, stdout=subprocess.DEVNULL)
    database = OUT / "catalogue.sqlite"
    if not database.exists():
        sys.path.insert(0, str(REPO / "Data" / "chinook"))
        make = __import__("make-sqlite")
        make.convert(csv, database)
    sql = subprocess.run([sys.executable, HERE / "load.py", database, "--schema", "bench"],
                         check=True, capture_output=True).stdout
    psql(url, password, sql)
    rows = sum(1 for _ in open(csv / "tracks.csv")) - 1
    (OUT / "tracks-files.yml").write_text(TRACKS.format(source=f"file: {csv / 'tracks.csv'}"))
    (OUT / "tracks-postgres.yml").write_text(TRACKS.format(
        source=f'postgres: "{url}", passwordEnv: GENERATE_TEST_POSTGRES_PASSWORD, table: bench.tracks'))
    for name in ("files", "postgres"):
        r = build(generate, OUT / f"tracks-{name}.yml", OUT / f"tracks-{name}", args.runs)
        rate = rows / (r["load_ms"] / 1000) if r["load_ms"] else float("nan")
        print(f"{rows:,}-row table from {name:8}: loading {r['load_ms']} ms = {rate:,.0f} rows/s; "
              f"build {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU, peak {r['rss_mib']:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
