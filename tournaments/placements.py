"""Scoring multiplayer tables: placement points by table size, ties shared, tie-breakers as settings.

A table's result is its players in seat order with their scores (or their places when only the
order was told). Placement points come from a preset by table size; players tied for a place share
the points of the places they cover. :func:`standings` adds the rounds up and breaks ties by the
settings' tie-breakers, in order.

>>> table_points(TableResult(players=(1, 2, 3, 4), scores=(30, 42, 42, 12)))
{1: Fraction(2, 1), 2: Fraction(5, 1), 3: Fraction(5, 1), 4: Fraction(1, 1)}

Two tied for first at a table of four share (6 + 4) / 2; the one rank (``competition_ranks``) puts
the next player third. After one round of two tables, the two winners stay tied through every
tie-breaker (the same opponents' points, both at the winner's score, never met), and share the rank:

>>> first = [TableResult((1, 2, 3, 4), scores=(50, 40, 30, 20)), TableResult((5, 6, 7, 8), scores=(40, 50, 20, 30))]
>>> [(line.rank, line.player, int(line.points)) for line in standings(first)][:4]
[(1, 1, 6), (1, 6, 6), (3, 2, 4), (3, 5, 4)]

In round 2 players 1 and 6 tie for second at the table player 3 wins, and share (4 + 2) / 2 = 3.
Both have 9; player 1 met stronger opponents (2, 3, 4 then 6, 3, 8: 41 points against 33):

>>> second = first + [TableResult((1, 6, 3, 8), scores=(20, 20, 40, 10)),
...                   TableResult((2, 5, 4, 7), places=(1, 2, 3, 4))]
>>> [(line.rank, line.player, int(line.points), int(line.tiebreaks[OPPONENTS_POINTS]))
...  for line in standings(second)][:3]
[(1, 2, 10, 33), (2, 1, 9, 41), (3, 6, 9, 33)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from games.engines.ranks import competition_ranks

PLACEMENT_POINTS: Mapping[int, tuple[int, ...]] = {
    2: (3, 1),
    3: (5, 3, 1),
    4: (6, 4, 2, 1),
    5: (7, 5, 3, 2, 1),
    6: (8, 6, 4, 3, 2, 1),
    7: (9, 7, 5, 4, 3, 2, 1),
}
"""Points by place for each table size (a table of 7 when 7 players play at tables of 6).

The first place is worth two more than the second, the second two more than the third, then one
a place down to 1 for the last: a win always outweighs a second place by as much, whatever the
table's size, and the last player still scores for having played.
"""

OPPONENTS_POINTS = "opponents_points"
"""The sum, over a player's tables, of the points (in the whole tournament) of those they met."""
SCORE_RATIO = "score_ratio"
"""The mean of a player's score divided by their table's winning score (tables with scores only)."""
HEAD_TO_HEAD = "head_to_head"
"""Among the players still tied, how often each placed ahead of another of them at one table."""
TIEBREAKERS = (OPPONENTS_POINTS, SCORE_RATIO, HEAD_TO_HEAD)


@dataclass(frozen=True)
class Settings:
    """How a tournament scores: the presets, the tie-breakers in order and the first-player compensation.

    ``first_player_compensation`` (off: 0): points taken from the first seat's placement points at
    every table, for games where the club's own statistics measure an advantage for the first
    player at that table size. The figure to enter is the measured advantage expressed in
    placement points: (the first seat's win rate − 1 / table size) × the winner's points. For
    instance a first seat winning 31 % of four-player games (25 % expected) at 6/4/2/1:
    0.06 × 6 = 0.36. It may lower a place's points below those of the place after it.
    """

    points_by_size: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: dict(PLACEMENT_POINTS))
    tiebreakers: tuple[str, ...] = TIEBREAKERS
    first_player_compensation: Fraction = Fraction(0)


DEFAULT = Settings()


