"""Carcassonne actions as data and as text.

``V@1,0r90 meeple:2`` lays tile V (Wikicarpedia letter) at x=1, y=0 (y grows south; the start
tile lies at 0,0) turned 90° clockwise and puts a meeple on its feature 2; ``V@1,0r90`` lays it
without one; ``V discard`` removes a drawn tile that fits nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any





@dataclass(frozen=True)
class Action:
    tile: str | None = None
    x: int = 0
    y: int = 0
    rotation: int = 0
    meeple: int | None = None
    discard: bool = False
    seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.tile is not None:
            data["tile"] = self.tile
        if not self.discard:
            data |= {"x": self.x, "y": self.y, "rotation": self.rotation}
            if self.meeple is not None:
                data["meeple"] = self.meeple
        if self.seat is not None:
            data["seat"] = self.seat
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, discard: bool = False) -> Action:
        return cls(tile=data.get("tile"), x=int(data.get("x", 0)), y=int(data.get("y", 0)),
                   rotation=int(data.get("rotation", 0)), meeple=data.get("meeple"), discard=discard,
                   seat=data.get("seat"))

    def to_text(self) -> str:
        tile = self.tile or "?"
        text = f"{tile} discard" if self.discard else f"{tile}@{self.x},{self.y}r{self.rotation}"
        if self.meeple is not None and not self.discard:
            text += f" meeple:{self.meeple}"
        if self.seat is not None:
            text += f" seat:{self.seat}"
        return text


_PLACE = re.compile(r"^(?P<tile>[A-Z])@(?P<x>-?\d+),(?P<y>-?\d+)r(?P<rotation>0|90|180|270)"
                    r"(?: meeple:(?P<meeple>\d+))?(?: seat:(?P<seat>\d+))?$")
_DISCARD = re.compile(r"^(?P<tile>[A-Z]) discard(?: seat:(?P<seat>\d+))?$")


def parse_action(text: str) -> Action:
    """Read one action in the notation; ``ValueError`` names what does not parse."""
    text = " ".join(text.split())
    match = _PLACE.match(text)
    if match:
        return Action(tile=match["tile"], x=int(match["x"]), y=int(match["y"]), rotation=int(match["rotation"]),
                      meeple=int(match["meeple"]) if match["meeple"] else None,
                      seat=int(match["seat"]) if match["seat"] else None)
    match = _DISCARD.match(text)
    if match:
        return Action(tile=match["tile"], discard=True, seat=int(match["seat"]) if match["seat"] else None)
    raise ValueError(f"{text!r} is not an action: write e.g. V@1,0r90 meeple:2 or V discard")
