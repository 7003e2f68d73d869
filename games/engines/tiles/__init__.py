"""The shared tile-laying core: square tiles, a board, features merged as tiles connect.

Nothing here knows a particular game. A game describes its tiles as
:class:`TileDef` (terrain per side, a feature on each third of each side, a
kind per feature), lays them on a :class:`Board`, and lets a
:class:`FeatureGraph` join the features across touching sides, count their
open contacts (so completion is seen the moment it happens), and carry the
figures standing on them. :func:`majority_owners` settles who scores a feature.

>>> from games.engines.tiles import Board, FeatureGraph, TileDef, Side
>>> road = TileDef.build("R", {"N": ("road", (0, 1, 2)), "E": ("field", (2, 2, 2)),
...                            "S": ("road", (2, 1, 0)), "W": ("field", (0, 0, 0))},
...                      {0: "field", 1: "road", 2: "field"})
>>> board, graph = Board(), FeatureGraph()
>>> _ = graph.add_tile(board.place(road, (0, 0), 0), board)
>>> board.fits(road, (0, 1), 0), board.fits(road, (1, 0), 1)   # turned, a road would face a field
(True, False)
"""

from .board import Around, Board, Mismatch, PlacedTile
from .features import Connection, FeatureGraph, Figure, UnionFind, majority_owners
from .geometry import (
    SIDE_OFFSETS,
    SIDES,
    SUB_EDGES_PER_SIDE,
    Position,
    Side,
    meeting_sub_edge,
    neighbour,
    printed_side,
    quarter_turns_from_degrees,
)
from .tile import Edge, TileDef, TileDefinitionError

__all__ = [
    "SIDE_OFFSETS", "SIDES", "SUB_EDGES_PER_SIDE", "Around", "Board", "Connection", "Edge", "FeatureGraph", "Figure",
    "Mismatch", "PlacedTile", "Position", "Side", "TileDef", "TileDefinitionError", "UnionFind",
    "majority_owners", "meeting_sub_edge", "neighbour", "printed_side", "quarter_turns_from_degrees",
]
