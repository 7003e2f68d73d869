"""The pieces of the Map-Chips box (Carcassonne Map-Chips Benelux) the engine plays with: the
chips, counted from its colours.

The map itself and the land tiles come in other boxes (Carcassonne Maps, the base game and its
expansions), catalogued as records of their own. The French wording is the catalogue's (seed
003): "30 Map–Chips (10 chacun en violet, bleu clair et orange)".

>>> [(piece.key, piece.count, piece.colours, piece.per_colour) for piece in box_contents().pieces]
[('map_chips', 30, 3, 10)]
"""

from __future__ import annotations

from functools import cache

from games.engines.box import BoxContents, BoxPiece

from .chips import CHIP_COLOURS, CHIPS_PER_COLOUR

@cache
def box_contents() -> BoxContents:
    return BoxContents((
        BoxPiece("map_chips", CHIPS_PER_COLOUR * len(CHIP_COLOURS), "Map-Chips", "Map-Chips",
                 colours=len(CHIP_COLOURS)),
    ))
