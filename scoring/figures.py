"""The figures players ask a club's history for, as pure functions over plain values: win rate by
game, head-to-head records, win rate by seat order (first-player advantage), the H-index of games
played, winning streaks. No database here: :mod:`scoring.selectors` reads the games a reader may see
and hands them over, so a figure never counts a game its reader may not see.

A game is a :class:`Played`: its record, game, date and each seat's player, order of play and rank
(1 is a win; players who tie share a rank).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class SeatPlayed:
    player_id: int
    seat_order: int
    rank: int


@dataclass(frozen=True)
class Played:
    record_id: int
    game_slug: str
    played_on: date
    seats: tuple[SeatPlayed, ...]

    def seat_of(self, player_id: int) -> SeatPlayed | None:
        return next((seat for seat in self.seats if seat.player_id == player_id), None)


@dataclass(frozen=True)
class HeadToHead:
    """Of the games both played: how often each finished ahead of the other, and the ties."""

    opponent_id: int
    games: int
    ahead: int
    behind: int
    tied: int


@dataclass(frozen=True)
class SeatRate:
    """In one game, the players who sat ``seat_order`` (0: played first): how many, how many won."""

    game_slug: str
    seat_order: int
    plays: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0


@dataclass(frozen=True)
class Streaks:
    longest: int
    current: int


def head_to_head(games: Iterable[Played], player_id: int) -> list[HeadToHead]:
    """The player's record against each opponent met, most games first.

    >>> g = [Played(1, "azul", date(2026, 1, 1), (SeatPlayed(1, 0, 1), SeatPlayed(2, 1, 2))),
    ...      Played(2, "azul", date(2026, 1, 2), (SeatPlayed(1, 0, 2), SeatPlayed(2, 1, 2)))]
    >>> head_to_head(g, 1)
    [HeadToHead(opponent_id=2, games=2, ahead=1, behind=0, tied=1)]
    """
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for game in games:
        mine = game.seat_of(player_id)
        if mine is None:
            continue
        for other in game.seats:
            if other.player_id == player_id:
                continue
            line = tally[other.player_id]
            line[0] += 1
            line[1 if mine.rank < other.rank else 2 if mine.rank > other.rank else 3] += 1
    return sorted((HeadToHead(opponent, *line) for opponent, line in tally.items()),
                  key=lambda h: (-h.games, h.opponent_id))


def seat_order_win_rates(games: Iterable[Played]) -> list[SeatRate]:
    """For each game, the win rate of each seat in the order of play (games of two players or
    more; a shared first place is a win for each).

    >>> g = [Played(1, "azul", date(2026, 1, 1), (SeatPlayed(1, 0, 1), SeatPlayed(2, 1, 2))),
    ...      Played(2, "azul", date(2026, 1, 2), (SeatPlayed(2, 0, 1), SeatPlayed(1, 1, 1)))]
    >>> [(r.seat_order, r.plays, r.wins) for r in seat_order_win_rates(g)]
    [(0, 2, 2), (1, 2, 1)]
    """
    plays: Counter[tuple[str, int]] = Counter()
    wins: Counter[tuple[str, int]] = Counter()
    for game in games:
        if len(game.seats) < 2:
            continue
        for seat in game.seats:
            plays[(game.game_slug, seat.seat_order)] += 1
            wins[(game.game_slug, seat.seat_order)] += seat.rank == 1
    return [SeatRate(slug, order, plays[(slug, order)], wins[(slug, order)]) for slug, order in sorted(plays)]


def h_index(games: Iterable[Played], player_id: int) -> int:
    """The largest h such that the player has played h different games at least h times each.

    >>> g = [Played(n, slug, date(2026, 1, n), (SeatPlayed(1, 0, 1),))
    ...      for n, slug in enumerate(["a", "a", "a", "b", "b", "c"], start=1)]
    >>> h_index(g, 1)
    2
    """
    return h_index_of(Counter(game.game_slug for game in games if game.seat_of(player_id)).values())


def h_index_of(play_counts: Iterable[int]) -> int:
    """The largest h such that h of the counts are at least h: of a club, h different games
    played at least h times each.

    >>> h_index_of([10, 4, 3, 3, 1])
    3
    >>> h_index_of([])
    0
    """
    counts = sorted(play_counts, reverse=True)
    return sum(1 for place, count in enumerate(counts, start=1) if count >= place)


def streaks(games: Iterable[Played], player_id: int) -> Streaks:
    """The player's longest run of wins in a row, and the run standing now (games in date order).

    >>> g = [Played(n, "azul", date(2026, 1, n), (SeatPlayed(1, 0, r), SeatPlayed(2, 1, 3 - r)))
    ...      for n, r in enumerate([1, 1, 2, 1, 1, 1, 2, 1], start=1)]
    >>> streaks(g, 1)
    Streaks(longest=3, current=1)
    """
    longest = current = 0
    for game in sorted(games, key=lambda g: (g.played_on, g.record_id)):
        mine = game.seat_of(player_id)
        if mine is None:
            continue
        current = current + 1 if mine.rank == 1 else 0
        longest = max(longest, current)
    return Streaks(longest, current)


def win_rates(games: Iterable[Played], player_id: int) -> dict[str, tuple[int, int]]:
    """Per game: (plays, wins) of the player.

    >>> g = [Played(1, "azul", date(2026, 1, 1), (SeatPlayed(1, 0, 1), SeatPlayed(2, 1, 2)))]
    >>> win_rates(g, 2)
    {'azul': (1, 0)}
    """
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for game in games:
        mine = game.seat_of(player_id)
        if mine is not None:
            found[game.game_slug][0] += 1
            found[game.game_slug][1] += mine.rank == 1
    return {slug: (line[0], line[1]) for slug, line in sorted(found.items())}


def games_of(rows: Sequence[tuple[int, str, date, int, int, int]]) -> list[Played]:
    """Games from rows of (record id, game, date, player id, seat order, rank), one a seat, in any
    order (as a selector reads them)."""
    seats: dict[int, list[SeatPlayed]] = defaultdict(list)
    heads: dict[int, tuple[str, date]] = {}
    for record_id, slug, played_on, player_id, seat_order, rank in rows:
        heads[record_id] = (slug, played_on)
        seats[record_id].append(SeatPlayed(player_id, seat_order, rank))
    return [Played(record_id, *heads[record_id], tuple(sorted(seats[record_id], key=lambda s: s.seat_order)))
            for record_id in sorted(heads)]
