#!/usr/bin/env python3
"""Hostile inputs through the real `generate`, an attacker's round.

Builds a good site once — CSV, JSON, JSON Lines and SQLite tables, a config
written by `generate init` and a folder of user templates — then, for each
case, copies the project, breaks one thing and runs `generate` (or `generate
init` on a hostile file) again, and checks what the contract promises:

- no crash: the process ends by itself with status 0 or 1, never a signal;
- bounded: within --timeout seconds and --max-rss MiB (os.wait4's ru_maxrss,
  what `/usr/bin/time -v` reports);
- a failure prints `path:line:column: error: …` into the file the case names
  (a SQLite place is `db:table:row:column`), with the words it names (the
  record, the field) and a summary line, and leaves the previous site byte
  for byte as it was: every entry's kind, size, bytes and mtime, folders
  included, and nothing left beside it;
- a build that succeeds writes nothing outside the site, and its pages keep
  markup from the data as text.

    .venv/bin/python Tests/tools/hostile.py [--generate .build/debug/generate] [-k NAME] [--keep]

Prints a table, one line per case, and exits 1 when a case fails.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PEOPLE = """id,name,city,homepage,photo,bio
1,Ada Lovelace,London,https://example.org/ada,https://example.org/ada.png,First programmer
2,Alan Turing,Manchester,https://example.org/alan,https://example.org/alan.png,Computing machinery
3,Grace Hopper,New York,https://example.org/grace,https://example.org/grace.png,Compilers
4,Edsger Dijkstra,Nuenen,https://example.org/edsger,https://example.org/edsger.png,Shortest paths
"""

BOOKS = [
    {"id": "b1", "title": "Notes on the Analytical Engine", "person_id": 1, "year": 1843, "tags": ["engines", "notes"]},
    {"id": "b2", "title": "On Computable Numbers", "person_id": 2, "year": 1936, "tags": ["logic"]},
    {"id": "b3", "title": "A Manual of Operation", "person_id": 3, "year": 1946, "tags": ["manuals", "logic"]},
    {"id": "b4", "title": "Go To Statement Considered Harmful", "person_id": 4, "year": 1968, "tags": ["essays"]},
]

TAGS = [
    {"code": "t1", "label": "Engines", "weight": 3},
    {"code": "t2", "label": "Logic", "weight": 5},
    {"code": "t3", "label": "Essays", "weight": 1},
]

PLACES = [(1, "London", "England"), (2, "Manchester", "England"), (3, "New York", "USA"), (4, "Nuenen", "Netherlands")]

# A user template beside the built-in theme: the people's pages, a partial of its own.
PERSON = """{{<layout}}{{$body}}<main id="main"><h1>{{record.title}}</h1>{{> card}}<p>{{record.bio}}</p></main>{{/body}}{{/layout}}
"""
CARD = """<p class="card">{{record.city}}</p>
"""


def write_base(root):
    data = root / "data"
    data.mkdir(parents=True)
    (data / "people.csv").write_text(PEOPLE)
    (data / "books.json").write_text(json.dumps(BOOKS, indent=1) + "\n")
    (data / "tags.jsonl").write_text("".join(json.dumps(t) + "\n" for t in TAGS))
    db = sqlite3.connect(data / "places.sqlite")
    db.execute("CREATE TABLE places (id INTEGER PRIMARY KEY, name TEXT, country TEXT)")
    db.executemany("INSERT INTO places VALUES (?, ?, ?)", PLACES)
    db.commit()
    db.close()
    templates = root / "templates"
    (templates / "partials").mkdir(parents=True)
    (templates / "person.mustache").write_text(PERSON)
    (templates / "partials" / "card.mustache").write_text(CARD)


class Result:
    def __init__(self, status, killed_by, out, err, seconds, rss_mib, timed_out):
        self.status, self.killed_by, self.out, self.err = status, killed_by, out, err
        self.seconds, self.rss_mib, self.timed_out = seconds, rss_mib, timed_out


def run(args, cwd, timeout):
    """Runs a command under `/usr/bin/time -v` in its own process group: its exit, signal, output, time
    and peak memory. (`time` forks the command from a small process, so the peak is the command's own,
    not this script's inherited through fork.)"""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as usage:
        start = time.monotonic()
        process = subprocess.Popen(["/usr/bin/time", "-v", "-o", usage.name, *args], cwd=cwd, stdout=out,
                                   stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        timed_out = False
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        text_out = out.read().decode("utf-8", "replace")
        text_err = err.read().decode("utf-8", "replace")
        report = usage.read()
    killed = re.search(r"Command terminated by signal (\d+)", report)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    exit_status = re.search(r"Exit status: (\d+)", report)
    killed_by = int(killed.group(1)) if killed else None
    code = None if killed or timed_out else int(exit_status.group(1)) if exit_status else process.returncode
    return Result(code, killed_by, text_out, text_err, seconds, int(rss.group(1)) / 1024 if rss else 0, timed_out)


def snapshot(folder):
    """Every entry under `folder`: kind, mode, size, mtime and, for a file, its bytes' hash."""
    entries = {}
    folder = Path(folder)
    if not folder.exists():
        return entries
    for path in [folder, *sorted(folder.rglob("*"))]:
        info = path.lstat()
        digest = ""
        if stat.S_ISREG(info.st_mode):
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        elif stat.S_ISLNK(info.st_mode):
            digest = os.readlink(path)
        entries[str(path.relative_to(folder))] = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mtime_ns, digest)
    return entries


# A diagnostic: `path:line:column: error: ` or SQLite's `db:table:row:column: error: `.
ERROR = re.compile(r"^(?P<path>[^\n]+?):(?:(?P<table>[^:\n]+):)?(?P<line>\d+):(?P<column>\d+): error: (?P<message>.*)$",
                   re.M)

MARKUP = ["<script>alert(", "<img src=x onerror", "<svg onload", "javascript:alert", "data:text/html"]


class Case:
    def __init__(self, name, group, edit=None, expect="error", file=None, words=(), init=None, args=(),
                 then_build=True, rss=None, timeout=None):
        self.name, self.group, self.edit, self.expect = name, group, edit, expect
        self.file, self.words, self.init, self.args = file, tuple(words), init, tuple(args)
        self.then_build, self.rss, self.timeout = then_build, rss, timeout


# ---------------------------------------------------------------- the edits


def write(path, content):
    def edit(root):
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.is_file():
            target.unlink()
        target.write_bytes(content if isinstance(content, bytes) else content.encode())
    return edit


def replace(path, old, new):
    def edit(root):
        text = (root / path).read_text()
        assert old in text, f"{path} has no {old!r}"
        (root / path).write_text(text.replace(old, new, 1))
    return edit


def chain(*edits):
    def edit(root):
        for one in edits:
            one(root)
    return edit


def people_row(row):
    """people.csv with one more record."""
    return write("data/people.csv", PEOPLE + row + "\n")


def people_bytes(row):
    return write("data/people.csv", PEOPLE.encode() + row + b"\n")


def books_raw(text):
    return write("data/books.json", text)


def book_with(field_json):
    """books.json with a fifth record whose fields are written as given (raw JSON)."""
    body = json.dumps(BOOKS, indent=1)[:-2]
    return books_raw(body + ',\n {"id": "b5", "title": "Fifth", "person_id": 1, ' + field_json + '}\n]\n')


def tags_line(line):
    return write("data/tags.jsonl", "".join(json.dumps(t) + "\n" for t in TAGS) + line + "\n")


def sqlite_rows(rows, schema="CREATE TABLE places (id, name TEXT, country TEXT)"):
    def edit(root):
        path = root / "data" / "places.sqlite"
        path.unlink()
        db = sqlite3.connect(path)
        db.execute(schema)
        db.executemany("INSERT INTO places VALUES (?, ?, ?)", PLACES + rows)
        db.commit()
        db.close()
    return edit


def symlink(path, target):
    def edit(root):
        link = root / path
        if link.exists() or link.is_symlink():
            if link.is_dir() and not link.is_symlink():
                shutil.rmtree(link)
            else:
                link.unlink()
        os.symlink(target, link)
    return edit


def fifo(path):
    def edit(root):
        (root / path).unlink()
        os.mkfifo(root / path)
    return edit


def folder(path):
    def edit(root):
        (root / path).unlink()
        (root / path).mkdir()
    return edit


def config(old, new):
    return replace("site.yml", old, new)


def template(name, text):
    return write(f"templates/{name}", text)


def page_path(path):
    """The people's pages at a path made from the data."""
    return lambda root: set_page_path(root, path)


def set_page_path(root, path):
    text = (root / "site.yml").read_text()
    text, count = re.subn(r'(template: person, path: )"[^"]*"', r'\1"' + path + '"', text)
    assert count == 1, "no person page in site.yml"
    (root / "site.yml").write_text(text)


def keyed_people(*rows):
    """people.csv with the given (id, name) records after the four."""
    lines = [PEOPLE.rstrip("\n")]
    for key, name in rows:
        lines.append(f'"{key}","{name}",City,https://example.org/x,https://example.org/x.png,Bio')
    return write("data/people.csv", "\n".join(lines) + "\n")


# ------------------------------------------------------------------ the cases

BILLION_LAUGHS = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]) + "\n"


