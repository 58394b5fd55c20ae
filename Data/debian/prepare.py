#!/usr/bin/env python3
"""Regenerates packages.jsonl from Debian's package index (apt's lists).

One record per binary package of the lists given (by default every
`*_Packages*` under /var/lib/apt/lists, decompressed through apt-helper):
its name, version, section, the one-line summary from its description, and
`dependents`, how many other packages name it in Depends or Pre-Depends,
which the site uses as popularity. Run it after `apt-get update`:

    python3 Data/debian/prepare.py [Packages files…] > Data/debian/packages.jsonl

Packages that another package installs for them (shared libraries,
headers, documentation, translations) and the library modules of languages
other than Python are left out, to keep the file to a few MB; `dependents`
still counts every package of the lists.

A package listed by several lists (bookworm and bookworm-security) keeps
the entry of the first list that has it; the output is
sorted by name, so the same lists give the same bytes.
"""
import glob
import json
import re
import subprocess
import sys


# Sections left out (see above).
LEFT_OUT = {
    "libs", "libdevel", "doc", "localization", "debug", "oldlibs",
    "haskell", "perl", "golang", "rust", "javascript", "gnu-r", "ocaml",
    "java", "ruby", "php", "lisp", "cli-mono",
}


def read(path):
    if path.endswith((".lz4", ".gz", ".xz", ".zst")):
        return subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], check=True, capture_output=True, text=True).stdout
    with open(path, encoding="utf-8") as f:
        return f.read()


def stanzas(text):
    for block in text.split("\n\n"):
        fields, key = {}, None
        for line in block.split("\n"):
            if line.startswith((" ", "\t")):
                continue  # the long description and other continuations
            key, _, value = line.partition(":")
            fields[key] = value.strip()
        if "Package" in fields:
            yield fields


def names(depends):
    for alternative in re.split(r"[,|]", depends):
        name = alternative.strip().split(" ")[0].split(":")[0]
        if name:
            yield name


def main(paths):
    paths = paths or sorted(glob.glob("/var/lib/apt/lists/*_Packages*"))
    packages = {}
    for path in paths:
        for p in stanzas(read(path)):
            packages.setdefault(p["Package"], p)
    dependents = {}
    for name, p in packages.items():
        for dep in set(names(p.get("Depends", "") + "," + p.get("Pre-Depends", ""))):
            if dep != name:
                dependents[dep] = dependents.get(dep, 0) + 1
    for name in sorted(packages):
        p = packages[name]
        section = p.get("Section", "").split("/")[-1]
        if section in LEFT_OUT:
            continue
        record = {
            "name": name,
            "version": p.get("Version", ""),
            "section": section,
            "summary": p.get("Description", ""),
            "dependents": dependents.get(name, 0),
        }
        sys.stdout.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
