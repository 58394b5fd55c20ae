#!/usr/bin/env python3
"""Synthetic Chinook-shaped catalogue for the benchmark.

    python3 Tests/bench/synth.py --records 100000 --out bench-out/data/100k

Writes the ten Chinook CSV tables (same file names, same headers as
Data/chinook/) plus a site.yml (Data/site.yml with the table paths adjusted,
`templates:` pointing at the repo's Data/templates/, and `pages:` limited to
artists, playlists and genres so a large build does not write a page per
album and song — the index still covers every record).

"N records" = searchable documents = artists + albums + songs + playlists +
genres, in Chinook's ratios (275 : 347 : 3503 : 18, plus the 25 real genres).

Everything is drawn with a fixed seed from the real Chinook data:
- names: word counts sampled from the real per-kind distribution (artist
  names, album titles, track names); words sampled from the real per-kind
  word frequencies (so "The", "Love", "Of" stay common: Zipf-like), mixed
  with a Zipf-distributed tail of new words spliced from real ones, so the
  vocabulary keeps growing with N (Heaps' law) and rare words exist;
- albums per artist and tracks per album from the real histograms (including
  artists without albums);
- duration, bytes, media type and price drawn jointly from real tracks;
  genres are the 25 real ones, one per album, weighted as in the real data;
- composers recombine real first and last names; a real share has none;
- playlists and purchases pick tracks with a Zipf-like popularity, so
  popularity varies; playlist sizes are heavy-tailed; customer 12 exists
  (the Library scope).
"""
from __future__ import annotations

import argparse
import csv
import itertools
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import CHINOOK, REPO, read_table  # noqa: E402

REAL = {"artists": 275, "albums": 347, "songs": 3503, "playlists": 18, "genres": 25}
REAL_TOTAL = sum(REAL.values())  # 4168
SEED = 20261122
TAIL_SHARE = 0.15   # share of name words drawn from the synthetic tail
TAIL_ZIPF = 1.05    # exponent of the tail's rank distribution

HEADERS = {
    "artists": ["id", "name"],
    "albums": ["id", "title", "artist_id"],
    "tracks": ["id", "name", "album_id", "media_type_id", "genre_id", "composer", "milliseconds", "bytes", "unit_price"],
    "genres": ["id", "name"],
    "media_types": ["id", "name"],
    "playlists": ["id", "name"],
    "playlist_tracks": ["playlist_id", "track_id"],
    "customers": ["id"],
    "invoices": ["id", "customer_id", "invoice_date", "total"],
    "invoice_lines": ["id", "invoice_id", "track_id", "unit_price", "quantity"],
}


def parse_size(text: str) -> int:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmM]?)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text}")
    n = float(m.group(1)) * {"": 1, "k": 1e3, "m": 1e6}[m.group(2).lower()]
    return int(n)


def counts_for(n: int) -> dict[str, int]:
    c = {k: max(1, round(n * v / REAL_TOTAL)) for k, v in REAL.items() if k != "genres"}
    c["genres"] = 25
    c["songs"] += n - sum(c.values())  # exact total
    return c


class Words:
    """Samples names: real word-count and word-frequency distributions per kind, plus a shared tail."""

    def __init__(self, rng: random.Random, real_names: dict[str, list[str]], tail_size: int):
        self.rng = rng
        self.kinds = {}
        for kind, names in real_names.items():
            lengths = Counter(len(n.split()) for n in names if n.split())
            words = Counter(w for n in names for w in n.split())
            lv, lw = zip(*sorted(lengths.items()))
            wv, ww = zip(*words.most_common())
            self.kinds[kind] = (list(lv), list(itertools.accumulate(lw)), list(wv), list(itertools.accumulate(ww)))
        # the tail: new words spliced from real alphabetic words (deterministic)
        real = sorted({w for names in real_names.values() for n in names for w in n.split()})
        alpha = [w for w in real if w.isalpha() and len(w) >= 4]
        seen = {w.lower() for w in real}
        tail = []
        while len(tail) < tail_size:
            a, b = rng.choice(alpha), rng.choice(alpha)
            w = (a[: rng.randint(2, len(a) - 1)] + b[rng.randint(1, len(b) - 2):]).lower()
            if len(w) >= 4 and w not in seen:
                seen.add(w)
                tail.append(w.capitalize())
        self.tail = tail
        self.tail_cum = list(itertools.accumulate(1.0 / (r ** TAIL_ZIPF) for r in range(1, len(tail) + 1)))

    def names(self, kind: str, k: int) -> list[str]:
        rng = self.rng
        lv, lc, wv, wc = self.kinds[kind]
        lengths = rng.choices(lv, cum_weights=lc, k=k)
        total = sum(lengths)
        real = rng.choices(wv, cum_weights=wc, k=total)
        tail = rng.choices(self.tail, cum_weights=self.tail_cum, k=total) if self.tail else real
        rand = rng.random
        out, i = [], 0
        for n in lengths:
            ws = [tail[j] if rand() < TAIL_SHARE else real[j] for j in range(i, i + n)]
            i += n
            out.append(" ".join(ws))
        return out


