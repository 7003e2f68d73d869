"""Play logs for the import tests, written from the formats' public descriptions (the BGG XML API2
``plays`` answer, a BG Stats export's players/games/locations/plays), never copied from a file.

Each generator returns the file's bytes and what it put in it (:class:`GameSpec`, :class:`PlaySpec`)
so that a test works out the expected counts itself, from what each play is, not from the importer.

Run ``python tests/plays_exchange/generate_fixtures.py OUTDIR`` to write ``bgg-plays.xml`` and
``bgstats-export.json`` for a look or for the benchmark.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from xml.sax.saxutils import quoteattr

MEMBERS = ["Zoé Lefèvre", "Łukasz Nowak", "Søren Kierkegård", "Chloé", "Ängla Berg", "渡辺 健", "Max",
           "Ana María", "Björn", "Dvořák", "Nuño", "Élodie"]
"""The club's members, as the test creates them (non-ASCII names kept as written)."""
GUESTS = ["Kasia", "Ümit Yılmaz", "Renée"]
"""Names the club does not know yet: each becomes a new player."""
BASE_TITLES = ["Château", "Ökoland", "Café International", "Sagrada", "Tzolk'in", "Los Pingüinos", "Ra",
               "Kōhaku", "Besançon", "Azul"]


def spellings(name: str, rng: random.Random) -> str:
    """The name as a log may write it: as is, upper case, lower case, or without its accents."""
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return rng.choice([name, name.upper(), name.lower(), plain])


@dataclass(frozen=True)
class GameSpec:
    index: int
    title: str
    bgg_id: int
    catalogue: str
    """``bgg_id``: the catalogue has it with its BGG id; ``title``: with its title only, spelt
    otherwise (case, accents); ``none``: not in the catalogue."""
    catalogue_title: str


@dataclass
class PlaySpec:
    play_id: str
    game: int
    quantity: int = 1
    skip: str = ""
    """Why the importer must skip it ("" when it makes records)."""
    names: list[str] = field(default_factory=list)
    unnamed: int = 0


def games(count: int, rng: random.Random) -> list[GameSpec]:
    out = []
    for index in range(count):
        title = f"{BASE_TITLES[index % len(BASE_TITLES)]} {index}"
        share = index / count
        kind = "bgg_id" if share < 0.6 else "title" if share < 0.8 else "none"
        catalogue_title = title if kind != "title" else spellings(title, rng).swapcase()
        out.append(GameSpec(index, title, 10_000 + 7 * index, kind, catalogue_title))
    return out


def _seats(rng: random.Random, spec: PlaySpec, case: str) -> list[tuple[str, str, bool]]:
    """(name as written, score as written, won) a seat."""
    people = rng.sample(MEMBERS + GUESTS, rng.randint(2, 5))
    names = [spellings(p, rng) if p in MEMBERS else p for p in people]
    scores = [rng.randint(10, 120) for _ in people]
    if case == "unnamed":
        names[-1] = rng.choice(["", "Anonymous player"])
        spec.unnamed = 1
    if case == "same_player":
        names[1] = names[0].lower() if names[0].isascii() else names[0]
    best = max(scores)
    written = [str(s) for s in scores]
    if case == "missing_score":
        written[0] = ""
    if case == "text_score":
        written[-1] = f"{scores[-1]}ish"
    spec.names = names
    return [(name, text, score == best) for name, text, score in zip(names, written, scores)]


CASES = [  # (every how many plays, at which remainder, the case, why it is skipped)
    (97, 5, "incomplete", "marked incomplete"),
    (89, 6, "missing_score", "no score"),
    (83, 7, "text_score", "not a whole number"),
    (79, 8, "same_player", "in two seats"),
    (73, 9, "quantity", ""),
    (31, 10, "unnamed", ""),
]


def _case(index: int) -> tuple[str, str]:
    for every, at, case, skip in CASES:
        if index % every == at:
            return case, skip
    return "", ""


