"""The base Carcassonne tile types, loaded once from ``data/base_tiles_v1.json``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from games.engines.tiles import TileDef

TERRAINS = ("city", "road", "field")


@dataclass(frozen=True)
class TileType:
    letter: str
    count: int
    """Copies in the box (D's four include the start tile)."""
    tile: TileDef
    record: Mapping[str, Any]
    """The printed definition as in the data file (edges and features), for viewers."""
    pennants: Mapping[int, int]
    cloister: int | None
    field_cities: Mapping[int, tuple[int, ...]]
    """Each field feature → the city features of the same tile it touches (farmers score those)."""

    def kind(self, feature: int) -> str:
        return self.tile.feature_kinds[feature]


@dataclass(frozen=True)
class Tileset:
    name: str
    version: str
    note: str
    start: str
    types: Mapping[str, TileType]

    def pile(self) -> list[str]:
        """The tiles to draw, by letter, sorted: every copy but the start tile."""
        letters = [t.letter for t in self.types.values() for _ in range(t.count)]
        letters.remove(self.start)
        return sorted(letters)

    @property
    def tile_defs(self) -> dict[str, TileDef]:
        return {letter: t.tile for letter, t in self.types.items()}


@lru_cache(maxsize=1)
def load_tileset() -> Tileset:
    raw = json.loads(resources.files(__package__).joinpath("data/base_tiles_v1.json").read_text(encoding="utf-8"))
    types = {}
    for entry in raw["types"]:
        kinds = {f["id"]: f["type"] for f in entry["features"]}
        tile = TileDef.build(
            entry["letter"],
            {side: (edge["terrain"], tuple(edge["sub_edges"])) for side, edge in entry["edges"].items()},
            kinds,
        )
        types[entry["letter"]] = TileType(
            letter=entry["letter"], count=entry["count"], tile=tile,
            record={"edges": entry["edges"], "features": entry["features"]},
            pennants={f["id"]: f.get("pennant", 0) for f in entry["features"] if f["type"] == "city"},
            cloister=next((f["id"] for f in entry["features"] if f["type"] == "cloister"), None),
            field_cities={f["id"]: tuple(f.get("cities", ())) for f in entry["features"] if f["type"] == "field"},
        )
    return Tileset(raw["name"], raw["version"], raw["note"], raw["start"], types)