def cases():
    big = "x" * (50 * 1024 * 1024)
    return [
        # CSV
        Case("csv: unterminated quote at EOF", "csv", people_row('5,"Barbara Liskov,Boston'), file="data/people.csv",
             words=["unterminated"]),
        Case("csv: NUL byte in a value", "csv", people_bytes(b"5,Bar\x00bara,Boston,,,"), file="data/people.csv",
             words=["record 5", "name"]),
        Case("csv: overlong UTF-8 (C0 AF)", "csv", people_bytes(b"5,Bar\xc0\xafbara,Boston,,,"),
             file="data/people.csv", words=["UTF-8"]),
        Case("csv: BOM in the middle of a value", "csv", people_row("5,Bar\ufeffbara,Boston,,,"), expect="build"),
        Case("csv: BOM starting a later line (the key)", "csv", people_row("\ufeff5,Barbara,Boston,,,"),
             expect="build"),
        Case("csv: CRLF line ends", "csv", write("data/people.csv", PEOPLE.replace("\n", "\r\n")), expect="build"),
        Case("csv: CR-only line ends", "csv", write("data/people.csv", PEOPLE.replace("\n", "\r")), expect="build"),
        Case("csv: a 50 MB field", "csv", people_row(f"5,{big},Boston,,,"), file="data/people.csv",
             words=["record 5", "name", "limits.valueBytes"]),
        Case("csv: 100k columns", "csv",
             write("data/people.csv", PEOPLE.splitlines()[0] + "".join(f",c{i}" for i in range(100_000)) + "\n"
                   + "\n".join(line + "," * 100_000 for line in PEOPLE.splitlines()[1:]) + "\n"), expect="build"),
        Case("csv: duplicate key", "csv", people_row("3,Barbara Liskov,Boston,,,"), file="data/people.csv",
             words=["3"]),
        Case("csv: empty key", "csv", people_row(",Barbara Liskov,Boston,,,"), file="data/people.csv"),
        Case("csv: a record with too many fields", "csv", people_row("5,B,C,,,,,,,"), file="data/people.csv"),
        # JSON
        Case("json: 100k nested [", "json", books_raw("[" * 100_000), file="data/books.json"),
        Case("json: 100k nested [ inside a record", "json", book_with('"deep": ' + "[" * 100_000),
             file="data/books.json", words=["record 5", "deep"]),
        Case("json: lone surrogate \\ud800", "json", book_with('"title2": "a\\ud800b"'), file="data/books.json",
             words=["record 5", "title2"]),
        Case("json: lone low surrogate \\udc00", "json", book_with('"title2": "\\udc00"'), file="data/books.json",
             words=["record 5", "title2"]),
        Case("json: \\u0000 in a value", "json", book_with('"title2": "a\\u0000b"'), file="data/books.json",
             words=["record b5", "title2"]),
        Case("json: overlong UTF-8", "json", write("data/books.json", json.dumps(BOOKS).encode()[:-2]
                                                    + b', {"id": "b5", "title": "\xc0\xaf"}]'), file="data/books.json"),
        Case("json: BOM between records", "json", write("data/books.json", json.dumps(BOOKS)[:-1] + ",\ufeff"
                                                         + json.dumps({"id": "b5", "title": "x"}) + "]"),
             file="data/books.json"),
        Case("json: duplicate key in an object", "json", book_with('"year": 1, "year": 2'), file="data/books.json",
             words=["record 5", "year"]),
        Case("json: duplicate record id", "json", books_raw(json.dumps(BOOKS + [{"id": "b1", "title": "Again"}])),
             file="data/books.json", words=["b1"]),
        Case("json: ref to nothing", "json", books_raw(json.dumps(
            BOOKS + [{"id": "b5", "title": "Orphan", "person_id": 99}])), file="data/books.json",
            words=["person_id", "99"]),
        Case("json: 1e999", "json", book_with('"year2": 1e999'), file="data/books.json",
             words=["record b5", "year2"]),
        Case("json: -0", "json", book_with('"year2": -0'), expect="build"),
        Case("json: NaN", "json", book_with('"year2": NaN'), file="data/books.json", words=["record 5"]),
        Case("json: 0x10", "json", book_with('"year2": 0x10'), file="data/books.json", words=["record 5"]),
        Case("json: a 400-digit integer", "json", book_with('"year2": ' + "9" * 400), expect="build"),
        Case("json: unterminated string at EOF", "json", books_raw('[{"id": "b1", "title": "abc'),
             file="data/books.json"),
        Case("json: empty field name", "json", book_with('"": 1'), file="data/books.json", expect="either"),
        Case("json: 100k fields in one record", "json",
             book_with(", ".join(f'"f{i}": {i}' for i in range(100_000))), expect="either"),
        # JSON Lines
        Case("jsonl: CRLF line ends", "jsonl",
             write("data/tags.jsonl", "".join(json.dumps(t) + "\r\n" for t in TAGS)), expect="build"),
        Case("jsonl: 100k nested [", "jsonl", tags_line('{"code": "t4", "x": ' + "[" * 100_000),
             file="data/tags.jsonl", words=["record 4"]),
        Case("jsonl: lone surrogate", "jsonl", tags_line('{"code": "t4", "label": "\\ud800"}'),
             file="data/tags.jsonl", words=["record 4", "label"]),
        Case("jsonl: a line that is not an object", "jsonl", tags_line("[1, 2]"), file="data/tags.jsonl"),
        Case("jsonl: unterminated string at EOF", "jsonl", write("data/tags.jsonl", '{"code": "t1", "label": "ab'),
             file="data/tags.jsonl"),
        Case("jsonl: NUL byte raw", "jsonl", write("data/tags.jsonl", b'{"code": "t1", "label": "a\x00b"}\n'),
             file="data/tags.jsonl"),
        # SQLite
        Case("sqlite: NUL in a text value", "sqlite", sqlite_rows([(5, "Lon\x00don", "UK")]),
             file="data/places.sqlite", words=["name"]),
        Case("sqlite: a BLOB that is not UTF-8", "sqlite", sqlite_rows([(5, b"\xff\xfe", "UK")]),
             file="data/places.sqlite", words=["name"]),
        Case("sqlite: duplicate key (no PRIMARY KEY)", "sqlite", sqlite_rows([(1, "Again", "UK")]),
             file="data/places.sqlite", words=["1"]),
        Case("sqlite: a real that is infinite", "sqlite", sqlite_rows([(5, "Inf", 1e999)]), expect="either",
             file="data/places.sqlite"),
        Case("sqlite: a file that is not a database", "sqlite", write("data/places.sqlite", "not a database\n" * 99),
             file="site.yml"),
        Case("sqlite: NULL key", "sqlite", sqlite_rows([(None, "Nowhere", "UK")]), file="data/places.sqlite"),
        # The config
        Case("yaml: billion laughs", "yaml", config("title:", BILLION_LAUGHS + "title:"), file="site.yml"),
        Case("yaml: billion laughs used as a list", "yaml",
             config("title:", BILLION_LAUGHS + "search: { trending: *a9 }\ntitle:"), file="site.yml"),
        Case("yaml: billion laughs as mapping keys", "yaml",
             config("title:", BILLION_LAUGHS + "k: { ? *a9 : 1, ? *a8 : 2 }\ntitle:"), file="site.yml"),
        Case("yaml: 100k nested [", "yaml", config("title:", "x: " + "[" * 100_000 + "\ntitle:"), file="site.yml"),
        Case("yaml: 100k nested mappings (flow)", "yaml", config("title:", "x: " + "{a: " * 100_000 + "\ntitle:"),
             file="site.yml"),
        Case("yaml: a !!binary tag on the title", "yaml", lambda root: set_title(root, "!!binary aGVsbG8="),
             expect="either", file="site.yml"),
        Case("yaml: a !!python/object tag", "yaml", lambda root: set_title(root, "!!python/object:os.system x"),
             expect="either", file="site.yml"),
        Case("yaml: a custom tag on a table", "yaml", config("tables:", "tables: !evil"), expect="either",
             file="site.yml"),
        Case("yaml: NUL byte", "yaml", lambda root: set_title(root, '"a\\0b"'), file="site.yml"),
        Case("yaml: a 50 MB title", "yaml", lambda root: set_title(root, big), file="site.yml"),
        Case("config: data file is /dev/zero", "config", symlink("data/people.csv", "/dev/zero"), file="site.yml"),
        Case("config: data file is a FIFO", "config", fifo("data/people.csv"), file="site.yml"),
        Case("config: data file is a folder", "config", folder("data/people.csv"), file="site.yml"),
        Case("config: SQLite database is /dev/zero", "config", symlink("data/places.sqlite", "/dev/zero"),
             file="site.yml"),
        Case("config: the config is /dev/zero", "config", args=["--config", "/dev/zero"], file="/dev/zero"),
        Case("config: the config is a FIFO", "config", lambda root: os.mkfifo(root / "fifo.yml"),
             args=["--config", "fifo.yml"], file="fifo.yml"),
        Case("config: the config is a folder", "config", lambda root: (root / "dir.yml").mkdir(),
             args=["--config", "dir.yml"], file="dir.yml"),
        Case("config: a data file through a symlink out of the project", "config",
             chain(outside_people,
                   symlink("data/people.csv", "/tmp/h-hostile/outside/people.csv")), expect="build"),
        Case("config: a siteURL with & < and a quote", "config",
             config("title:", "siteURL: \"https://x.example/a&b<c>'d\"\ntitle:"), expect="either", file="site.yml"),
        Case("config: a title and description of markup", "config",
             lambda root: set_title(root, "\"</script><script>alert(1)</script>&amp; \\u2028\""), expect="build"),
        Case("config: templates folder is /dev/zero", "config", config("templates: templates",
                                                                        "templates: /dev/zero"), file="/dev/zero"),
        # Templates
        Case("template: 10k nested sections", "template",
             template("person.mustache", "{{#a}}" * 10_000 + "x" + "{{/a}}" * 10_000), file="templates/person.mustache"),
        Case("template: 100k nested sections, unclosed", "template",
             template("person.mustache", "{{#a}}" * 100_000), file="templates/person.mustache"),
        Case("template: 100k nested inverted sections", "template",
             template("person.mustache", "{{^a}}" * 100_000 + "{{/a}}" * 100_000), file="templates/person.mustache"),
        Case("template: 10k nested partial blocks", "template",
             template("person.mustache", "{{<layout}}" * 10_000 + "{{/layout}}" * 10_000),
             file="templates/person.mustache"),
        Case("template: a partial named ../", "template",
             template("person.mustache", "{{> ../site}}"), file="templates/person.mustache"),
        Case("template: a partial named ../../../etc/passwd", "template",
             template("person.mustache", "{{> ../../../../../../etc/passwd}}"), file="templates/person.mustache"),
        Case("template: a partial named /etc/passwd", "template",
             template("person.mustache", "{{> /etc/passwd}}"), file="templates/person.mustache"),
        # Data that names no template is an error at the tag, naming the record.
        Case("template: a dynamic partial from data (*)", "template",
             template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{>*record.bio}}</main>{{/body}}"
                      "{{/layout}}"), file="templates/person.mustache"),
        # The errors a template author meets (round 4): each at the tag, naming the page's record.
        Case("template: a tag that prints an object ({{site}})", "template",
             template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{site}}</main>{{/body}}{{/layout}}"),
             file="templates/person.mustache", words=["{{site}} is an object", "on the page of record"]),
        Case("template: a tag that prints a list of objects ({{kinds}})", "template",
             template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{kinds}}</main>{{/body}}{{/layout}}"),
             file="templates/person.mustache", words=["{{kinds}} is a list of objects"]),
        Case("template: an unknown function", "template",
             template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{shout(record.title)}}</main>"
                      "{{/body}}{{/layout}}"), file="templates/person.mustache", words=["shout"]),
        Case("template: a function with two arguments", "template",
             template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{count(record.title, record.city)}}"
                      "</main>{{/body}}{{/layout}}"), file="templates/person.mustache"),
        Case("template: a section over a number", "template",
             template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{#count(record.title)}}x"
                      "{{/count(record.title)}}{{#record.id}}{{.}}{{/record.id}}</main>{{/body}}{{/layout}}"),
             expect="either"),
        Case("template: a partial that includes itself", "template",
             chain(template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{> card}}</main>{{/body}}"
                            "{{/layout}}"), write("templates/partials/card.mustache", "<p>{{> card}}</p>\n")),
             file="templates/partials/card.mustache", words=["card"]),
        Case("template: a section that never ends", "template",
             chain(template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">{{#record}}{{> card}}"
                            "{{/record}}</main>{{/body}}{{/layout}}"),
                   write("templates/partials/card.mustache", "<p>{{#record}}{{> card}}{{/record}}</p>\n")),
             file="templates/partials/card.mustache", words=["100 deep"]),
        Case("template: references 50 deep", "template",
             template("person.mustache", "{{<layout}}{{$body}}<main id=\"main\">"
                      + "{{#record}}" * 50 + "{{title}}" + "{{/record}}" * 50 + "</main>{{/body}}{{/layout}}"),
             expect="either"),
        Case("template: a partial that is a symlink out", "template",
             chain(outside_people, symlink("templates/partials/card.mustache", "/tmp/h-hostile/outside/people.csv")),
             expect="either"),
        Case("template: a partial that is /dev/zero", "template",
             symlink("templates/partials/card.mustache", "/dev/zero"), file="templates/partials/card.mustache"),
        Case("template: a partial that is a FIFO", "template", fifo("templates/partials/card.mustache"),
             file="templates/partials/card.mustache"),
        Case("template: a FIFO among the assets", "template",
             lambda root: (root / "templates/assets").mkdir() or os.mkfifo(root / "templates/assets/x.css"),
             file="templates/assets/x.css"),
        Case("template: a folder link loop", "template", symlink("templates/partials/loop", ".."), expect="either"),
        Case("template: unterminated tag at EOF", "template", template("person.mustache", "<p>{{record.title"),
             file="templates/person.mustache"),
        Case("template: set delimiters to nothing", "template", template("person.mustache", "{{= =}}"),
             file="templates/person.mustache"),
        Case("template: a 10 MB template", "template", template("person.mustache", "{{<layout}}{{$body}}<p>"
                                                                + "a" * 10_000_000 + "</p>{{/body}}{{/layout}}"),
             expect="either"),
        # Links and pictures a user template makes from the data
        Case("template: href from data is javascript:", "template",
             chain(template("person.mustache", '{{<layout}}{{$body}}<main id="main"><a href="{{record.homepage}}">'
                            'home</a></main>{{/body}}{{/layout}}'),
                   keyed_people(("5", "Eve")), replace("data/people.csv", '"5","Eve",City,https://example.org/x,',
                                                       '"5","Eve",City,javascript:alert(1),')),
             expect="either"),
        Case("template: src from data is data:text/html", "template",
             chain(template("person.mustache", '{{<layout}}{{$body}}<main id="main"><iframe src="{{record.photo}}">'
                            '</iframe></main>{{/body}}{{/layout}}'),
                   keyed_people(("5", "Eve")), replace("data/people.csv", "https://example.org/x.png,Bio",
                                                       "\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\",Bio")),
             expect="either"),
        # Paths from the data
        Case("path: a key of ../../x", "path", chain(page_path("people/{{id}}/"), keyed_people(("../../x", "Dot"))),
             file="site.yml", words=["../../x"]),
        Case("path: a key with /", "path", chain(page_path("people/{{id}}/"), keyed_people(("a/b", "Slash"))),
             expect="either"),
        Case("path: a key with \\", "path", chain(page_path("people/{{id}}/"), keyed_people(("..\\..\\x", "Back"))),
             expect="either"),
        Case("path: a key of %2e%2e", "path", chain(page_path("people/{{id}}/"), keyed_people(("%2e%2e", "Pct"))),
             expect="either"),
        Case("path: a key of CON", "path", chain(page_path("people/{{id}}/"), keyed_people(("CON", "Con"))),
             expect="either"),
        Case("path: a key of .git", "path", chain(page_path("{{id}}/"), keyed_people((".git", "Git"))),
             expect="either"),
        Case("path: a key of ?#", "path", chain(page_path("people/{{id}}/"), keyed_people(("a?b#c", "Query"))),
             expect="either"),
        Case("path: a key of a&b<c>\"'", "path",
             chain(page_path("people/{{id}}/"), keyed_people(("a&b<c>'", "Amp"))), expect="either"),
        Case("path: a key with a space and é", "path",
             chain(page_path("people/{{id}}/"), keyed_people(("a bé", "Space"))), expect="either"),
        Case("path: an empty title", "path", keyed_people(("5", "")), expect="either"),
        Case("path: a title of only punctuation", "path", keyed_people(("5", "!!! ???")), expect="build"),
        Case("path: a title of ../..", "path", keyed_people(("5", "../..")), expect="build"),
        Case("path: a 300-byte key", "path", chain(page_path("people/{{id}}/"), keyed_people(("k" * 300, "Long"))),
             file="site.yml", expect="either"),
        Case("path: a 300-byte title", "path", keyed_people(("5", "é" * 150)), expect="build"),
        Case("path: keys differing by case", "path",
             chain(page_path("people/{{id}}/"), keyed_people(("abc", "Lower"), ("ABC", "Upper"))), expect="either"),
        Case("path: keys NFC and NFD", "path",
             chain(page_path("people/{{id}}/"), keyed_people((unicodedata.normalize("NFC", "café"), "NFC"),
                                                             (unicodedata.normalize("NFD", "café"), "NFD"))),
             expect="either"),
        Case("path: titles NFC and NFD", "path",
             keyed_people(("5", unicodedata.normalize("NFC", "Café")), ("6", unicodedata.normalize("NFD", "Café"))),
             expect="build"),
        # init on data nobody prepared
        Case("init: JSON 100k nested [", "init", init=("deep.json", "[" * 100_000)),
        Case("init: JSON lone surrogate", "init", init=("s.json", '[{"id": 1, "name": "a\\ud800"}]')),
        Case("init: JSON duplicate keys", "init", init=("d.json", '[{"id": 1, "name": "a", "name": "b"}]')),
        Case("init: JSON 1e999 and NaN-ish", "init",
             init=("n.json", '[{"id": 1, "name": "a", "v": 1e999}, {"id": 2, "name": "b", "v": -0}]'),
             expect="either"),
        Case("init: CSV 100k columns", "init",
             init=("wide.csv", ",".join(f"c{i}" for i in range(100_000)) + "\n" + ",".join("v" for _ in range(100_000))
                   + "\n"), expect="either"),
        Case("init: CSV 50 MB field", "init", init=("big.csv", "id,name\n1," + big + "\n"), expect="either"),
        Case("init: CSV NUL", "init", init=("nul.csv", b"id,name\n1,a\x00b\n")),
        Case("init: CSV unterminated quote", "init", init=("q.csv", 'id,name\n1,"abc\n')),
        Case("init: CSV only a header", "init", init=("h.csv", "id,name\n"), expect="either"),
        Case("init: CSV empty", "init", init=("e.csv", ""), expect="either"),
        Case("init: CSV keys NFC/NFD, case", "init",
             init=("k.csv", "code,name\n" + unicodedata.normalize("NFC", "café") + ",One\n"
                   + unicodedata.normalize("NFD", "café") + ",Two\nABC,Three\nabc,Four\n"), expect="either"),
        Case("init: CSV names that are paths", "init",
             init=("p.csv", "id,name\n../../x,Dots\n.git,Git\nCON,Con\n%2e%2e,Pct\na/b,Slash\n" + "k" * 300 + ",Long\n"),
             expect="either"),
        Case("init: a file name with markup", "init", init=('<img src=x onerror=alert(1)>.csv', "id,name\n1,a\n"),
             expect="either"),
        Case("init: a JSON Lines file of 100k nested", "init", init=("deep.jsonl", '{"a": ' + "[" * 100_000 + "\n")),
        Case("init: SQLite garbage", "init", init=("g.sqlite", "SQLite format 3\x00" + "x" * 200)),
    ]


