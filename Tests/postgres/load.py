#!/usr/bin/env python3
"""Writes SQL that copies a SQLite database into a PostgreSQL schema.

    python3 Tests/postgres/load.py Data/chinook/chinook.sqlite --schema public --keys \
        | psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p PORT -U postgres -d DB

Every table, same names, same columns, rows in the database's order (COPY
into a fresh table keeps it, so `SELECT *` reads them back in that order):
INTEGER becomes bigint, REAL double precision, TEXT text, NULL stays NULL.
So a site built from the copy should equal the one built from the file.
With --keys, Chinook's primary keys (`id`) and foreign keys (as
Data/site.yml's refs) are declared too, for `generate init postgres://…`.
With --oddities, a table of every type the PostgreSQL source reads and of
two it cannot (`point`, `bytea`), for the bad-input tests.
Needs only Python's own sqlite3 module; the output is plain SQL for psql.
"""
from __future__ import annotations

import argparse
import sqlite3
import sys

TYPES = {"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text"}
# Data/site.yml's refs: table -> {column: target table}.
REFS = {
    "albums": {"artist_id": "artists"},
    "tracks": {"album_id": "albums", "genre_id": "genres", "media_type_id": "media_types"},
    "playlist_tracks": {"playlist_id": "playlists", "track_id": "tracks"},
    "invoices": {"customer_id": "customers"},
    "invoice_lines": {"invoice_id": "invoices", "track_id": "tracks"},
}

ODDITIES = """
CREATE TYPE mood AS ENUM ('calm', 'loud');
CREATE TABLE oddities (
  id integer, flag boolean, small smallint, price numeric(10, 2), ratio real, big numeric,
  day date, at timestamp, at_utc timestamptz, uid uuid, mood mood, doc jsonb, label varchar(20)
);
INSERT INTO oddities VALUES
  (1, true, -3, 1.50, 0.99, -12345678901234567890.000123, '2009-01-05', '2009-01-05 10:30:00',
   '2009-01-05 10:30:00.25+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'calm', '{"a": [1, 2]}', 'Zoë'),
  (2, false, NULL, 0, 1e-7, 0.5, '0044-03-15', '1999-12-31 23:59:59.999999', NULL, NULL, 'loud', NULL, '');
CREATE TABLE shapes (id integer, name text, place point, photo bytea);
INSERT INTO shapes VALUES (1, 'origin', '(0,0)', '\\x00ff');
"""


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def copy_text(value) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("database")
    parser.add_argument("--schema", default="public")
    parser.add_argument("--keys", action="store_true")
    parser.add_argument("--oddities", action="store_true")
    args = parser.parse_args(argv)
    db = sqlite3.connect(f"file:{args.database}?immutable=1", uri=True)
    out = sys.stdout
    schema = quote(args.schema)
    out.write(f"CREATE SCHEMA IF NOT EXISTS {schema};\nSET search_path TO {schema};\n")
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for table in tables:
        columns = [(r[1], r[2]) for r in db.execute(f"PRAGMA table_info({quote(table)})")]
        declared = ", ".join(f"{quote(c)} {TYPES.get(t.upper(), 'text')}" for c, t in columns)
        out.write(f"DROP TABLE IF EXISTS {quote(table)} CASCADE;\nCREATE TABLE {quote(table)} ({declared});\n")
        out.write(f"COPY {quote(table)} FROM STDIN;\n")
        for row in db.execute(f"SELECT * FROM {quote(table)} ORDER BY rowid"):
            out.write("\t".join(copy_text(v) for v in row) + "\n")
        out.write("\\.\n")
    if args.keys:
        for table in tables:
            names = [r[1] for r in db.execute(f"PRAGMA table_info({quote(table)})")]
            if "id" in names:
                out.write(f"ALTER TABLE {quote(table)} ADD PRIMARY KEY (id);\n")
        for table, refs in REFS.items():
            for column, target in refs.items():
                out.write(f"ALTER TABLE {quote(table)} ADD FOREIGN KEY ({quote(column)}) "
                          f"REFERENCES {quote(target)} (id);\n")
    if args.oddities:
        out.write("DROP TABLE IF EXISTS oddities, shapes;\nDROP TYPE IF EXISTS mood;\n" + ODDITIES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
