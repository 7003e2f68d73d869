"""A Carcassonne Maps map: printed squares on the tile grid, and what each one allows.

Any edition's map is the same kind of thing: a grid of printed squares (``x`` east, ``y``
south, as in :mod:`games.engines.tiles`) where land tiles may go, a few named *start squares*
where the set-up tiles lie, *towns* (normal squares that carry a name), *large cities* printed
over one or more squares, and squares no tile may cover: the sea's *wave* squares, the *island*
squares where Map-Chips Benelux keeps its stacks, and everything outside the map. (Seed 003's
players "naviguer vers [...] îles de la mer du Nord" to take tiles from the stacks lying there:
the islands are sea, not land to lay on, unlike Iberia's ferry islands.)

A large city is a city already printed on the map. Its *open edges* are the sides where the
printed city continues; each one is an edge like a tile's: the tile laid on the square beyond it
must show a city on that side, its city then joins the large city, and the large city is complete
once every open edge is covered (Wikicarpedia, 'Carcassonne Maps - Germany': the printed squares
count as ordinary city parts, its coats of arms as pennants). Its other sides, like the map's
border, the waves and the islands, are *border*: any terrain may face them and a feature reaching
them is closed there (same page: a city, road or field at the edge of the map counts as closed;
a border square with nothing printed is neutral).

>>> from games.engines.tiles import Side
>>> from games.engines.carcassonne_maps import load_benelux
>>> benelux = load_benelux()
>>> benelux.approximate, benelux.start_position("Eindhoven"), benelux.kind((9, 4))
(True, (10, 12), <SquareKind.WAVE: 'wave'>)
>>> benelux.takes_tile((8, 7)), benelux.large_city_at((8, 7)).name
(False, 'Amsterdam')
>>> benelux.printed_terrain((8, 8), Side.N), benelux.beyond((8, 8), Side.N)
('city', <Beyond.OPEN_EDGE: 'open_edge'>)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from games.engines.tiles import SIDES, Position, Side, neighbour

ISLAND_COLOURS: Final = ("violet", "light_blue", "orange")
"""The Map-Chips colours, which are also the islands' colours on the Benelux map."""


class SquareKind(StrEnum):
    """What is printed on a square of the grid."""

    NORMAL = "normal"
    START = "start"
    TOWN = "town"
    LARGE_CITY = "large_city"
    WAVE = "wave"
    ISLAND = "island"
    OUTSIDE = "outside"

    @property
    def takes_tile(self) -> bool:
        """Whether a land tile may ever lie on a square of this kind."""
        return self in _TAKES_TILE


_TAKES_TILE: Final = frozenset({SquareKind.NORMAL, SquareKind.START, SquareKind.TOWN})


class Beyond(StrEnum):
    """What lies beyond one side of a square that takes a tile."""

    SQUARE = "square"
    """Another square that takes a tile: the usual matching once a tile lies there."""
    OPEN_EDGE = "open_edge"
    """An open edge of a large city: a city edge to match, and the large city to join."""
    BORDER = "border"
    """Nothing a tile can lie on (outside, sea, wave, island, a large city's closed side): neutral,
    unless the map prints a road or city crossing the border there; features end closed."""


@dataclass(frozen=True, slots=True)
class Square:
    """One printed square: its kind, and its name (start squares, towns, large cities) or its
    island colour and stack number (island squares)."""

    position: Position
    kind: SquareKind
    name: str | None = None
    colour: str | None = None
    stack: int | None = None

    @property
    def takes_tile(self) -> bool:
        return self.kind.takes_tile


@dataclass(frozen=True, slots=True)
class OpenEdge:
    """A side of a large city's square where the printed city continues onto the next square."""

    position: Position
    side: Side

    @property
    def beyond(self) -> Position:
        """The square whose tile must show a city on the side facing this edge."""
        return neighbour(self.position, self.side)


@dataclass(frozen=True, slots=True)
class LargeCity:
    """A city printed on the map over ``squares``, which no tile may cover.

    ``coats_of_arms`` count as pennants when the city scores; its printed squares count as city
    tiles (Wikicarpedia, 'Carcassonne Maps - Germany': Berlin completed, 6 tiles + 4 coats of
    arms = 20 points).
    """

    name: str
    squares: tuple[Position, ...]
    open_edges: tuple[OpenEdge, ...]
    coats_of_arms: int = 0

    @property
    def open_edge_squares(self) -> tuple[Position, ...]:
        """The squares beyond the open edges, once each, in the order the edges are listed."""
        return tuple(dict.fromkeys(edge.beyond for edge in self.open_edges))


