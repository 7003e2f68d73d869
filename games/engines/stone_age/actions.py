"""Stone Age actions: what a player (or the table, for a reveal) does, as data and as text.

Four kinds, one per phase of the round:

``place``    put ``people`` of the current tribe on ``location`` (placement phase)
``resolve``  carry out the people on ``location`` (action phase), with the ``dice`` rolled,
             the ``tools`` (slots 0–2) and ``one_time`` tools added, the resources paid
             (``pay``) for a card or a building or ``decline`` to buy, the two resources
             chosen (``choose``), each player's pick of the dice-for-all (``picks``, from the
             buyer on) or the card ``drawn`` from the pile
``feed``     a tribe short of food pays the shortfall in resources (``pay``) or ``starve``\\ s
``reveal``   (games without a seed) the ``cards`` turned up, cheapest space first, and the
             building tile turned up on each stack (``buildings``: location → tile)

The text notation, one action a line, reads like this::

    place forest 3
    resolve forest dice=3,5,6 tools=0
    resolve card2 pay=wood:1,clay:1 choose=gold:2
    resolve building1 pay=wood:2,clay:1
    feed pay=wood:2
    reveal cards=C01,C17,C30,C09 building1=B03 building2=B21
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engines.errors import InvalidNotation

Payment = Mapping[str, int]
KINDS = ("place", "resolve", "feed", "reveal")




@dataclass(frozen=True)
class Action:
    kind: str
    location: str | None = None
    people: int | None = None
    dice: tuple[int, ...] | None = None
    tools: tuple[int, ...] = ()
    one_time: tuple[int, ...] = ()
    pay: dict[str, int] = field(default_factory=dict)
    choose: dict[str, int] = field(default_factory=dict)
    picks: tuple[int, ...] = ()
    drawn: str | None = None
    decline: bool = False
    starve: bool = False
    cards: tuple[str, ...] = ()
    buildings: dict[int, str] = field(default_factory=dict)
    """Stack index (0 for ``building1``) → the tile turned up on it."""
    seat: int | None = None

    def replace(self, **changes: Any) -> Action:
        return dataclasses.replace(self, **changes)

    # -- JSON --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The payload of the action's event (its kind is the event type)."""
        data: dict[str, Any] = {}
        if self.location is not None:
            data["location"] = self.location
        if self.people is not None:
            data["people"] = self.people
        if self.dice is not None:
            data["dice"] = list(self.dice)
        for name in ("tools", "one_time", "picks", "cards"):
            if getattr(self, name):
                data[name] = list(getattr(self, name))
        for name in ("pay", "choose"):
            value = {k: v for k, v in getattr(self, name).items() if v}
            if value:
                data[name] = value
        if self.drawn is not None:
            data["drawn"] = self.drawn
        if self.decline:
            data["decline"] = True
        if self.starve:
            data["starve"] = True
        if self.buildings:
            data["buildings"] = {f"building{i + 1}": tile for i, tile in sorted(self.buildings.items())}
        if self.seat is not None:
            data["seat"] = self.seat
        return data

    @classmethod
    def from_dict(cls, kind: str, data: Mapping[str, Any]) -> Action:
        if kind not in KINDS:
            raise ValueError(f"unknown action {kind!r}")
        return cls(
            kind=kind,
            location=data.get("location"),
            people=data.get("people", 1 if kind == "place" else None),
            dice=tuple(data["dice"]) if data.get("dice") is not None else None,
            tools=tuple(data.get("tools", ())),
            one_time=tuple(data.get("one_time", ())),
            pay=dict(data.get("pay", {})),
            choose=dict(data.get("choose", {})),
            picks=tuple(data.get("picks", ())),
            drawn=data.get("drawn"),
            decline=bool(data.get("decline", False)),
            starve=bool(data.get("starve", False)),
            cards=tuple(data.get("cards", ())),
            buildings={int(name.removeprefix("building")) - 1: tile for name, tile in data.get("buildings", {}).items()},
            seat=data.get("seat"),
        )

    # -- text --------------------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str) -> Action:
        """The action ``text`` writes in the notation (:func:`parse_action`)."""
        return parse_action(text)

    def to_text(self) -> str:
        words = [self.kind]
        if self.location is not None:
            words.append(self.location)
        if self.kind == "place" and self.people not in (None, 1):
            words.append(str(self.people))
        if self.dice is not None:
            words.append("dice=" + ",".join(map(str, self.dice)))
        for name, key in (("tools", "tools"), ("one_time", "once"), ("picks", "picks"), ("cards", "cards")):
            if getattr(self, name):
                words.append(f"{key}=" + ",".join(map(str, getattr(self, name))))
        for name in ("pay", "choose"):
            value = {k: v for k, v in getattr(self, name).items() if v}
            if value:
                words.append(f"{name}=" + ",".join(f"{k}:{v}" for k, v in value.items()))
        if self.drawn is not None:
            words.append(f"drawn={self.drawn}")
        if self.decline:
            words.append("decline")
        if self.starve:
            words.append("starve")
        words += [f"building{i + 1}={tile}" for i, tile in sorted(self.buildings.items())]
        if self.seat is not None:
            words.append(f"seat={self.seat}")
        return " ".join(words)


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(",") if part)


def _amounts(text: str) -> dict[str, int]:
    amounts: dict[str, int] = {}
    for part in filter(None, text.split(",")):
        name, _, count = part.partition(":")
        amounts[name] = amounts.get(name, 0) + (int(count) if count else 1)
    return amounts


def parse_action(text: str) -> Action:
    """Read one action in the text notation; :class:`~games.engines.errors.InvalidNotation` (a
    ``ValueError``) says what does not parse.

    >>> parse_action("resolve forest dice=3,5,6 tools=0").dice
    (3, 5, 6)
    >>> parse_action("resolve forest dice=three")
    Traceback (most recent call last):
    ...
    games.engines.errors.InvalidNotation: 'resolve forest dice=three': invalid literal for int() with base 10: 'three'
    """
    words = text.split()
    if not words or words[0] not in KINDS:
        raise InvalidNotation(f"an action starts with one of {', '.join(KINDS)}: {text!r}")
    kind, rest = words[0], words[1:]
    data: dict[str, Any] = {}
    buildings: dict[str, str] = {}
    try:
        for word in rest:
            key, equals, value = word.partition("=")
            if not equals:
                if word in ("decline", "starve"):
                    data[word] = True
                elif "location" not in data:
                    data["location"] = word
                elif kind == "place" and "people" not in data:
                    data["people"] = int(word)
                else:
                    raise ValueError(f"unexpected {word!r}")
            elif key in ("dice", "tools", "picks"):
                data[key] = list(_ints(value))
            elif key == "once":
                data["one_time"] = list(_ints(value))
            elif key in ("pay", "choose"):
                data[key] = _amounts(value)
            elif key == "cards":
                data["cards"] = [card for card in value.split(",") if card]
            elif key == "drawn":
                data["drawn"] = value
            elif key == "seat":
                data["seat"] = int(value)
            elif key.startswith("building"):
                buildings[key] = value
            else:
                raise ValueError(f"unknown {key}=")
    except ValueError as error:
        raise InvalidNotation(f"{text!r}: {error}") from None
    if buildings:
        data["buildings"] = buildings
    return Action.from_dict(kind, data)
