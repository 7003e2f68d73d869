"""The pieces of the Stone Age box (Hans im Glück 2008; 999 Games *Stenen Tijdperk*) the engine
plays with, counted from its data (the cards, the buildings, the constants) and its board.

The French wording is the box's "Contenu de la boîte" (seed 002): "1 grand plateau de jeu, 4
plateaux individuels de joueur, 68 ressources en bois (20 bois, 16 argile, 12 pierre, 20 or), 40
membres de tribu en bois (10 par couleur de joueur), 8 marqueurs en bois (2 par couleur pour la
piste de score et la piste d'agriculture), 53 jetons Nourriture en carton, 28 tuiles Bâtiment, 18
tuiles Outil, 36 cartes Civilisation, 7 dés, 1 gobelet à dés en cuir, 1 figurine premier joueur".
The dice cup is not declared: the engine rolls without one.

>>> [(piece.key, piece.count, piece.colours) for piece in box_contents().pieces]  # doctest: +NORMALIZE_WHITESPACE
[('game_board', 1, None), ('player_boards', 4, None), ('resources', 68, None), ('tribe_members', 40, 4),
 ('markers', 8, 4), ('food_tokens', 53, None), ('building_tiles', 28, None), ('tool_tiles', 18, None),
 ('civilization_cards', 36, None), ('dice', 7, None), ('start_player_figure', 1, None)]
>>> [(part.key, part.count) for part in box_contents().piece("resources").parts]
[('wood', 20), ('clay', 16), ('stone', 12), ('gold', 20)]
"""

from __future__ import annotations

from functools import cache
from typing import Final

from games.engines.box import BoxContents, BoxPiece

from .components import RESOURCES, load
from .game import SITE_CAPACITY

RESOURCE_NAMES: Final = {"wood": ("wood", "bois"), "clay": ("clay", "argile"), "stone": ("stone", "pierre"),
                         "gold": ("gold", "or")}
BOX_RESOURCES: Final = {"wood": 20, "clay": 16, "stone": 12, "gold": 20}
"""The engine and the box disagree on the resources, and the box wins: the engine never runs out
of them (the English rulebook: "Resources are not limited"), the box holds 68 (seed 002's split;
the Z-Man edition's 28/18/12/10 and the first edition's 58 are other boxes)."""
BOX_FOOD_TOKENS: Final = 53
"""Food is never short in the engine either; the box's cardboard tokens, as seed 002 counts them."""
BOX_TOOL_TILES: Final = 18
"""Each tribe has three tool places (``Tribe.tools``), which the engine raises without a limit on
tiles; the box has 18 two-sided tiles (seed 002), twelve "1/2" and six "3/4"."""
TRACKS: Final = ("score", "agriculture")
"""The two tracks on which the engine moves a marker of each tribe (its points, its agriculture)."""


@cache
def box_contents() -> BoxContents:
    data = load()
    colours = int(data.constants["players_max"])
    if set(BOX_RESOURCES) != set(RESOURCES):
        raise ValueError(f"the box's resources {sorted(BOX_RESOURCES)} are not the engine's {sorted(RESOURCES)}")
    resources = tuple(BoxPiece(kind, BOX_RESOURCES[kind], *RESOURCE_NAMES[kind]) for kind in RESOURCES)
    return BoxContents((
        # One board holds every location of the engine (the hunting grounds … the building stacks).
        BoxPiece("game_board", 1, "game board", "grand plateau de jeu"),
        BoxPiece("player_boards", colours, "player boards", "plateaux individuels de joueur"),
        BoxPiece("resources", sum(BOX_RESOURCES.values()), "wooden resources", "ressources en bois", parts=resources),
        BoxPiece("tribe_members", int(data.constants["people_max"]) * colours, "tribe members", "membres de tribu",
                 colours=colours),
        BoxPiece("markers", len(TRACKS) * colours, "markers", "marqueurs", colours=colours),
        BoxPiece("food_tokens", BOX_FOOD_TOKENS, "food tokens", "jetons Nourriture"),
        BoxPiece("building_tiles", len(data.buildings), "building tiles", "tuiles Bâtiment"),
        BoxPiece("tool_tiles", BOX_TOOL_TILES, "tool tiles", "tuiles Outil"),
        BoxPiece("civilization_cards", len(data.cards), "civilization cards", "cartes Civilisation"),
        # A roll never needs more dice than the figures one location takes.
        BoxPiece("dice", SITE_CAPACITY, "dice", "dés"),
        BoxPiece("start_player_figure", 1, "start player figure", "figurine premier joueur"),
    ))