@dataclass(frozen=True, slots=True)
class Island:
    """An island in a chip colour; ``stacks`` are its two stack squares, stack 1 first."""

    colour: str
    name: str
    stacks: tuple[Position, ...]


@dataclass(frozen=True, slots=True)
class BorderEdge:
    """A road or city printed across the map's border on one side of a square: the tile laid
    there must continue it (Wikicarpedia, 'Carcassonne Maps - Germany', border squares)."""

    position: Position
    side: Side
    terrain: str


@dataclass(frozen=True, eq=False)
class MapDefinition:
    """A map: its printed squares by position (outside squares are simply absent) and its named
    places. Built by :func:`games.engines.carcassonne_maps.map_file.map_from_dict`, which checks it;
    immutable, and shared rather than copied (``copy.deepcopy`` returns it as it is)."""

    name: str
    version: str
    approximate: bool
    provenance: str
    width: int
    height: int
    squares: Mapping[Position, Square]
    large_cities: tuple[LargeCity, ...]
    islands: tuple[Island, ...]
    border_edges: tuple[BorderEdge, ...] = ()
    title: str = ""
    recommended_tiles: tuple[int, int] | None = None
    _city_at: dict[Position, LargeCity] = field(init=False, repr=False)
    _printed: dict[tuple[Position, Side], tuple[str, Beyond]] = field(init=False, repr=False)
    _printed_around: dict[Position, tuple[str | None, str | None, str | None, str | None]] = field(
        init=False, repr=False)
    _cities_beside: dict[Position, tuple[tuple[Side, LargeCity], ...]] = field(init=False, repr=False)
    _playable: frozenset[Position] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        city_at = {square: city for city in self.large_cities for square in city.squares}
        printed: dict[tuple[Position, Side], tuple[str, Beyond]] = {}
        for city in self.large_cities:
            for edge in city.open_edges:
                printed[(edge.beyond, edge.side.opposite)] = ("city", Beyond.OPEN_EDGE)
        for border in self.border_edges:
            printed[(border.position, border.side)] = (border.terrain, Beyond.BORDER)
        object.__setattr__(self, "_city_at", city_at)
        object.__setattr__(self, "_printed", printed)
        around = {}
        for position in {p for p, _ in printed}:
            terrains = [printed.get((position, side), (None, None))[0] for side in SIDES]
            around[position] = (terrains[0], terrains[1], terrains[2], terrains[3])
        object.__setattr__(self, "_printed_around", around)
        beside: dict[Position, list[tuple[Side, LargeCity]]] = {}
        for (position, side), (_, what) in sorted(printed.items()):
            if what is Beyond.OPEN_EDGE:
                beside.setdefault(position, []).append((side, city_at[neighbour(position, side)]))
        object.__setattr__(self, "_cities_beside", {p: tuple(found) for p, found in beside.items()})
        object.__setattr__(self, "_playable", frozenset(p for p, s in self.squares.items() if s.takes_tile))

    def __deepcopy__(self, memo: dict[int, Any]) -> MapDefinition:
        return self

    def __copy__(self) -> MapDefinition:
        return self

    @property
    def ref(self) -> dict[str, str]:
        """``{"name", "version"}``: what a record pins to say which map it was played on."""
        return {"name": self.name, "version": self.version}

    def to_view(self) -> dict[str, Any]:
        """JSON-able, what a viewer needs to draw the map under the tiles: its reference and
        size, every printed square (``kind``, and its ``name``, or its island ``colour`` and
        ``stack``), the large cities (squares, open edges, coats of arms), the islands and any
        road or city printed across the border. Outside squares are not listed.

        >>> from games.engines.carcassonne_maps import load_benelux
        >>> drawing = load_benelux().to_view()
        >>> drawing["width"], drawing["height"], drawing["approximate"], drawing["squares"][0]
        (16, 24, True, {'x': 11, 'y': 0, 'kind': 'island', 'name': 'Ameland', 'colour': 'orange', 'stack': 1})
        """
        def square(s: Square) -> dict[str, Any]:
            data: dict[str, Any] = {"x": s.position[0], "y": s.position[1], "kind": s.kind.value}
            data |= {k: v for k, v in (("name", s.name), ("colour", s.colour), ("stack", s.stack)) if v is not None}
            return data

        return {
            **self.ref, "title": self.title, "approximate": self.approximate, "width": self.width,
            "height": self.height,
            "squares": [square(self.squares[p]) for p in sorted(self.squares, key=_reading_order)],
            "large_cities": [{"name": c.name, "squares": [list(p) for p in c.squares],
                              "open_edges": [{"x": e.position[0], "y": e.position[1], "side": e.side.name}
                                             for e in c.open_edges], "coats_of_arms": c.coats_of_arms}
                             for c in self.large_cities],
            "islands": [{"colour": i.colour, "name": i.name, "stacks": [list(p) for p in i.stacks]}
                        for i in self.islands],
            "border_edges": [{"x": b.position[0], "y": b.position[1], "side": b.side.name, "terrain": b.terrain}
                             for b in self.border_edges],
        }

    # -- squares -------------------------------------------------------------------------------
    def square(self, position: Position) -> Square:
        """The square at ``position``; an ``outside`` square off the printed map."""
        found = self.squares.get(position)
        return found if found is not None else Square(position, SquareKind.OUTSIDE)

    def kind(self, position: Position) -> SquareKind:
        found = self.squares.get(position)
        return found.kind if found is not None else SquareKind.OUTSIDE

    def takes_tile(self, position: Position) -> bool:
        """Whether a land tile may lie on ``position`` (normal, start and town squares)."""
        return position in self._playable

    @property
    def playable(self) -> frozenset[Position]:
        """Every square a land tile may lie on."""
        return self._playable

    def squares_of(self, kind: SquareKind) -> list[Position]:
        """The squares of one kind, in reading order (row by row, west to east)."""
        return sorted((p for p, s in self.squares.items() if s.kind is kind), key=_reading_order)

    @property
    def start_squares(self) -> dict[str, Position]:
        """Start squares by name, in reading order."""
        return {str(self.squares[p].name): p for p in self.squares_of(SquareKind.START)}

    def start_position(self, name: str) -> Position:
        """The square of the start square called ``name``; ``KeyError`` if the map has none."""
        return self.start_squares[name]

    @property
    def towns(self) -> dict[str, Position]:
        return {str(self.squares[p].name): p for p in self.squares_of(SquareKind.TOWN)}

    def island(self, colour: str) -> Island:
        """The island of a chip colour; ``KeyError`` if the map has none."""
        for island in self.islands:
            if island.colour == colour:
                return island
        raise KeyError(colour)

    # -- neighbourhood ---------------------------------------------------------------------------
    @staticmethod
    def orthogonal_neighbours(position: Position) -> tuple[Position, ...]:
        """The four squares sharing a side with ``position`` (north, east, south, west), whatever
        they are; corners do not count.

        >>> MapDefinition.orthogonal_neighbours((3, 5))
        ((3, 4), (4, 5), (3, 6), (2, 5))
        """
        return tuple(neighbour(position, side) for side in SIDES)

    def large_city_at(self, position: Position) -> LargeCity | None:
        """The large city printed on ``position``, if any."""
        return self._city_at.get(position)

    def large_city(self, name: str) -> LargeCity:
        for city in self.large_cities:
            if city.name == name:
                return city
        raise KeyError(name)

    def open_edge_squares(self) -> frozenset[Position]:
        """Every square beyond an open edge of a large city (the chips keep off them)."""
        return frozenset(square for city in self.large_cities for square in city.open_edge_squares)

    def large_cities_beside(self, position: Position) -> Iterator[tuple[Side, LargeCity]]:
        """The large cities whose open edge faces a side of ``position``, with that side."""
        yield from self._cities_beside.get(position, ())

    def printed_terrains(self, position: Position) -> tuple[str | None, str | None, str | None, str | None] | None:
        """:meth:`printed_terrain` of each side of ``position`` (north first), or ``None`` where the
        map prints nothing against any side (most squares): the board's fast path."""
        return self._printed_around.get(position)

    def beyond(self, position: Position, side: Side) -> Beyond:
        """What lies beyond ``side`` of the square at ``position`` (a square that takes a tile)."""
        printed = self._printed.get((position, side))
        if printed is not None:
            return printed[1]
        return Beyond.SQUARE if neighbour(position, side) in self._playable else Beyond.BORDER

    def printed_terrain(self, position: Position, side: Side) -> str | None:
        """The terrain the map itself shows against ``side`` of ``position``, which a tile laid
        there must match: ``"city"`` at a large city's open edge, a border crossing's road or
        city; ``None`` where the map asks for nothing (a neighbouring square, or neutral border)."""
        printed = self._printed.get((position, side))
        return None if printed is None else printed[0]

    def border_sides(self, position: Position) -> tuple[Side, ...]:
        """The sides of ``position`` beyond which no tile can ever lie and which join no large
        city: a feature reaching them is closed there."""
        return tuple(side for side in SIDES if self.beyond(position, side) is Beyond.BORDER)


def _reading_order(position: Position) -> tuple[int, int]:
    return position[1], position[0]