def outside_people(root):
    outside = Path("/tmp/h-hostile/outside")
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "people.csv").write_text(PEOPLE)


def set_title(root, value):
    text = (root / "site.yml").read_text()
    text, count = re.subn(r"^title: .*$", lambda _: "title: " + value, text, count=1, flags=re.M)
    assert count == 1
    (root / "site.yml").write_text(text)


# ---------------------------------------------------------------- the checks


def check_error(case, result, project):
    problems = []
    errors = list(ERROR.finditer(result.err))
    if not errors:
        return [f"no path:line:column: error: in {result.err[-400:]!r}"]
    if case.file:
        want = case.file if case.file.startswith("/") else case.file
        if not any(m["path"] == want or m["path"].endswith("/" + want) for m in errors):
            problems.append(f"no error in {case.file}: {errors[0].group(0)[:300]!r}")
    text = "\n".join(m.group(0) for m in errors)
    for word in case.words:
        if word not in text:
            problems.append(f"no {word!r} in {errors[0].group(0)[:300]!r}")
    if "generate: " not in result.err:
        problems.append("no summary line")
    return problems


def check_built_site(site):
    problems = []
    sitemap = Path(site) / "sitemap.xml"
    if sitemap.is_file():
        import xml.etree.ElementTree as ElementTree
        try:
            tree = ElementTree.parse(sitemap)
            for loc in tree.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc"):
                if re.search(r"[^A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]", loc.text or ""):
                    problems.append(f"sitemap.xml: a URL that is not percent-encoded: {loc.text!r}")
        except ElementTree.ParseError as error:
            problems.append(f"sitemap.xml is not XML: {error}")
    for path in Path(site).rglob("*.json"):
        try:
            json.loads(path.read_bytes())
        except ValueError as error:
            problems.append(f"{path.relative_to(site)} is not JSON: {error}")
    for path in Path(site).rglob("*"):
        if path.suffix not in (".html", ".xml", ".json", ".txt") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        for bad in MARKUP:
            if bad in text:
                problems.append(f"{path.relative_to(site)} holds {bad!r}")
    return problems


