"""Carcassonne Maps – Benelux with the Map-Chips mini-expansion: a pure-Python rules engine.

:class:`Game` plays Carcassonne (:mod:`games.engines.carcassonne`: its placements, figures,
scoring, awards, expansions, snapshots and undo, reused through that engine's hooks) on a map:
what a map is and where tiles may go on it (:mod:`.map`, :mod:`.board`: :class:`MapBoard`), map
files checked against a JSON schema (:mod:`.map_file`), the Map-Chips and their set-up
(:mod:`.chips`, :mod:`.setup`), the game (:mod:`.game`), its actions (:mod:`.actions`), a random
and a simple player (:mod:`.simulate`, :mod:`.heuristic`) and a command line. No Django here.

>>> game = Game.new(3, seed=7)
>>> game.start_squares, game.face_down_left, [i["face_up"] for i in game.view()["islands"]][:2]
(('Meppel', 'Eindhoven'), 82, ['F', 'U'])
>>> game.apply(game.legal_actions()[0]); game.current
1

**Starting a game.** ``Game.new(players, seed=None, options=None, *, setup=None,
map_definition=None, start_squares=None, chip_values=None)``: 2 to 5 players, 6 with Inns &
Cathedrals' tiles in; ``options`` are Carcassonne's :class:`~games.engines.carcassonne.Options`,
by default :data:`DEFAULT_OPTIONS`: the base game with Inns & Cathedrals' and Traders & Builders'
tiles, tiles only (114 tiles, as seed 003 recommends 110 to 120), 7 meeples; any other options
work (their rules too: a builder's second tile, goods...). The map is Benelux unless
``map_definition`` says otherwise.

* A seeded game deals everything: without ``setup`` the seed draws the set-up
  (:func:`draw_setup`: two start squares drawn by the seed unless ``start_squares`` names them,
  the start tile on the first in the map's order and the first tile dealt on the second; the
  chips, with ``chip_values`` or the default values, spread face down; six island stacks of
  five), then shuffles the other tiles into the draw pile. With a :class:`SetUp` (``setup=``),
  that set-up (the pile shuffled by the seed: a seed's own set-up gives the same game). It knows
  every chip and every stack: its actions need name nothing of them, and
  :meth:`Game.legal_actions` names them all, so that a seeded game's record also replays at a table.
* A game without a seed is a real table: the scorekeeper cannot see a face-down chip nor the
  tiles under a stack's top. Its ``setup`` is a :class:`TableSetUp`, what the table shows: the
  used start squares and their tiles, the 20 squares with a chip (no colour, no value: the
  chips' backs are all alike, see :class:`TableSetUp`), the box's chip values (what a chip may
  show) and the face-up tile of each of the six stacks. Then the action laying a tile on a
  chip's square names what the chip shows turned over (``chip:violet:2``), and an action taking
  an island tile names the tile its stack turns up (``reveal:W``; none once the stack is used
  up). (A :class:`SetUp` without a seed is a table that knows the chips and stacks but not the draw.)

A set-up is checked: :class:`IllegalAction` with the chips module's and islands' reason codes
(``not_a_start_square``, ``start_squares_count``, ``wrong_chip_count``, ``chip_on_wave``,
``chips_adjacent``, ``chip_next_to_start``, ``island_stack_size``...), ``wrong_map``, and
``tile_not_in_play`` when it shows a tile the options do not hold.

**Actions** are Carcassonne's (:mod:`.actions`) with four more fields: ``island`` (a chip
colour) and ``stack`` (1 or 2): the tile is the face-up tile of that stack, paid with a chip of
that colour, instead of one drawn face down; ``reveal``: the tile that stack turns up at the
end of the turn; ``chip``: what the chip on the square shows. Notation, the Carcassonne words
first: ``V@12,4r90 meeple:2``, ``TB08@9,8r0 chip:orange:1``, ``U@11,5r0 big:1 island:violet/2
reveal:W``, ``V discard``; ``to_dict`` adds ``"island": "violet", "stack": 2, "reveal": "W",
"chip": "orange:1"``. And ``draw`` (``{"draw": True}``): while a chip could pay for an island
tile (:attr:`Game.choosing`), the player draws face down instead; seed 003 allows no change of
mind after it, so a seeded game lists ``draw`` and the island tiles then, and shows its drawn
tile (``view()["next_tile"]``) only after the draw (``nothing_to_choose`` when there is no
choice; a face-down tile laid without a draw is read as drawn). Refusals, each an :class:`IllegalAction` leaving the game unchanged:
Carcassonne's (``game_over``, ``not_your_turn``, ``tile_missing``, ``wrong_tile``,
``no_such_tile``, ``tile_fits``, ``occupied``, ``not_adjacent``, ``edge_mismatch``, the figures'),
the map's (``off_map``, ``wave_square``, ``island_square``, ``large_city_square``), and the
chips' and islands': ``no_such_island``, ``no_such_chip`` (no chip of that colour),
``chip_taken_this_turn``, ``island_empty``, ``island_turning_up``, ``island_tile_does_not_fit``,
``drew_face_down``, ``chip_missing``, ``no_chip_here``, ``wrong_chip``, ``chip_not_in_box``,
``reveal_missing``, ``nothing_to_reveal``, ``wrong_reveal``.

**Scores** have Carcassonne's sources (``city``, ``road``, ``cloister``, ``field``, and
``goods`` with Traders & Builders' rules) and ``chips``; each chip taken is an award of source
``chips``. **View**: Carcassonne's, and ``map`` (name, version, title, approximate;
:meth:`Game.map_view` gives every square to draw), ``start_squares``, ``chips`` (each square a
chip lay on: face down, or taken: by whom, showing what), ``chips_held``, ``chips_spent``,
``chips_to_pay``, ``chips_removed_unseen``, ``islands`` (face-up tile, tiles left, whether the
next turns up at the end of the turn), ``tiles_left`` (face down), ``drew_face_down``, and
``legal_action_kinds`` with ``draw`` and ``island`` when a chip may pay now.

The authority is seed 003 (Wikicarpedia, "Jetons de Carte – Benelux", French); the general
Maps rules come from Wikicarpedia's "Carcassonne Maps - Basic Rules" and "- Germany" pages and
the C&Co English rules. Where the sources are silent this engine reads them so (each reading is
stated again where it is applied):

* a tile goes only on a printed square that takes a tile (normal, start, town) next to a laid
  tile; a large city's squares, the wave squares, the island squares (the stacks lie there, out
  at sea) and outside take none; a feature reaching any of them, or the map's edge, is closed;
* a large city's *open edges* are city edges: the tile laid beyond one must show a city there
  and joins the large city; once one open edge is covered, every open edge is open to play;
  its other sides are border: neutral, and a feature ends closed there, as at the map's edge;
  the large city counts its printed squares as tiles and its coats of arms as pennants, and is
  complete once every open edge is covered (a meeple reaches it only through a tile's city);
* chips lie only on normal squares: not on waves, islands or outside (a tile must be able to take
  them), not on towns or large cities (the seed), not on any start square (each shows a town);
  only the squares beyond a large city's open edges are kept free around it;
* "spread evenly" is a seeded drawing that keeps the chips as far apart as it can;
* chip values per colour are not confirmed: six 1-point and four 2-point chips per colour by
  default (seed 003's x6/x4 groups), configurable;
* a chip's back shows neither its colour nor its value (see :class:`TableSetUp`);
* the chip is taken and scored as the tile is laid, before the figure and before any feature is
  scored ("1. Placing a tile" comes before "2. Pose d'un meeple");
* a chip pays for one tile: the island tile replaces a tile drawn face down, so it may be the
  builder's second tile too (Traders & Builders' rules), but not with a chip taken this turn
  (the community reading, seed 003's note), and a stack whose tile was taken this turn shows
  its next one only once the turn ends (``island_turning_up``); which of a player's chips of
  that colour is paid does not matter (chips left are worth nothing): the first taken;
* a face-up island tile that fits nowhere cannot be paid for (``island_tile_does_not_fit``): the
  player sees it before paying, and the rule has the tile taken to be laid ("vous placez votre
  tuile"); it stays on its island and may fit later;
* no change of mind: a tile drawn face down is laid (or, fitting nowhere, discarded as in
  Carcassonne); after such a discard the player draws again face down, not from an island
  (``drew_face_down``);
* the game ends after the last tile drawn face down is laid or discarded, even in a builder's
  double turn; the final scoring is Carcassonne's (with its expansions' rules when they are on).

The Benelux map shipped here (``data/benelux_approximate_v1.json``, version
``benelux-approximate@1``) is APPROXIMATE: the printed map's geometry is not public, so its grid
is reconstructed from the real geography and labelled ``"approximate": true``. An exact map
file can be loaded with :func:`load_map_file`; a record pins the map's name and version.
"""

