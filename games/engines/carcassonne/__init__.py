"""Base Carcassonne (Hans im Glück 2000): a pure-Python rules engine on the shared tile core.

A :class:`Game` is the state; :meth:`Game.legal_actions`, :meth:`Game.apply` (raising
:class:`IllegalAction` with a reason code, the game unchanged), :meth:`Game.undo`,
:meth:`Game.scores`. No Django here. The tile set (``data/base_tiles_v1.json``, version ``1``)
is transcribed from the gathered facts (``shared/reference/carcassonne``).

Seed 003 is about the Maps and the Map-Chips mini-expansion on the Benelux map; the map's
geometry and the chips' values could not be found, so this engine plays the base game that the
Maps are laid with (unbounded table, no chips) — see the closing notes.

Readings: farmers score 3 for each completed city their field touches (the later rules, not the
2000 first edition's variant); a tile that fits nowhere is discarded and the same player draws
again; meeples on a feature are counted per player and the most share the points.
"""

from games.engines.errors import IllegalAction

from .actions import Action, parse_action
from .game import ENGINE_SLUG, MAX_PLAYERS, MEEPLES, MIN_PLAYERS, SOURCES, Game, Score
from .tileset import load_tileset

TILESET_NAME = load_tileset().name
TILESET_VERSION = load_tileset().version

__all__ = [
    "Action", "ENGINE_SLUG", "Game", "IllegalAction", "MAX_PLAYERS", "MEEPLES", "MIN_PLAYERS", "SOURCES",
    "Score", "TILESET_NAME", "TILESET_VERSION", "load_tileset", "parse_action",
]
