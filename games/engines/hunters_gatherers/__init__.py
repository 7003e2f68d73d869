"""Carcassonne – Hunters and Gatherers (first edition, 2002), rules engine.

TODO docstring
"""

from .actions import FIGURE_KINDS, Action, FigureKind, NotationError, parse_action
from .game import ENGINE_SLUG, Game, IllegalAction, Score
from .scoring import Award
from .tileset import Tile, Tileset, TilesetError, load_tileset

_DEFAULT = load_tileset()
TILESET_NAME: str = _DEFAULT.name
TILESET_VERSION: str = _DEFAULT.version

__all__ = [
    "ENGINE_SLUG", "FIGURE_KINDS", "TILESET_NAME", "TILESET_VERSION", "Action", "Award", "FigureKind",
    "Game", "IllegalAction", "NotationError", "Score", "Tile", "Tileset", "TilesetError", "load_tileset",
    "parse_action",
]
