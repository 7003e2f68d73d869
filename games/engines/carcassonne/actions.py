"""Carcassonne actions as data and as text.

``V@1,0r90 meeple:2`` lays tile V (Wikicarpedia letter) at x=1, y=0 (y grows south; the start
tile lies at 0,0) turned 90° clockwise and puts a meeple on its feature 2; ``V@1,0r90`` lays it
without one; ``V discard`` removes a drawn tile that fits nowhere. The expansions' tiles are
named ``IC01``..``IC17`` and ``TB01``..``TB24``, and their figures are written like the meeple:
``IC05@1,0r90 big:2`` (the large meeple), ``TB08@0,-1r0 builder:1``, ``U@1,0r0 pig:2``. A
builder's double turn is the same seat laying again.

>>> parse_action("IC05@1,0r90 big:2")
Action(tile='IC05', x=1, y=0, rotation=90, meeple=None, discard=False, seat=None, big=2, builder=None, pig=None)
>>> parse_action("TB08@0,-1r0 builder:1 seat:2").to_text()
'TB08@0,-1r0 builder:1 seat:2'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Self

from games.engines.errors import InvalidNotation
from games.engines.values import build

from .figures import BIG, BUILDER, KINDS, MEEPLE, PIG


@dataclass(frozen=True)
class Action:
    """A tile laid (or discarded) and at most one figure put on it: each figure field names the
    feature of the tile it goes on (``meeple``, or an expansion's ``big``, ``builder``, ``pig``)."""

    tile: str | None = None
    x: int = 0
    y: int = 0
    rotation: int = 0
    meeple: int | None = None
    discard: bool = False
    seat: int | None = None
    big: int | None = None
    builder: int | None = None
    pig: int | None = None

    @property
    def figures(self) -> list[tuple[str, int]]:
        """``(kind, feature)`` of each figure the action names (the rules allow one), in the order
        of :data:`~games.engines.carcassonne.figures.KINDS`."""
        named: list[tuple[str, int]] = []
        if self.meeple is not None:
            named.append((MEEPLE, self.meeple))
        if self.big is not None:
            named.append((BIG, self.big))
        if self.builder is not None:
            named.append((BUILDER, self.builder))
        if self.pig is not None:
            named.append((PIG, self.pig))
        return named

    @classmethod
    def listed(cls, fields: Mapping[str, Any]) -> Self:
        """The action whose fields are ``fields``, every one of them by name, in order (a
        :meth:`template` changed): what ``cls(**fields)`` builds, at a fraction of the cost
        (:func:`games.engines.values.build`); a turn's legal actions are dozens of them.

        >>> Action.listed(Action.template() | {"tile": "V", "meeple": 2}) == Action(tile="V", meeple=2)
        True
        """
        return build(cls, fields)

    @classmethod
    def template(cls) -> dict[str, Any]:
        """Every field of the action class with its default, in order, for :meth:`listed`."""
        return dict(_defaults(cls))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.tile is not None:
            data["tile"] = self.tile
        if not self.discard:
            data |= {"x": self.x, "y": self.y, "rotation": self.rotation}
            for kind, feature in self.figures:  # only the figures named, so a base payload is unchanged
                data[kind] = feature
        if self.seat is not None:
            data["seat"] = self.seat
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, discard: bool = False) -> Action:
        return cls(tile=data.get("tile"), x=int(data.get("x", 0)), y=int(data.get("y", 0)),
                   rotation=int(data.get("rotation", 0)), meeple=data.get("meeple"), discard=discard,
                   seat=data.get("seat"), big=data.get("big"), builder=data.get("builder"), pig=data.get("pig"))

    @classmethod
    def from_text(cls, text: str) -> Action:
        """The action ``text`` writes in the notation (:func:`parse_action`)."""
        return parse_action(text)

    def to_text(self) -> str:
        tile = self.tile or "?"
        text = f"{tile} discard" if self.discard else f"{tile}@{self.x},{self.y}r{self.rotation}"
        if not self.discard:
            text += "".join(f" {kind}:{feature}" for kind, feature in self.figures)
        if self.seat is not None:
            text += f" seat:{self.seat}"
        return text


_DEFAULTS: dict[type[Action], tuple[tuple[str, Any], ...]] = {}


def _defaults(cls: type[Action]) -> tuple[tuple[str, Any], ...]:
    """Each field of ``cls`` with its default, read once per class."""
    if cls not in _DEFAULTS:
        _DEFAULTS[cls] = tuple((f.name, f.default) for f in dataclasses.fields(cls))
    return _DEFAULTS[cls]


_FIELDS: Final = Action.template()
_TILE = r"(?P<tile>[A-Z]|[A-Z]{2}\d{2})"
_LAID = rf"^{_TILE}@(?P<x>-?\d+),(?P<y>-?\d+)r(?P<rotation>0|90|180|270)"
_PLACE = re.compile(rf"{_LAID}(?: (?P<kind>{'|'.join(KINDS)}):(?P<feature>\d+))?(?: seat:(?P<seat>\d+))?$")
_PLACE_FIGURES = re.compile(_LAID + "".join(rf"(?: {kind}:(?P<{kind}>\d+))?" for kind in KINDS)
                            + r"(?: seat:(?P<seat>\d+))?$")
"""Several figures read too (the rules refuse them), in the order they are written."""
_DISCARD = re.compile(rf"^{_TILE} discard(?: seat:(?P<seat>\d+))?$")


def parse_action(text: str) -> Action:
    """Read one action in the notation; :class:`InvalidNotation` (a ``ValueError``) names what
    does not parse.

    >>> parse_action("V@1,0r45")
    Traceback (most recent call last):
    ...
    games.engines.errors.InvalidNotation: 'V@1,0r45' is not an action: write e.g. V@1,0r90 meeple:2, IC05@1,0r90 big:2 or V discard
    """
    text = " ".join(text.split())
    match = _PLACE.match(text)
    if match:
        tile, x, y, rotation, kind, feature, seat = match.groups()
        fields = _FIELDS | {"tile": tile, "x": int(x), "y": int(y), "rotation": int(rotation)}
        if kind is not None:
            fields[kind] = int(feature)
        if seat is not None:
            fields["seat"] = int(seat)
        return Action.listed(fields)
    match = _PLACE_FIGURES.match(text)
    if match:
        figure = {kind: int(match[kind]) if match[kind] else None for kind in KINDS}
        return Action(tile=match["tile"], x=int(match["x"]), y=int(match["y"]), rotation=int(match["rotation"]),
                      meeple=figure["meeple"], seat=int(match["seat"]) if match["seat"] else None,
                      big=figure["big"], builder=figure["builder"], pig=figure["pig"])
    match = _DISCARD.match(text)
    if match:
        return Action(tile=match["tile"], discard=True, seat=int(match["seat"]) if match["seat"] else None)
    raise InvalidNotation(f"{text!r} is not an action: write e.g. V@1,0r90 meeple:2, IC05@1,0r90 big:2 or V discard")
