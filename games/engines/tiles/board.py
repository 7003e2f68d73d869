"""A board of placed tiles: adjacency, edge matching and the cells where a tile may go.

>>> from games.engines.tiles.tile import TileDef
>>> grass = TileDef.build("G", {s: ("meadow", (0, 0, 0)) for s in "NESW"}, {0: "meadow"})
>>> wood = TileDef.build("W", {"N": ("forest", (0, 0, 0)), "E": ("meadow", (1, 1, 1)),
...                            "S": ("meadow", (1, 1, 1)), "W": ("meadow", (1, 1, 1))},
...                      {0: "forest", 1: "meadow"})
>>> board = Board()
>>> _ = board.place(grass, (0, 0), 0)
>>> board.mismatches(wood, (0, 1), 0)   # the forest would face the meadow of (0, 0)
[Mismatch(side=<Side.N: 0>, neighbour=(0, 0), terrain='forest', neighbour_terrain='meadow')]
>>> board.fits(wood, (0, 1), 2)
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Self

from .geometry import SIDE_OFFSETS, SIDES, Position, Side, neighbour
from .tile import Needs, TileDef


class PlacedTile(NamedTuple):
    """A tile on the board; ``order`` counts placements from 0 (the start tile).

    A named tuple rather than a frozen dataclass: as immutable, and built several times faster
    (one is built for every tile laid, and every replay lays them all again).
    """

    tile: TileDef
    position: Position
    quarter_turns: int
    order: int


Around = tuple[PlacedTile | None, PlacedTile | None, PlacedTile | None, PlacedTile | None]
"""The placed tiles beside a cell, by side (north, east, south, west), ``None`` where none lies."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A side whose terrain differs from the neighbour's facing side."""

    side: Side
    neighbour: Position
    terrain: str
    neighbour_terrain: str


