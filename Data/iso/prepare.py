#!/usr/bin/env python3
"""Writes the iso example sites: countries, languages and currencies named in
Spanish, German, Russian, Japanese and Arabic, from Debian's iso-codes
(/usr/share/iso-codes/json, and the translations its packages install under
/usr/share/locale/<lang>/LC_MESSAGES/iso_*.mo). Nothing here is chosen by
hand but the labels of the three kinds: the names are what the iso-codes
translators wrote. Every country is kept (a name the same in English, like
German's Oman, is no missing translation); a language or currency whose
name has no translation is left out.

    python3 Data/iso/prepare.py        (writes Data/iso/<lang>/*.csv)
"""
import csv
import gettext
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ISO = "/usr/share/iso-codes/json"
LANGUAGES = ["es", "de", "ru", "ja", "ar"]


def catalogue(domain, lang):
    return gettext.translation(domain, "/usr/share/locale", languages=[lang])


def rows(domain, key, lang, fields, everything=False):
    t = catalogue(domain, lang)
    out = []
    for entry in json.load(open(os.path.join(ISO, domain + ".json")))[key]:
        name = entry["name"]
        translated = t.gettext(name)
        if translated == name and not everything:
            continue
        row = {"code": entry.get(fields[0]) or entry[fields[1]], "name": translated}
        official = entry.get("official_name")
        row["official"] = t.gettext(official) if official and t.gettext(official) != official else ""
        out.append(row)
    return out


def write(path, records):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["code", "name", "official"], lineterminator="\n")
        w.writeheader()
        for r in sorted(records, key=lambda r: r["code"]):
            w.writerow(r)


for lang in LANGUAGES:
    folder = os.path.join(HERE, lang)
    os.makedirs(folder, exist_ok=True)
    write(os.path.join(folder, "countries.csv"), rows("iso_3166-1", "3166-1", lang, ["alpha_2", "alpha_3"], everything=True))
    write(os.path.join(folder, "languages.csv"), rows("iso_639-2", "639-2", lang, ["alpha_3", "alpha_3"]))
    write(os.path.join(folder, "currencies.csv"), rows("iso_4217", "4217", lang, ["alpha_3", "alpha_3"]))

# Each site's config: three kinds labelled in the site's language, the name as
# title, the official name and the ISO code searched besides it.
LABELS = {
    "es": ("El mundo", "Buscar", [("Países", "País"), ("Idiomas", "Idioma"), ("Monedas", "Moneda")]),
    "de": ("Die Welt", "Suchen", [("Länder", "Land"), ("Sprachen", "Sprache"), ("Währungen", "Währung")]),
    "ru": ("Мир", "Поиск", [("Страны", "Страна"), ("Языки", "Язык"), ("Валюты", "Валюта")]),
    "ja": ("世界", "検索", [("国", "国"), ("言語", "言語"), ("通貨", "通貨")]),
    "ar": ("العالم", "بحث", [("الدول", "دولة"), ("اللغات", "لغة"), ("العملات", "عملة")]),
}
CONFIG = """# Written by Data/iso/prepare.py: {title} ({lang}), from Debian's iso-codes.
title: {title}
description: {title}
language: {lang}
baseURL: /
search:
  title: {search}
  placeholder: {search}
  trending: []
tables:
  countries: {{ file: countries.csv, key: code }}
  languages: {{ file: languages.csv, key: code }}
  currencies: {{ file: currencies.csv, key: code }}
collections:
"""
KIND = """  - id: {id}
    label: {label}
    singular: {singular}
    table: {id}
    title: name
    subtitle: "{{{{official}}}}"
    search: [official, code]
    fields:
      official: official
    page: {{ template: record, path: "{id}/{{{{code}}}}/" }}
"""
for lang, (title, search, kinds) in LABELS.items():
    text = CONFIG.format(title=title, lang=lang, search=search)
    for id, (label, singular) in zip(["countries", "languages", "currencies"], kinds):
        text += KIND.format(id=id, label=label, singular=singular)
    with open(os.path.join(HERE, lang, "site.yml"), "w", encoding="utf-8") as f:
        f.write(text)
