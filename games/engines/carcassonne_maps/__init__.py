"""Carcassonne Maps with the Map-Chips mini-expansion: the map layer and the Map-Chips set-up.

A pure-Python rules engine, first half: what a map is and where tiles may go on it
(:mod:`.map`, :mod:`.board`), map files checked against a JSON schema (:mod:`.map_file`), the
Map-Chips and their set-up on Carcassonne Maps – Benelux (:mod:`.chips`, :mod:`.setup`). A game
on a map plays the base Carcassonne rules on a :class:`MapBoard` (``Board``'s interface) and
starts from a :class:`SetUp`. No Django here.

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
* chips lie only on normal squares: not on waves, islands or outside (a tile must be able to take
  them), not on towns or large cities (the seed), not on any start square (each shows a town);
  only the squares beyond a large city's open edges are kept free around it;
* "spread evenly" is a seeded drawing that keeps the chips as far apart as it can;
* chip values per colour are not confirmed: six 1-point and four 2-point chips per colour by
  default (seed 003's x6/x4 groups), configurable.

The Benelux map shipped here (``data/benelux_approximate_v1.json``, version
``benelux-approximate@1``) is APPROXIMATE: the printed map's geometry is not public, so its grid
is reconstructed from the real geography and labelled ``"approximate": true``. An exact map
file can be loaded with :func:`load_map_file`; a record pins the map's name and version.
"""

from games.engines.errors import IllegalAction

from .board import MapBoard, MapContact
from .chips import (
    CHIP_COLOURS, CHIPS_ON_MAP, CHIPS_PER_COLOUR, CHIPS_REMOVED, START_SQUARES_USED, Chip, ChipValues, PlacedChip,
    check_layout, check_start_squares, chip_squares, draw_layout, draw_start_squares, layout_problems,
    removed_chips,
)
from .map import ISLAND_COLOURS, Beyond, BorderEdge, Island, LargeCity, MapDefinition, OpenEdge, Square, SquareKind
from .map_file import (
    MapFileError, load_benelux, load_map_file, load_map_text, load_packaged_map, map_from_dict, packaged_map,
)
from .setup import (
    STACKS_PER_ISLAND, TILES_PER_STACK, IslandStack, SetUp, StartTile, check_island_stacks, draw_setup,
    make_island_stacks,
)

__all__ = [
    "CHIPS_ON_MAP", "CHIPS_PER_COLOUR", "CHIPS_REMOVED", "CHIP_COLOURS", "ISLAND_COLOURS", "STACKS_PER_ISLAND",
    "START_SQUARES_USED", "TILES_PER_STACK", "Beyond", "BorderEdge", "Chip", "ChipValues", "IllegalAction", "Island",
    "IslandStack", "LargeCity", "MapBoard", "MapContact", "MapDefinition", "MapFileError", "OpenEdge", "PlacedChip", "SetUp",
    "Square", "SquareKind", "StartTile", "check_island_stacks", "check_layout", "check_start_squares",
    "chip_squares", "draw_layout", "draw_setup", "draw_start_squares", "layout_problems", "load_benelux",
    "load_map_file", "load_map_text", "load_packaged_map", "make_island_stacks", "map_from_dict", "packaged_map",
    "removed_chips",
]