def run_case(case, base, generate, options):
    work = Path(tempfile.mkdtemp(prefix="case-", dir=options.scratch))
    timeout = case.timeout or options.timeout
    limit = case.rss or options.max_rss
    try:
        if case.init:
            name, content = case.init
            path = work / name
            path.write_bytes(content if isinstance(content, bytes) else content.encode())
            result = run([generate, "init", name], work, timeout)
            row = judge(case, result, work, None, None, limit)
            if result.status == 0 and case.then_build and not row[1]:
                build = run([generate, "--quiet", "--strict"], work, timeout)
                built = judge(Case(case.name, case.group, expect="either"), build, work, None, None, limit)
                row = (row[0] + " → build " + built[0], built[1], max(row[2], built[2]), row[3] + built[3])
                if build.status == 0:
                    row[1].extend(check_built_site(work / "site"))
            return row
        project = work / "p"
        shutil.copytree(base, project, symlinks=True)
        if case.edit:
            case.edit(project)
        before = snapshot(project / "site")
        args = [generate, "--quiet", *case.args] if case.args else [generate, "--quiet"]
        result = run(args, project, timeout)
        return judge(case, result, project, before, project / "site", limit)
    finally:
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)


def judge(case, result, project, before, site, limit):
    """(outcome, problems, seconds, rss)."""
    problems = []
    if result.timed_out:
        problems.append(f"timed out after {result.seconds:.0f} s")
        outcome = "HANG"
    elif result.killed_by is not None:
        problems.append(f"killed by {signal.Signals(result.killed_by).name}: {result.err[-600:]}")
        outcome = "CRASH"
    elif result.status == 0:
        outcome = "built"
    elif result.status == 1:
        outcome = "error"
    else:
        outcome = f"exit {result.status}"
        problems.append(f"exit status {result.status}: {result.err[-600:]}")
    if "Fatal error" in result.err or "NSCocoaErrorDomain" in result.err:
        problems.append("a Swift trap or Foundation error text: " + result.err[-600:])
    if result.rss_mib > limit:
        problems.append(f"max RSS {result.rss_mib:.0f} MiB over {limit} MiB")
    if outcome == "error":
        if case.expect == "build":
            problems.append("expected a build: " + result.err[-400:])
        problems.extend(check_error(case, result, project))
        if site is not None:
            after = snapshot(site)
            if after != before:
                changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
                problems.append(f"the site changed: {changed[:5]}")
            beside = [n for n in os.listdir(project) if ".staging-" in n or ".old-" in n or ".generate-index." in n]
            if beside:
                problems.append(f"left beside the site: {beside}")
        if case.init and (project / "site.yml").exists():
            problems.append("init failed but wrote site.yml")
    elif outcome == "built":
        if case.expect == "error":
            problems.append("expected an error, built")
        if site is not None:
            problems.extend(check_built_site(site))
    return outcome, problems, result.seconds, result.rss_mib


