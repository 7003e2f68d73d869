"""The whole set-up of a Map-Chips Benelux game, as one JSON-able value.

A :class:`SetUp` says which map (name and version), which start squares are used and which tile
lies on each, which chip lies face down on which square, the chip values the box was set up with,
and the islands' stacks. :func:`draw_setup` makes one from a seed and the shuffled land tiles, in
seed 003's order: start squares, chips, then "mélangez toutes les tuiles Terrain et faites 6 piles
de 5 tuiles chacune [...] 2 piles par île [...] Placez les premières tuiles des piles face
visible", and "enfin, vous faites les piles habituelles avec les tuiles Terrain restantes".

Reading where the seed is silent: the start tile lies on the first used start square (in the
map's order), and the second used start square takes the first tile of the usual stacks once the
island stacks are made (Carcassonne Maps basic rules: the start tile and one random tile on two
start squares), both unturned.

>>> from games.engines.carcassonne_maps import load_benelux
>>> setup, pile = draw_setup(load_benelux(), ["A", "B", "C", "D"] * 25, start_tile="D", seed=1)
>>> setup.start_squares, len(setup.chips), len(setup.island_stacks), len(pile)
(('Meppel', 'Charleroi'), 20, 6, 69)
>>> SetUp.from_dict(setup.to_dict()) == setup
True

A table that sets up its own game knows less: the chips' backs are all alike and the island
stacks show only their top tile. :class:`TableSetUp` is that: the chip squares without values,
the six face-up tiles, the start tiles (:meth:`SetUp.table` is what a drawn set-up shows).

>>> table = setup.table()
>>> len(table.chip_squares), [f.tile for f in table.island_face_up] == [s.tiles[0] for s in setup.island_stacks]
(20, True)
>>> setup_from_dict(table.to_dict()) == table
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from games.engines.chance import shuffle
from games.engines.errors import IllegalAction
from games.engines.tiles import Position

from .chips import (
    CHIPS_REMOVED, ChipValues, PlacedChip, check_layout, chip_square_problems, draw_layout, draw_start_squares,
    removed_chips,
)
from .map import MapDefinition

STACKS_PER_ISLAND: Final = 2
TILES_PER_STACK: Final = 5
SETUP_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class IslandStack:
    """One stack of land tiles on an island's stack square, ``tiles`` from the top down; only the
    top one is face up."""

    colour: str
    stack: int
    position: Position
    tiles: tuple[str, ...]

    @property
    def face_up(self) -> str | None:
        """The tile a player paying a chip of this colour may take, if any is left."""
        return self.tiles[0] if self.tiles else None

    def to_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "stack": self.stack, "x": self.position[0], "y": self.position[1],
                "tiles": list(self.tiles)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IslandStack:
        return cls(str(data["colour"]), int(data["stack"]), (int(data["x"]), int(data["y"])),
                   tuple(str(t) for t in data["tiles"]))


@dataclass(frozen=True, slots=True)
class StartTile:
    """A set-up tile on a used start square."""

    start: str
    tile: str
    quarter_turns: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "tile": self.tile, "quarter_turns": self.quarter_turns}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StartTile:
        return cls(str(data["start"]), str(data["tile"]), int(data.get("quarter_turns", 0)))


def make_island_stacks(map_definition: MapDefinition, pile: Sequence[str],
                       rng: random.Random) -> tuple[tuple[IslandStack, ...], list[str]]:
    """Shuffle ``pile`` with ``rng``, deal 6 stacks of 5 tiles (2 per island, the map's island
    order, stack 1 then 2), and return them with the rest, the usual draw pile in its order.
    ``pile`` itself is left as it was.

    >>> from games.engines.carcassonne_maps import load_benelux
    >>> stacks, rest = make_island_stacks(load_benelux(), [str(i) for i in range(40)], random.Random(2))
    >>> [(s.colour, s.stack, len(s.tiles)) for s in stacks][:2], len(rest)
    ([('violet', 1, 5), ('violet', 2, 5)], 10)
    """
    needed = len(map_definition.islands) * STACKS_PER_ISLAND * TILES_PER_STACK
    if len(pile) < needed:
        raise ValueError(f"{len(pile)} tiles cannot make the islands' {needed}")
    shuffled = list(pile)
    shuffle(shuffled, rng)
    stacks = []
    for island in map_definition.islands:
        for number, position in enumerate(island.stacks, start=1):
            stacks.append(IslandStack(island.colour, number, position, tuple(shuffled[:TILES_PER_STACK])))
            del shuffled[:TILES_PER_STACK]
    return tuple(stacks), shuffled


def stack_squares(map_definition: MapDefinition) -> dict[tuple[str, int], Position]:
    """Each island stack square by ``(colour, stack number)``, in the map's island order."""
    return {(island.colour, number): position for island in map_definition.islands
            for number, position in enumerate(island.stacks, start=1)}


