"""The tile board laid over a map: placements only on printed squares, next to what is laid.

:class:`MapBoard` keeps :class:`games.engines.tiles.Board`'s interface (``fits``,
``placements``, ``fits_anywhere``, ``mismatches``, ``is_adjacent``, ``place``, ``frontier``,
``to_state``/``from_state``), so a game written for ``Board`` plays on a map by building a
``MapBoard`` instead. What the map changes (Wikicarpedia, 'Carcassonne Maps - Germany' and the
C&Co English rules of Carcassonne Maps):

* a tile goes only on a printed square that takes a tile, and as usual next to a laid tile;
  the frontier never holds a wave, island, large-city or outside square;
* a tile beside a large city's open edge must show a city on that side (and one beside a road
  or city printed across the border must continue it); other border sides ask for nothing;
* once a tile lies at one open edge of a large city the city is *connected*: every square beyond
  its other open edges joins the frontier, though no laid tile touches it yet ("From now on,
  everybody can place a tile next to the city tile");
* the set-up tiles go on start squares with :meth:`MapBoard.place_on_start`, nowhere near
  each other; the game starts by laying next to them.

``tiles`` and ``placed`` hold the laid tiles only: the printed large cities are not tiles of the
board. Whoever joins features reads them with :meth:`MapBoard.map_contacts`: for a laid tile,
each feature that reaches the border (closed there) or a large city's open edge (joined to it),
counted as :class:`games.engines.tiles.FeatureGraph` counts open contacts (a feature once per
side).

>>> from games.engines.tiles import TileDef
>>> from games.engines.carcassonne_maps import load_benelux
>>> grass = TileDef.build("G", {s: ("field", (0, 0, 0)) for s in "NESW"}, {0: "field"})
>>> board = MapBoard(load_benelux())
>>> _ = board.place_on_start(grass, "Meppel", 0)
>>> sorted(board.frontier)                  # (12, 6) is Zwolle, a town: tiles go on towns
[(11, 5), (12, 4), (12, 6), (13, 5)]
>>> board.placement_problem(grass, (9, 5), 0).reason
'wave_square'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Self

from games.engines.errors import IllegalAction
from games.engines.tiles import SIDES, Around, Board, Mismatch, PlacedTile, Position, Side, TileDef, neighbour

from .map import Beyond, MapDefinition, SquareKind
from .setup import StartTile

_OFFSETS = tuple(neighbour((0, 0), side) for side in SIDES)

_REFUSED_SQUARE = {
    SquareKind.OUTSIDE: ("off_map", "({x},{y}) is off the map"),
    SquareKind.WAVE: ("wave_square", "({x},{y}) is a wave square: no tile may go there"),
    SquareKind.ISLAND: ("island_square", "({x},{y}) is an island square, where an island's stack lies"),
    SquareKind.LARGE_CITY: ("large_city_square", "({x},{y}) is printed with a large city: no tile may cover it"),
}


@dataclass(frozen=True, slots=True)
class MapContact:
    """A feature of a laid tile reaching a side that the map closes (``Beyond.BORDER``) or that
    meets a large city's open edge (``Beyond.OPEN_EDGE``, with the city's name)."""

    feature: int
    side: Side
    beyond: Beyond
    large_city: str | None = None


class MapBoard(Board):
    """Laid tiles on the squares of :attr:`map`, the frontier limited to squares that take a tile."""

    def __init__(self, map_definition: MapDefinition) -> None:
        super().__init__()
        self.map = map_definition
        self.connected_cities: set[str] = set()
        """Large cities with a tile at one of their open edges, whose other open edges are open to play."""

    # -- where a tile may go --------------------------------------------------------------------
    def is_adjacent(self, position: Position, around: Around | None = None) -> bool:
        """Whether a tile laid at ``position`` would touch the laid tiles (or a connected large
        city's open edge) on a square that takes a tile (``around`` is not needed: the frontier
        says)."""
        return position in self.frontier

    def mismatches(self, tile: TileDef, position: Position, quarter_turns: int) -> list[Mismatch]:
        """The usual mismatches with laid neighbours, and sides that fail what the map prints there
        (``neighbour`` is then the large city's square or the square beyond the border)."""
        found = super().mismatches(tile, position, quarter_turns)
        for side in SIDES:
            printed = self.map.printed_terrain(position, side)
            if printed is not None:
                mine = tile.edge(side, quarter_turns).terrain
                if mine != printed:
                    found.append(Mismatch(side, neighbour(position, side), mine, printed))
        return found

    def fits(self, tile: TileDef, position: Position, quarter_turns: int, around: Around | None = None) -> bool:
        """Whether ``tile`` may go at ``position``: an empty square of the frontier, every side
        continuing its laid neighbour and what the map prints (``around`` is not needed: the map's
        squares are read with the tiles)."""
        if position not in self.frontier:
            return False
        # Sides and turns as ints (what printed_side computes), for the speed of legal actions.
        edges = tile.edges
        printed = self.map.printed_terrains(position)
        tiles = self.tiles
        x, y = position
        for side, (dx, dy) in enumerate(_OFFSETS):
            mine = edges[(side - quarter_turns) % 4].terrain
            other = tiles.get((x + dx, y + dy))
            if other is not None:
                if mine != other.tile.edges[(side + 2 - other.quarter_turns) % 4].terrain:
                    return False
            elif printed is not None and printed[side] is not None and mine != printed[side]:
                return False
        return True

    def placements(self, tile: TileDef) -> Iterator[tuple[Position, int]]:
        """Every ``(position, quarter_turns)`` where ``tile`` fits (as :meth:`fits` says), in
        :meth:`Board.placements`' order; what each square asks of each side is read once."""
        terrains = [edge.terrain for edge in tile.edges]
        tiles = self.tiles
        printed_terrains = self.map.printed_terrains
        for position in sorted(self.frontier):
            x, y = position
            printed = printed_terrains(position)
            needs: list[tuple[int, str]] = []
            for side, (dx, dy) in enumerate(_OFFSETS):
                other = tiles.get((x + dx, y + dy))
                if other is not None:
                    needs.append((side, other.tile.edges[(side + 2 - other.quarter_turns) % 4].terrain))
                elif printed is not None:
                    terrain = printed[side]
                    if terrain is not None:
                        needs.append((side, terrain))
            for quarter_turns in range(4):
                if all(terrains[(side - quarter_turns) % 4] == need for side, need in needs):
                    yield position, quarter_turns

    def placement_problem(self, tile: TileDef, position: Position, quarter_turns: int) -> IllegalAction | None:
        """Why ``tile`` may not go at ``position`` turned ``quarter_turns``, as an
        :class:`IllegalAction` to raise (``off_map``, ``wave_square``, ``island_square``,
        ``large_city_square``, ``occupied``, ``not_adjacent``, ``edge_mismatch``), or ``None``."""
        x, y = position
        refused = _REFUSED_SQUARE.get(self.map.kind(position))
        if refused is not None:
            return IllegalAction(refused[0], refused[1].format(x=x, y=y))
        if position in self.tiles:
            return IllegalAction("occupied", f"a tile already lies at ({x},{y})")
        if position not in self.frontier:
            return IllegalAction("not_adjacent", f"({x},{y}) touches no laid tile by a side")
        mismatches = self.mismatches(tile, position, quarter_turns)
        if mismatches:
            m = mismatches[0]
            return IllegalAction("edge_mismatch", f"the {m.side.name} edge is {m.terrain} but ({m.neighbour[0]},"
                                 f"{m.neighbour[1]}) shows {m.neighbour_terrain}")
        return None

    # -- laying ---------------------------------------------------------------------------------
    def place(self, tile: TileDef, position: Position, quarter_turns: int) -> PlacedTile:
        """Put ``tile`` down without checking the rules (callers check with :meth:`fits`)."""
        placed = super().place(tile, position, quarter_turns)
        takes_tile = self.map.takes_tile
        for side in SIDES:
            cell = neighbour(position, side)
            if not takes_tile(cell):
                self.frontier.discard(cell)
        for _, city in self.map.large_cities_beside(position):
            if city.name not in self.connected_cities:
                self.connected_cities.add(city.name)
                self.frontier.update(p for p in city.open_edge_squares if p not in self.tiles)
        return placed

    def map_contacts(self, placed: PlacedTile) -> list[MapContact]:
        """The features of ``placed`` that reach the border or a large city's open edge, once per
        feature and side, sides clockwise from the north."""
        contacts = []
        for side in SIDES:
            beyond = self.map.beyond(placed.position, side)
            if beyond is Beyond.SQUARE:
                continue
            city = self.map.large_city_at(neighbour(placed.position, side)) if beyond is Beyond.OPEN_EDGE else None
            for feature in dict.fromkeys(placed.tile.edge(side, placed.quarter_turns).sub_edges):
                contacts.append(MapContact(feature, side, beyond, None if city is None else city.name))
        return contacts

    def place_on_start(self, tile: TileDef, start: str, quarter_turns: int = 0) -> PlacedTile:
        """Lay a set-up tile on the start square called ``start`` (no neighbour needed or matched);
        ``IllegalAction`` ``not_a_start_square`` or ``occupied``."""
        position = self.map.start_squares.get(start)
        if position is None:
            raise IllegalAction("not_a_start_square", f"{self.map.name} has no start square {start!r}")
        if position in self.tiles:
            raise IllegalAction("occupied", f"a tile already lies on the start square {start}")
        return self.place(tile, position, quarter_turns)

    @classmethod
    def set_up(cls, map_definition: MapDefinition, start_tiles: Iterable[StartTile],
               tiles: Mapping[str, TileDef]) -> MapBoard:
        """A board with the set-up tiles (:attr:`SetUp.start_tiles`) on their start squares, the
        tiles looked up by id in ``tiles``."""
        board = cls(map_definition)
        for start in start_tiles:
            board.place_on_start(tiles[start.tile], start.start, start.quarter_turns)
        return board

    def copy(self) -> Self:
        board = super().copy()
        board.connected_cities = set(self.connected_cities)
        return board

    # -- state ----------------------------------------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        """JSON-able: the map's name and version, and the laid tiles as :meth:`Board.to_state`."""
        return {"map": self.map.ref, **super().to_state()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], tiles: Mapping[str, TileDef],
                   map_definition: MapDefinition | None = None) -> MapBoard:
        """The board of :meth:`to_state`. Its map is ``map_definition`` if given (it must be the one
        the state names), else the packaged map the state names."""
        named = state.get("map")
        if map_definition is None:
            if named is None:
                raise ValueError("map board state: it names no map; pass the map definition")
            from .map_file import packaged_map

            map_definition = packaged_map(str(named["name"]), str(named["version"]))
        elif named is not None and dict(named) != map_definition.ref:
            raise ValueError(f"map board state: laid on {named}, not on {map_definition.ref}")
        laid = Board.from_state(state, tiles)
        board = cls(map_definition)
        for placed in laid.placed:
            if not map_definition.takes_tile(placed.position):
                x, y = placed.position
                raise ValueError(f"map board state: ({x},{y}) is {map_definition.kind(placed.position).value}, "
                                 "where no tile may lie")
            board.tiles[placed.position] = placed
            board.placed.append(placed)
        board._recompute_frontier()
        return board

    def _recompute_frontier(self) -> None:
        takes_tile = self.map.takes_tile
        self.frontier = {cell for position in self.tiles for cell in self.map.orthogonal_neighbours(position)
                         if takes_tile(cell) and cell not in self.tiles}
        self.connected_cities = {city.name for position in self.tiles
                                 for _, city in self.map.large_cities_beside(position)}
        for name in self.connected_cities:
            self.frontier.update(p for p in self.map.large_city(name).open_edge_squares if p not in self.tiles)