def bgg_fixture(plays: int = 2000, game_count: int = 150, seed: int = 26) -> tuple[bytes, list[GameSpec], list[PlaySpec]]:
    """A BoardGameGeek plays file of ``plays`` <play> elements over ``game_count`` games."""
    rng = random.Random(seed)
    game_list = games(game_count, rng)
    specs: list[PlaySpec] = []
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           f'<plays username="ludoclub" userid="4242" total="{plays}" page="1" '
           'termsofuse="https://boardgamegeek.com/xmlapi/termsofuse">']
    start = date(2019, 1, 5)
    for index in range(plays):
        case, skip = _case(index)
        game = game_list[index % game_count] if index < game_count else rng.choice(game_list)
        spec = PlaySpec(str(80_000_000 + index), game.index, skip=skip)
        seats = _seats(rng, spec, case)
        spec.quantity = 3 if case == "quantity" else 1
        when = start + timedelta(days=index // 3)
        out.append(f'<play id="{spec.play_id}" date="{when.isoformat()}" quantity="{spec.quantity}" '
                   f'length="{rng.choice([0, 30, 45, 90])}" incomplete="{int(case == "incomplete")}" nowinstats="0" '
                   f'location={quoteattr(rng.choice(["", "Le Dé Rouge", "Chez Zoé", "Bibliothèque"]))}>')
        out.append(f'  <item name={quoteattr(game.title)} objecttype="thing" objectid="{game.bgg_id}">'
                   '<subtypes><subtype value="boardgame"/></subtypes></item>')
        if index % 11 == 0:
            out.append("  <comments>Partie serrée &amp; très drôle</comments>")
        out.append("  <players>")
        for position, (name, score, won) in enumerate(seats, start=1):
            out.append(f'    <player username="" userid="0" name={quoteattr(name)} startposition="{position}" '
                       f'color={quoteattr(rng.choice(["", "red", "blue", "vert"]))} score={quoteattr(score)} '
                       f'new="{int(rng.random() < 0.1)}" rating="0" win="{int(won)}"/>')
        out.append("  </players>")
        out.append("</play>")
        specs.append(spec)
    out.append("</plays>")
    return ("\n".join(out) + "\n").encode("utf-8"), game_list, specs


def bgstats_fixture(plays: int = 300, game_count: int = 40, seed: int = 62) -> tuple[bytes, list[GameSpec], list[PlaySpec]]:
    """A BG Stats export: players, games (a few where the lowest score wins), locations, plays.
    Its awkward cases: a play marked ignored, an anonymous player, a missing score, a game without
    a BGG id the catalogue lacks, one player twice."""
    rng = random.Random(seed)
    game_list = games(game_count, rng)
    people = MEMBERS + GUESTS
    players = [{"id": number + 1, "uuid": f"p-{number + 1}", "name": spellings(name, rng) if name in MEMBERS else name,
                "isAnonymous": False, "bggUsername": ""} for number, name in enumerate(people)]
    anonymous_id = len(players) + 1
    players.append({"id": anonymous_id, "uuid": "p-anon", "name": "Anonymous", "isAnonymous": True})
    out_games = [{"id": g.index + 1, "uuid": f"g-{g.index}", "name": g.title,
                  "bggId": 0 if g.index == game_count - 1 else g.bgg_id, "highestWins": g.index % 9 != 4,
                  "cooperative": False, "noPoints": False} for g in game_list]
    locations = [{"id": 1, "uuid": "l-1", "name": "Le Dé Rouge"}, {"id": 2, "uuid": "l-2", "name": "Chez Søren"}]
    specs: list[PlaySpec] = []
    out_plays = []
    for index in range(plays):
        game = game_list[index % game_count]
        spec = PlaySpec(f"00000000-0000-4000-8000-{index:012d}", game.index)
        chosen = rng.sample(range(len(people)), rng.randint(2, 4))
        refs = [number + 1 for number in chosen]
        case = ("ignored" if index % 37 == 3 else "anonymous" if index % 23 == 4 else
                "missing_score" if index % 29 == 5 else "same_player" if index % 41 == 6 else "")
        if case == "anonymous":
            refs[-1] = anonymous_id
            spec.unnamed = 1
        if case == "same_player":
            refs[1] = refs[0]
        scores = [rng.randint(0, 90) for _ in refs]
        lowest = game.index % 9 == 4
        best = min(scores) if lowest else max(scores)
        written: list[object] = [str(s) if rng.random() < 0.5 else s for s in scores]
        if case == "missing_score":
            written[0] = ""
        spec.skip = {"ignored": "ignored", "missing_score": "no score", "same_player": "in two seats"}.get(case, "")
        spec.names = [players[ref - 1]["name"] for ref in refs]
        out_plays.append({
            "uuid": spec.play_id, "gameRefId": game.index + 1,
            "playDate": f"{date(2021, 2, 1) + timedelta(days=index):%Y-%m-%d} 20:{index % 60:02d}:00",
            "durationMin": rng.choice([0, 25, 60]), "locationRefId": rng.choice([0, 1, 2]),
            "ignored": case == "ignored", "manualWinner": False, "rounds": 0, "board": "", "usesTeams": False,
            "playerScores": [{"playerRefId": ref, "score": text, "winner": score == best, "newPlayer": False,
                              "startPlayer": seat == 0, "rank": 0, "seatOrder": seat, "team": "", "role": ""}
                             for seat, (ref, text, score) in enumerate(zip(refs, written, scores))],
        })
        specs.append(spec)
    document = {"about": "A BG Stats-shaped export written by Ludolog's test generator.",
                "players": players, "locations": locations, "games": out_games, "plays": out_plays}
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8"), game_list, specs


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bgg-plays.xml").write_bytes(bgg_fixture()[0])
    (folder / "bgstats-export.json").write_bytes(bgstats_fixture()[0])
    print(f"wrote {folder / 'bgg-plays.xml'} and {folder / 'bgstats-export.json'}")
