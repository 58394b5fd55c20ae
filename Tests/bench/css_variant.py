"""A copy of a built site whose search page's inline stylesheet is edited, its hash updated.

    .venv/bin/python Tests/bench/css_variant.py site /dev/shm/cv \
        "css + '.idle-view>.section{content-visibility:auto;contain-intrinsic-size:auto 320px}'"

EXPR is a Python expression on `css` (the `<style>` element's text) giving the new text.
The copy holds its own `index.html` and `_headers` (the policy's `sha256-…` of the old
text replaced by the new one's, so the page is not left unstyled by its own policy);
everything else is a hard link into SITE, or a copy across file systems (the bench's
server serves nothing outside its folder: symlinks would be 404s). For `field_variants.py` and `field_trace.py`.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import shutil
from pathlib import Path


def digest(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def link_or_copy(source, dest):
    try:
        os.link(source, dest)
    except OSError:
        shutil.copy2(source, dest)


def copy_site(site: Path, dest: Path):
    """`dest` made a copy of `site` (linked where it can be) but for the search page and
    `_headers`, which the caller writes; returns the page's text and its `<style>` match."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    shutil.copytree(site, dest, copy_function=link_or_copy, dirs_exist_ok=True,
                    ignore=lambda folder, names: [n for n in names if Path(folder) == site and n in ("index.html", "_headers")])
    page = (site / "index.html").read_text()
    return page, re.search(r"<style>(.*?)</style>", page, re.S)


def write_page(site: Path, dest: Path, page: str, old_css: str, new_css: str):
    """The copy's search page, and its `_headers` with the policy's hash of the old inline
    stylesheet replaced by the new one's."""
    (dest / "index.html").write_text(page)
    headers = (site / "_headers").read_text()
    if digest(old_css) not in headers:
        raise SystemExit(f"{site}/_headers: error: no sha256-{digest(old_css)} for the page's stylesheet")
    (dest / "_headers").write_text(headers.replace(digest(old_css), digest(new_css)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site", type=Path)
    ap.add_argument("dest", type=Path)
    ap.add_argument("expr", help="Python expression on `css`, the new stylesheet text")
    args = ap.parse_args()
    page, style = copy_site(args.site, args.dest)
    old = style.group(1)
    new = eval(args.expr, {"re": re}, {"css": old})
    write_page(args.site, args.dest, page[: style.start(1)] + new + page[style.end(1) :], old, new)
    print(f"{args.dest}: stylesheet {len(old)} -> {len(new)} characters")


if __name__ == "__main__":
    main()