def check_island_stacks(map_definition: MapDefinition, stacks: Sequence[IslandStack]) -> None:
    """"6 piles de 5 tuiles chacune [...] sur les 6 carrés d'île (2 piles par île)": raise
    ``island_stack_count``, ``island_stack_size`` or ``island_stack_not_on_island``."""
    squares = stack_squares(map_definition)
    if len(stacks) != len(squares):
        raise IllegalAction("island_stack_count", f"{len(squares)} island stacks ({STACKS_PER_ISLAND} per island), "
                            f"not {len(stacks)}")
    seen = Counter((stack.colour, stack.stack) for stack in stacks)
    for stack in stacks:
        at = squares.get((stack.colour, stack.stack))
        if at is None or at != stack.position:
            raise IllegalAction("island_stack_not_on_island", f"stack {stack.stack} of the {stack.colour} island "
                                f"is not on that island's stack square")
        if seen[(stack.colour, stack.stack)] > 1:
            raise IllegalAction("island_stack_count", f"two stacks on stack square {stack.stack} of the "
                                f"{stack.colour} island")
        if len(stack.tiles) != TILES_PER_STACK:
            raise IllegalAction("island_stack_size", f"the {stack.colour} island's stack {stack.stack} has "
                                f"{len(stack.tiles)} tiles, not {TILES_PER_STACK}")


