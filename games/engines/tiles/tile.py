"""Tile definitions as the tile-laying core sees them: terrains on sides, features on sub-edges.

A game keeps its own richer description of what a feature holds (animals,
fish, nuggets...); the core only needs each side's terrain, which feature
owns each third of each side, and each feature's kind.

>>> t = TileDef.build("T1", {"N": ("forest", (0, 0, 0)), "E": ("meadow", (1, 1, 1)),
...                          "S": ("meadow", (1, 1, 1)), "W": ("meadow", (1, 1, 1))},
...                   {0: "forest", 1: "meadow"})
>>> t.edge(Side.E, 1).terrain    # turned a quarter clockwise, the forest faces east
'forest'
>>> t.sides_touched(1)
(<Side.E: 1>, <Side.S: 2>, <Side.W: 3>)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .geometry import SIDES, SUB_EDGES_PER_SIDE, Side, printed_side


class TileDefinitionError(ValueError):
    """A tile definition is inconsistent (unknown feature on a side, wrong number of sub-edges...)."""


@dataclass(frozen=True, slots=True)
class Edge:
    """One side of a tile: its terrain and the feature on each third, read clockwise."""

    terrain: str
    sub_edges: tuple[int, int, int]


@dataclass(frozen=True)
class TileDef:
    """A printed tile: four edges (indexed by :class:`Side`) and its features' kinds."""

    id: str
    edges: tuple[Edge, Edge, Edge, Edge]
    feature_kinds: Mapping[int, str]
    _touched: Mapping[int, tuple[Side, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        touched: dict[int, list[Side]] = {fid: [] for fid in self.feature_kinds}
        for side in SIDES:
            for fid in dict.fromkeys(self.edges[side].sub_edges):
                if fid not in touched:
                    raise TileDefinitionError(
                        f"tile {self.id}: side {side.name} names feature {fid}, which the tile lacks")
                touched[fid].append(side)
        object.__setattr__(self, "_touched", {fid: tuple(s) for fid, s in touched.items()})

    @classmethod
    def build(cls, tile_id: str, edges: Mapping[str, tuple[str, tuple[int, ...]]],
              feature_kinds: Mapping[int, str]) -> TileDef:
        """Build from ``{"N": (terrain, (a, b, c)), ...}`` keyed by side letter."""
        built = []
        for side in SIDES:
            terrain, subs = edges[side.name]
            if len(subs) != SUB_EDGES_PER_SIDE:
                raise TileDefinitionError(f"tile {tile_id}: side {side.name} needs 3 sub-edges")
            built.append(Edge(terrain, (subs[0], subs[1], subs[2])))
        return cls(tile_id, (built[0], built[1], built[2], built[3]), dict(feature_kinds))

    def edge(self, side: Side, quarter_turns: int = 0) -> Edge:
        """The edge facing ``side`` once the tile is turned ``quarter_turns`` clockwise."""
        return self.edges[printed_side(side, quarter_turns)]

    def sides_touched(self, feature_id: int) -> tuple[Side, ...]:
        """Printed sides on which ``feature_id`` reaches the border (empty for inner features)."""
        return self._touched[feature_id]
