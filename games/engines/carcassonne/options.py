"""What a game of Carcassonne is played with: which expansions' tiles, which of their rules, how
many meeples.

An expansion's tiles can go into the pile without its rules ("tiles only", as Carcassonne Maps
often plays Inns & Cathedrals and Traders & Builders): an inn is then a plain road, a cathedral a
plain city, goods symbols are pictures, and the expansion's figures stay in the box. Its rules
only come with its tiles.

>>> Options.with_expansions(TRADERS_BUILDERS, INNS_CATHEDRALS).to_dict()
{'expansions': ['inns_cathedrals', 'traders_builders'], 'rules': ['inns_cathedrals', 'traders_builders'], 'meeples': 7}
>>> Options.tiles_only(INNS_CATHEDRALS, meeples=9).has_rules(INNS_CATHEDRALS)
False
>>> Options(rules=(TRADERS_BUILDERS,))
Traceback (most recent call last):
...
ValueError: the rules of traders_builders need its tiles in the pile
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

INNS_CATHEDRALS: Final = "inns_cathedrals"
TRADERS_BUILDERS: Final = "traders_builders"
EXPANSIONS: Final = (INNS_CATHEDRALS, TRADERS_BUILDERS)
"""The expansions this engine knows, in the order options list them."""

MEEPLES: Final = 7
"""Meeples each player has in the base game (Carcassonne Maps recommends 9)."""
MOST_MEEPLES: Final = 20
MAX_PLAYERS: Final = 5
MAX_PLAYERS_WITH_INNS_CATHEDRALS: Final = 6
"""Inns & Cathedrals brings a sixth colour of meeples."""


def _in_order(expansions: Iterable[str]) -> tuple[str, ...]:
    named = set(expansions)
    unknown = sorted(named - set(EXPANSIONS))
    if unknown:
        raise ValueError(f"no expansion {unknown[0]!r}: choose from {', '.join(EXPANSIONS)}")
    return tuple(expansion for expansion in EXPANSIONS if expansion in named)


@dataclass(frozen=True)
class Options:
    """``expansions``: whose tiles are shuffled into the pile; ``rules``: whose rules apply (some
    of those); ``meeples``: each player's meeples (large meeple, builder and pig come on top)."""

    expansions: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    meeples: int = MEEPLES

    def __post_init__(self) -> None:
        object.__setattr__(self, "expansions", _in_order(self.expansions))
        object.__setattr__(self, "rules", _in_order(self.rules))
        for expansion in self.rules:
            if expansion not in self.expansions:
                raise ValueError(f"the rules of {expansion} need its tiles in the pile")
        if isinstance(self.meeples, bool) or not isinstance(self.meeples, int) or not 1 <= self.meeples <= MOST_MEEPLES:
            raise ValueError(f"each player has 1 to {MOST_MEEPLES} meeples, not {self.meeples!r}")

    @classmethod
    def with_expansions(cls, *expansions: str, meeples: int = MEEPLES) -> Options:
        """The expansions' tiles and their rules."""
        return cls(expansions, expansions, meeples)

    @classmethod
    def tiles_only(cls, *expansions: str, meeples: int = MEEPLES) -> Options:
        """The expansions' tiles without their rules."""
        return cls(expansions, (), meeples)

    def has_rules(self, expansion: str) -> bool:
        return expansion in self.rules

    @property
    def is_base_game(self) -> bool:
        return self == BASE_GAME

    @property
    def max_players(self) -> int:
        return MAX_PLAYERS_WITH_INNS_CATHEDRALS if INNS_CATHEDRALS in self.expansions else MAX_PLAYERS

    def to_dict(self) -> dict[str, Any]:
        return {"expansions": list(self.expansions), "rules": list(self.rules), "meeples": self.meeples}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Options:
        """The options of :meth:`to_dict`; ``None`` or ``{}`` is the base game (a record or a
        snapshot written before the expansions has none)."""
        data = data or {}
        return cls(tuple(data.get("expansions", ())), tuple(data.get("rules", ())), data.get("meeples", MEEPLES))


BASE_GAME: Final = Options()
