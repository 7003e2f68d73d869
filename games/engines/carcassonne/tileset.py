"""The Carcassonne tile types, loaded once from ``data/``: the base game (``base_tiles_v1.json``,
letters A-X) and the expansions' tiles (``inns_cathedrals_tiles_v1.json``, IC01-IC17;
``traders_builders_tiles_v1.json``, TB01-TB24), which a game adds to the base game's.

>>> tileset = tileset_for(("inns_cathedrals",))
>>> len(tileset.pile()), tileset.types["IC01"].count, sorted(tileset.types["IC01"].cathedrals)
(89, 2, [0])
>>> tileset_for(()) is load_tileset()
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from games.engines.tiles import TileDef

from .options import EXPANSIONS

TERRAINS = ("city", "road", "field")
_EXPANSION_FILES = {expansion: f"data/{expansion}_tiles_v1.json" for expansion in EXPANSIONS}


@dataclass(frozen=True)
class TileType:
    letter: str
    """The tile's id: its Wikicarpedia letter in the base game, IC01.. or TB01.. in an expansion."""
    count: int
    """Copies in the box (D's four include the start tile)."""
    tile: TileDef
    record: Mapping[str, Any]
    """The printed definition as in the data file (edges and features), for viewers."""
    pennants: Mapping[int, int]
    cloister: int | None
    field_cities: Mapping[int, tuple[int, ...]]
    """Each field feature → the city features of the same tile it touches (farmers score those)."""
    inns: frozenset[int] = frozenset()
    """Road features with an inn beside them (Inns & Cathedrals)."""
    cathedrals: frozenset[int] = frozenset()
    """City features with a cathedral (Inns & Cathedrals)."""
    goods: Mapping[int, str] = field(default_factory=dict)
    """City features → the goods symbol they show (Traders & Builders)."""
    expansion: str | None = None
    """The expansion whose box the tile comes in; ``None`` for the base game."""
    jcz_id: str | None = None
    """JCloisterZone's id of the tile (kept for the expansions' tiles)."""

    def kind(self, feature: int) -> str:
        return self.tile.feature_kinds[feature]


@dataclass(frozen=True)
class Tileset:
    name: str
    version: str
    note: str
    start: str
    types: Mapping[str, TileType]
    expansions: tuple[str, ...] = ()
    """The expansions whose tiles are among ``types``."""

    def pile(self) -> list[str]:
        """The tiles to draw, by id, sorted: every copy but the start tile."""
        letters = [t.letter for t in self.types.values() for _ in range(t.count)]
        letters.remove(self.start)
        return sorted(letters)

    @property
    def tile_defs(self) -> dict[str, TileDef]:
        return {letter: t.tile for letter, t in self.types.items()}


def _tile_type(entry: Mapping[str, Any], expansion: str | None) -> TileType:
    tile_id = entry["letter"] if expansion is None else entry["id"]
    features = entry["features"]
    tile = TileDef.build(
        tile_id,
        {side: (edge["terrain"], tuple(edge["sub_edges"])) for side, edge in entry["edges"].items()},
        {f["id"]: f["type"] for f in features},
    )
    return TileType(
        letter=tile_id, count=entry["count"], tile=tile,
        record={"edges": entry["edges"], "features": features},
        pennants={f["id"]: f.get("pennant", 0) for f in features if f["type"] == "city"},
        cloister=next((f["id"] for f in features if f["type"] == "cloister"), None),
        field_cities={f["id"]: tuple(f.get("cities", ())) for f in features if f["type"] == "field"},
        inns=frozenset(f["id"] for f in features if f["type"] == "road" and f.get("inn")),
        cathedrals=frozenset(f["id"] for f in features if f["type"] == "city" and f.get("cathedral")),
        goods={f["id"]: str(f["good"]) for f in features if f["type"] == "city" and f.get("good")},
        expansion=expansion, jcz_id=entry.get("jcz_id"),
    )


def _read(path: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath(path).read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def load_tileset() -> Tileset:
    """The base game's 24 tile types."""
    raw = _read("data/base_tiles_v1.json")
    types = {entry["letter"]: _tile_type(entry, None) for entry in raw["types"]}
    return Tileset(raw["name"], raw["version"], raw["note"], raw["start"], types)


@dataclass(frozen=True)
class ExpansionTiles:
    """One expansion's tile types, as its data file gives them (with where they come from)."""

    expansion: str
    name: str
    version: str
    note: str
    source: Mapping[str, str]
    types: Mapping[str, TileType]


@lru_cache(maxsize=None)
def load_expansion_tiles(expansion: str) -> ExpansionTiles:
    if expansion not in _EXPANSION_FILES:
        raise ValueError(f"no expansion {expansion!r}: choose from {', '.join(EXPANSIONS)}")
    raw = _read(_EXPANSION_FILES[expansion])
    types = {entry["id"]: _tile_type(entry, expansion) for entry in raw["types"]}
    return ExpansionTiles(expansion, raw["name"], raw["version"], raw["note"], dict(raw["source"]), types)


def tileset_for(expansions: Iterable[str]) -> Tileset:
    """The base game's tiles and those of ``expansions``: its ``name`` and ``version`` join
    those of each data file with ``+`` (``carcassonne-base+carcassonne-inns-cathedrals``, ``1+1``);
    without expansions, the base game's own :func:`load_tileset`."""
    named = set(expansions)
    for expansion in sorted(named - set(EXPANSIONS)):
        raise ValueError(f"no expansion {expansion!r}: choose from {', '.join(EXPANSIONS)}")
    return _combined(tuple(expansion for expansion in EXPANSIONS if expansion in named))


@lru_cache(maxsize=None)
def _combined(expansions: tuple[str, ...]) -> Tileset:
    base = load_tileset()
    if not expansions:
        return base
    parts = [load_expansion_tiles(expansion) for expansion in expansions]
    types = dict(base.types)
    for part in parts:
        types.update(part.types)
    return Tileset("+".join([base.name, *(p.name for p in parts)]),
                   "+".join([base.version, *(p.version for p in parts)]),
                   " ".join([base.note, *(p.note for p in parts)]), base.start, types, expansions)
