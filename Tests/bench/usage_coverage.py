"""What of the search page's inline stylesheet and scripts the browser tests never use.

A pytest plugin and a report, for finding dead weight with evidence (Tests/bench/README.md,
"dead weight"). As a plugin it starts CSS rule usage tracking (CDP `CSS.startRuleUsageTracking`)
and JS block coverage (`Profiler.startPreciseCoverage`) in every page the tests open, and
appends what was used to a JSON-lines file before each navigation and when a context closes
(a click that navigates away loses its page's last part). Build the site without esbuild, so
the scripts are readable and the offsets are the sources':

    GENERATE_ESBUILD=none .build/debug/generate --quiet --output /tmp/plain
    COVERAGE_OUT=/tmp/cov.jsonl PYTHONPATH=Tests/bench SITE_DIR=/tmp/plain \\
        .venv/bin/python -m pytest -q -p usage_coverage Tests/browser/test_search_page.py …
    .venv/bin/python Tests/bench/usage_coverage.py /tmp/cov.jsonl /tmp/plain/assets/<hash>

The report lists the stylesheet's rules no test matched and the stretches of each script no
test ran. Neither is proof of dead code: a rule for a state no test reaches is still needed;
read each one.
"""
import collections
import hashlib
import json
import os
import sys

OUT = os.environ.get("COVERAGE_OUT", "coverage.jsonl")


def _start(page):
    try:
        session = page.context.new_cdp_session(page)
        session.send("DOM.enable")
        session.send("CSS.enable")
        session.send("CSS.startRuleUsageTracking")
        session.send("Profiler.enable")
        session.send("Profiler.startPreciseCoverage", {"callCount": True, "detailed": True})
    except Exception:
        return
    page._coverage = session


def _collect(page):
    session = getattr(page, "_coverage", None)
    if session is None:
        return
    record = {"css": [], "sheets": {}, "js": []}
    try:
        texts = {}
        for use in session.send("CSS.stopRuleUsageTracking")["ruleUsage"]:
            sheet = use["styleSheetId"]
            if sheet not in texts:
                try:
                    texts[sheet] = session.send("CSS.getStyleSheetText", {"styleSheetId": sheet})["text"]
                except Exception:
                    texts[sheet] = None
            if texts[sheet] is not None:
                key = hashlib.sha1(texts[sheet].encode()).hexdigest()[:12]
                record["sheets"][key] = texts[sheet]
                record["css"].append([key, use["startOffset"], use["endOffset"]])
    except Exception:
        pass
    try:
        for script in session.send("Profiler.takePreciseCoverage")["result"]:
            if "/assets/" in script["url"]:
                url = script["url"].split("/assets/", 1)[1].split("/", 1)[1]
                record["js"].append({"url": url, "functions": script["functions"]})
    except Exception:
        pass
    with open(OUT, "a") as out:
        out.write(json.dumps(record) + "\n")


def _restart(page):
    session = getattr(page, "_coverage", None)
    if session is not None:
        try:
            session.send("CSS.enable")
            session.send("CSS.startRuleUsageTracking")
        except Exception:
            pass


def pytest_configure(config):
    """Wraps Playwright's pages: started when made, collected before they navigate or close."""
    from playwright.sync_api._generated import BrowserContext, Page

    def navigation(name):
        original = getattr(Page, name)

        def wrapped(self, *args, **kwargs):
            _collect(self)
            try:
                return original(self, *args, **kwargs)
            finally:
                _restart(self)

        setattr(Page, name, wrapped)

    for name in ("goto", "reload", "go_back", "go_forward"):
        navigation(name)
    new_page, close = BrowserContext.new_page, BrowserContext.close

    def made(self, *args, **kwargs):
        page = new_page(self, *args, **kwargs)
        _start(page)
        return page

    def closing(self, *args, **kwargs):
        for page in self.pages:
            _collect(page)
        return close(self, *args, **kwargs)

    BrowserContext.new_page, BrowserContext.close = made, closing


def style_rules(text):
    """(start, end, selector) of every style rule of a stylesheet, inside at-rules too."""
    rules, stack, start, at = [], [], 0, 0
    while at < len(text):
        if text.startswith("/*", at):
            at = text.index("*/", at) + 2
            start = at
            continue
        char = text[at]
        if char in "\"'":
            at = text.index(char, at + 1) + 1
            continue
        if char == "{":
            head = text[start:at]
            stack.append((start + len(head) - len(head.lstrip()), head.strip()))
            start = at + 1
        elif char == "}":
            begin, head = stack.pop()
            if not head.startswith("@") and not (stack and stack[-1][1].startswith("@keyframes")):
                rules.append((begin, at + 1, head))
            start = at + 1
        elif char == ";" and (not stack or stack[-1][1].startswith("@")):
            start = at + 1
        at += 1
    return rules


def report(path, assets):
    sheets, used, ran = {}, collections.defaultdict(set), {}
    for line in open(path):
        record = json.loads(line)
        sheets.update(record["sheets"])
        for key, start, _ in record["css"]:
            used[key].add(start)
        for script in record["js"]:
            try:
                source = open(os.path.join(assets, script["url"])).read()
            except OSError:
                continue
            seen = ran.setdefault(script["url"], (source, bytearray(len(source))))[1]
            this = bytearray(len(source))
            # Ranges come outermost first; a later one is nested in an earlier, so it wins.
            for function in script["functions"]:
                for r in function["ranges"]:
                    end = min(r["endOffset"], len(source))
                    this[r["startOffset"]:end] = (b"\1" if r["count"] else b"\0") * (end - r["startOffset"])
            for i, value in enumerate(this):
                if value:
                    seen[i] = 1
    for key, text in sheets.items():
        if ".search-page" not in text:
            continue
        rules = style_rules(text)
        never = [(a, b) for a, b, _ in rules if a not in used[key]]
        print(f"== stylesheet {key}: {len(rules)} rules, {len(never)} never matched")
        for a, b in never:
            print("   ", text[a:b].replace("\n", " ")[:200])
    for url, (source, seen) in sorted(ran.items()):
        stretches, at = [], 0
        while at < len(seen):
            if seen[at]:
                at += 1
                continue
            end = at
            while end < len(seen) and not seen[end]:
                end += 1
            if len(source[at:end].strip()) >= 40:
                stretches.append((at, end))
            at = end
        print(f"== {url}: {len(source)} characters, {sum(b - a for a, b in stretches)} in stretches never run")
        for a, b in stretches:
            print(f"  line {source.count(chr(10), 0, a) + 1}: " + source[a:b].replace("\n", " ⏎ ")[:240])


if __name__ == "__main__":
    report(sys.argv[1], sys.argv[2])
