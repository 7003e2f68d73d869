"""Build the reconstructed first-edition tile set of Carcassonne: Hunters and Gatherers.

No tile-by-tile list of the 2002 first edition is public (see
``../shared/reference/hunters_gatherers/FACTS.md``).  This script rebuilds one from the
second-edition geometry transcribed by the EPFL CS-108 project ChaCuN, adapted to the
first edition by the rules listed in ``ADAPTATION`` below, and writes
``tileset_first_edition_v1.json`` next to itself.  The output is deterministic: run it
twice and you get the same bytes.

Usage (from the repository root)::

    python games/engines/hunters_gatherers/data/build_tileset.py [REFERENCE_JSON] [--output PATH]

No Django, no third-party imports: only the standard library.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[3]
DEFAULT_REFERENCE = (
    REPO_ROOT / ".." / "shared" / "reference" / "hunters_gatherers" / "second_edition_tiles_chacun.json"
)
DEFAULT_OUTPUT = HERE / "tileset_first_edition_v1.json"

SIDES = ("N", "E", "S", "W")
MAX_LAKE_FISH = 4  # ludorium.at review of the 2002 box: "in some lakes up to 4 fish"
START_SOURCE_ID = 56

Json = dict[str, Any]


# --------------------------------------------------------------------------------------
# Bonus tiles: which 12 of the 16 ChaCuN menhir tiles, and what each one carries.
#
# The French rulebook (seed 000) says of the 12 bonus tiles: "Quatre d'entre elles ont des
# effets particuliers" -- four of them have special effects -- and then describes fire,
# sacred-mushroom clearings, aurochs and the shrine.  We read that as ONE tile per special
# (the poeppelkiste.de report also speaks of "einen Auerochsen", a single aurochs).  The
# other eight are the "particularly valuable" tiles rich in fish and game (FACTS.md).
#
# Dropped menhir tiles (16 - 12 = 4), chosen so that no geometry is lost needlessly:
#   87: same geometry as the start tile 56 (meadow N, forest E+S, river W into a lake) and
#       the second ChaCuN mushroom tile -- the first edition has one mushroom tile only.
#   88: same geometry as 84; its only distinction is the shaman power (not in this game).
#   93: same geometry as 91; its only distinction is the logboat power (not in this game).
#   92: forest + meadow carrying only the pit-trap power; 94 (hunting trap) is the same kind
#       of "power only" tile and becomes the shrine, so one of the two is enough.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BonusSpec:
    """What one bonus tile carries on top of its ChaCuN geometry.

    ``meadows`` maps a meadow zone id to its full animal content (replacing the source's);
    meadows not listed keep no animals.  ``lakes`` maps a lake zone id to its fish count.
    ``mushrooms`` maps a forest zone id to its number of sacred-mushroom clearings.
    """

    source: int
    role: str
    why: str
    meadows: dict[int, dict[str, int]] = field(default_factory=dict)
    lakes: dict[int, int] = field(default_factory=dict)
    mushrooms: dict[int, int] = field(default_factory=dict)
    fire: int | None = None  # meadow zone id with the fire
    shrine: int | None = None  # meadow zone id with the shrine


BONUS_TILES: tuple[BonusSpec, ...] = (
    # --- the four special tiles -------------------------------------------------------
    BonusSpec(85, "fire", "ChaCuN's wild-fire tile: one meadow over all four sides; the fire is on it",
              fire=0),
    BonusSpec(94, "shrine", "ChaCuN's hunting-trap tile: its three-sided meadow carries the shrine",
              shrine=1),
    BonusSpec(79, "mushrooms", "ChaCuN's mushroom forest (E+W, spring S): one sacred-mushroom clearing",
              mushrooms={1: 1}),
    BonusSpec(90, "aurochs", "ChaCuN's mammoth+aurochs meadow on three sides: the set's only aurochs",
              meadows={0: {"mammoths": 1, "aurochs": 1}}),
    # --- the eight tiles rich in fish and game ----------------------------------------
    # The source menhir tiles are poor (mostly 1 fish, few animals).  "Rich" here means:
    # every lake filled towards the 4-fish maximum (more rivers in, more fish) and at least
    # one more deer; source aurochs become deer (the single aurochs is on the aurochs
    # tile) and source tigers go (a tiger only lowers a "particularly valuable" tile).
    BonusSpec(80, "fish and game", "two rivers into one lake; source aurochs becomes a deer",
              meadows={2: {"mammoths": 1, "deer": 1}}, lakes={8: 3}),
    BonusSpec(81, "fish and game", "forest + meadow; tiger dropped, a deer added; menhir forest -> plain",
              meadows={0: {"mammoths": 1, "deer": 1}}),
    BonusSpec(82, "fish and game", "river into a lake; a second deer",
              meadows={2: {"deer": 2}}, lakes={8: 3}),
    BonusSpec(83, "fish and game", "four rivers into two lakes; each lake 3 fish",
              meadows={0: {"deer": 2}}, lakes={8: 3, 9: 3}),
    BonusSpec(84, "fish and game", "river across the tile (no lake); a deer added to the big meadow",
              meadows={0: {"deer": 1}, 2: {"mammoths": 1}}),
    BonusSpec(86, "fish and game", "three rivers into one lake (4 fish); aurochs and tiger become deer",
              meadows={0: {"deer": 1}, 4: {"deer": 1}}, lakes={8: 4}),
    BonusSpec(89, "fish and game", "two rivers into one lake (4 fish); a deer on the large meadow",
              meadows={0: {"deer": 1}}, lakes={8: 4}),
    BonusSpec(91, "fish and game", "three rivers into one lake (4 fish); two deer",
              meadows={4: {"deer": 2}}, lakes={8: 4}),
)

ADAPTATION: tuple[str, ...] = (
    "Geometry (edges, sub-edges, zone ids, forests, meadows, rivers, lakes) is ChaCuN's, unchanged; "
    "zone ids are kept as in the source, so tiles 34, 42 and 66 keep two different meadows meeting at a corner.",
    "79 landscape tiles = the start tile S (ChaCuN 56) + 78 draw-pile tiles L01-L78 (ChaCuN normal tiles 0-78 "
    "without 56, in source order).",
    "Start tile: ChaCuN 56's layout (meadow N, forest E+S, river W) is the first edition's volcano tile; "
    "its aurochs becomes the mammoth of the first-edition start tile; its lake with 1 fish is kept as the "
    "pool the river rises from ('a spring with a fish'), since fish live only in lakes.",
    "Menhir forests (with_menhir) on landscape tiles, the start tile included, become forests with one gold nugget.",
    "Aurochs are removed from the landscape tiles (first edition: aurochs only on bonus tiles).",
    "Fish drawn in a river move to the lake that river ends in on the same tile (at most 4 per lake); "
    "a river without a lake on its tile loses them (every such case is named in the tile's note).",
    "Deer, mammoths, sabre-tooth tigers and lake fish on landscape tiles are kept as in the source.",
    "A river touching one side ends in its lake, or at a spring when the source gives no lake; "
    "a river touching two sides ends in neither.",
    "12 bonus tiles B01-B12 from 12 of the 16 ChaCuN menhir tiles (79-86, 89-91, 94); dropped: 87 (same "
    "geometry as the start tile), 88 (same as 84, shaman only), 93 (same as 91, logboat only), "
    "92 (pit trap only; 94 becomes the shrine instead).",
    "Bonus specials follow the French rulebook's 'four of them have special effects': exactly one fire tile, "
    "one shrine tile, one sacred-mushroom tile (1 clearing) and one aurochs tile (1 aurochs).",
    "The other 8 bonus tiles are rich in fish and game: lakes raised to 3-4 fish, more deer, source aurochs "
    "become deer, tigers removed (explicit table BONUS_TILES in build_tileset.py).",
    "ChaCuN special powers (shaman, logboat, raft, pit trap, hunting trap) do not exist in this rule set and are "
    "dropped; wild fire becomes the first-edition fire.",
    "Bonus forests carry no gold nuggets (a bonus tile never triggers another bonus tile).",
)


# --------------------------------------------------------------------------------------
# Conversion
# --------------------------------------------------------------------------------------

def meadow(zone_id: int, *, deer: int = 0, mammoths: int = 0, tigers: int = 0, aurochs: int = 0,
           fire: bool = False, shrine: bool = False) -> Json:
    return {"id": zone_id, "type": "meadow", "deer": deer, "mammoths": mammoths, "tigers": tigers,
            "aurochs": aurochs, "fire": fire, "shrine": shrine}


def convert_edges(source_tile: Json) -> Json:
    return {
        side: {"type": source_tile["edges"][side]["type"],
               "sub_edges": list(source_tile["edges"][side]["sub_edges_clockwise"])}
        for side in SIDES
    }


def sides_touched(source_tile: Json, zone_id: int) -> set[str]:
    """Sides whose sub-edges mention ``zone_id`` (computed, not read from touches_edges)."""
    return {s for s in SIDES if zone_id in source_tile["edges"][s]["sub_edges_clockwise"]}


def convert_river(source_tile: Json, zone: Json) -> Json:
    touched = len(sides_touched(source_tile, zone["zone"]))
    lake = zone["lake"]
    # One side touched: the river ends on this tile, in its lake or else at a spring.
    spring = touched == 1 and lake is None
    return {"id": zone["zone"], "type": "river", "lake": lake, "spring": spring}


def convert_landscape(source_tile: Json, tile_id: str, kind: str) -> Json:
    """A start or draw-pile tile: same geometry, first-edition contents."""
    notes: list[str] = []
    lake_fish: dict[int, int] = {z["zone"]: z["fish"] for z in source_tile["zones"] if z["type"] == "lake"}

    # River fish move to the lake the river ends in on this tile, or go.
    for zone in source_tile["zones"]:
        if zone["type"] != "river" or not zone["fish"]:
            continue
        if zone["lake"] is not None:
            before = lake_fish[zone["lake"]]
            lake_fish[zone["lake"]] = min(MAX_LAKE_FISH, before + zone["fish"])
            notes.append(f"{zone['fish']} river fish moved from river {zone['zone']} to lake {zone['lake']}")
            if before + zone["fish"] > MAX_LAKE_FISH:
                notes.append(f"lake {zone['lake']} capped at {MAX_LAKE_FISH} fish")
        else:
            notes.append(f"{zone['fish']} fish drawn in river {zone['zone']} removed "
                         f"(the river ends in no lake on this tile)")

    features: list[Json] = []
    for zone in source_tile["zones"]:
        zid, ztype = zone["zone"], zone["type"]
        if ztype == "meadow":
            animals = Counter(zone["animals"])
            if animals["aurochs"]:
                if kind == "start":
                    notes.append(f"aurochs in meadow {zid} replaced by the start tile's mammoth")
                else:
                    notes.append(f"{animals['aurochs']} aurochs removed from meadow {zid}")
            features.append(meadow(
                zid, deer=animals["deer"], tigers=animals["tiger"],
                mammoths=animals["mammoth"] + (animals["aurochs"] if kind == "start" else 0),
            ))
        elif ztype == "forest":
            nuggets = 1 if zone["forest_kind"] == "with_menhir" else 0
            if nuggets:
                notes.append(f"menhir forest {zid} -> forest with 1 gold nugget")
            if zone["forest_kind"] == "with_mushrooms":  # never on ChaCuN normal/start tiles
                raise ValueError(f"unexpected mushrooms on landscape source tile {source_tile['id']}")
            features.append({"id": zid, "type": "forest", "gold_nuggets": nuggets, "mushroom_clearings": 0})
        elif ztype == "river":
            features.append(convert_river(source_tile, zone))
        elif ztype == "lake":
            features.append({"id": zid, "type": "lake", "fish": lake_fish[zid]})
        else:
            raise ValueError(f"unknown zone type {ztype!r} on source tile {source_tile['id']}")

    tile: Json = {"id": tile_id, "kind": kind, "source": f"chacun:{source_tile['id']}",
                  "edges": convert_edges(source_tile), "features": features}
    if kind == "start":
        tile["volcano"] = True
        notes.insert(0, "volcano start tile; lake 8 (1 fish) kept as the pool the river rises from")
    if notes:
        tile["note"] = "; ".join(notes) + "."
    return tile


def convert_bonus(source_tile: Json, tile_id: str, spec: BonusSpec) -> Json:
    """A bonus tile: ChaCuN menhir geometry, contents entirely from ``spec``."""
    zone_types = {z["zone"]: z["type"] for z in source_tile["zones"]}
    for mapping, wanted in ((spec.meadows, "meadow"), (spec.lakes, "lake"), (spec.mushrooms, "forest")):
        for zid in mapping:
            assert zone_types.get(zid) == wanted, (spec.source, zid, wanted)
    for marked in (spec.fire, spec.shrine):
        assert marked is None or zone_types.get(marked) == "meadow", (spec.source, marked)

    dropped: list[str] = []
    features: list[Json] = []
    for zone in source_tile["zones"]:
        zid, ztype = zone["zone"], zone["type"]
        if zone.get("special_power") and zone["special_power"] != "wild_fire":
            dropped.append(f"{zone['special_power']} power dropped")
        if ztype == "meadow":
            features.append(meadow(zid, fire=spec.fire == zid, shrine=spec.shrine == zid,
                                   **spec.meadows.get(zid, {})))
        elif ztype == "forest":
            features.append({"id": zid, "type": "forest", "gold_nuggets": 0,
                             "mushroom_clearings": spec.mushrooms.get(zid, 0)})
        elif ztype == "river":
            features.append(convert_river(source_tile, zone))
        elif ztype == "lake":
            # Every bonus lake's fish is set in the table: a missing entry is a table error.
            features.append({"id": zid, "type": "lake", "fish": spec.lakes[zid]})
        else:
            raise ValueError(f"unknown zone type {ztype!r} on source tile {source_tile['id']}")
    note = f"bonus tile ({spec.role}): {spec.why}"
    if dropped:
        note += "; " + "; ".join(dropped)
    return {"id": tile_id, "kind": "bonus", "source": f"chacun:{source_tile['id']}",
            "edges": convert_edges(source_tile), "features": features, "note": note + "."}


def aggregate(tiles: list[Json]) -> dict[str, Counter[str]]:
    totals: dict[str, Counter[str]] = {"landscape": Counter(), "bonus": Counter()}
    for tile in tiles:
        bucket = totals["bonus" if tile["kind"] == "bonus" else "landscape"]
        for f in tile["features"]:
            for key in ("deer", "mammoths", "tigers", "aurochs", "fish", "gold_nuggets", "mushroom_clearings"):
                bucket[key] += f.get(key, 0)
            for key in ("fire", "shrine"):
                bucket[key] += int(f.get(key, False))
            bucket["lakes"] += f["type"] == "lake"
            bucket["springs"] += bool(f.get("spring"))
    return totals


def totals_sentence(tiles: list[Json]) -> str:
    order = ("deer", "mammoths", "tigers", "aurochs", "fish", "lakes", "springs", "gold_nuggets",
             "mushroom_clearings", "fire", "shrine")
    by_kind = aggregate(tiles)
    labelled = (("landscape tiles (start included)", by_kind["landscape"]),
                ("bonus tiles", by_kind["bonus"]),
                ("whole set", by_kind["landscape"] + by_kind["bonus"]))
    parts = [f"{label}: " + ", ".join(f"{k.replace('_', ' ')} {counts[k]}" for k in order)
             for label, counts in labelled]
    return "Aggregate counts. " + "; ".join(parts) + "."


def build(reference: Json) -> Json:
    by_id: dict[int, Json] = {t["id"]: t for t in reference["tiles"]}
    start = by_id[START_SOURCE_ID]
    assert start["kind"] == "start"
    normal_ids = sorted(i for i, t in by_id.items() if t["kind"] == "normal")
    assert len(normal_ids) == 78, len(normal_ids)

    tiles: list[Json] = [convert_landscape(start, "S", "start")]
    tiles += [convert_landscape(by_id[i], f"L{n:02d}", "landscape") for n, i in enumerate(normal_ids, 1)]
    for n, spec in enumerate(BONUS_TILES, 1):
        assert by_id[spec.source]["kind"] == "menhir", spec.source
        tiles.append(convert_bonus(by_id[spec.source], f"B{n:02d}", spec))

    source = reference["_meta"]["source"]
    provenance = (
        "RECONSTRUCTED tile set, not a transcription of the 2002 first edition: no tile-by-tile list of "
        "that edition could be found. Geometry comes from the second-edition tile list of the EPFL CS-108 "
        f"project ChaCuN (repository {source['repository']}, file {source['path']}, commit "
        "7268ad73ddbb2ec24b47e3bfa6ae37b71a5e9c30), read from the transcription "
        "../shared/reference/hunters_gatherers/second_edition_tiles_chacun.json. It was adapted to the "
        "first-edition rules (French and Czech rulebooks; facts in "
        "../shared/reference/hunters_gatherers/FACTS.md) by the rules listed in 'adaptation', applied by "
        "games/engines/hunters_gatherers/data/build_tileset.py, which regenerates this file byte for byte. "
        "Counts of tiles (79 landscape incl. the volcano start tile, 12 bonus) are the first edition's; "
        "the contents of individual tiles are a best reconstruction and may be corrected in a later version. "
        + totals_sentence(tiles)
    )
    return {
        "name": "hunters-gatherers-first-edition",
        "version": "1-reconstructed",
        "reconstructed": True,
        "provenance": provenance,
        "adaptation": list(ADAPTATION),
        "totals": {"landscape": 79, "start": 1, "bonus": 12},
        "tiles": tiles,
    }


def render(data: Json) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", nargs="?", type=Path, default=DEFAULT_REFERENCE,
                        help="second_edition_tiles_chacun.json (default: %(default)s)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="default: %(default)s")
    args = parser.parse_args(argv)
    reference = json.loads(args.reference.read_text(encoding="utf-8"))
    args.output.write_text(render(build(reference)), encoding="utf-8", newline="\n")
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
