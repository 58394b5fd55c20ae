"""A copy of a built site whose search page keeps inline only the rules its header needs.

    .venv/bin/python Tests/bench/split_variant.py site /dev/shm/split [--preload] [--layers] [--at header|head]

The head's `<style>` keeps every rule that can style the page's header: rules with no
class in their selector (`:root`, `body`, `a`, `[hidden]`, `@keyframes` …) and rules
naming a class that the header (or `<body>`) carries. The rest (the idle view, the
results, the suggestions: classes only `<main>` or the script uses) go to
`css/search-rest.css`, linked by a `<link rel="stylesheet">` right after `</header>`
(`--at header`, Chromium holds the parser there until the sheet is in and renders the
header alone) or at the end of `<head>` (`--at head`, for scale). `--preload` adds a
`<link rel="preload" as="style">` for it in the head. The policy's hash in `_headers` is
the new inline text's. Cascade: moved rules come after the kept ones, which can only
raise their precedence; they style nothing the kept rules style (checked by screenshots).
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from css_variant import copy_site, write_page


def rules(css: str) -> list[str]:
    """The top-level rules and at-rule blocks of a minified stylesheet."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(css):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                out.append(css[start : i + 1])
                start = i + 1
    assert not css[start:].strip(), css[start:][:80]
    return out


def selectors(rule: str) -> list[str]:
    """The selectors of a rule, or of each rule inside a conditional block."""
    if rule.startswith("@keyframes"):
        return [""]
    if rule.startswith("@"):
        inner = rule[rule.index("{") + 1 : -1]
        return [s for r in rules(inner) for s in selectors(r)]
    return [rule[: rule.index("{")]]


def split(css: str, header_classes: set[str]) -> tuple[str, str]:
    top, rest = [], []
    for rule in rules(css):
        classes = [set(re.findall(r"\.([A-Za-z_][\w-]*)", s)) for s in selectors(rule)]
        keep = any(not c or c & header_classes for c in classes)
        (top if keep else rest).append(rule)
    return "".join(top), "".join(rest)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site", type=Path)
    ap.add_argument("dest", type=Path)
    ap.add_argument("--preload", action="store_true")
    ap.add_argument("--at", choices=("header", "head"), default="header")
    ap.add_argument("--layers", action="store_true",
                    help="move the rules of what the header's two hidden slot layers hold too")
    args = ap.parse_args()
    page, style = copy_site(args.site, args.dest)
    old = style.group(1)
    head_end = page.index("</header>")
    body = page.index("<body")
    header = page[body:head_end]
    if args.layers:
        # The slot and its two layers stay (their boxes, `content-visibility: hidden`), not what they hold.
        slot = header.index('<div class="slot"')
        layers = " ".join(re.findall(r'<div class="(slot|layer [^"]*)"', header[slot:]))
        header = header[:slot] + f'<div class="{layers}">'
    header_classes = {c for attr in re.findall(r'class="([^"]*)"', header) for c in attr.split()}
    top, rest = split(old, header_classes)
    assets = re.search(r'src="(/assets/[^/]+/)js/app\.js"', page).group(1)
    href = assets + "css/search-rest.css"
    sheet = args.dest / href.lstrip("/")
    sheet.write_text(rest)
    link = f'<link rel="stylesheet" href="{href}" />'
    new_page = page[: style.start(1)] + top + page[style.end(1) :]
    if args.at == "header":
        new_page = new_page.replace("</header>\n", "</header>\n" + link + "\n", 1)
    else:
        new_page = new_page.replace("</head>", link + "\n</head>", 1)
    if args.preload:
        new_page = new_page.replace("</style>", f'</style><link rel="preload" as="style" href="{href}" />', 1)
    write_page(args.site, args.dest, new_page, old, top)
    print(f"{args.dest}: inline {len(old)} -> {len(top)} characters, {href} {len(rest)}")


if __name__ == "__main__":
    main()
