#!/usr/bin/env python3
"""Makes Data/chinook/chinook.sqlite from the CSV files beside this script.

    python3 Data/chinook/make-sqlite.py            # writes chinook.sqlite here
    python3 Data/chinook/make-sqlite.py --check    # fails if the file is stale

One table per CSV file, same name, same columns, rows in file order. Each
column gets the type its values allow, so the database reads as a real one
would: INTEGER when every value is a whole number written plainly, REAL when
every value is a decimal that `generate` prints back unchanged, TEXT
otherwise; an empty CSV field is NULL (which `generate` reads as empty). So
Data/site-sqlite.yml builds a site byte-identical to Data/site.yml's.

Deterministic: the same CSV files give the same bytes on every run (no
timestamps; fixed page size; written in one transaction into a fresh file,
then vacuumed), checked by running it twice and comparing. Needs only
Python's own sqlite3 module. Also used by Tests/bench/sources.py for the
synthetic catalogues (`convert`).
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
INTEGER = re.compile(r"-?(0|[1-9][0-9]{0,14})")
DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


def shown(value: float) -> str:
    """A number as generate's expression language prints it (Value.format)."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def column_type(values: list[str]) -> str:
    present = [v for v in values if v != ""]
    if not present:
        return "TEXT"
    if all(INTEGER.fullmatch(v) for v in present):
        return "INTEGER"
    if all(DECIMAL.fullmatch(v) and shown(float(v)) == v for v in present):
        return "REAL"
    return "TEXT"


def typed(value: str, kind: str):
    if value == "":
        return None
    if kind == "INTEGER":
        return int(value)
    if kind == "REAL":
        return float(value)
    return value


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def convert(folder: Path, out: Path) -> None:
    """Writes one table per CSV file of `folder` into a new database `out`."""
    tables = []
    for path in sorted(folder.glob("*.csv")):
        header, rows = read_csv(path)
        kinds = [column_type([r[i] for r in rows]) for i in range(len(header))]
        tables.append((path.stem, header, kinds, rows))
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=out.name + ".", suffix=".tmp")
    os.close(fd)
    os.unlink(tmp)
    try:
        db = sqlite3.connect(tmp, isolation_level=None)
        db.execute("PRAGMA page_size = 4096")
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("BEGIN")
        for name, header, kinds, rows in tables:
            columns = ", ".join(f"{quote(c)} {k}" for c, k in zip(header, kinds))
            db.execute(f"CREATE TABLE {quote(name)} ({columns})")
            marks = ", ".join("?" for _ in header)
            db.executemany(f"INSERT INTO {quote(name)} VALUES ({marks})",
                           ([typed(v, k) for v, k in zip(row, kinds)] for row in rows))
        db.execute("COMMIT")
        db.execute("VACUUM")
        db.close()
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="source", type=Path, default=HERE, help="folder of CSV files")
    ap.add_argument("--out", type=Path, default=HERE / "chinook.sqlite")
    ap.add_argument("--check", action="store_true", help="fail if --out differs from a fresh build")
    args = ap.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / "fresh.sqlite"
            convert(args.source, fresh)
            if fresh.read_bytes() != args.out.read_bytes():
                print(f"{args.out} is stale: run {Path(__file__).name} again", file=sys.stderr)
                return 1
        print(f"{args.out} is up to date")
        return 0
    convert(args.source, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
