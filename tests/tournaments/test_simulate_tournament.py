"""`manage.py simulate_tournament`: the JSON a director (and the benchmark) reads."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def simulated(*args: str) -> dict:
    out = StringIO()
    call_command("simulate_tournament", *args, stdout=out)
    return json.loads(out.getvalue())


def test_thirteen_players_in_fours_and_threes_over_three_rounds():
    figures = simulated("--players", "13", "--rounds", "3", "--table-size", "4", "--seed", "3")
    assert {"repeat_meetings", "avoidable_repeats", "seat_imbalance", "table_sizes", "seconds"} <= set(figures)
    assert figures["table_sizes"] == [[4, 3, 3, 3]] * 3
    assert figures["repeat_meetings"] == 0
    assert figures["avoidable_repeats"] == 0
    assert figures["seat_imbalance"] <= 1
    assert 0 <= figures["seconds"] < 5


def test_the_same_seed_prints_the_same_tournament():
    first = simulated("--players", "9", "--rounds", "4", "--table-size", "3", "--seed", "5")
    again = simulated("--players", "9", "--rounds", "4", "--table-size", "3", "--seed", "5")
    first.pop("seconds"), again.pop("seconds")
    assert first == again
    # nine players in threes: every split was tried, so the repeats counted are the fewest possible
    assert first["exact_rounds"] == 4 and first["avoidable_repeats"] == 0


def test_a_table_size_outside_two_to_six_is_refused():
    with pytest.raises(CommandError, match="table_size_out_of_range"):
        simulated("--players", "13", "--rounds", "3", "--table-size", "7")
