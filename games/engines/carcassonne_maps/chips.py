"""The Map-Chips of Map-Chips Benelux and where they lie at the start (seed 003, "Mise en place").

The box holds 30 chips, 10 in each colour (violet, light blue, orange), each worth 1 or 2
points. Which values each colour has is not confirmed by any source; seed 003 shows six groups
(x6, x4, x6, x4, x6, x4), read as six 1-point and four 2-point chips in every colour: that is
:meth:`ChipValues.default`, and any other split of ten chips per colour can be configured.

The set-up, sentence by sentence as seed 003 gives it: use 2 of the 3 start squares; shuffle
the 30 chips face down and put 20 of them, spread evenly, on the map's squares, face down, one
per square, not on large-city or town squares, never side by side with each other (diagonally
is fine), nor beside a used start square or an open edge of a large city; the other 10 leave the
game unseen. :func:`check_layout` refuses a layout that breaks one of these with an
:class:`IllegalAction` naming the rule; :func:`draw_layout` draws one from a seed.

Readings where the seed is silent (each stated where it is applied):

* "sur les cases de la carte" are the squares a tile may go on: a chip lies where a tile
  laid later takes it, so never on a wave, an island or outside the map (``chip_off_map``,
  ``chip_on_wave``, ``chip_on_island``).
* every start square shows a small town (C&Co English rules: "On each square there is a small
  town"), so no chip lies on a start square, used or not (``chip_on_start_square``); only
  a *used* start square keeps chips off its neighbours, as the seed says.
* only the squares beyond a large city's open edges are kept free, not those beside its closed
  sides (the seed says "bord ouvert"; Wikicarpedia's Map-Chips France once said "large city
  squares" and was corrected to the open edge).
* "uniformément répartis" (spread evenly): the drawing keeps the chips as far apart as it
  can, see :func:`draw_layout`.

>>> from games.engines.carcassonne_maps import load_benelux
>>> benelux = load_benelux()
>>> chips = draw_layout(benelux, ("Meppel", "Charleroi"), seed=7)
>>> len(chips), check_layout(benelux, ("Meppel", "Charleroi"), chips)
(20, None)
>>> ChipValues.default().chips()[:3]
[Chip(colour='violet', points=1), Chip(colour='violet', points=1), Chip(colour='violet', points=1)]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from games.engines.chance import sample, shuffle
from games.engines.errors import IllegalAction, InvalidNotation
from games.engines.tiles import Position

from .map import ISLAND_COLOURS, MapDefinition, SquareKind

CHIP_COLOURS: Final = ISLAND_COLOURS
CHIPS_PER_COLOUR: Final = 10
CHIPS_ON_MAP: Final = 20
CHIPS_REMOVED: Final = 10
START_SQUARES_USED: Final = 2

_SPREAD_LEVELS: Final = (9, 8, 5, 4, 2)
"""Smallest squared distance allowed between two chips, from the widest spread tried down to the
rule itself (2: diagonal neighbours allowed, side by side never)."""
_TRIES_PER_LEVEL: Final = 12


@dataclass(frozen=True, order=True, slots=True)
class Chip:
    """One Map-Chip: its colour and the points its face shows."""

    colour: str
    points: int

    def __str__(self) -> str:
        return f"{self.colour}:{self.points}"

    @classmethod
    def from_text(cls, text: str) -> Chip:
        """The chip written ``colour:points`` (as :meth:`__str__` writes it);
        :class:`~games.engines.errors.InvalidNotation` (a ``ValueError``) else.

        >>> Chip.from_text("light_blue:2")
        Chip(colour='light_blue', points=2)
        """
        colour, _, points = text.partition(":")
        if colour not in CHIP_COLOURS or not points.isdigit() or points.startswith("0"):
            raise InvalidNotation(f"{text!r} is not a chip: write its colour ({', '.join(CHIP_COLOURS)}) and points, "
                             "e.g. violet:2")
        return cls(colour, int(points))


@dataclass(frozen=True, slots=True)
class PlacedChip:
    """A chip lying on a square of the map; at set-up always ``face_down``."""

    position: Position
    chip: Chip
    face_down: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.position[0], "y": self.position[1], "colour": self.chip.colour,
                "points": self.chip.points, "face_down": self.face_down}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlacedChip:
        return cls((int(data["x"]), int(data["y"])), Chip(str(data["colour"]), int(data["points"])),
                   bool(data.get("face_down", True)))


@dataclass(frozen=True)
class ChipValues:
    """How many chips of each colour show each number of points: ``{colour: {points: count}}``,
    ten chips per colour. JSON-able with :meth:`to_dict` (points as string keys).

    >>> ChipValues.from_dict({"violet": {"1": 5, "2": 5}, "light_blue": {"1": 10},
    ...                       "orange": {"2": 10}}).count("orange", 2)
    10
    """

    counts: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]

    def __post_init__(self) -> None:
        colours = [colour for colour, _ in self.counts]
        if sorted(colours) != sorted(CHIP_COLOURS):
            raise ValueError(f"chip values need the colours {', '.join(CHIP_COLOURS)}, not {', '.join(colours)}")
        for colour, by_points in self.counts:
            if any(points < 1 or count < 0 for points, count in by_points):
                raise ValueError(f"{colour} chips: points must be positive and counts not negative")
            total = sum(count for _, count in by_points)
            if total != CHIPS_PER_COLOUR:
                raise ValueError(f"there are {CHIPS_PER_COLOUR} {colour} chips, the values given count {total}")

    @classmethod
    def of(cls, counts: Mapping[str, Mapping[int, int]]) -> ChipValues:
        """From ``{colour: {points: count}}``, in the box's colour order."""
        unknown = set(counts) - set(CHIP_COLOURS)
        if unknown:
            raise ValueError(f"no chips are {', '.join(sorted(unknown))}")
        return cls(tuple((colour, tuple(sorted((int(p), int(n)) for p, n in counts.get(colour, {}).items() if n)))
                         for colour in CHIP_COLOURS))

    @classmethod
    def default(cls) -> ChipValues:
        """Six 1-point and four 2-point chips in every colour (seed 003's x6, x4 groups; not confirmed)."""
        return cls.of({colour: {1: 6, 2: 4} for colour in CHIP_COLOURS})

    def count(self, colour: str, points: int) -> int:
        return dict(dict(self.counts).get(colour, ())).get(points, 0)

    def chips(self) -> list[Chip]:
        """All 30 chips of the box, sorted by colour (the box's order) then points."""
        return [Chip(colour, points) for colour, by_points in self.counts
                for points, count in by_points for _ in range(count)]

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {colour: {str(points): count for points, count in by_points} for colour, by_points in self.counts}

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, int]]) -> ChipValues:
        return cls.of({colour: {int(p): int(n) for p, n in by_points.items()} for colour, by_points in data.items()})


