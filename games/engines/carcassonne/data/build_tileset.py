"""Build the base Carcassonne tile set from the facts gathered in ``shared/reference/carcassonne``.

The 24 tile types (72 tiles, start tile included) are JCloisterZone's ``basic:1`` definitions,
lettered as Wikicarpedia does (see the reference file's ``_meta``): transcribed facts, not a
reconstruction, hence version ``1``. This script keeps what the engine and the viewer need and
writes ``base_tiles_v1.json`` beside itself; the output is deterministic.

Usage (from the repository root)::

    python games/engines/carcassonne/data/build_tileset.py [REFERENCE_JSON] [--output PATH]

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


def build_type(entry: dict[str, Any]) -> dict[str, Any]:
    names = [feature["id"] for feature in entry["features"]]
    if entry.get("cloister"):
        names.append("cloister")
    number = {name: index for index, name in enumerate(names)}
    features = []
    for feature in entry["features"]:
        item: dict[str, Any] = {"id": number[feature["id"]], "type": feature["type"]}
        if feature["type"] == "city":
            item["pennant"] = 1 if feature.get("pennant") else 0
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
    return {"letter": entry["letter"], "count": entry["count"], "description": entry.get("description", ""),
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


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reference", nargs="?", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args()
    data = build(json.loads(args.reference.read_text(encoding="utf-8")))
    args.output.write_text(dumps(data), encoding="utf-8")
    print(f"{len(data['types'])} tile types, {sum(t['count'] for t in data['types'])} tiles -> {args.output}")


if __name__ == "__main__":
    main()
