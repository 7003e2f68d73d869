"""Build the Stone Age card and building data from the facts gathered in ``shared/reference``.

The printed rulebook could not be consulted (``../shared/reference/stone_age/FACTS.md``): the 36
civilisation cards and 28 buildings below are the reading that four independent public
implementations agree on, so the data is labelled ``1-reconstructed``. This script keeps what the
engine needs from the reference file and writes ``stone_age_v1.json`` beside itself; the output is
deterministic (run it twice, same bytes).

Usage (from the repository root)::

    python games/engines/stone_age/data/build_data.py [REFERENCE_JSON] [--output PATH]

Standard library only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[3]
DEFAULT_REFERENCE = REPO_ROOT / ".." / "shared" / "reference" / "stone_age" / "stone_age_data.json"
DEFAULT_OUTPUT = HERE / "stone_age_v1.json"

VERSION = "1-reconstructed"
NOTE = (
    "Reconstructed: the printed Stone Age rulebook (Hans im Glueck 2008; 999 Games 'Stenen Tijdperk') "
    "could not be consulted. Cards and buildings are the majority reading of four public implementations "
    "(shared/reference/stone_age/FACTS.md): C04 rolls for gold, C24 is a one-time tool 2 with 2 tool makers, "
    "C05 takes the top card of the face-down pile. Variable buildings take exactly `resources` resources of "
    "exactly `distinct_types` kinds."
)


def build(reference: dict[str, Any]) -> dict[str, Any]:
    cards = [
        {"id": card["id"], "top": card["top"], "bottom": card["bottom"]}
        for card in reference["civilization_cards"]
    ]
    buildings = []
    for tile in reference["buildings"]:
        entry: dict[str, Any] = {"id": tile["id"], "kind": tile["kind"]}
        if tile["kind"] == "fixed":
            entry["cost"] = tile["cost"]
        elif tile["kind"] == "variable":
            entry |= {"resources": tile["resources"], "distinct_types": tile["distinct_types"]}
        else:
            entry |= {"min_resources": tile["min_resources"], "max_resources": tile["max_resources"]}
        buildings.append(entry)
    constants = reference["constants"]
    return {
        "name": "stone-age-first-edition",
        "version": VERSION,
        "note": NOTE,
        "constants": {
            key: constants[key]
            for key in (
                "players_min", "players_max", "people_start", "people_max", "food_start",
                "agriculture_max", "starvation_penalty", "tool_value_max", "resource_values",
                "building_stack_size",
            )
        },
        "dice_roll_card_faces": reference["dice_roll_card_faces"],
        "cards": cards,
        "buildings": buildings,
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
    print(f"{len(data['cards'])} cards, {len(data['buildings'])} buildings -> {args.output}")


if __name__ == "__main__":
    main()