# -- checking a layout -------------------------------------------------------------------------------

def check_start_squares(map_definition: MapDefinition, starts: Sequence[str],
                        used: int = START_SQUARES_USED) -> None:
    """"Utilisez 2 des 3 cases de départ disponibles": raise ``not_a_start_square``,
    ``start_square_twice`` or ``start_squares_count``, else return ``None``."""
    available = map_definition.start_squares
    for name in starts:
        if name not in available:
            raise IllegalAction("not_a_start_square", f"{name!r} is not a start square of {map_definition.name} "
                                f"({', '.join(available)})")
    twice = [name for name, n in Counter(starts).items() if n > 1]
    if twice:
        raise IllegalAction("start_square_twice", f"the start square {twice[0]} is named twice")
    if len(starts) != used:
        raise IllegalAction("start_squares_count", f"use {used} of the {len(available)} start squares, "
                            f"not {len(starts)}")


def layout_problems(map_definition: MapDefinition, starts: Sequence[str], chips: Sequence[PlacedChip],
                    values: ChipValues | None = None) -> list[IllegalAction]:
    """Every rule of the set-up that the layout breaks, one :class:`IllegalAction` per chip and
    rule (after the start squares, which must be right for the rest to be judged)."""
    check_start_squares(map_definition, starts)
    values = values or ChipValues.default()
    problems = _count_problems(len(chips))
    in_box = Counter(values.chips())
    for chip, n in sorted(Counter(c.chip for c in chips).items()):
        if n > in_box[chip]:
            problems.append(IllegalAction("chip_not_in_box", f"the box has {in_box[chip]} {chip.colour} chips "
                                          f"worth {chip.points}, the layout puts {n} on the map"))
    return problems + _squares_problems(map_definition, starts, [(c.position, c.face_down) for c in chips])