@dataclass(frozen=True)
class SetUp:
    """Everything the table holds before the first turn, besides the usual draw pile."""

    map_name: str
    map_version: str
    start_squares: tuple[str, ...]
    start_tiles: tuple[StartTile, ...]
    chips: tuple[PlacedChip, ...]
    chip_values: ChipValues
    island_stacks: tuple[IslandStack, ...]

    def check(self, map_definition: MapDefinition) -> None:
        """Raise the first set-up rule this breaks on ``map_definition``, as an :class:`IllegalAction`."""
        if (self.map_name, self.map_version) != (map_definition.name, map_definition.version):
            raise IllegalAction("wrong_map", f"set up for {self.map_name} {self.map_version}, "
                                f"not {map_definition.name} {map_definition.version}")
        check_layout(map_definition, self.start_squares, self.chips, self.chip_values)
        if sorted(t.start for t in self.start_tiles) != sorted(self.start_squares):
            raise IllegalAction("start_tiles", "one set-up tile lies on each used start square, no other")
        check_island_stacks(map_definition, self.island_stacks)

    @cached_property
    def removed_chips(self) -> int:
        """How many chips left the game unseen (which ones is never shown)."""
        return len(removed_chips(self.chips, self.chip_values))

    def chip_at(self, position: Position) -> PlacedChip | None:
        for placed in self.chips:
            if placed.position == position:
                return placed
        return None

    def face_down_view(self) -> dict[str, Any]:
        """What the players see: the squares with a chip and the islands' face-up tiles, no chip's
        colour or value, nothing of the removed chips but their number."""
        return {"map": {"name": self.map_name, "version": self.map_version},
                "start_squares": list(self.start_squares),
                "chip_squares": [[c.position[0], c.position[1]] for c in self.chips],
                "chips_removed_unseen": self.removed_chips,
                "island_face_up": [{"colour": s.colour, "stack": s.stack, "tile": s.face_up, "left": len(s.tiles)}
                                   for s in self.island_stacks]}

    def table(self) -> TableSetUp:
        """What the table shows of this set-up: chip squares, face-up island tiles, start tiles."""
        return TableSetUp(self.map_name, self.map_version, self.start_squares, self.start_tiles,
                          tuple(c.position for c in self.chips), self.chip_values,
                          tuple(FaceUpTile(s.colour, s.stack, s.tiles[0]) for s in self.island_stacks))

    @property
    def tiles(self) -> list[str]:
        """Every tile the set-up takes out of the box: the start tiles and the island stacks."""
        return [t.tile for t in self.start_tiles] + [tile for s in self.island_stacks for tile in s.tiles]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able; :meth:`from_dict` gives back an equal set-up."""
        return {"version": SETUP_VERSION, "map": {"name": self.map_name, "version": self.map_version},
                "start_squares": list(self.start_squares),
                "start_tiles": [t.to_dict() for t in self.start_tiles],
                "chip_values": self.chip_values.to_dict(),
                "chips": [c.to_dict() for c in self.chips],
                "chips_removed_unseen": self.removed_chips,
                "island_stacks": [s.to_dict() for s in self.island_stacks]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SetUp:
        if data.get("version") != SETUP_VERSION:
            raise ValueError(f"set-up version {data.get('version')!r}: this engine reads version {SETUP_VERSION}")
        setup = cls(map_name=str(data["map"]["name"]), map_version=str(data["map"]["version"]),
                    start_squares=tuple(str(s) for s in data["start_squares"]),
                    start_tiles=tuple(StartTile.from_dict(t) for t in data["start_tiles"]),
                    chips=tuple(PlacedChip.from_dict(c) for c in data["chips"]),
                    chip_values=ChipValues.from_dict(data["chip_values"]),
                    island_stacks=tuple(IslandStack.from_dict(s) for s in data["island_stacks"]))
        removed = data.get("chips_removed_unseen")
        if removed is not None and removed != setup.removed_chips:
            raise ValueError(f"set-up: {removed} chips said removed, the box and layout leave {setup.removed_chips}")
        return setup


@dataclass(frozen=True, slots=True)
class FaceUpTile:
    """The tile lying face up on top of an island's stack at the start (the four below unseen)."""

    colour: str
    stack: int
    tile: str

    def to_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "stack": self.stack, "tile": self.tile}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FaceUpTile:
        return cls(str(data["colour"]), int(data["stack"]), str(data["tile"]))


