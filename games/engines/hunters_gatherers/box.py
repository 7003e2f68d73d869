"""The pieces of the Hunters and Gatherers box (Hans im Glück 2002) the engine plays with, counted
from its tile set and its figures.

The French box's "Contenu" (seed 000) is the wording: "79 tuiles paysage, 12 tuiles bonus, 5
tuiles de score, 1 piste de score, 30 hommes de Cro-Magnon en 5 couleurs, 10 huttes en bois dans
5 couleurs, 10 jetons en bois vert, Livret de règles". The score tiles, the score track and the
green discs are not declared: the engine keeps the points as numbers and lets each tiger cancel a
deer itself, so it never uses them.

>>> [(piece.key, piece.count, piece.colours) for piece in box_contents().pieces]
[('landscape_tiles', 79, None), ('bonus_tiles', 12, None), ('tribe_members', 30, 5), ('huts', 10, 5)]
"""

from __future__ import annotations

from functools import cache
from typing import Final

from games.engines.box import BoxContents, BoxPiece

from .game import HUTS_PER_PLAYER, MAX_PLAYERS, TRIBE_MEMBERS_PER_PLAYER
from .tileset import load_tileset

SCORE_MARKERS_PER_PLAYER: Final = 1
"""The box and the engine disagree on the tribe members, and the box wins: each colour has six,
the engine plays five of them; the sixth marks its player's score on the track ("Les joueurs notent
leur score en avançant leur pion sur la piste de score", seed 000), which the engine keeps as a
number."""


@cache
def box_contents() -> BoxContents:
    tileset = load_tileset()
    colours = MAX_PLAYERS  # one colour a seat, as many as the most players
    return BoxContents((
        # The start tile (the volcano) is one of the box's 79 landscape tiles: "les 78 autres".
        BoxPiece("landscape_tiles", len(tileset.landscape) + 1, "landscape tiles", "tuiles paysage"),
        BoxPiece("bonus_tiles", len(tileset.bonus), "bonus tiles", "tuiles bonus"),
        BoxPiece("tribe_members", (TRIBE_MEMBERS_PER_PLAYER + SCORE_MARKERS_PER_PLAYER) * colours,
                 "tribe members", "hommes de Cro-Magnon", colours=colours),
        BoxPiece("huts", HUTS_PER_PLAYER * colours, "huts", "huttes", colours=colours),
    ))
