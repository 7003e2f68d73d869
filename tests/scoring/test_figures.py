"""The figures of scoring.figures on a small club's history, every expected value worked out by
hand below (A, B and C are players 1, 2 and 3; "s0 r1" is seat 0, rank 1)."""

from __future__ import annotations

from datetime import date

from scoring.figures import HeadToHead, Played, SeatPlayed, Streaks, games_of, h_index, head_to_head
from scoring.figures import seat_order_win_rates, streaks, win_rates

A, B, C = 1, 2, 3
ROWS = [  # record, game, day, then (player, seat, rank) per seat
    (1, "azul", 1, [(A, 0, 1), (B, 1, 2)]),
    (2, "azul", 2, [(B, 0, 1), (A, 1, 2)]),
    (3, "azul", 3, [(A, 0, 1), (B, 1, 2), (C, 2, 3)]),
    (4, "azul", 4, [(C, 0, 1), (A, 1, 1), (B, 2, 3)]),  # A and C share the win
    (5, "cascadia", 5, [(A, 0, 2), (C, 1, 1)]),
    (6, "cascadia", 6, [(C, 0, 1), (A, 1, 2)]),
    (7, "cascadia", 7, [(A, 0, 1), (C, 1, 2)]),
    (8, "splendor", 8, [(B, 0, 1), (A, 1, 2)]),
]
GAMES = [Played(record, slug, date(2026, 1, day), tuple(SeatPlayed(*seat) for seat in seats))
         for record, slug, day, seats in ROWS]


def test_head_to_head():
    # A against B, in games 1, 2, 3, 4, 8: ahead in 1, 3, 4; behind in 2, 8.
    # A against C, in games 3, 4, 5, 6, 7: ahead in 3, 7; behind in 5, 6; tied in 4.
    assert head_to_head(GAMES, A) == [HeadToHead(B, 5, 3, 2, 0), HeadToHead(C, 5, 2, 2, 1)]
    # C against B, in games 3 and 4: behind in 3, ahead in 4.
    assert head_to_head(GAMES, C) == [HeadToHead(A, 5, 2, 2, 1), HeadToHead(B, 2, 1, 1, 0)]


def test_win_rate_by_seat_order():
    rates = {(r.game_slug, r.seat_order): (r.plays, r.wins) for r in seat_order_win_rates(GAMES)}
    # Azul: seat 0 won games 1, 2, 3 and 4; seat 1 only game 4 (the shared win); seat 2 never.
    # Cascadia: seat 0 won 6 and 7, seat 1 won 5. Splendor: seat 0 won its one game.
    assert rates == {("azul", 0): (4, 4), ("azul", 1): (4, 1), ("azul", 2): (2, 0),
                     ("cascadia", 0): (3, 2), ("cascadia", 1): (3, 1),
                     ("splendor", 0): (1, 1), ("splendor", 1): (1, 0)}


def test_h_index():
    # A played Azul 4 times, Cascadia 3, Splendor 1: two games at least twice each, not three thrice.
    # B: Azul 4, Splendor 1 → 1. C: Cascadia 3, Azul 2 → 2.
    assert (h_index(GAMES, A), h_index(GAMES, B), h_index(GAMES, C)) == (2, 1, 2)


def test_streaks_and_win_rates():
    # A in date order: win, loss, win, win (shared), loss, loss, win, loss.
    assert streaks(GAMES, A) == Streaks(longest=2, current=0)
    # C: loss (3), win (4), win (5), win (6), loss (7).
    assert streaks(GAMES, C) == Streaks(longest=3, current=0)
    assert win_rates(GAMES, A) == {"azul": (4, 3), "cascadia": (3, 1), "splendor": (1, 0)}


def test_games_are_read_from_rows_of_seats_in_any_order():
    rows = [(record, slug, date(2026, 1, day), player, seat, rank)
            for record, slug, day, seats in reversed(ROWS) for player, seat, rank in reversed(seats)]
    assert games_of(rows) == GAMES
