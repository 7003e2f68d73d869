"""Points on the unit tile, shared by the tile games' SVG drawings (pure, no Django).

(0, 0) is the north-west corner, y grows south; each side is cut in three thirds read
clockwise, as the tile files say (N west→east, E north→south, S east→west, W south→north).
"""

from __future__ import annotations

from collections.abc import Sequence

Point = tuple[float, float]


def sub_edge(side: str, index: int) -> tuple[Point, Point]:
    """The two ends of third ``index`` of ``side``, read clockwise."""
    a, b = index / 3, (index + 1) / 3
    return {
        "N": ((a, 0.0), (b, 0.0)),
        "E": ((1.0, a), (1.0, b)),
        "S": ((1 - a, 1.0), (1 - b, 1.0)),
        "W": ((0.0, 1 - a), (0.0, 1 - b)),
    }[side]


def corners(side: str) -> tuple[Point, Point]:
    """A side's two corners in clockwise order."""
    return sub_edge(side, 0)[0], sub_edge(side, 2)[1]


def mid(side: str) -> Point:
    return {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}[side]


def inward(side: str, point: Point, depth: float) -> Point:
    """``point`` moved ``depth`` away from ``side``, toward the opposite one."""
    dx, dy = {"N": (0, 1), "E": (-1, 0), "S": (0, -1), "W": (1, 0)}[side]
    return point[0] + dx * depth, point[1] + dy * depth


def mean(points: Sequence[Point]) -> Point:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def fmt(value: float) -> str:
    """A coordinate with at most one decimal, for compact SVG."""
    return f"{value:.1f}".rstrip("0").rstrip(".")
