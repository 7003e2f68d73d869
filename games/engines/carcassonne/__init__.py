"""Carcassonne (Hans im Glück 2000) with Inns & Cathedrals and Traders & Builders: a pure-Python
rules engine on the shared tile core.

A :class:`Game` is the state; :meth:`Game.legal_actions`, :meth:`Game.apply` (raising
:class:`IllegalAction` with a reason code, the game unchanged), :meth:`Game.undo`,
:meth:`Game.scores`. No Django here. The base tile set (``data/base_tiles_v1.json``, version
``1``) and the expansions' (``data/inns_cathedrals_tiles_v1.json``, IC01-IC17, and
``data/traders_builders_tiles_v1.json``, TB01-TB24, each version ``1``) are transcribed from the
gathered facts (``shared/reference/carcassonne``, JCloisterZone's tile definitions).

``Game.new(players, seed)`` is the base game. :class:`Options` add expansions, each with its
rules or its tiles only, and set the meeples per player::

    Game.new(4, seed=7, options=Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS))
    Game.new(4, seed=7, options=Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS, meeples=9))

Seed 003 is about the Maps and the Map-Chips mini-expansion on the Benelux map: this engine plays
the game the Maps are laid with (an unbounded table, no chips), and
:mod:`games.engines.carcassonne_maps` plays it on the map through this engine's hooks (see
:class:`Game`).

Readings of the base game: farmers score 3 for each completed city their field touches (the
later rules, not the 2000 first edition's variant); a tile that fits nowhere is discarded and
the same player draws again; meeples on a feature are counted per player and the most share
the points.

The expansions follow their 2nd edition (Hans im Glück 2015, Z-Man Games in English), the
edition whose base-game farmer rule this engine already plays:

- Inns & Cathedrals: a completed road with an inn (one or more) scores 2 a tile, an unfinished
  one nothing; a completed city with a cathedral (one or both) scores 3 a tile and a pennant, an
  unfinished one nothing. Each player has one large meeple (``big``), counted as two followers
  for every majority (cities, roads, cloisters, fields) and scoring no more than a meeple; it is
  that turn's figure, instead of a meeple. The box brings a sixth player's meeples: 6 players
  may play when its tiles are in.
- Traders & Builders: whoever lays the tile that completes a city takes its goods tokens (wine,
  grain, cloth), followers or not; at the end the most tokens of each good score 10, and every
  player tied for the most scores 10. The builder goes, instead of a meeple, on a road or city of
  the tile just laid where its owner already has a follower; when that player later lays a tile
  continuing that road or city they lay a second tile at once (the same seat plays again), even
  if the first one completed it, and the second tile never gives a third. The engine always
  takes the second tile. The pig goes, instead of a meeple, on a field where its owner has a
  farmer; at the end, if that player holds the field, they score 4 per completed city instead
  of 3 (other holders 3). Builders and pigs are never counted for majorities; a builder comes
  home with the followers when its feature is scored, a pig at the final scoring.

One figure a turn: a meeple, the large meeple, the builder or the pig. With an expansion's
tiles only, its marks are pictures and its figures stay in the box.
"""

from games.engines.errors import IllegalAction

from .actions import Action, parse_action
from .figures import BIG, BUILDER, MEEPLE, PIG
from .game import ENGINE_SLUG, MIN_PLAYERS, SOURCES, Game, Score
from .options import (
    BASE_GAME, EXPANSIONS, INNS_CATHEDRALS, MAX_PLAYERS, MAX_PLAYERS_WITH_INNS_CATHEDRALS, MEEPLES, TRADERS_BUILDERS,
    Options,
)
from .tileset import load_tileset, tileset_for

TILESET_NAME = load_tileset().name
TILESET_VERSION = load_tileset().version

__all__ = [
    "Action", "BASE_GAME", "BIG", "BUILDER", "ENGINE_SLUG", "EXPANSIONS", "Game", "INNS_CATHEDRALS", "IllegalAction",
    "MAX_PLAYERS", "MAX_PLAYERS_WITH_INNS_CATHEDRALS", "MEEPLE", "MEEPLES", "MIN_PLAYERS", "Options", "PIG",
    "SOURCES", "Score", "TILESET_NAME", "TILESET_VERSION", "TRADERS_BUILDERS", "load_tileset", "parse_action",
    "tileset_for",
]