@dataclass(frozen=True)
class TableSetUp:
    """The set-up as a table sees it, for a game the engine does not deal: which start squares
    are used and which tile lies on each, the squares where a chip lies face down (no value:
    the chips' backs are all alike, see below), the box's chip values (what a chip turned over
    may show), and the tile face up on each of the six island stacks (each of 5 tiles).

    Reading: a face-down chip shows neither its colour nor its value. Seed 003 shuffles the
    chips "face cachée" and has them turned over ("vous le retournez") when taken, and
    Wikicarpedia's Map-Chips Great Britain has the chips laid beside coloured marks on the map
    "so that you always know which color the chips have" but not their number: their backs do not
    tell the colour. The game's actions then say what each chip turned over shows and which tile
    an island stack turns up.
    """

    map_name: str
    map_version: str
    start_squares: tuple[str, ...]
    start_tiles: tuple[StartTile, ...]
    chip_squares: tuple[Position, ...]
    chip_values: ChipValues
    island_face_up: tuple[FaceUpTile, ...]

    def check(self, map_definition: MapDefinition) -> None:
        """Raise the first set-up rule this breaks on ``map_definition`` (the chips module's and
        the islands' reason codes, as :meth:`SetUp.check`)."""
        if (self.map_name, self.map_version) != (map_definition.name, map_definition.version):
            raise IllegalAction("wrong_map", f"set up for {self.map_name} {self.map_version}, "
                                f"not {map_definition.name} {map_definition.version}")
        problems = chip_square_problems(map_definition, self.start_squares, self.chip_squares)
        if problems:
            raise problems[0]
        if sorted(t.start for t in self.start_tiles) != sorted(self.start_squares):
            raise IllegalAction("start_tiles", "one set-up tile lies on each used start square, no other")
        squares = stack_squares(map_definition)
        if len(self.island_face_up) != len(squares):
            raise IllegalAction("island_stack_count", f"{len(squares)} island stacks ({STACKS_PER_ISLAND} per "
                                f"island), not {len(self.island_face_up)}")
        seen = Counter((f.colour, f.stack) for f in self.island_face_up)
        for face_up in self.island_face_up:
            if (face_up.colour, face_up.stack) not in squares:
                raise IllegalAction("island_stack_not_on_island", f"the map has no stack {face_up.stack} on a "
                                    f"{face_up.colour} island")
            if seen[(face_up.colour, face_up.stack)] > 1:
                raise IllegalAction("island_stack_count", f"two stacks on stack square {face_up.stack} of the "
                                    f"{face_up.colour} island")

    @property
    def tiles(self) -> list[str]:
        """Every tile the table shows before the first turn: the start tiles and the face-up tiles."""
        return [t.tile for t in self.start_tiles] + [f.tile for f in self.island_face_up]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able; :func:`setup_from_dict` (or :meth:`from_dict`) gives back an equal set-up."""
        return {"version": SETUP_VERSION, "map": {"name": self.map_name, "version": self.map_version},
                "start_squares": list(self.start_squares),
                "start_tiles": [t.to_dict() for t in self.start_tiles],
                "chip_values": self.chip_values.to_dict(),
                "chip_squares": [[x, y] for x, y in self.chip_squares],
                "island_face_up": [f.to_dict() for f in self.island_face_up]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSetUp:
        if data.get("version") != SETUP_VERSION:
            raise ValueError(f"set-up version {data.get('version')!r}: this engine reads version {SETUP_VERSION}")
        return cls(map_name=str(data["map"]["name"]), map_version=str(data["map"]["version"]),
                   start_squares=tuple(str(s) for s in data["start_squares"]),
                   start_tiles=tuple(StartTile.from_dict(t) for t in data["start_tiles"]),
                   chip_squares=tuple((int(x), int(y)) for x, y in data["chip_squares"]),
                   chip_values=ChipValues.from_dict(data.get("chip_values") or ChipValues.default().to_dict()),
                   island_face_up=tuple(FaceUpTile.from_dict(f) for f in data["island_face_up"]))


def setup_from_dict(data: Mapping[str, Any]) -> SetUp | TableSetUp:
    """The set-up of a JSON object: a :class:`SetUp` (it lists ``chips`` with their values and
    the ``island_stacks``) or a :class:`TableSetUp` (``chip_squares`` and ``island_face_up``)."""
    if "chips" in data or "island_stacks" in data:
        return SetUp.from_dict(data)
    return TableSetUp.from_dict(data)


def draw_setup(map_definition: MapDefinition, pile: Sequence[str], *, start_tile: str, seed: int | None = None,
               rng: random.Random | None = None, start_squares: Sequence[str] | None = None,
               values: ChipValues | None = None) -> tuple[SetUp, list[str]]:
    """A whole set-up from a seed (or ``rng``), and the usual draw pile left after it.

    ``pile`` is every land tile but the start tile; ``start_squares`` are drawn when not given.
    The same seed and pile give the same set-up and pile.
    """
    rng = rng if rng is not None else random.Random(seed)
    values = values or ChipValues.default()
    starts = tuple(start_squares) if start_squares is not None else draw_start_squares(map_definition, rng)
    chips = draw_layout(map_definition, starts, rng=rng, values=values)
    stacks, rest = make_island_stacks(map_definition, pile, rng)
    ordered = [name for name in map_definition.start_squares if name in starts]
    tiles = [StartTile(ordered[0], start_tile)]
    for name in ordered[1:]:
        if not rest:
            raise ValueError("no tile is left for the second start square")
        tiles.append(StartTile(name, rest.pop(0)))
    setup = SetUp(map_definition.name, map_definition.version, starts, tuple(tiles), chips, values, stacks)
    assert setup.removed_chips == CHIPS_REMOVED
    return setup, rest