from games.engines.errors import IllegalAction

from .actions import Action, parse_action
from .board import MapBoard, MapContact
from .chips import (
    CHIP_COLOURS, CHIPS_ON_MAP, CHIPS_PER_COLOUR, CHIPS_REMOVED, START_SQUARES_USED, Chip, ChipValues, PlacedChip,
    check_layout, check_start_squares, chip_squares, draw_layout, draw_start_squares, layout_problems,
    removed_chips,
)
from .game import CHIPS, DEFAULT_OPTIONS, ENGINE_SLUG, Game, IslandStack as IslandStackInPlay, TakenChip
from .map import ISLAND_COLOURS, Beyond, BorderEdge, Island, LargeCity, MapDefinition, OpenEdge, Square, SquareKind
from .map_file import (
    MapFileError, load_benelux, load_map_file, load_map_text, load_packaged_map, map_from_dict, packaged_map,
)
from .setup import (
    STACKS_PER_ISLAND, TILES_PER_STACK, FaceUpTile, IslandStack, SetUp, StartTile, TableSetUp, check_island_stacks,
    draw_setup, make_island_stacks, setup_from_dict,
)

__all__ = [
    "CHIPS", "DEFAULT_OPTIONS", "ENGINE_SLUG", "Action", "FaceUpTile", "Game", "IslandStackInPlay", "TableSetUp",
    "TakenChip", "parse_action", "setup_from_dict", "CHIPS_ON_MAP", "CHIPS_PER_COLOUR", "CHIPS_REMOVED", "CHIP_COLOURS", "ISLAND_COLOURS", "STACKS_PER_ISLAND",
    "START_SQUARES_USED", "TILES_PER_STACK", "Beyond", "BorderEdge", "Chip", "ChipValues", "IllegalAction", "Island",
    "IslandStack", "LargeCity", "MapBoard", "MapContact", "MapDefinition", "MapFileError", "OpenEdge", "PlacedChip", "SetUp",
    "Square", "SquareKind", "StartTile", "check_island_stacks", "check_layout", "check_start_squares",
    "chip_squares", "draw_layout", "draw_setup", "draw_start_squares", "layout_problems", "load_benelux",
    "load_map_file", "load_map_text", "load_packaged_map", "make_island_stacks", "map_from_dict", "packaged_map",
    "removed_chips",
]
