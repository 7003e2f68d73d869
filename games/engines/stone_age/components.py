"""The civilisation cards, buildings and constants of Stone Age, loaded once from the data file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

RESOURCES = ("wood", "clay", "stone", "gold")
"""The four building materials, cheapest first; food is kept apart."""


@dataclass(frozen=True)
class Card:
    id: str
    top: dict[str, Any]
    """What buying the card gives at once: ``{"type": "food", "amount": 5}`` and so on."""
    background: str
    """``green`` (a culture symbol) or ``sand`` (a figure with a multiplier)."""
    symbol: str = ""
    figure: str = ""
    count: int = 0


@dataclass(frozen=True)
class Building:
    id: str
    kind: str
    """``fixed`` (exact cost), ``variable`` (n resources of exactly k kinds) or ``any`` (1–7)."""
    cost: tuple[tuple[str, int], ...] = ()
    resources: int = 0
    distinct_types: int = 0
    min_resources: int = 0
    max_resources: int = 0


@dataclass(frozen=True)
class GameData:
    name: str
    version: str
    note: str
    constants: dict[str, Any]
    dice_faces: dict[int, str]
    cards: dict[str, Card]
    buildings: dict[str, Building]

    def value(self, resource: str) -> int:
        return int(self.constants["resource_values"][resource])


@lru_cache(maxsize=1)
def load() -> GameData:
    raw = json.loads(resources.files(__package__).joinpath("data/stone_age_v1.json").read_text(encoding="utf-8"))
    cards = {}
    for entry in raw["cards"]:
        bottom = entry["bottom"]
        cards[entry["id"]] = Card(
            id=entry["id"], top=dict(entry["top"]), background=bottom["background"],
            symbol=bottom.get("symbol", ""), figure=bottom.get("figure", ""), count=int(bottom.get("count", 0)),
        )
    buildings = {}
    for entry in raw["buildings"]:
        buildings[entry["id"]] = Building(
            id=entry["id"], kind=entry["kind"],
            cost=tuple(sorted(entry.get("cost", {}).items(), key=lambda item: RESOURCES.index(item[0]))),
            resources=int(entry.get("resources", 0)), distinct_types=int(entry.get("distinct_types", 0)),
            min_resources=int(entry.get("min_resources", 0)), max_resources=int(entry.get("max_resources", 0)),
        )
    faces = {int(face): ("tool" if text.startswith("tool") else "agriculture" if text.startswith("agri") else text)
             for face, text in raw["dice_roll_card_faces"].items()}
    return GameData(raw["name"], raw["version"], raw["note"], dict(raw["constants"]), faces, cards, buildings)
