"""Placement points, shared ties and the tie-breakers, worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.placements import (
    HEAD_TO_HEAD,
    OPPONENTS_POINTS,
    SCORE_RATIO,
    ResultError,
    Settings,
    TableResult,
    standings,
    table_points,
)


@pytest.mark.parametrize(("size", "points"), [
    (2, [3, 1]), (3, [5, 3, 1]), (4, [6, 4, 2, 1]), (5, [7, 5, 3, 2, 1]), (6, [8, 6, 4, 3, 2, 1]),
])
def test_each_table_size_has_its_preset(size, points):
    players = tuple(range(1, size + 1))
    scored = table_points(TableResult(players, scores=tuple(100 - 10 * p for p in players)))
    assert [scored[p] for p in players] == points


def test_two_tied_for_second_at_a_table_of_four_share_the_second_and_third_places_points():
    scored = table_points(TableResult((1, 2, 3, 4), scores=(80, 65, 65, 40)))
    assert scored == {1: 6, 2: 3, 3: 3, 4: 1}


def test_three_tied_for_last_share_what_is_left():
    scored = table_points(TableResult((1, 2, 3, 4), places=(1, 2, 2, 2)))
    assert scored == {1: 6, 2: Fraction(7, 3), 3: Fraction(7, 3), 4: Fraction(7, 3)}


def test_lowest_score_wins_when_the_game_says_so():
    scored = table_points(TableResult((1, 2, 3), scores=(12, 30, 7), lowest_wins=True))
    assert scored == {1: 3, 2: 1, 3: 5}


def test_the_first_player_compensation_is_off_by_default_and_taken_from_the_first_seat():
    result = TableResult((4, 3, 2, 1), scores=(50, 40, 30, 20))
    assert table_points(result)[4] == 6
    assert table_points(result, Settings(first_player_compensation=Fraction(36, 100)))[4] == Fraction(564, 100)
    assert table_points(result, Settings(first_player_compensation=Fraction(36, 100)))[3] == 4


@pytest.mark.parametrize(("result", "reason"), [
    (TableResult((1, 1, 2), scores=(3, 2, 1)), "player_twice"),
    (TableResult((1, 2, 3), scores=(3, 2)), "wrong_count"),
    (TableResult((1, 2, 3)), "wrong_count"),
    (TableResult(tuple(range(1, 9)), places=tuple(range(1, 9))), "no_preset"),
])
def test_a_result_that_cannot_be_scored_says_why(result, reason):
    with pytest.raises(ResultError) as refused:
        table_points(result)
    assert refused.value.reason == reason


def two_rounds() -> list[TableResult]:
    return [
        TableResult((1, 2, 3, 4), scores=(50, 40, 30, 20)),   # 1: 6, 2: 4, 3: 2, 4: 1
        TableResult((5, 6, 7, 8), scores=(40, 50, 20, 30)),   # 6: 6, 5: 4, 8: 2, 7: 1
        TableResult((1, 6, 3, 8), scores=(20, 20, 40, 10)),   # 3: 6, 1 and 6: 3 each, 8: 1
        TableResult((2, 5, 4, 7), places=(1, 2, 3, 4)),       # 2: 6, 5: 4, 4: 2, 7: 1
    ]


def test_opponents_points_break_a_tie_on_points():
    lines = standings(two_rounds())
    assert [(line.rank, line.player, line.points) for line in lines] == [
        (1, 2, 10), (2, 1, 9), (3, 6, 9), (4, 3, 8), (5, 5, 8), (6, 4, 3), (7, 8, 3), (8, 7, 2)]
    by_player = {line.player: line for line in lines}
    # 1 met 2, 3, 4 (10 + 8 + 3) then 6, 3, 8 (9 + 8 + 3); 6 met 5, 7, 8 (8 + 2 + 3) then 1, 3, 8 (9 + 8 + 3)
    assert by_player[1].tiebreaks[OPPONENTS_POINTS] == 41
    assert by_player[6].tiebreaks[OPPONENTS_POINTS] == 33
    assert by_player[1].played == 2


def test_the_score_ratio_to_the_winner_averages_the_tables_with_scores():
    lines = {line.player: line for line in standings(two_rounds(), Settings(tiebreakers=(SCORE_RATIO,)))}
    assert lines[3].tiebreaks[SCORE_RATIO] == pytest.approx((30 / 50 + 40 / 40) / 2)
    assert lines[5].tiebreaks[SCORE_RATIO] == pytest.approx(40 / 50)   # the places-only table counts for nothing
    # 3 and 5 both have 8; 3's ratio 0.8 equals 5's 0.8: still tied, the rank shared
    assert (lines[3].rank, lines[5].rank) == (4, 4)


def test_head_to_head_counts_who_placed_ahead_among_the_tied():
    results = [
        TableResult((1, 2, 3), scores=(30, 20, 10)),
        TableResult((2, 1, 3), scores=(30, 20, 10)),
        TableResult((1, 2, 3), scores=(5, 4, 3)),
        TableResult((4, 5, 6), places=(1, 2, 3)),
        TableResult((5, 4, 6), places=(1, 2, 3)),
        TableResult((6, 4, 5), places=(1, 2, 3)),
    ]
    lines = standings(results, Settings(tiebreakers=(HEAD_TO_HEAD,)))
    ranked = [(line.rank, line.player, line.points, line.tiebreaks[HEAD_TO_HEAD]) for line in lines]
    # 1: 5+3+5 = 13, 2: 3+5+3 = 11, 4: 5+3+3 = 11, 5: 3+5+1 = 9, 6: 1+1+5 = 7, 3: 3
    # 2 and 4 tie on 11 and never met: head-to-head 0 each, the rank shared
    assert ranked == [(1, 1, 13, 0), (2, 2, 11, 0), (2, 4, 11, 0), (4, 5, 9, 0), (5, 6, 7, 0), (6, 3, 3, 0)]


def test_head_to_head_orders_tied_players_who_met():
    results = [
        TableResult((1, 2, 3), places=(1, 2, 3)),   # 1: 5, 2: 3, 3: 1
        TableResult((3, 1, 2), places=(1, 2, 3)),   # 3: 5, 1: 3, 2: 1
        TableResult((2, 3, 1), places=(1, 2, 3)),   # 2: 5, 3: 3, 1: 1
    ]
    # all on 9 points, and each placed ahead of another of them three times in all: still tied
    lines = standings(results, Settings(tiebreakers=(HEAD_TO_HEAD,)))
    assert [(line.rank, line.tiebreaks[HEAD_TO_HEAD]) for line in lines] == [(1, 3), (1, 3), (1, 3)]
    lines = standings(results[:2] + [TableResult((2, 3, 1), places=(1, 1, 3))], Settings(tiebreakers=(HEAD_TO_HEAD,)))
    # 1: 5+3+1 = 9; 2: 3+1+4 = 8; 3: 1+5+4 = 10 -> no tie left
    assert [(line.rank, line.player) for line in lines] == [(1, 3), (2, 1), (3, 2)]


def test_an_unknown_tiebreaker_is_refused():
    with pytest.raises(ResultError) as refused:
        standings(two_rounds(), Settings(tiebreakers=("coin_toss",)))
    assert refused.value.reason == "unknown_tiebreaker"
