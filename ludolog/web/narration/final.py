"""The end of a game explained: the final scoring feature by feature (or player by player), in
the reader's words.

Each game's web module says how its final scoring reads (``WebGame.final_scoring``): a tile
game's from the final awards of its view (each with the tiles of its feature, the figures that
stood on it and what its points counted, see :func:`feature_groups`), Stone Age's from each
tribe's final sources. Nothing is worked out again from the rules: each line's points are the
award's or the source's own, and the sums are the view's scores.

>>> road = FeatureSource("road", "Unfinished roads", "Thieves", lambda award: f"Road: {len(award['tiles'])} tiles")
>>> view = {"scores": [{"seat": 0, "total": 9}], "awards": [{"source": "road", "points": 3, "seats": [0],
...         "final": True, "tiles": [[0, 0], [1, 0], [2, 0]], "figures": [{"seat": 0}], "contents": {}}]}
>>> end = explain(feature_groups(view, [road]), view)
>>> [(line.feature, line.gains) for group in end.groups for line in group.lines]
[('Road: 3 tiles', ((0, 3),))]
>>> end.before, end.final, end.totals
({0: 6}, {0: 3}, {0: 9})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import ngettext

from ..games import web_game

from . import Position, number


@dataclass(frozen=True)
class FinalLine:
    target: str
    """What the board shows when the line is chosen: ``award-3`` (the feature of the view's
    fourth award) or ``tribe-0`` (a Stone Age tribe)."""
    feature: str
    """The feature and what its points counted: ``Meadow: 4 deer, 1 sabre-tooth tiger``."""
    figures: tuple[tuple[int, int], ...]
    """(seat, how many of that seat's figures stood on it), seat by seat."""
    gains: tuple[tuple[int, int], ...]
    """(seat, points) for each seat the line scored for (0 points too: a majority that won nothing)."""


@dataclass(frozen=True)
class FinalGroup:
    heading: str
    """What its lines score (``Hunters in the meadows``); empty for a group of one player's."""
    figure_word: str
    """What the figures of its lines are called (``Hunters``), or empty."""
    lines: tuple[FinalLine, ...]
    seat: int | None = None
    """The player whose sources the lines are (Stone Age), else ``None``."""


@dataclass(frozen=True)
class FinalScoring:
    groups: tuple[FinalGroup, ...]
    before: dict[int, int]
    """Seat → points before the final scoring."""
    final: dict[int, int]
    """Seat → points of the final scoring (the lines' gains added up)."""
    totals: dict[int, int]
    """Seat → final score (the view's)."""


def explain_end(game_slug: str, position: Position) -> FinalScoring:
    """The final scoring of a finished game's last ``position`` (the engine's view), as the
    game's web module reads it."""
    game = web_game(game_slug)
    if game is None:
        raise ValueError(f"no web module explains the end of {game_slug!r}")
    return explain(game.final_scoring(position), position)


def explain(groups: Sequence[FinalGroup], position: Position) -> FinalScoring:
    """``groups`` (the final scoring's lines) with each player's points before them, from them
    and in all (the view's scores)."""
    groups = list(groups)
    totals = {int(score["seat"]): int(score["total"]) for score in position.get("scores", [])}
    final = dict.fromkeys(totals, 0)
    for group in groups:
        for line in group.lines:
            for seat, points in line.gains:
                final[seat] = final.get(seat, 0) + points
    return FinalScoring(tuple(groups), {seat: totals[seat] - final.get(seat, 0) for seat in totals}, final, totals)


# -- shared by the tile games ------------------------------------------------------------------

@dataclass(frozen=True)
class FeatureSource:
    """How the final awards of one source (``hut``, ``city``) read: the heading of their group,
    what their figures are called and each feature's words (what its points counted)."""

    source: str
    heading: str | Promise
    figure_word: str | Promise
    feature: Callable[[Mapping[str, Any]], str]


def count(singular: str, plural: str, how_many: int) -> str:
    """``3 tiles``: ``ngettext`` with the count written as the pages write numbers."""
    return ngettext(singular, plural, how_many) % {"count": number(how_many)}


def tiles_of(award: Mapping[str, Any]) -> str:
    """How many tiles an award's feature covers, in words."""
    return count("%(count)s tile", "%(count)s tiles", len(award.get("tiles", [])))


def feature_groups(position: Position, sources: Sequence[FeatureSource]) -> list[FinalGroup]:
    """A tile game's final scoring: one group per source, in the order of ``sources``, of the
    final awards of the view (those naming their tiles; the others scored during the game and
    the log has said them). Within a group the features that scored most come first; those
    worth nothing (a field beside no completed city) last, still there to say why their figures
    brought nothing."""
    known = {source.source: source for source in sources}
    lines: dict[str, list[FinalLine]] = {}
    for index, award in enumerate(position.get("awards", [])):
        if "tiles" not in award:
            continue
        source = str(award["source"])
        standing = Counter(int(figure["seat"]) for figure in award.get("figures", []))
        lines.setdefault(source, []).append(FinalLine(
            target=f"award-{index}", feature=known[source].feature(award),
            figures=tuple(sorted(standing.items())),
            gains=tuple((int(seat), int(award["points"])) for seat in award.get("seats", []))))
    return [FinalGroup(str(source.heading), str(source.figure_word),
                       tuple(sorted(lines[source.source], key=lambda line: -max((p for _s, p in line.gains), default=0))))
            for source in sources if source.source in lines]