class Board:
    """Placed tiles by position, with the frontier of empty cells touching them."""

    def __init__(self) -> None:
        self.tiles: dict[Position, PlacedTile] = {}
        self.placed: list[PlacedTile] = []
        self._frontier: set[Position] = set()
        self._frontier_takes_in = 0
        """How many of :attr:`placed` the frontier has taken in so far: it is brought up to date
        when it is read, and a replay, which lays every tile and checks each against the tiles
        around it, never reads it."""
        self._needs: dict[Position, Needs] = {}
        """What :meth:`needs` answered for cells of the frontier, until a tile comes beside them:
        a turn's legal actions ask it of every cell, and few change from one turn to the next."""

    def __len__(self) -> int:
        return len(self.placed)

    @property
    def frontier(self) -> set[Position]:
        """Every empty cell beside a laid tile (corners do not count)."""
        placed = self.placed
        if self._frontier_takes_in < len(placed):
            tiles, frontier = self.tiles, self._frontier
            for laid in placed[self._frontier_takes_in:]:
                frontier.discard(laid.position)
                x, y = laid.position
                for dx, dy in SIDE_OFFSETS:
                    cell = (x + dx, y + dy)
                    if cell not in tiles:
                        frontier.add(cell)
            self._frontier_takes_in = len(placed)
        return self._frontier

    @frontier.setter
    def frontier(self, cells: set[Position]) -> None:
        self._frontier = cells
        self._frontier_takes_in = len(self.placed)

    def is_adjacent(self, position: Position, around: Around | None = None) -> bool:
        """Whether ``position``, empty, touches a placed tile by a side (corners do not count);
        on an empty board, whether it is the first cell, ``(0, 0)``."""
        if not self.tiles:
            return position == (0, 0)
        return position not in self.tiles and (self.around(position) if around is None else around).count(None) < 4

    def mismatches(self, tile: TileDef, position: Position, quarter_turns: int) -> list[Mismatch]:
        """Sides of ``tile`` placed so that would not continue the neighbour's terrain."""
        found = []
        terrains = tile.turned_terrains[quarter_turns % 4]
        needs = self.needs(position)
        for side in SIDES:
            theirs = needs[side]
            if theirs is not None and terrains[side] != theirs:
                found.append(Mismatch(side, neighbour(position, side), terrains[side], theirs))
        return found

    def around(self, position: Position) -> Around:
        """The placed tiles beside ``position``, by side.

        Laying a tile asks it several times (does the tile fit, which features does it join,
        which cells join the frontier): a caller that asks once passes the answer on.

        >>> from games.engines.tiles.tile import TileDef
        >>> grass = TileDef.build("G", {s: ("meadow", (0, 0, 0)) for s in "NESW"}, {0: "meadow"})
        >>> board = Board()
        >>> _ = board.place(grass, (0, 0), 0)
        >>> [None if p is None else p.position for p in board.around((1, 0))]
        [None, None, None, (0, 0)]
        """
        tiles = self.tiles
        x, y = position
        return tiles.get((x, y - 1)), tiles.get((x + 1, y)), tiles.get((x, y + 1)), tiles.get((x - 1, y))

    def needs(self, position: Position) -> Needs:
        """What the tiles beside ``position`` ask of each side of a tile laid there: the terrain
        of their facing side, ``None`` where no tile lies."""
        north, east, south, west = self.around(position)
        # Each neighbour's side facing this cell is the opposite one: its south faces our north.
        return (None if north is None else north.tile.turned_terrains[north.quarter_turns][2],
                None if east is None else east.tile.turned_terrains[east.quarter_turns][3],
                None if south is None else south.tile.turned_terrains[south.quarter_turns][0],
                None if west is None else west.tile.turned_terrains[west.quarter_turns][1])

    def fits(self, tile: TileDef, position: Position, quarter_turns: int, around: Around | None = None) -> bool:
        """Whether ``tile`` may go at ``position`` (with the tiles ``around`` it, if known): empty,
        beside a laid tile and matching on every side."""
        if position in self.tiles:
            return False
        if around is None:
            around = self.around(position)
        # Side by side, written out (every action asks): each neighbour's side facing ours is the
        # opposite one, its south facing our north.
        north, east, south, west = around
        here = tile.turned_terrains[quarter_turns % 4]
        if north is not None and north.tile.turned_terrains[north.quarter_turns][2] != here[0]:
            return False
        if east is not None and east.tile.turned_terrains[east.quarter_turns][3] != here[1]:
            return False
        if south is not None and south.tile.turned_terrains[south.quarter_turns][0] != here[2]:
            return False
        if west is not None and west.tile.turned_terrains[west.quarter_turns][1] != here[3]:
            return False
        return not (north is None and east is None and south is None and west is None)

    def placements(self, tile: TileDef) -> Iterator[tuple[Position, int]]:
        """Every ``(position, quarter_turns)`` where ``tile`` fits, in a stable order."""
        known = self._needs
        turns_fitting = tile.turns_fitting
        for position in sorted(self.frontier):
            needs = known.get(position)
            if needs is None:
                needs = known[position] = self.needs(position)
            for quarter_turns in turns_fitting(needs):
                yield position, quarter_turns

    def fits_anywhere(self, tile: TileDef) -> bool:
        """Whether ``tile`` has at least one legal placement."""
        return next(self.placements(tile), None) is not None

    def place(self, tile: TileDef, position: Position, quarter_turns: int) -> PlacedTile:
        """Put ``tile`` down without checking the rules (callers check with :meth:`fits`)."""
        # Built as PlacedTile() builds it, without the call to its generated __new__.
        placed = tuple.__new__(PlacedTile, (tile, position, quarter_turns, len(self.placed)))
        self.tiles[position] = placed
        self.placed.append(placed)
        known = self._needs
        if known:  # the cells beside this one face it now: what they needed is out of date
            known.pop(position, None)
            x, y = position
            for dx, dy in SIDE_OFFSETS:
                known.pop((x + dx, y + dy), None)
        return placed

    def copy(self) -> Self:
        """An independent board with the same tiles (placed tiles are immutable: shared)."""
        board = self.__class__.__new__(self.__class__)
        board.__dict__.update(self.__dict__)
        board.tiles = dict(self.tiles)
        board.placed = list(self.placed)
        board.frontier = set(self.frontier)  # taken in up to date
        board._needs = {}
        return board

    def to_state(self) -> dict[str, Any]:
        """JSON-able: ``{"placed": [[tile id, x, y, quarter turns], ...]}`` in placement order.

        >>> from games.engines.tiles.tile import TileDef
        >>> grass = TileDef.build("G", {s: ("meadow", (0, 0, 0)) for s in "NESW"}, {0: "meadow"})
        >>> board = Board()
        >>> _ = board.place(grass, (0, 0), 0), board.place(grass, (1, 0), 3)
        >>> board.to_state()
        {'placed': [['G', 0, 0, 0], ['G', 1, 0, 3]]}
        >>> Board.from_state(board.to_state(), {"G": grass}).frontier == board.frontier
        True
        """
        return {"placed": [[p.tile.id, p.position[0], p.position[1], p.quarter_turns] for p in self.placed]}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], tiles: Mapping[str, TileDef]) -> Board:
        """The board of :meth:`to_state`, its tiles looked up by id in ``tiles`` (the frontier follows)."""
        board = cls()
        for order, (tile_id, x, y, quarter_turns) in enumerate(state["placed"]):
            tile = tiles.get(tile_id)
            if tile is None:
                raise ValueError(f"board state: unknown tile {tile_id!r}")
            if quarter_turns not in (0, 1, 2, 3):
                raise ValueError(f"board state: {quarter_turns!r} is not a number of quarter turns")
            position = (int(x), int(y))
            if position in board.tiles:
                raise ValueError(f"board state: two tiles at ({x},{y})")
            placed = PlacedTile(tile, position, quarter_turns, order)
            board.tiles[position] = placed
            board.placed.append(placed)
        return board

    def neighbours(self, position: Position) -> Iterator[tuple[Side, PlacedTile]]:
        """Placed tiles beside ``position``, with the side of ``position`` they touch."""
        for side in SIDES:
            other = self.tiles.get(neighbour(position, side))
            if other is not None:
                yield side, other
