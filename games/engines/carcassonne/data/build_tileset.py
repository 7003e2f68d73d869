"""Build the Carcassonne tile sets from the facts gathered in ``shared/reference/carcassonne``.

The base game's 24 tile types (72 tiles, start tile included) are JCloisterZone's ``basic:1``
definitions, lettered as Wikicarpedia does (see the reference file's ``_meta``): transcribed
facts, not a reconstruction, hence version ``1``. The expansions Inns & Cathedrals (17 types,
18 tiles) and Traders & Builders (24 types, 24 tiles) come from the same JCloisterZone commit;
they have no letters of their own, so each type is numbered in the reference's order (which is
JCloisterZone's definition order) after its box, ``IC01``..``IC17`` and ``TB01``..``TB24``, and
keeps its JCloisterZone id (``jcz_id``). This script keeps what the engine and the viewer need
and writes one JSON file per set beside itself; the output is deterministic.

Usage (from the repository root)::

    python games/engines/carcassonne/data/build_tileset.py [REFERENCE_JSON] [--set SET] [--output PATH]

``SET`` is ``base`` (the default, ``base_tiles_v1.json``), ``inns_cathedrals``
(``inns_cathedrals_tiles_v1.json``) or ``traders_builders`` (``traders_builders_tiles_v1.json``).
Standard library only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[3]
DEFAULT_REFERENCE = REPO_ROOT / ".." / "shared" / "reference" / "carcassonne" / "base_and_expansions_tiles.json"
DEFAULT_OUTPUT = HERE / "base_tiles_v1.json"
SIDES = ("N", "E", "S", "W")
JCZ_REPOSITORY = "farin/JCloisterZone"
JCZ_COMMIT = "3c9385a864c53b115d4e483a5ace2fb1b5fa586f"
"""The commit the reference's ``_meta`` names for the tile definitions (2020-09-06)."""

EXPANSIONS: dict[str, dict[str, str]] = {
    "inns_cathedrals": {
        "reference_key": "inns_and_cathedrals", "prefix": "IC", "name": "carcassonne-inns-cathedrals",
        "title": "Inns & Cathedrals", "definitions": "src/main/resources/tile-definitions/inns_and_cathedrals.xml",
        "output": "inns_cathedrals_tiles_v1.json",
    },
    "traders_builders": {
        "reference_key": "traders_and_builders", "prefix": "TB", "name": "carcassonne-traders-builders",
        "title": "Traders & Builders", "definitions": "src/main/resources/tile-definitions/traders_and_builders.xml",
        "output": "traders_builders_tiles_v1.json",
    },
}


def _edges_and_features(entry: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The sides and features of a reference entry, its features numbered from 0 in the
    reference's order (the cloister last), as the engine names them in actions."""
    names = [feature["id"] for feature in entry["features"]]
    if entry.get("cloister"):
        names.append("cloister")
    number = {name: index for index, name in enumerate(names)}
    features = []
    for feature in entry["features"]:
        item: dict[str, Any] = {"id": number[feature["id"]], "type": feature["type"]}
        if feature["type"] == "city":
            item["pennant"] = 1 if feature.get("pennant") else 0
            # Expansion marks are written only where printed, so the base file stays as it was.
            if feature.get("cathedral"):
                item["cathedral"] = True
            if feature.get("trade_good"):
                item["good"] = feature["trade_good"]
        if feature["type"] == "road" and feature.get("inn"):
            item["inn"] = True
        if feature["type"] == "field":
            item["cities"] = [number[city] for city in feature.get("adjacent_cities", [])]
        features.append(item)
    if entry.get("cloister"):
        features.append({"id": number["cloister"], "type": "cloister"})
    edges = {
        side: {"terrain": entry["edges"][side]["type"],
               "sub_edges": [number[part] for part in entry["edges"][side]["segments_clockwise"]]}
        for side in SIDES
    }
    return edges, features


def build_type(entry: dict[str, Any]) -> dict[str, Any]:
    edges, features = _edges_and_features(entry)
    return {"letter": entry["letter"], "count": entry["count"], "description": entry.get("description", ""),
            "edges": edges, "features": features}


def describe(entry: dict[str, Any]) -> str:
    """A short description of an expansion tile (the reference gives none): its cities, roads
    and cloister, with the marks the rules use."""
    parts = []
    for feature in entry["features"]:
        sides = "".join(feature.get("edges", []))
        if feature["type"] == "city":
            marks = [mark for mark, present in (("a pennant", feature.get("pennant")),
                                                ("a cathedral", feature.get("cathedral")),
                                                (feature.get("trade_good"), feature.get("trade_good"))) if present]
            parts.append(f"city {sides}" + (" with " + " and ".join(str(m) for m in marks) if marks else ""))
        elif feature["type"] == "road":
            parts.append(f"road {sides}" + (" with an inn" if feature.get("inn") else ""))
    if entry.get("cloister"):
        parts.append("cloister")
    enclosed = [f for f in entry["features"] if f["type"] == "field" and not f.get("half_edges")]
    if enclosed:
        parts.append("field enclosed by the cities")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def build_expansion_type(entry: dict[str, Any], tile_id: str) -> dict[str, Any]:
    edges, features = _edges_and_features(entry)
    return {"id": tile_id, "jcz_id": entry["jcz_id"], "count": entry["count"], "description": describe(entry),
            "edges": edges, "features": features}


def build(reference: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "carcassonne-base",
        "version": "1",
        "note": ("Base game, 72 tiles in 24 types (Wikicarpedia letters A-X), transcribed from JCloisterZone's "
                 "basic:1 tile definitions (shared/reference/carcassonne). One of the four D tiles is the start tile."),
        "start": "D",
        "types": [build_type(entry) for entry in reference["base_game"]],
    }


def build_expansion(reference: dict[str, Any], expansion: str) -> dict[str, Any]:
    spec = EXPANSIONS[expansion]
    entries = reference[spec["reference_key"]]
    types = [build_expansion_type(entry, f"{spec['prefix']}{index:02d}") for index, entry in enumerate(entries, 1)]
    tiles = sum(t["count"] for t in types)
    return {
        "name": spec["name"],
        "version": "1",
        "expansion": expansion,
        "note": (f"{spec['title']}, {tiles} tiles in {len(types)} types, numbered {types[0]['id']}-{types[-1]['id']} "
                 "in the order of the reference file (JCloisterZone's definition order), transcribed from "
                 "JCloisterZone's tile definitions (shared/reference/carcassonne); jcz_id is JCloisterZone's id."),
        "source": {"repository": JCZ_REPOSITORY, "path": spec["definitions"], "commit": JCZ_COMMIT,
                   "reference": "shared/reference/carcassonne/base_and_expansions_tiles.json"},
        "types": types,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reference", nargs="?", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--set", choices=("base", *EXPANSIONS), default="base", dest="tile_set")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    reference = json.loads(args.reference.read_text(encoding="utf-8"))
    if args.tile_set == "base":
        data, output = build(reference), args.output or DEFAULT_OUTPUT
    else:
        data = build_expansion(reference, args.tile_set)
        output = args.output or HERE / EXPANSIONS[args.tile_set]["output"]
    output.write_text(dumps(data), encoding="utf-8")
    print(f"{len(data['types'])} tile types, {sum(t['count'] for t in data['types'])} tiles -> {output}")


if __name__ == "__main__":
    main()
