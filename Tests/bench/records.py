"""The searchable records of a Chinook-shaped dataset, as the default config
(Data/site.yml) defines them, rebuilt in Python so that Pagefind can index the
same records and the benchmark can pick query words by document frequency.

Shared by pagefind_corpus.py, run.py and test_shard_requests.py. Only the
standard library is used.
"""
from __future__ import annotations

import csv
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHINOOK = REPO / "Data" / "chinook"


@dataclass(slots=True)
class Record:
    kind: str        # artists | albums | songs | playlists | genres
    key: str
    title: str
    subtitle: str
    extra: str       # the other searched fields (config `search:`), space-joined


def read_table(folder: Path, name: str) -> list[list[str]]:
    with open(folder / f"{name}.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[1:]


def duration(ms: int) -> str:
    s = ms // 1000
    h, m, s = s // 3600, s // 60 % 60, s % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def load_records(folder: Path, kinds=("artists", "albums", "songs", "playlists", "genres")) -> list[Record]:
    """Records in table order, with titles/subtitles/searched fields as site.yml builds them."""
    artists = read_table(folder, "artists")            # id,name
    albums = read_table(folder, "albums")              # id,title,artist_id
    tracks = read_table(folder, "tracks")              # id,name,album_id,media_type_id,genre_id,composer,milliseconds,bytes,unit_price
    genres = read_table(folder, "genres")              # id,name
    playlists = read_table(folder, "playlists")        # id,name
    ptracks = read_table(folder, "playlist_tracks")    # playlist_id,track_id
    lines = read_table(folder, "invoice_lines")        # id,invoice_id,track_id,unit_price,quantity

    artist_name = {r[0]: r[1] for r in artists}
    album_title = {r[0]: r[1] for r in albums}
    album_artist = {r[0]: r[2] for r in albums}
    track_album = {r[0]: r[2] for r in tracks}
    albums_of = Counter(r[2] for r in albums)
    songs_in_genre = Counter(r[4] for r in tracks)

    # popularity = purchases * 3 + playlist appearances (site.yml)
    bought = Counter(r[2] for r in lines)
    listed = Counter(r[1] for r in ptracks)
    artist_pop: Counter = Counter()
    for t in tracks:
        artist_pop[album_artist[t[2]]] += bought[t[0]] * 3 + listed[t[0]]

    out: list[Record] = []
    if "artists" in kinds:
        for r in artists:
            out.append(Record("artists", r[0], r[1], "Artist · " + plural(albums_of[r[0]], "album", "albums"), ""))
    if "albums" in kinds:
        for r in albums:
            name = artist_name[r[2]]
            out.append(Record("albums", r[0], r[1], "Album · " + name, name))
    if "songs" in kinds:
        for r in tracks:
            name = artist_name[album_artist[r[2]]]
            out.append(Record("songs", r[0], r[1], f"Song · {name} · {duration(int(r[6]))}",
                              " ".join(x for x in (name, album_title[r[2]], r[5]) if x)))
    if "playlists" in kinds:
        members: dict[str, set] = defaultdict(set)
        count = Counter()
        for p, t in ptracks:
            count[p] += 1
            members[p].add(album_artist[track_album[t]])
        for r in playlists:
            top = sorted(members[r[0]], key=lambda a: (-artist_pop[a], artist_name[a]))[:4]
            out.append(Record("playlists", r[0], r[1], "Playlist · " + plural(count[r[0]], "song", "songs"),
                              ", ".join(artist_name[a] for a in top)))
    if "genres" in kinds:
        for r in genres:
            out.append(Record("genres", r[0], r[1], "Genre · " + plural(songs_in_genre[r[0]], "song", "songs"), ""))
    return out


# ---------------------------------------------------------------- terms, as FORMAT.md normalises them
_FOLD = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i",
                       "'": None, "’": None, "ʼ": None})
_TERM = re.compile(r"[^\W_]+")


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")
    return text.lower().translate(_FOLD)


def terms(text: str) -> set[str]:
    out = set()
    for chunk in normalize(text).split():
        parts = _TERM.findall(chunk)
        out.update(parts)
        if len(parts) > 1:
            out.add("".join(parts))
    return out


def pick_rare_word(records: list[Record]) -> tuple[str, int]:
    """A word of 6+ letters found in 1-3 records (any searched field) and in no
    artist name (so it cannot hide in a playlist's artist list). Deterministic."""
    df: Counter = Counter()
    in_artist_name: set = set()
    for r in records:
        t = terms(r.title) | terms(r.extra)
        df.update(t)
        if r.kind == "artists":
            in_artist_name |= t
    cands = sorted(w for w, n in df.items()
                   if 1 <= n <= 3 and len(w) >= 6 and w.isalpha() and w.isascii() and w not in in_artist_name)
    if not cands:
        raise SystemExit("no rare word found")
    # prefer a word in 2 records, then 3, then 1; middle of the sorted list for stability
    for want in (2, 3, 1):
        c = [w for w in cands if df[w] == want]
        if c:
            w = c[len(c) // 2]
            return w, df[w]
    return cands[0], df[cands[0]]
