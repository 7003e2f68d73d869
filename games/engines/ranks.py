"""The competition rank ("1224" ranking): a seat's place is 1 + the number of seats strictly
better than it, so tied seats share a place and the next place is skipped (1, 1, 3).

The one body of that rule: every engine's ``final_ranks`` and the scoring app's ranks of a
result told by a table (:func:`scoring.services.shared_ranks`, ``ranks_as_told``) call it with
the key each of them ranks by (a total, a total and a tie-break, a win and a score).

>>> competition_ranks([30, 42, 42, 12])
[3, 1, 1, 4]
>>> seat_ranks([(30, 4), (30, 7), (12, 0)])
{0: 2, 1: 1, 2: 3}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar


class _Comparable(Protocol):
    def __gt__(self, other: Any, /) -> bool: ...


KeyT = TypeVar("KeyT", bound=_Comparable)


def competition_ranks(keys: Sequence[KeyT]) -> list[int]:
    """Each key's place, in the order given: a greater key is a better one."""
    return [1 + sum(other > key for other in keys) for key in keys]


def seat_ranks(keys: Sequence[KeyT]) -> dict[int, int]:
    """Seat (0-based, the index of its key) → place: the shape of every engine's ``final_ranks``."""
    return dict(enumerate(competition_ranks(keys)))