def chip_square_problems(map_definition: MapDefinition, starts: Sequence[str],
                         squares: Sequence[Position]) -> list[IllegalAction]:
    """The rules of the set-up that chips lying face down on ``squares`` break, their faces unseen
    (what a table shows: the chips' backs are all alike, see :class:`TableSetUp
    <games.engines.carcassonne_maps.setup.TableSetUp>`): the same reasons as
    :func:`layout_problems` but for the chips' values."""
    check_start_squares(map_definition, starts)
    return _count_problems(len(squares)) + _squares_problems(map_definition, starts,
                                                            [(square, True) for square in squares])


def _count_problems(count: int) -> list[IllegalAction]:
    if count == CHIPS_ON_MAP:
        return []
    return [IllegalAction("wrong_chip_count", f"{CHIPS_ON_MAP} of the {CHIPS_PER_COLOUR * 3} chips go "
                          f"on the map, not {count}")]


def _squares_problems(map_definition: MapDefinition, starts: Sequence[str],
                      chips: Sequence[tuple[Position, bool]]) -> list[IllegalAction]:
    """Where chips (each a square and whether it lies face down) break the set-up's rules."""
    problems: list[IllegalAction] = []
    used_starts = {map_definition.start_position(name) for name in starts}
    open_edge_squares = map_definition.open_edge_squares()
    taken: set[Position] = set()
    for position, face_down in chips:
        problem = (_square_problem(map_definition, position, used_starts, open_edge_squares) if face_down
                   else IllegalAction("chip_face_up", f"the chip on {_at(position)} lies face up: chips go on "
                                      "the map face down"))
        if problem is not None:
            problems.append(problem)
        if position in taken:
            problems.append(IllegalAction("two_chips_on_square", f"two chips lie on {_at(position)}: "
                                          "only one chip a square"))
        else:
            taken.add(position)
    for position in sorted(taken):
        for other in map_definition.orthogonal_neighbours(position):
            if other in taken and other > position:
                problems.append(IllegalAction("chips_adjacent", f"the chips on {_at(position)} and {_at(other)} "
                                              "lie side by side (only diagonally is allowed)"))
    return problems


def check_layout(map_definition: MapDefinition, starts: Sequence[str], chips: Sequence[PlacedChip],
                 values: ChipValues | None = None) -> None:
    """Raise the first rule the layout breaks (see :func:`layout_problems`), else return ``None``."""
    problems = layout_problems(map_definition, starts, chips, values)
    if problems:
        raise problems[0]


def _square_problem(map_definition: MapDefinition, position: Position, used_starts: set[Position],
                    open_edge_squares: frozenset[Position]) -> IllegalAction | None:
    at = _at(position)
    square = map_definition.square(position)
    if square.kind is SquareKind.OUTSIDE:
        return IllegalAction("chip_off_map", f"{at} is off the map")
    if square.kind is SquareKind.WAVE:
        return IllegalAction("chip_on_wave", f"{at} is a wave square, where no tile can ever take the chip")
    if square.kind is SquareKind.ISLAND:
        return IllegalAction("chip_on_island", f"{at} is an island's stack square")
    if square.kind is SquareKind.LARGE_CITY:
        return IllegalAction("chip_on_large_city", f"{at} is the large city {square.name}")
    if square.kind is SquareKind.TOWN:
        return IllegalAction("chip_on_town", f"{at} is the town {square.name}")
    if square.kind is SquareKind.START:
        return IllegalAction("chip_on_start_square", f"{at} is the start square {square.name}, which shows a town")
    beside = [p for p in map_definition.orthogonal_neighbours(position) if p in used_starts]
    if beside:
        name = map_definition.square(beside[0]).name
        return IllegalAction("chip_next_to_start", f"the chip on {at} lies beside the used start square {name}")
    if position in open_edge_squares:
        cities = sorted({city.name for _, city in map_definition.large_cities_beside(position)})
        return IllegalAction("chip_next_to_large_city", f"the chip on {at} lies beside an open edge of "
                             f"{' and '.join(cities)}")
    return None