class ResultError(ValueError):
    """A table's result that cannot be scored; ``reason`` is the machine-readable word."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class TableResult:
    """One table's result: ``players`` in seat order, with ``scores`` (higher is better, or lower
    with ``lowest_wins``) or ``places`` (1 first, ties share a place) in the same order."""

    players: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    places: tuple[int, ...] | None = None
    lowest_wins: bool = False

    def ranks(self) -> list[int]:
        if len(set(self.players)) != len(self.players):
            raise ResultError("player_twice", "a player is entered twice at one table")
        if self.scores is not None:
            if len(self.scores) != len(self.players):
                raise ResultError("wrong_count", "one score for each player")
            keys = [-s if self.lowest_wins else s for s in self.scores]
            return competition_ranks(keys)
        if self.places is None or len(self.places) != len(self.players):
            raise ResultError("wrong_count", "one score or one place for each player")
        # Places as told may skip (1, 1, 2): the competition rank of them is what counts.
        return competition_ranks([-place for place in self.places])


@dataclass(frozen=True)
class StandingLine:
    """One player's line: ``rank`` shared while still tied after every tie-breaker, ``points``,
    ``tiebreaks`` (each tie-breaker's value by its name), ``played`` (tables)."""

    rank: int
    player: int
    points: Fraction
    tiebreaks: Mapping[str, Fraction | float]
    played: int


def table_points(result: TableResult, settings: Settings = DEFAULT) -> dict[int, Fraction]:
    """Each player's placement points at one table, ties sharing the points of the places they cover.

    >>> table_points(TableResult((1, 2, 3, 4), places=(1, 2, 2, 4)))
    {1: Fraction(6, 1), 2: Fraction(3, 1), 3: Fraction(3, 1), 4: Fraction(1, 1)}
    >>> table_points(TableResult((1, 2, 3), scores=(10, 10, 10)))
    {1: Fraction(3, 1), 2: Fraction(3, 1), 3: Fraction(3, 1)}
    >>> table_points(TableResult((1, 2, 3), scores=(10, 8, 4)), Settings(first_player_compensation=Fraction(1, 2)))
    {1: Fraction(9, 2), 2: Fraction(3, 1), 3: Fraction(1, 1)}
    """
    ranks = result.ranks()
    size = len(result.players)
    preset = settings.points_by_size.get(size)
    if preset is None or len(preset) != size:
        raise ResultError("no_preset", f"no placement points for a table of {size}")
    points = {}
    for seat, (player, rank) in enumerate(zip(result.players, ranks)):
        tied = ranks.count(rank)
        covered = preset[rank - 1: rank - 1 + tied]
        value = Fraction(sum(covered), tied)
        if seat == 0:
            value -= settings.first_player_compensation
        points[player] = value
    return points


def standings(results: Sequence[TableResult], settings: Settings = DEFAULT) -> list[StandingLine]:
    """Every player's line, best first: points, then the settings' tie-breakers in order."""
    points: dict[int, Fraction] = {}
    played: dict[int, int] = {}
    for result in results:
        for player, value in table_points(result, settings).items():
            points[player] = points.get(player, Fraction(0)) + value
            played[player] = played.get(player, 0) + 1
    values: dict[str, dict[int, Fraction | float]] = {}
    for name in settings.tiebreakers:
        if name == OPPONENTS_POINTS:
            values[name] = _opponents_points(results, points)
        elif name == SCORE_RATIO:
            values[name] = _score_ratios(results, points)
        elif name != HEAD_TO_HEAD:
            raise ResultError("unknown_tiebreaker", f"no tie-breaker called {name!r}")
    keys: dict[int, tuple] = {player: (points[player],) for player in points}
    for name in settings.tiebreakers:
        if name == HEAD_TO_HEAD:
            values[name] = _head_to_head(results, keys)
        for player in keys:
            keys[player] = (*keys[player], values[name][player])
    players = sorted(points, key=lambda p: (tuple(-k for k in keys[p]), p))
    ranks = competition_ranks([keys[p] for p in players])
    return [StandingLine(rank, player, points[player], {name: values[name][player] for name in settings.tiebreakers},
                         played[player])
            for rank, player in zip(ranks, players)]


@dataclass(frozen=True)
class FinalLine:
    """A line of a tournament with a final table: ``rank`` overall, the player's Swiss ``line``
    and their ``final_place`` at the final table (None: not a finalist)."""

    rank: int
    line: StandingLine
    final_place: int | None


def final_standings(swiss: Sequence[StandingLine], final: TableResult) -> list[FinalLine]:
    """The final order: the finalists by their places at the final table (a tie there broken by
    the Swiss standings before it), then everyone else in the Swiss order, their ties kept.

    Players 1 to 4 led the Swiss rounds; at the final, 3 wins, and 1 and 4 tie for second (1 was
    ahead of 4 before the final, so 1 is second):

    >>> swiss = standings([TableResult((1, 2, 3, 4), scores=(9, 8, 7, 6)), TableResult((5, 6), scores=(3, 3))])
    >>> [(line.rank, line.line.player, line.final_place)
    ...  for line in final_standings(swiss, TableResult((4, 3, 2, 1), scores=(5, 9, 1, 5)))]
    [(1, 3, 1), (2, 1, 2), (3, 4, 2), (4, 2, 4), (5, 5, None), (5, 6, None)]
    """
    places = dict(zip(final.players, final.ranks()))
    order = {line.player: index for index, line in enumerate(swiss)}
    finalists = sorted((line for line in swiss if line.player in places),
                       key=lambda line: (places[line.player], order[line.player]))
    rest = [line for line in swiss if line.player not in places]
    rest_ranks = competition_ranks([-line.rank for line in rest])
    return ([FinalLine(rank, line, places[line.player]) for rank, line in enumerate(finalists, start=1)]
            + [FinalLine(len(finalists) + rank, line, None) for rank, line in zip(rest_ranks, rest)])


def checked_points(size: int, points: Sequence[object]) -> tuple[int, ...]:
    """A table size's placement points as an organiser gives them (``"6/4/2/1".split("/")``, or
    numbers): whole numbers, one per place, never more for a place than for the one before.
    Refused with a :class:`ResultError`: ``points_not_whole_numbers``, ``points_wrong_count``,
    ``points_increasing``.

    >>> checked_points(4, " 6/4/2/2 ".split("/"))
    (6, 4, 2, 2)
    >>> try:
    ...     checked_points(3, [5, 1, 3])
    ... except ResultError as error:
    ...     print(error.reason)
    points_increasing
    """
    values = []
    for value in points:
        text = str(value).strip()
        if not text.isdigit():
            raise ResultError("points_not_whole_numbers", "placement points are whole numbers, 0 or more")
        values.append(int(text))
    if len(values) != size:
        raise ResultError("points_wrong_count", "one number of placement points for each place")
    if any(later > earlier for earlier, later in zip(values, values[1:])):
        raise ResultError("points_increasing", "placement points never rise from a place to the next")
    return tuple(values)


def checked_tiebreakers(names: Sequence[str]) -> tuple[str, ...]:
    """The tie-breakers in the order chosen, blanks left out; an unknown one (``unknown_tiebreaker``)
    or one chosen twice (``tiebreaker_twice``) refused.

    >>> checked_tiebreakers(["head_to_head", "", "opponents_points"])
    ('head_to_head', 'opponents_points')
    """
    chosen = tuple(name for name in names if name)
    if any(name not in TIEBREAKERS for name in chosen):
        raise ResultError("unknown_tiebreaker", "no such tie-breaker")
    if len(set(chosen)) != len(chosen):
        raise ResultError("tiebreaker_twice", "a tie-breaker is chosen twice")
    return chosen


def _opponents_points(results: Sequence[TableResult], points: Mapping[int, Fraction]) -> dict[int, Fraction]:
    total = {player: Fraction(0) for player in points}
    for result in results:
        for player in result.players:
            total[player] += sum((points[other] for other in result.players if other != player), Fraction(0))
    return total


def _score_ratios(results: Sequence[TableResult], points: Mapping[int, Fraction]) -> dict[int, float]:
    ratios: dict[int, list[float]] = {player: [] for player in points}
    for result in results:
        if result.scores is None or result.lowest_wins:
            continue
        best = max(result.scores)
        if best <= 0:
            continue
        for player, score in zip(result.players, result.scores):
            ratios[player].append(score / best)
    return {player: (sum(r) / len(r) if r else 0.0) for player, r in ratios.items()}


def _head_to_head(results: Sequence[TableResult], keys: Mapping[int, tuple]) -> dict[int, Fraction]:
    """Times each player placed ahead of another player tied with them on every key so far."""
    ahead = {player: Fraction(0) for player in keys}
    for result in results:
        ranks = result.ranks()
        for player, rank in zip(result.players, ranks):
            for other, other_rank in zip(result.players, ranks):
                if other != player and keys[other] == keys[player] and rank < other_rank:
                    ahead[player] += 1
    return ahead
