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

from .geometry import SIDES, SUB_EDGES_PER_SIDE, Side, meeting_sub_edge, printed_side


class TileDefinitionError(ValueError):
    """A tile definition is inconsistent (unknown feature on a side, wrong number of sub-edges...)."""


@dataclass(frozen=True, slots=True)
class Edge:
    """One side of a tile: its terrain and the feature on each third, read clockwise."""

    terrain: str
    sub_edges: tuple[int, int, int]
    features: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The features reaching this side, each once, in the order of the thirds."""
    _meetings: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = field(
        init=False, repr=False, compare=False)
    closings: dict[tuple[int, int, int], tuple[tuple[int, int, int], ...]] = field(
        init=False, repr=False, compare=False)
    """What :meth:`closing` answered, by the facing side's sub-edges (read directly where every
    tile laid asks)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "features", tuple(dict.fromkeys(self.sub_edges)))
        object.__setattr__(self, "_meetings", {})
        object.__setattr__(self, "closings", {})

    def meeting(self, facing: Edge) -> tuple[tuple[int, int], ...]:
        """The joinings this side makes with ``facing``, the side of a neighbour touching it:
        ``(our feature, their feature)`` pairs, each once, in the order of our thirds.

        Thirds run clockwise round each tile, so our first third meets their last. Laying a
        tile asks this of every side it touches, and a tile set has few kinds of sides: each
        answer is worked out once.

        >>> Edge("meadow", (1, 2, 3)).meeting(Edge("meadow", (7, 8, 8)))
        ((1, 8), (2, 8), (3, 7))
        >>> Edge("forest", (0, 0, 0)).meeting(Edge("forest", (4, 4, 4)))
        ((0, 4),)
        """
        pairs = self._meetings.get(facing.sub_edges)
        if pairs is None:
            theirs = facing.sub_edges
            pairs = tuple(dict.fromkeys((mine, theirs[meeting_sub_edge(i)]) for i, mine in enumerate(self.sub_edges)))
            self._meetings[facing.sub_edges] = pairs
        return pairs

    def closing(self, facing: Edge) -> tuple[tuple[int, int, int], ...]:
        """:meth:`meeting`, each pair with the open contacts it closes: a feature reaching this
        side has one contact here, and so has each of ``facing``'s; the first pair a feature is
        in closes it (0, 1 or 2 in all).

        >>> Edge("meadow", (1, 2, 3)).closing(Edge("meadow", (7, 8, 8)))
        ((1, 8, 2), (2, 8, 1), (3, 7, 2))
        """
        triples = self.closings.get(facing.sub_edges)
        if triples is None:
            ours: set[int] = set()
            theirs: set[int] = set()
            built = []
            for mine, their in self.meeting(facing):
                built.append((mine, their, (mine not in ours) + (their not in theirs)))
                ours.add(mine)
                theirs.add(their)
            triples = self.closings[facing.sub_edges] = tuple(built)
        return triples


Needs = tuple[str | None, str | None, str | None, str | None]
"""What a cell asks of each side (north, east, south, west) of a tile laid there: the terrain of
the neighbour facing it, or ``None`` where anything goes."""


@dataclass(frozen=True)
class TileDef:
    """A printed tile: four edges (indexed by :class:`Side`) and its features' kinds.

    Laying tiles asks the same questions of a tile over and over (which edge faces north once it
    is turned, which turns fit a cell): the answers are worked out once, when it is defined.
    """

    id: str
    edges: tuple[Edge, Edge, Edge, Edge]
    feature_kinds: Mapping[int, str]
    _touched: Mapping[int, tuple[Side, ...]] = field(init=False, repr=False, compare=False)
    turned: tuple[tuple[Edge, Edge, Edge, Edge], ...] = field(init=False, repr=False, compare=False)
    """For each number of quarter turns (0 to 3), the edges facing north, east, south and west."""
    turned_terrains: tuple[tuple[str, str, str, str], ...] = field(init=False, repr=False, compare=False)
    """The terrains of :attr:`turned`."""
    open_sides: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """How many sides each feature reaches, in the order of :attr:`feature_kinds`."""
    feature_ids: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The features, in the order of :attr:`feature_kinds` (the order a feature graph numbers their nodes)."""
    kinds: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Their kinds, in the same order."""
    _fitting: dict[Needs, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        touched: dict[int, list[Side]] = {fid: [] for fid in self.feature_kinds}
        for side in SIDES:
            for fid in dict.fromkeys(self.edges[side].sub_edges):
                if fid not in touched:
                    raise TileDefinitionError(
                        f"tile {self.id}: side {side.name} names feature {fid}, which the tile lacks")
                touched[fid].append(side)
        object.__setattr__(self, "_touched", {fid: tuple(s) for fid, s in touched.items()})
        turned = tuple(tuple(self.edges[printed_side(side, turns)] for side in SIDES) for turns in range(4))
        object.__setattr__(self, "turned", turned)
        object.__setattr__(self, "turned_terrains", tuple(tuple(e.terrain for e in edges) for edges in turned))
        object.__setattr__(self, "open_sides", tuple(len(touched[fid]) for fid in self.feature_kinds))
        object.__setattr__(self, "feature_ids", tuple(self.feature_kinds))
        object.__setattr__(self, "kinds", tuple(self.feature_kinds.values()))
        object.__setattr__(self, "_fitting", {})

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
        return self.turned[quarter_turns % 4][side]

    def turns_fitting(self, needs: Needs) -> tuple[int, ...]:
        """The quarter turns (ascending) that show on each side the terrain ``needs`` asks there.

        >>> t = TileDef.build("T1", {"N": ("forest", (0, 0, 0)), "E": ("meadow", (1, 1, 1)),
        ...                          "S": ("meadow", (1, 1, 1)), "W": ("meadow", (1, 1, 1))},
        ...                   {0: "forest", 1: "meadow"})
        >>> t.turns_fitting(("meadow", None, None, "meadow"))
        (1, 2)
        """
        fitting = self._fitting.get(needs)
        if fitting is None:  # a tile meets few kinds of cells: each is worked out once
            fitting = tuple(turns for turns, terrains in enumerate(self.turned_terrains)
                            if all(need is None or need == terrain for need, terrain in zip(needs, terrains)))
            self._fitting[needs] = fitting
        return fitting

    def sides_touched(self, feature_id: int) -> tuple[Side, ...]:
        """Printed sides on which ``feature_id`` reaches the border (empty for inner features)."""
        return self._touched[feature_id]