def make_base(generate, scratch, timeout):
    base = Path(scratch) / "base"
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    write_base(base)
    files = ["data/people.csv", "data/books.json", "data/tags.jsonl", "data/places.sqlite"]
    result = run([generate, "init", *files], base, timeout)
    assert result.status == 0, result.err
    text = (base / "site.yml").read_text()
    # Point init's config at the user templates: the people's pages by person.mustache.
    text = text.replace("\ntables:", "\ntemplates: templates\ntables:", 1)
    # The books' person_id names no table init could tell, so their reference is declared here.
    text = text.replace("books: { file: data/books.json, key: id }",
                        "books: { file: data/books.json, key: id, refs: { person_id: people } }")
    text, count = re.subn(r"(\n  - id: \"?people\"?\n(?:    .*\n)*?)    page: .*\n",
                          r'\1    page: { template: person, path: "people/{{slug}}/" }\n', text, count=1)
    assert count == 1, text
    (base / "site.yml").write_text(text)
    result = run([generate, "--quiet"], base, timeout)
    assert result.status == 0, result.err
    assert (base / "site" / "people").is_dir(), sorted(os.listdir(base / "site"))
    return base


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generate", default=str(REPO / ".build/debug/generate"))
    parser.add_argument("--scratch", default="/tmp/h-hostile/cases")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--max-rss", type=float, default=1024, help="MiB")
    parser.add_argument("-k", default="", help="only cases whose name holds this")
    parser.add_argument("--keep", action="store_true", help="keep each case's folder")
    parser.add_argument("--json", help="write the results here")
    options = parser.parse_args()
    generate = str(Path(options.generate).resolve())
    Path(options.scratch).mkdir(parents=True, exist_ok=True)
    base = make_base(generate, options.scratch, options.timeout)
    failed = 0
    rows = []
    chosen = [c for c in cases() if options.k in c.name]
    for case in chosen:
        outcome, problems, seconds, rss = run_case(case, base, generate, options)
        ok = not problems
        failed += not ok
        rows.append({"name": case.name, "outcome": outcome, "ok": ok, "problems": problems,
                     "seconds": round(seconds, 2), "rss": round(rss)})
        print(f"{'ok ' if ok else 'FAIL'} {case.name:<55} {outcome:<18} {seconds:6.1f} s {rss:6.0f} MiB"
              + ("".join("\n       " + p[:700] for p in problems)), flush=True)
    if options.json:
        Path(options.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    print(f"{len(chosen) - failed} of {len(chosen)} cases as promised")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
