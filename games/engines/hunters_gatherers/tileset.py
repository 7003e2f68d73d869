"""The tile set: loaded from the package's JSON data file, checked, and cached.

The file format is described in ``data/tileset.schema.json``: per tile its four
edges (terrain and the feature on each third), its features (meadows with their
animals, forests with gold nuggets and mushroom clearings, rivers with the lake
or spring they end in, lakes with their fish). The loader validates the file
against the schema, then checks what a schema cannot say (every feature named on
a side exists, every river's lake exists, rivers touch one or two sides, the
totals). Hand-made tile sets for tests go through :meth:`Tileset.from_dict`
with ``validate_schema=False``: the schema pins the first edition's totals.

>>> ts = load_tileset()
>>> ts.name, ts.version
('hunters-gatherers-first-edition', '1-reconstructed')
>>> len(ts.landscape), len(ts.bonus), ts.start.id
(78, 12, 'S')
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

from games.engines.tiles import SIDES, TileDef, TileDefinitionError

DEFAULT_TILESET_FILE = "tileset_first_edition_v1.json"
SCHEMA_FILE = "tileset.schema.json"

TileKind = Literal["start", "landscape", "bonus"]


class TilesetError(ValueError):
    """The tile-set file breaks the format or its own totals."""


MEADOW_CONTENTS: Final = ("deer", "mammoths", "aurochs", "tigers", "fire", "shrine")
"""What a meadow's pieces hold, in the order of :attr:`Meadow.contents`."""


@dataclass(frozen=True, slots=True)
class Meadow:
    id: int
    deer: int = 0
    mammoths: int = 0
    tigers: int = 0
    aurochs: int = 0
    fire: bool = False
    shrine: bool = False
    kind: Literal["meadow"] = "meadow"
    contents: tuple[int, int, int, int, int, int] = field(init=False, repr=False, compare=False)
    """Its deer, mammoths, aurochs, tigers, fire and shrine (1 or 0), in the order of
    :data:`MEADOW_CONTENTS`: the end of a game adds them up over each meadow's pieces."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "contents", (self.deer, self.mammoths, self.aurochs, self.tigers, int(self.fire),
                                              int(self.shrine)))


@dataclass(frozen=True, slots=True)
class Forest:
    id: int
    gold_nuggets: int = 0
    mushroom_clearings: int = 0
    kind: Literal["forest"] = "forest"


@dataclass(frozen=True, slots=True)
class River:
    id: int
    lake: int | None = None
    spring: bool = False
    kind: Literal["river"] = "river"


@dataclass(frozen=True, slots=True)
class Lake:
    id: int
    fish: int = 0
    kind: Literal["lake"] = "lake"


Feature = Meadow | Forest | River | Lake


@dataclass(frozen=True, slots=True)
class Tile:
    """A Hunters-and-Gatherers tile: the core's geometry plus what its features hold.

    What laying the tile needs is worked out once, when it is defined, rather than on every tile
    laid: where its rivers, lakes and forests come in the order the feature graph numbers their
    nodes, and which sides its rivers cross however it is turned.
    """

    id: str
    kind: TileKind
    geometry: TileDef
    features: Mapping[int, Feature]
    record: Mapping[str, Any] = field(repr=False, compare=False)  # the file's record, for drawing
    in_node_order: tuple[Feature, ...] = field(init=False, repr=False, compare=False)
    """The features in the order the feature graph numbers their nodes (the geometry's)."""
    water_offsets: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Where the rivers and lakes (what river systems join) are in :attr:`in_node_order`."""
    forests_and_rivers: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The ids of the forests and rivers (what scores once complete), in :attr:`in_node_order`."""
    rivers_into_lakes: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    """``(river, lake)`` offsets in :attr:`in_node_order` of each river that ends in a lake on this tile."""
    river_sides: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, repr=False, compare=False)
    """For each number of quarter turns, ``(side, river)`` for each side a river crosses once the
    tile is turned so, the river as its offset in :attr:`in_node_order` (a river side is meadow,
    river, meadow: the river is its middle third)."""

    def __post_init__(self) -> None:
        in_node_order = tuple(self.features[fid] for fid in self.geometry.feature_kinds)
        offset = {feature.id: i for i, feature in enumerate(in_node_order)}
        derived = {
            "in_node_order": in_node_order,
            "water_offsets": tuple(i for i, feature in enumerate(in_node_order) if isinstance(feature, (River, Lake))),
            "forests_and_rivers": tuple(feature.id for feature in in_node_order if isinstance(feature, (Forest, River))),
            "rivers_into_lakes": tuple((offset[feature.id], offset[feature.lake]) for feature in in_node_order
                                       if isinstance(feature, River) and feature.lake is not None),
            "river_sides": tuple(tuple((side, offset[edge.sub_edges[1]]) for side, edge in enumerate(edges)
                                       if edge.terrain == "river") for edges in self.geometry.turned),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class Tileset:
    name: str
    version: str
    reconstructed: bool
    provenance: str
    start: Tile
    landscape: tuple[Tile, ...]
    bonus: tuple[Tile, ...]
    by_id: Mapping[str, Tile] = field(repr=False)
    landscape_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The landscape tiles' ids, sorted: the pile before a seed shuffles it."""
    bonus_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The bonus tiles' ids, sorted."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "landscape_ids", tuple(sorted(t.id for t in self.landscape)))
        object.__setattr__(self, "bonus_ids", tuple(sorted(t.id for t in self.bonus)))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate_schema: bool = True) -> Tileset:
        """Build a tile set from the file's JSON object, checking it on the way."""
        if validate_schema:
            _validate_schema(data)
        tiles = [_tile(record) for record in data["tiles"]]
        by_id: dict[str, Tile] = {}
        for tile in tiles:
            if tile.id in by_id:
                raise TilesetError(f"tile id {tile.id} appears twice")
            by_id[tile.id] = tile
        starts = [t for t in tiles if t.kind == "start"]
        if len(starts) != 1:
            raise TilesetError(f"a tile set needs exactly one start tile, found {len(starts)}")
        landscape = tuple(t for t in tiles if t.kind == "landscape")
        bonus = tuple(t for t in tiles if t.kind == "bonus")
        totals = data.get("totals")
        if totals is not None:
            found = {"landscape": len(landscape) + 1, "start": 1, "bonus": len(bonus)}
            for key, expected in totals.items():
                if found.get(key) != expected:
                    raise TilesetError(f"totals say {expected} {key} tiles, the file has {found.get(key)}")
        return cls(str(data["name"]), str(data["version"]), bool(data.get("reconstructed", False)),
                   str(data.get("provenance", "")), starts[0], landscape, bonus, by_id)


