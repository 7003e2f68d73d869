"""The pieces of the base Carcassonne box (Hans im Glück 2000) the engine plays with: the land
tiles counted from its tile set, the meeples from its options.

The expansions' tiles and figures (Inns & Cathedrals, Traders & Builders) come in boxes of their
own, catalogued as records of their own: they are not declared here. The French wording is the
catalogue's ("tuiles Terrain", seed 003); a French box that says "partisans" for its meeples is
matched by the checklists' aliases.

>>> [(piece.key, piece.count, piece.colours) for piece in box_contents().pieces]
[('land_tiles', 72, None), ('meeples', 40, 5)]
"""

from __future__ import annotations

from functools import cache
from typing import Final

from games.engines.box import BoxContents, BoxPiece

from .options import MAX_PLAYERS, MEEPLES
from .tileset import load_tileset

SCORE_MARKERS_PER_PLAYER: Final = 1
"""The box and the engine disagree on the meeples, and the box wins: each of its five colours has
eight, the engine plays seven of them (``MEEPLES``); the eighth marks its player's score on the
scoring track, which the engine keeps as a number."""


@cache
def box_contents() -> BoxContents:
    tileset = load_tileset()
    colours = MAX_PLAYERS
    return BoxContents((
        # Every copy of every type, the start tile (one of the D's, darker back) included.
        BoxPiece("land_tiles", sum(tile_type.count for tile_type in tileset.types.values()),
                 "land tiles", "tuiles Terrain"),
        BoxPiece("meeples", (MEEPLES + SCORE_MARKERS_PER_PLAYER) * colours, "meeples", "meeples", colours=colours),
    ))
