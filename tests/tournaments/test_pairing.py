"""The table assignment's promises, as properties over random tournaments (hypothesis) and as the
cases a tournament director would check by hand."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    PairingError,
    assign,
    fewest_repeats,
    history_of,
    round_robin,
    seat_imbalance,
    table_sizes,
)

quick = settings(max_examples=25, deadline=None)


def play(players: list[int], rounds: int, table_size: int, seed: int):
    """Rounds assigned one after another with seeded random points; yields (history, assignment)."""
    rng = random.Random(seed)
    played: list[list[tuple[int, ...]]] = []
    points: dict[int, float] = {}
    for number in range(1, rounds + 1):
        history = history_of(played, points)
        assignment = assign(players, history, table_size, seed=seed, round_number=number)
        yield history, assignment
        tables = [table.players for table in assignment.tables]
        played.append(tables)
        for table in tables:
            for place, player in enumerate(rng.sample(table, len(table))):
                points[player] = points.get(player, 0) + len(table) - place


def fewest_repeats(players: list[int], history, sizes: tuple[int, ...]) -> int:
    """The fewest pairs who met before at one table, over every way to split ``players`` into ``sizes``
    (the test's own enumeration: each player in turn into each table with room, empty tables of
    one size taken in order)."""
    best = [len(players) ** 2]

    def place(index: int, tables: list[list[int]], repeats: int) -> None:
        if repeats >= best[0]:
            return
        if index == len(players):
            best[0] = repeats
            return
        player = players[index]
        tried_empty: set[int] = set()
        for t, table in enumerate(tables):
            if len(table) == sizes[t]:
                continue
            if not table:
                if sizes[t] in tried_empty:
                    continue
                tried_empty.add(sizes[t])
            added = sum(1 for other in table if history.times_met(player, other))
            table.append(player)
            place(index + 1, tables, repeats + added)
            table.pop()

    place(0, [[] for _ in sizes], 0)
    return best[0]


def pairs_repeated(history, assignment) -> int:
    return sum(1 for table in assignment.tables for a, b in itertools.combinations(table.players, 2)
               if history.times_met(a, b))


@quick
@given(players=st.integers(2, 40), table_size=st.integers(2, 6), rounds=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_every_player_sits_at_exactly_one_table_a_round(players, table_size, rounds, seed):
    everyone = list(range(100, 100 + players))
    for _, assignment in play(everyone, rounds, table_size, seed):
        seated = [player for table in assignment.tables for player in table.players]
        assert sorted(seated) == everyone
        assert [table.number for table in assignment.tables] == list(range(1, len(assignment.tables) + 1))


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 80), table_size=st.integers(2, 6))
def test_table_sizes_are_within_one_of_the_chosen_size_whenever_the_count_allows(players, table_size):
    sizes = table_sizes(players, table_size)
    assert sum(sizes) == players
    assert 1 not in sizes
    assert list(sizes) == sorted(sizes, reverse=True)
    allowed = [size for size in (table_size - 1, table_size, table_size + 1) if size >= 2]
    possible = any(sum(split) == players
                   for count in range(1, players // 2 + 1)
                   for split in itertools.combinations_with_replacement(allowed, count))
    if possible:
        assert all(abs(size - table_size) <= 1 for size in sizes)
        # short tables first: a table of table_size + 1 only when no split uses short ones
        if max(sizes) > table_size:
            assert not any(sum(split) == players and max(split) <= table_size
                           for count in range(1, players // 2 + 1)
                           for split in itertools.combinations_with_replacement(allowed, count))
    else:
        assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize(("players", "table_size", "sizes"), [
    (13, 4, (4, 3, 3, 3)), (10, 4, (4, 3, 3)), (6, 4, (3, 3)), (5, 4, (5,)), (7, 4, (4, 3)),
    (11, 5, (6, 5)), (12, 5, (4, 4, 4)), (3, 2, (3,)), (5, 2, (3, 2)), (8, 6, (4, 4)), (2, 6, (2,)),
])
def test_the_table_sizes_of_the_documented_cases(players, table_size, sizes):
    assert table_sizes(players, table_size) == sizes


@pytest.mark.parametrize(("players", "table_size", "reason"), [
    (10, 1, "table_size_out_of_range"), (10, 7, "table_size_out_of_range"), (1, 4, "too_few_players"),
    (0, 4, "too_few_players"),
])
def test_impossible_rounds_are_refused_with_a_reason(players, table_size, reason):
    with pytest.raises(PairingError) as refused:
        table_sizes(players, table_size)
    assert refused.value.reason == reason


def test_a_player_listed_twice_is_refused():
    with pytest.raises(PairingError) as refused:
        assign([1, 2, 3, 3], history_of([], {}), 3, seed=1, round_number=1)
    assert refused.value.reason == "player_twice"


@settings(max_examples=15, deadline=None)
@given(players=st.integers(4, 9), table_size=st.integers(2, 4), rounds=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_no_repeat_meeting_when_a_split_of_the_round_avoids_it(players, table_size, rounds, seed):
    everyone = list(range(1, players + 1))
    for history, assignment in play(everyone, rounds, table_size, seed):
        fewest = fewest_repeats(everyone, history, table_sizes(players, table_size))
        made = pairs_repeated(history, assignment)
        assert made >= fewest
        if fewest == 0:
            assert made == 0


@settings(max_examples=12, deadline=None)
@given(table_size=st.integers(3, 5), tables=st.integers(3, 5), seed=st.integers(0, 10**6))
def test_seat_positions_are_balanced_after_as_many_rounds_as_seats(table_size, tables, seed):
    players = list(range(1, table_size * tables + 1))
    assignments = [assignment for _, assignment in play(players, table_size, table_size, seed)]
    assert seat_imbalance([[table.players for table in a.tables] for a in assignments]) <= 1


@quick
@given(players=st.integers(2, 24), table_size=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_the_same_seed_gives_the_same_assignment(players, table_size, seed):
    everyone = list(range(1, players + 1))
    first = [a for _, a in play(everyone, 2, table_size, seed)]
    again = [a for _, a in play(list(reversed(everyone)), 2, table_size, seed)]
    assert first == again


def test_friends_and_family_asked_apart_sit_apart_in_round_one():
    apart = [(1, 2), (3, 4), (5, 6), (1, 7), (8, 9)]
    history = history_of([], {}, apart=apart)
    for seed in range(5):
        assignment = assign(range(1, 13), history, 4, seed=seed, round_number=1)
        for table in assignment.tables:
            assert not any({a, b} <= set(table.players) for a, b in apart)
            assert "kept_apart" in [reason.code for reason in table.why]


def test_swiss_tables_gather_similar_standings_and_say_so():
    points = {player: 100 - player for player in range(1, 17)}
    # round 1 put each block of four at four different seats, so the seats ask nothing of the split
    history = history_of([[(1, 8, 11, 14), (5, 2, 15, 12), (9, 6, 3, 16), (13, 10, 7, 4)]], points)
    assignment = assign(range(1, 17), history, 4, seed=3, round_number=2)
    assert [sorted(table.players) for table in assignment.tables] == [
        [1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    assert assignment.tables[0].why[0].code == "standings"
    assert assignment.tables[0].why[0].params == {"from": 1, "to": 4}
    assert "no_repeat" in [reason.code for reason in assignment.tables[0].why]
    assert all(reason.params["times_before"] == 0 for reason in assignment.tables[0].why if reason.code == "seat")


def test_a_seat_every_leader_had_outweighs_a_little_of_the_standings():
    """The four leaders all sat first in round 1: one of them changes tables with a player from the
    next table down rather than sit twice first (the price of balanced seats, SEAT_WEIGHT)."""
    points = {player: 100 - player for player in range(1, 17)}
    history = history_of([[(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)]], points)
    assignment = assign(range(1, 17), history, 4, seed=3, round_number=2)
    top = sorted(assignment.tables[0].players)
    assert top[:3] == [1, 2, 3] and top[3] in range(5, 9)
    assert all(reason.params["times_before"] == 0 for table in assignment.tables for reason in table.why
               if reason.code == "seat")


def test_each_player_takes_a_seat_they_have_not_had():
    history = history_of([[(1, 2, 3, 4)], [(2, 3, 4, 1)], [(3, 4, 1, 2)]], {})
    table = assign([1, 2, 3, 4], history, 4, seed=1, round_number=4).tables[0]
    assert table.players == (4, 1, 2, 3)
    seats = [reason.params for reason in table.why if reason.code == "seat"]
    assert seats[0] == {"player": 4, "seat": 0, "times_before": 0}
    repeats = [reason.params for reason in table.why if reason.code == "repeat"]
    assert len(repeats) == 6 and all(r["unavoidable"] for r in repeats)


@pytest.mark.parametrize(("players", "table_size", "rounds"), [(9, 3, 4), (16, 4, 5), (25, 5, 6), (8, 2, 7)])
def test_round_robin_meets_every_pair_exactly_once(players, table_size, rounds):
    schedule = round_robin(range(players), table_size)
    assert schedule is not None and len(schedule) == rounds
    met: dict[frozenset[int], int] = {}
    for tables in schedule:
        assert sorted(p for table in tables for p in table) == list(range(players))
        assert all(len(table) == table_size for table in tables)
        for table in tables:
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    assert len(met) == players * (players - 1) // 2 and set(met.values()) == {1}


@pytest.mark.parametrize(("players", "table_size"), [(10, 3), (36, 6), (12, 4), (7, 2)])
def test_no_round_robin_where_the_numbers_do_not_allow_one(players, table_size):
    assert round_robin(range(players), table_size) is None


def test_a_repeat_is_called_unavoidable_only_when_proven():
    """Sixteen players after three rounds that leave round 4 no split without repeats (the search
    proves it); a repeat the counting bound cannot prove is checked by the bounded search."""
    rounds = [[(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)],
              [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)],
              [(1, 6, 11, 16), (2, 7, 12, 13), (3, 8, 9, 14), (4, 5, 10, 15)]]
    history = history_of(rounds, {})
    assignment = assign(range(1, 17), history, 4, seed=2, round_number=4)
    assert not assignment.exact and assignment.repeats_lower_bound == 0
    fewest = fewest_repeats(list(range(1, 17)), history, (4, 4, 4, 4))
    assert assignment.repeats == fewest == 4
    flags = {reason.params["unavoidable"] for table in assignment.tables for reason in table.why
             if reason.code == "repeat"}
    assert flags == {True}


def test_a_drop_out_and_a_late_arrival_between_rounds_need_nothing_special():
    thirteen = list(range(1, 14))
    first = assign(thirteen, history_of([], {}), 4, seed=9, round_number=1)
    assert [len(table.players) for table in first.tables] == [4, 3, 3, 3]
    past = [[table.players for table in first.tables]]
    # players 5 and 9 leave, player 14 arrives: twelve players in three fours, 14 with no seat or meeting yet
    present = [p for p in thirteen if p not in (5, 9)] + [14]
    points = {p: 13 - p for p in thirteen}
    second = assign(present, history_of(past, points), 4, seed=9, round_number=2)
    assert sorted(p for table in second.tables for p in table.players) == sorted(present)
    assert [len(table.players) for table in second.tables] == [4, 4, 4]
    assert second.repeats == 0
