"""Carcassonne Maps actions (Map-Chips Benelux) as data and as text.

An action is a Carcassonne action (``V@12,4r90 meeple:2``, ``V discard``: see
:mod:`games.engines.carcassonne.actions`) with, when needed, three more words:

* ``chip:violet:2``: the tile goes on a square with a chip, which turned over shows a violet 2
  (a game that knows the chips lists it; a table names it, having turned the chip over);
* ``island:violet/1``: the tile is the face-up tile of the violet island's stack 1, paid with a
  violet chip instead of a tile drawn face down;
* ``reveal:W``: the tile that stack then turns up at the end of the turn (a game that deals the
  stacks knows it; a table names it; none when the stack is used up).

``draw`` alone is the player's choice, while a chip could pay for an island tile, to draw face
down instead: seed 003 allows no change of mind once a tile is drawn, so a seeded game shows the
drawn tile only after it (see :meth:`Game.choosing <.game.Game.choosing>`).

>>> parse_action("draw seat:1").to_dict(), parse_action("draw").to_text()
({'draw': True, 'seat': 1}, 'draw')

Coordinates are the map's squares (``x`` east, ``y`` south from the map's north-west corner).
The words come after the figure, in that order, and ``seat:N`` last.

>>> action = parse_action("TB08@9,8r0 meeple:1 chip:orange:1 island:violet/2 reveal:W")
>>> action.island, action.stack, str(action.chip), action.reveal
('violet', 2, 'orange:1', 'W')
>>> action.to_text()
'TB08@9,8r0 meeple:1 chip:orange:1 island:violet/2 reveal:W'
>>> Action.from_dict(action.to_dict()) == action
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from games.engines.carcassonne import actions as carcassonne
from games.engines.errors import InvalidNotation

from .chips import Chip

_WORDS: Final = {
    "chip": re.compile(r"^chip:(?P<chip>[a-z_]+:\d+)$"),
    "island": re.compile(r"^island:(?P<island>[a-z_]+)/(?P<stack>\d+)$"),
    "reveal": re.compile(r"^reveal:(?P<reveal>[A-Z]|[A-Z]{2}\d{2})$"),
}


@dataclass(frozen=True)
class Action(carcassonne.Action):
    """A Carcassonne action, and where the tile comes from and what it turns up on the map:
    ``island`` and ``stack`` (the face-up tile of that island's stack, paid with a chip of its
    colour), ``reveal`` (the tile that stack turns up at the end of the turn), ``chip`` (what the
    chip on the square the tile covers shows)."""

    island: str | None = None
    stack: int | None = None
    chip: Chip | None = None
    reveal: str | None = None
    draw: bool = False
    """The player draws face down rather than pay a chip for an island tile: no tile, no square."""

    @classmethod
    def of(cls, action: carcassonne.Action) -> Action:
        """``action`` as a Maps action (a Carcassonne one draws face down and names no chip)."""
        if isinstance(action, Action):
            return action
        return cls(tile=action.tile, x=action.x, y=action.y, rotation=action.rotation, meeple=action.meeple,
                   discard=action.discard, seat=action.seat, big=action.big, builder=action.builder, pig=action.pig)

    @property
    def from_island(self) -> bool:
        return self.island is not None or self.stack is not None

    def to_dict(self) -> dict[str, Any]:
        """The Carcassonne fields, then ``chip`` (``"violet:2"``), ``island`` (its colour),
        ``stack`` (1 or 2) and ``reveal`` when named; ``seat`` last. A draw is ``{"draw": True}``."""
        if self.draw:
            return {"draw": True} | ({} if self.seat is None else {"seat": self.seat})
        data = super().to_dict()
        seat = data.pop("seat", None)
        if self.chip is not None:
            data["chip"] = str(self.chip)
        if self.island is not None:
            data["island"] = self.island
        if self.stack is not None:
            data["stack"] = self.stack
        if self.reveal is not None:
            data["reveal"] = self.reveal
        if seat is not None:
            data["seat"] = seat
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, discard: bool = False) -> Action:
        """The action of :meth:`to_dict` (``ValueError`` for a chip that is not ``colour:points``)."""
        if data.get("draw"):
            seat = data.get("seat")
            return cls(draw=True, seat=None if seat is None else int(seat))
        base = carcassonne.Action.from_dict(data, discard=discard or bool(data.get("discard", False)))
        chip = data.get("chip")
        stack = data.get("stack")
        return cls(tile=base.tile, x=base.x, y=base.y, rotation=base.rotation, meeple=base.meeple,
                   discard=base.discard, seat=base.seat, big=base.big, builder=base.builder, pig=base.pig,
                   island=data.get("island"), stack=None if stack is None else int(stack),
                   chip=None if chip is None else Chip.from_text(str(chip)), reveal=data.get("reveal"))

    @classmethod
    def from_text(cls, text: str) -> Action:
        """The action ``text`` writes in the notation (:func:`parse_action`)."""
        return parse_action(text)

    def to_text(self) -> str:
        seat = self.seat
        if self.draw:
            return "draw" if seat is None else f"draw seat:{seat}"
        text = carcassonne.Action.to_text(_without_seat(self))
        if self.chip is not None:
            text += f" chip:{self.chip}"
        if self.from_island:
            text += f" island:{self.island or '?'}/{'?' if self.stack is None else self.stack}"
        if self.reveal is not None:
            text += f" reveal:{self.reveal}"
        if seat is not None:
            text += f" seat:{seat}"
        return text


def _without_seat(action: Action) -> carcassonne.Action:
    return carcassonne.Action(tile=action.tile, x=action.x, y=action.y, rotation=action.rotation,
                              meeple=action.meeple, discard=action.discard, big=action.big,
                              builder=action.builder, pig=action.pig)


def parse_action(text: str) -> Action:
    """Read one action in the notation; :class:`InvalidNotation` (a ``ValueError``) names what
    does not parse. The words ``chip:``, ``island:`` and ``reveal:`` are read wherever they
    stand, each once.

    >>> parse_action("U@11,5r0 chip:violet")
    Traceback (most recent call last):
    ...
    games.engines.errors.InvalidNotation: 'chip:violet' in 'U@11,5r0 chip:violet': write chip:violet:2, island:violet/1 or reveal:W
    """
    words = text.split()
    if words and words[0] == "draw":
        seat = re.fullmatch(r"seat:(\d+)", words[1]) if len(words) == 2 else None
        if len(words) > 2 or (len(words) == 2 and seat is None):
            raise InvalidNotation(f"{text!r}: a draw is written draw (or draw seat:N)")
        return Action(draw=True, seat=None if seat is None else int(seat[1]))
    found: dict[str, re.Match[str]] = {}
    rest: list[str] = []
    for word in words:
        name = word.partition(":")[0]
        pattern = _WORDS.get(name)
        if pattern is None:
            rest.append(word)
            continue
        match = pattern.match(word)
        if match is None:
            raise InvalidNotation(f"{word!r} in {text!r}: write chip:violet:2, island:violet/1 or reveal:W")
        if name in found:
            raise InvalidNotation(f"{text!r} names {name}: twice")
        found[name] = match
    base = carcassonne.parse_action(" ".join(rest))
    chip = found.get("chip")
    island = found.get("island")
    reveal = found.get("reveal")
    return Action(
        tile=base.tile, x=base.x, y=base.y, rotation=base.rotation, meeple=base.meeple, discard=base.discard,
        seat=base.seat, big=base.big, builder=base.builder, pig=base.pig,
        chip=None if chip is None else Chip.from_text(chip["chip"]),
        island=None if island is None else island["island"], stack=None if island is None else int(island["stack"]),
        reveal=None if reveal is None else reveal["reveal"])