# -- drawing a layout -------------------------------------------------------------------------------

def chip_squares(map_definition: MapDefinition, starts: Iterable[str]) -> list[Position]:
    """The squares a chip may lie on once ``starts`` are the used start squares, in reading order."""
    used = {map_definition.start_position(name) for name in starts}
    keep_off = map_definition.open_edge_squares() | {p for s in used for p in map_definition.orthogonal_neighbours(s)}
    return sorted((p for p in map_definition.squares_of(SquareKind.NORMAL) if p not in keep_off),
                  key=lambda p: (p[1], p[0]))


def draw_start_squares(map_definition: MapDefinition, rng: random.Random,
                       used: int = START_SQUARES_USED) -> tuple[str, ...]:
    """``used`` start squares drawn at random, in the map's order (players may choose instead)."""
    names = list(map_definition.start_squares)
    chosen = set(sample(names, used, rng))
    return tuple(name for name in names if name in chosen)


def draw_layout(map_definition: MapDefinition, starts: Sequence[str], *, seed: int | None = None,
                rng: random.Random | None = None, values: ChipValues | None = None) -> tuple[PlacedChip, ...]:
    """Shuffle the box's 30 chips and lay the first 20 face down, spread out; the same seed (or
    the same ``rng`` state) gives the same layout.

    "Uniformément répartis" is read as spread across the map, no part crowded: the squares are
    picked in a shuffled order, each kept only if it is far enough from those already kept. The
    drawing first asks that no two chips be closer than three squares in a line (squared
    distance 9), then two diagonally (8), a knight's move (5), two squares (4), and at the last
    the rule itself (never side by side); each spread has a few seeded tries before the next is
    allowed. On the Benelux map the first two always succeed. The chips then
    go, in their shuffled order, on the squares in reading order. The 10 left over are
    :func:`removed_chips`.
    """
    check_start_squares(map_definition, starts)
    rng = rng if rng is not None else random.Random(seed)
    chips = (values or ChipValues.default()).chips()
    shuffle(chips, rng)
    squares = _spread_squares(chip_squares(map_definition, starts), CHIPS_ON_MAP, rng)
    if squares is None:
        raise ValueError(f"{map_definition.name} has no room for {CHIPS_ON_MAP} chips apart from each other")
    return tuple(PlacedChip(position, chip) for position, chip in zip(sorted(squares, key=lambda p: (p[1], p[0])),
                                                                          chips))


def removed_chips(chips: Iterable[PlacedChip], values: ChipValues | None = None) -> list[Chip]:
    """The chips of the box not on the map: "retirés du jeu sans qu'on les regarde" (a viewer
    must not show them)."""
    left = Counter((values or ChipValues.default()).chips())
    left.subtract(placed.chip for placed in chips)
    return sorted(left.elements())


def min_squared_distance(positions: Sequence[Position]) -> int:
    """The smallest squared distance between two of ``positions`` (0 if fewer than two).

    >>> min_squared_distance([(0, 0), (1, 1), (4, 0)])
    2
    """
    return min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 for i, a in enumerate(positions)
                for b in positions[i + 1:]), default=0)


def _spread_squares(candidates: Sequence[Position], wanted: int, rng: random.Random) -> list[Position] | None:
    for min_d2 in _SPREAD_LEVELS:
        for _ in range(_TRIES_PER_LEVEL):
            order = list(candidates)
            shuffle(order, rng)
            kept: list[Position] = []
            for x, y in order:
                if all((x - kx) ** 2 + (y - ky) ** 2 >= min_d2 for kx, ky in kept):
                    kept.append((x, y))
                    if len(kept) == wanted:
                        return kept
    return None


def _at(position: Position) -> str:
    return f"({position[0]},{position[1]})"
