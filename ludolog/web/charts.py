"""What the pages' line charts share: the colours of lines beyond a table's seats, and how many
points a line draws."""

from __future__ import annotations

from typing import TypeVar

CHART_COLOURS = ("#d62828", "#1d4ed8", "#e09f00", "#7b2cbf", "#222222", "#2f9e44", "#e64980", "#0b7285",
                 "#8a4b1f", "#868e96")
"""Line colours for charts with more lines than seats at a table (a league's members)."""
T = TypeVar("T")
SERIES_POINTS = 200
"""The most points a chart line draws: a long history draws no more than a short one."""


def thinned(points: list[T], limit: int = SERIES_POINTS) -> list[T]:
    """About ``limit`` of ``points`` evenly spaced, the first and the last kept, in order."""
    stride = max(1, -(-len(points) // limit))
    kept = points[::stride]
    if points and (len(points) - 1) % stride:
        kept.append(points[-1])
    return kept