def spread(rng: random.Random, histogram: list[int], parents: int, children: int, require_child: bool) -> list[int]:
    """For each child (0..children-1) its parent index, with per-parent counts from a real histogram."""
    counts = rng.choices(histogram, k=parents)
    if require_child:
        counts = [max(1, c) for c in counts]
    total = sum(counts)
    # scale to the exact number of children, keeping the shape
    scaled = [c * children / total for c in counts] if total else [children / parents] * parents
    counts = [int(x) for x in scaled]
    rest = children - sum(counts)
    with_children = [i for i, c in enumerate(counts) if c > 0] or list(range(parents))
    for i in rng.choices(with_children, k=rest):
        counts[i] += 1
    out = []
    for p, c in enumerate(counts):
        out.extend([p] * c)
    return out


def generate(n: int, out: Path, seed: int = SEED, quiet: bool = False) -> dict:
    t0 = time.perf_counter()
    rng = random.Random(seed)
    c = counts_for(n)
    scale = n / REAL_TOTAL

    r_artists = read_table(CHINOOK, "artists")
    r_albums = read_table(CHINOOK, "albums")
    r_tracks = read_table(CHINOOK, "tracks")
    r_genres = read_table(CHINOOK, "genres")
    r_media = read_table(CHINOOK, "media_types")
    r_playlists = read_table(CHINOOK, "playlists")
    r_ptracks = read_table(CHINOOK, "playlist_tracks")
    r_lines = read_table(CHINOOK, "invoice_lines")

    words = Words(rng, {
        "artists": [r[1] for r in r_artists],
        "albums": [r[1] for r in r_albums],
        "songs": [r[1] for r in r_tracks],
        "playlists": [r[1] for r in r_playlists] + [r[1] for r in r_genres],
    }, tail_size=max(0, int(n * 0.5)))

    # people for composers: real names split into first / last parts
    people = [p.strip() for r in r_tracks for p in re.split(r"[,/&]", r[5]) if p.strip()]
    firsts = [p.split()[0] for p in people]
    lasts = [" ".join(p.split()[1:]) for p in people if len(p.split()) > 1]
    per_track = [len([p for p in re.split(r"[,/&]", r[5]) if p.strip()]) for r in r_tracks]  # 0 = no composer

    albums_per_artist = list(Counter(r[2] for r in r_albums).get(a[0], 0) for a in r_artists)
    tracks_per_album = list(Counter(r[2] for r in r_tracks).values())
    genre_weights = Counter(r[4] for r in r_tracks)
    genre_ids = [g[0] for g in r_genres]
    genre_cum = list(itertools.accumulate(genre_weights.get(g, 0) + 1 for g in genre_ids))

    out.mkdir(parents=True, exist_ok=True)

    def write(name, rows):
        with open(out / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(HEADERS[name])
            w.writerows(rows)

    # artists, albums
    write("artists", zip(range(1, c["artists"] + 1), words.names("artists", c["artists"])))
    album_artist = spread(rng, albums_per_artist, c["artists"], c["albums"], require_child=False)
    album_genre = rng.choices(genre_ids, cum_weights=genre_cum, k=c["albums"])
    write("albums", ((i + 1, t, album_artist[i] + 1) for i, t in enumerate(words.names("albums", c["albums"]))))
    write("genres", r_genres)
    write("media_types", r_media)

    # tracks
    nt = c["songs"]
    track_album = spread(rng, tracks_per_album, c["albums"], nt, require_child=True)
    rng.shuffle(track_album)
    track_album.sort()  # keep tracks of an album together, as in Chinook
    proto = rng.choices(r_tracks, k=nt)  # joint: media type, ms, bytes, price
    ncomp = rng.choices(per_track, k=nt)
    other_genre = rng.choices(genre_ids, cum_weights=genre_cum, k=nt)
    names = words.names("songs", nt)
    rand = rng.random
    choice = rng.choice
    prices = []
    rows = []
    for i in range(nt):
        p = proto[i]
        a = track_album[i]
        g = album_genre[a] if rand() < 0.9 else other_genre[i]
        k = ncomp[i]
        comp = ", ".join(f"{choice(firsts)} {choice(lasts)}" if rand() < 0.8 else choice(people) for _ in range(k))
        rows.append((i + 1, names[i], a + 1, p[3], g, comp, p[6], p[7], p[8]))
        prices.append(p[8])
    write("tracks", rows)
    del rows

    # popularity: a random rank per track, Zipf-like weights
    order = list(range(nt))
    rng.shuffle(order)
    pop_cum = list(itertools.accumulate(1.0 / (r + 10) ** 0.9 for r in range(nt)))

    def popular_tracks(k):
        return [order[j] for j in rng.choices(range(nt), cum_weights=pop_cum, k=k)]

    # playlists: heavy-tailed sizes, total entries in Chinook's ratio to tracks
    np_ = c["playlists"]
    write("playlists", zip(range(1, np_ + 1), words.names("playlists", np_)))
    entries = round(len(r_ptracks) / len(r_tracks) * nt)
    w = [1.0 / (r + 1) ** 0.8 for r in range(np_)]
    rng.shuffle(w)
    sizes = [max(1, min(nt, round(x / sum(w) * entries))) for x in w]
    with open(out / "playlist_tracks.csv", "w", newline="", encoding="utf-8") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(HEADERS["playlist_tracks"])
        for p, size in enumerate(sizes):
            picked = set(popular_tracks(size))
            if len(picked) < size:  # top up with uniform picks
                picked.update(rng.sample(range(nt), min(nt, size) - len(picked)) if size > nt // 2 else
                              (rng.randrange(nt) for _ in range(size - len(picked))))
            wr.writerows((p + 1, t + 1) for t in sorted(picked))

    # customers, invoices, invoice lines
    ncu = max(59, round(59 * scale))
    write("customers", ((i,) for i in range(1, ncu + 1)))
    nl = round(len(r_lines) * scale)
    lines_per_invoice = list(Counter(r[1] for r in r_lines).values())
    inv_sizes = []
    while sum(inv_sizes) < nl:
        inv_sizes.extend(rng.choices(lines_per_invoice, k=max(16, (nl - sum(inv_sizes)) // 5)))
    total, cut = 0, 0
    for cut, s in enumerate(inv_sizes, 1):
        total += s
        if total >= nl:
            break
    inv_sizes = inv_sizes[:cut]
    inv_sizes[-1] -= total - nl
    ni = len(inv_sizes)
    bought = popular_tracks(nl)
    customers = rng.choices(range(1, ncu + 1), k=ni)
    customers[0] = 12  # the Library scope's customer buys something
    start = 13514  # 2007-01-01 as days since 1970
    days = sorted(rng.randrange(0, 6 * 365) for _ in range(ni))
    lines, invoices, j = [], [], 0
    for i, s in enumerate(inv_sizes):
        amount = 0
        for _ in range(s):
            t = bought[j]
            lines.append((j + 1, i + 1, t + 1, prices[t], 1))
            amount += round(float(prices[t]) * 100)
            j += 1
        d = time.gmtime((start + days[i]) * 86400)
        invoices.append((i + 1, customers[i], f"{d.tm_year:04d}-{d.tm_mon:02d}-{d.tm_mday:02d}", f"{amount // 100}.{amount % 100:02d}"))
    write("invoices", invoices)
    write("invoice_lines", lines)

    write_config(out, n, c)
    elapsed = time.perf_counter() - t0
    if not quiet:
        print(f"synth: {n:,} records ({c}) into {out} in {elapsed:.1f} s")
    return {"records": n, "counts": c, "seconds": elapsed}


def write_config(out: Path, n: int, counts: dict) -> None:
    """Data/site.yml with paths adjusted, absolute templates, and `pages:` limited."""
    text = (REPO / "Data" / "site.yml").read_text(encoding="utf-8")
    text = text.replace("file: chinook/", "file: ")
    text = re.sub(r"(?m)^templates:.*$", f"templates: {REPO / 'Data' / 'templates'}", text)
    text = re.sub(r"(?m)^description:.*$",
                  f"description: Synthetic benchmark catalogue of {n:,} records "
                  f"({counts['artists']:,} artists, {counts['albums']:,} albums, {counts['songs']:,} songs).", text)
    text = re.sub(r"(?m)^# The default site.*$", "# Generated by Tests/bench/synth.py: do not edit.", text)
    text += ("\n# Scale builds: detail pages only for these collections; every record is still indexed.\n"
             "pages: [playlists]\n")
    (out / "site.yml").write_text(text, encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", "-n", type=parse_size, required=True, help="e.g. 100000, 100k, 1m")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    generate(args.records, args.out, args.seed)


if __name__ == "__main__":
    main()
