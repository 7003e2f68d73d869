"""Actions: one tile laid (with at most one figure on it), or one tile discarded.

Notation (one action per token group, like PGN move text)::

    L17@2,-1r90               lay landscape tile L17 at x=2, y=-1, turned 90° clockwise
    L17@2,-1r90 hunter:0      ... and put a hunter on its feature 0
    B03@0,1r0 hut:8           lay bonus tile B03 and build a hut on its lake 8
    L44 discard               L44 fits nowhere: it leaves the game
    P2:L05@1,0r180            the same, naming the seat (0-based) that plays it

``x`` grows east and ``y`` grows south; the start tile lies at ``0,0``. The
rotation is in degrees clockwise (0, 90, 180, 270). Feature numbers are the
tile definition's own (printed-side) numbers, so they do not change with the
rotation. Figures: ``gatherer`` (forest), ``fisher`` (river), ``hunter``
(meadow), ``hut`` (river or lake).

>>> a = parse_action("L17@2,-1r90 hunter:0")
>>> a.tile, a.x, a.y, a.rotation, a.figure, a.feature
('L17', 2, -1, 90, 'hunter', 0)
>>> a.to_text()
'L17@2,-1r90 hunter:0'
>>> Action.from_dict(a.to_dict()) == a
True
>>> parse_action("L44 discard").discard
True
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

from games.engines.errors import InvalidNotation
from games.engines.values import build

FigureKind = Literal["gatherer", "fisher", "hunter", "hut"]
FIGURE_KINDS: Final[tuple[FigureKind, ...]] = ("gatherer", "fisher", "hunter", "hut")
TRIBE_MEMBERS: Final[frozenset[str]] = frozenset({"gatherer", "fisher", "hunter"})
"""Gatherers, fishers and hunters are tribe members (one shared supply of 5); huts are not."""

ROTATIONS: Final = (0, 90, 180, 270)
_FIGURE_NAMED: Final[dict[str, FigureKind]] = {kind: kind for kind in FIGURE_KINDS}

_NOTATION: Final = re.compile(
    r"^(?:P(?P<seat>\d+):)?(?P<tile>[A-Za-z][A-Za-z0-9_-]*)"
    r"(?:(?P<discard> discard)|@(?P<x>-?\d+),(?P<y>-?\d+)r(?P<rot>\d+)"
    r"(?: (?P<figure>[a-z]+):(?P<feature>\d+))?)$")


@dataclass(frozen=True)
class Action:
    """One tile laid at ``x``, ``y`` turned ``rotation`` degrees clockwise, or discarded.

    ``figure``/``feature`` name the optional figure put on the tile just laid.
    ``seat`` is who plays it; ``None`` means "whoever is to play". A discard's ``x``, ``y`` and
    ``rotation`` are 0 and mean nothing (as in Carcassonne's actions).

    An action built by hand is checked (:meth:`__post_init__`); the engine's legal actions and
    the parser, whose fields are good by construction and which build them by the dozen (every
    replay parses every stored action), build them at once with :meth:`listed`.
    """

    tile: str
    x: int = 0
    y: int = 0
    rotation: int = 0
    figure: FigureKind | None = None
    feature: int | None = None
    discard: bool = False
    seat: int | None = None

    def __post_init__(self) -> None:
        if self.discard and (self.x or self.y or self.rotation or self.figure is not None
                             or self.feature is not None):
            raise ValueError("a discard names only the tile")
        if self.rotation not in ROTATIONS:
            raise ValueError(f"rotation must be one of {ROTATIONS}, not {self.rotation}")
        if (self.figure is None) != (self.feature is None):
            raise ValueError("a figure needs a feature and a feature needs a figure")
        if self.figure is not None and self.figure not in FIGURE_KINDS:
            raise ValueError(f"unknown figure {self.figure!r}; one of {', '.join(FIGURE_KINDS)}")

    @classmethod
    def listed(cls, fields: Mapping[str, Any]) -> Action:
        """The action whose fields are ``fields``, every one of them by name, in order (a copy of
        :data:`PLACEMENT` changed), unchecked: what the engine's legal actions and the parser
        build (:func:`games.engines.values.build`).

        >>> Action.listed(PLACEMENT | {"tile": "L17", "x": 2, "y": -1}) == Action.place("L17", 2, -1)
        True
        """
        return build(cls, fields)

    @classmethod
    def place(cls, tile: str, x: int, y: int, rotation: int = 0, figure: FigureKind | None = None,
              feature: int | None = None, seat: int | None = None) -> Action:
        """``Action.place("L17", 2, -1, 90, "hunter", 0)``"""
        return cls(tile, x, y, rotation, figure, feature, False, seat)

    @classmethod
    def discard_tile(cls, tile: str, seat: int | None = None) -> Action:
        return cls(tile, discard=True, seat=seat)

    def replace(self, **changes: Any) -> Action:
        """This action with some fields changed, checked as a new one is.

        >>> parse_action("L17@2,-1r90").replace(figure="hunter", feature=0).to_text()
        'L17@2,-1r90 hunter:0'
        """
        return dataclasses.replace(self, **changes)

    @property
    def is_bonus(self) -> bool:
        return self.tile.startswith("B")

    @classmethod
    def from_text(cls, text: str) -> Action:
        """The action ``text`` writes in the notation (:func:`parse_action`)."""
        return parse_action(text)

    def to_text(self) -> str:
        prefix = "" if self.seat is None else f"P{self.seat}:"
        if self.discard:
            return f"{prefix}{self.tile} discard"
        text = f"{prefix}{self.tile}@{self.x},{self.y}r{self.rotation}"
        if self.figure is not None:
            text += f" {self.figure}:{self.feature}"
        return text

    def __str__(self) -> str:
        return self.to_text()

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: ``{"tile": "L17", "x": 2, "y": -1, "rotation": 90, "figure": ..., ...}``."""
        out: dict[str, Any] = {"tile": self.tile}
        if self.discard:
            out["discard"] = True
        else:
            out.update(x=self.x, y=self.y, rotation=self.rotation)
            if self.figure is not None:
                out.update(figure=self.figure, feature=self.feature)
        if self.seat is not None:
            out["seat"] = self.seat
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        seat = data.get("seat")
        if data.get("discard"):
            return cls.discard_tile(str(data["tile"]), seat)
        figure = data.get("figure")
        feature = data.get("feature")
        return cls(str(data["tile"]), int(data["x"]), int(data["y"]), int(data.get("rotation", 0)),
                   cast("FigureKind | None", figure), None if feature is None else int(feature), False,
                   None if seat is None else int(seat))


PLACEMENT: Final[dict[str, Any]] = {field.name: field.default for field in dataclasses.fields(Action)}
"""Every field of an action with its default, in order: what :meth:`Action.listed` changes."""


def parse_action(text: str) -> Action:
    """Read one action in the notation above; raises
    :class:`~games.engines.errors.InvalidNotation` (a ``ValueError``).

    >>> parse_action("P1:B03@0,1r270 hut:8").to_dict()
    {'tile': 'B03', 'x': 0, 'y': 1, 'rotation': 270, 'figure': 'hut', 'feature': 8, 'seat': 1}
    """
    match = _NOTATION.match(text.strip())
    if match is None:
        raise InvalidNotation(f"{text!r} is not an action (expected e.g. 'L17@2,-1r90 hunter:0' or 'L44 discard')")
    seat, tile, discard, x, y, rotation, figure, feature = match.groups()  # one call, not a lookup per group
    if discard:
        return Action.discard_tile(tile, None if seat is None else int(seat))
    # The grammar gives a placement its position and a figure its feature: only the values are
    # left to check, here, rather than all of it again by Action() (every replay parses every
    # action).
    degrees = int(rotation)
    if degrees not in ROTATIONS:
        raise InvalidNotation(f"{text!r}: rotation must be one of {ROTATIONS}, not {degrees}")
    kind = None
    if figure is not None:
        kind = _FIGURE_NAMED.get(figure)
        if kind is None:
            raise InvalidNotation(f"{text!r}: unknown figure {figure!r}; one of {', '.join(FIGURE_KINDS)}")
    return Action.listed({"tile": tile, "x": int(x), "y": int(y), "rotation": degrees, "figure": kind,
                          "feature": None if feature is None else int(feature), "discard": False,
                          "seat": None if seat is None else int(seat)})
