"""Traders & Builders' goods: wine, grain and cloth, taken from completed cities, scored at the end.

Whoever lays the tile that completes a city takes one token for each goods symbol in it, whether
or not they (or anyone) have a follower there. After the last tile, the most tokens of each good
score 10; players tied for the most all score 10 (2nd edition rule, the same as the 1st's).

>>> majorities([{"wine": 2, "grain": 1, "cloth": 0}, {"wine": 2, "grain": 0, "cloth": 1}])
[('wine', 2, (0, 1)), ('grain', 1, (0,)), ('cloth', 1, (1,))]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

GOODS: Final = ("wine", "grain", "cloth")
MAJORITY_POINTS: Final = 10


def no_goods() -> dict[str, int]:
    return dict.fromkeys(GOODS, 0)


def majorities(held: Sequence[Mapping[str, int]]) -> list[tuple[str, int, tuple[int, ...]]]:
    """For each good someone holds: the good, the most tokens held, the seats holding that many."""
    found = []
    for good in GOODS:
        most = max((tokens.get(good, 0) for tokens in held), default=0)
        if most > 0:
            found.append((good, most, tuple(seat for seat, tokens in enumerate(held) if tokens.get(good, 0) == most)))
    return found
