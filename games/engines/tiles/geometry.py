"""Sides, rotations and grid coordinates of square tiles.

Coordinates are ``(x, y)`` with ``x`` growing east and ``y`` growing *south*
(screen order), so the northern neighbour of ``(0, 0)`` is ``(0, -1)``.

Rotations are quarter turns clockwise, ``0`` to ``3``; a tile turned by one
quarter shows on its east side what it printed on its north side.

>>> Side.N.opposite
<Side.S: 2>
>>> neighbour((0, 0), Side.N)
(0, -1)
>>> printed_side(Side.E, 1)  # turned a quarter clockwise, the east side shows the printed north
<Side.N: 0>
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

Position = tuple[int, int]


class Side(IntEnum):
    """A side of a square tile, numbered clockwise from the north."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return _OPPOSITE[self]


SIDES: Final = (Side.N, Side.E, Side.S, Side.W)
_OPPOSITE: Final = (Side.S, Side.W, Side.N, Side.E)
"""Looked up, not computed: ``Side(...)`` is an enum lookup, slow on a path every placement takes."""

SUB_EDGES_PER_SIDE: Final = 3
"""Each side is cut in three thirds so that a river and its two banks are told apart."""

SIDE_OFFSETS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The step ``(dx, dy)`` to the cell beyond each side, by side (north, east, south, west)."""


def neighbour(position: Position, side: Side) -> Position:
    """The cell beyond ``side`` of ``position``.

    >>> neighbour((2, 3), Side.W)
    (1, 3)
    """
    dx, dy = SIDE_OFFSETS[side]
    return position[0] + dx, position[1] + dy


def printed_side(side: Side, quarter_turns: int) -> Side:
    """Which printed side of a tile turned ``quarter_turns`` clockwise faces ``side``.

    >>> printed_side(Side.N, 2)
    <Side.S: 2>
    """
    return SIDES[(side - quarter_turns) % 4]


def meeting_sub_edge(index: int) -> int:
    """The sub-edge of the neighbour's opposite side that meets sub-edge ``index``.

    Sub-edges are read clockwise around each tile, so facing sides run in
    opposite directions: the first third of one meets the last third of the other.

    >>> [meeting_sub_edge(i) for i in range(3)]
    [2, 1, 0]
    """
    return SUB_EDGES_PER_SIDE - 1 - index


def quarter_turns_from_degrees(degrees: int) -> int:
    """``0, 90, 180, 270`` degrees clockwise to quarter turns.

    >>> quarter_turns_from_degrees(270)
    3
    """
    if degrees not in (0, 90, 180, 270):
        raise ValueError(f"rotation must be 0, 90, 180 or 270 degrees, not {degrees}")
    return degrees // 90
