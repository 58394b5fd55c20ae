#!/usr/bin/env python3
"""Makes countries.csv: the world's countries titled in Arabic, for a site
whose interface is right to left (`language: ar`). The Arabic and English
names come from Debian's iso-codes (its JSON list and the Arabic message
catalogue, `apt-get install iso-codes`); the continent (in Arabic) and
population from Data/world/countries.csv (GeoNames, CC BY 4.0).

    python3 Tests/GenerateKitTests/Fixtures/arabic/prepare.py
"""
import csv
import gettext
import json
from pathlib import Path

here = Path(__file__).parent
codes = json.loads(Path("/usr/share/iso-codes/json/iso_3166-1.json").read_text())["3166-1"]
arabic = gettext.translation("iso_3166-1", "/usr/share/locale", languages=["ar"])
continents = {"アフリカ": "أفريقيا", "アジア": "آسيا", "ヨーロッパ": "أوروبا", "北アメリカ": "أمريكا الشمالية",
              "南アメリカ": "أمريكا الجنوبية", "オセアニア": "أوقيانوسيا", "南極": "القارة القطبية الجنوبية"}
world = {row["code"]: row for row in csv.DictReader(open(here / "../../../../Data/world/countries.csv", encoding="utf-8"))}

with open(here / "countries.csv", "w", encoding="utf-8", newline="") as file:
    writer = csv.writer(file)
    writer.writerow(["code", "الاسم", "english", "القارة", "السكان"])
    for country in sorted(codes, key=lambda c: c["alpha_2"]):
        name = arabic.gettext(country["name"])
        if name == country["name"]:
            continue  # no Arabic name in the catalogue
        place = world.get(country["alpha_2"], {})
        writer.writerow([country["alpha_2"], name, country["name"], continents.get(place.get("大陸", ""), ""),
                         place.get("人口", "")])
print(f"wrote {here / 'countries.csv'}")