def _validate_schema(data: Mapping[str, Any]) -> None:
    import jsonschema

    schema = json.loads(resources.files(__package__ + ".data").joinpath(SCHEMA_FILE).read_text("utf-8"))
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as error:
        path = "/".join(str(p) for p in error.absolute_path)
        raise TilesetError(f"tile set breaks the schema at {path or 'top level'}: {error.message}") from None


def _feature(record: Mapping[str, Any]) -> Feature:
    kind = record["type"]
    fid = int(record["id"])
    if kind == "meadow":
        return Meadow(fid, int(record.get("deer", 0)), int(record.get("mammoths", 0)),
                      int(record.get("tigers", 0)), int(record.get("aurochs", 0)),
                      bool(record.get("fire", False)), bool(record.get("shrine", False)))
    if kind == "forest":
        return Forest(fid, int(record.get("gold_nuggets", 0)), int(record.get("mushroom_clearings", 0)))
    if kind == "river":
        lake = record.get("lake")
        return River(fid, None if lake is None else int(lake), bool(record.get("spring", False)))
    if kind == "lake":
        return Lake(fid, int(record.get("fish", 0)))
    raise TilesetError(f"unknown feature type {kind!r}")


def _tile(record: Mapping[str, Any]) -> Tile:
    tile_id = str(record["id"])
    features: dict[int, Feature] = {}
    for f in record["features"]:
        feature = _feature(f)
        if feature.id in features:
            raise TilesetError(f"tile {tile_id}: feature {feature.id} appears twice")
        features[feature.id] = feature
    edges: dict[str, tuple[str, tuple[int, ...]]] = {}
    for side in SIDES:
        edge = record["edges"][side.name]
        subs = tuple(int(z) for z in edge["sub_edges"])
        edges[side.name] = (str(edge["type"]), subs)
    try:
        geometry = TileDef.build(tile_id, edges, {fid: f.kind for fid, f in features.items()})
    except TileDefinitionError as error:
        raise TilesetError(str(error)) from None
    _check_tile(tile_id, geometry, features)
    return Tile(tile_id, record["kind"], geometry, features, record)


def _check_tile(tile_id: str, geometry: TileDef, features: Mapping[int, Feature]) -> None:
    for side in SIDES:
        edge = geometry.edges[side]
        kinds = [features[z].kind for z in edge.sub_edges]
        expected: Sequence[str] = (("meadow", "river", "meadow") if edge.terrain == "river"
                                   else (edge.terrain,) * 3)
        if tuple(kinds) != tuple(expected):
            raise TilesetError(f"tile {tile_id}: a {edge.terrain} side {side.name} holds {kinds}")
    for feature in features.values():
        touched = len(geometry.sides_touched(feature.id))
        if isinstance(feature, Lake):
            if touched:
                raise TilesetError(f"tile {tile_id}: lake {feature.id} touches a side")
            if not any(isinstance(r, River) and r.lake == feature.id for r in features.values()):
                raise TilesetError(f"tile {tile_id}: no river flows into lake {feature.id}")
        elif isinstance(feature, River):
            ends_here = feature.lake is not None or feature.spring
            if feature.lake is not None and not isinstance(features.get(feature.lake), Lake):
                raise TilesetError(f"tile {tile_id}: river {feature.id} flows into missing lake {feature.lake}")
            if touched not in (1, 2) or (touched == 1) != ends_here:
                raise TilesetError(f"tile {tile_id}: river {feature.id} must touch one side and end in a "
                                   "lake or spring, or touch two sides")
        elif not touched:
            raise TilesetError(f"tile {tile_id}: {feature.kind} {feature.id} touches no side")


@cache
def load_tileset(filename: str = DEFAULT_TILESET_FILE) -> Tileset:
    """Load (once) and check a tile-set file shipped in the package's ``data`` folder."""
    text = resources.files(__package__ + ".data").joinpath(filename).read_text("utf-8")
    return Tileset.from_dict(json.loads(text))
