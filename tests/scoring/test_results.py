"""Final scores come from replaying the events through the engine; scoring twice changes nothing."""

from __future__ import annotations

from datetime import date

import pytest

from scoring import services, tasks
from scoring.models import PlayerStatistics, ScoredRecord, SeatResult
from tests.factories import engine_scores, play, result_game

pytestmark = pytest.mark.django_db


def stored(record) -> list[tuple[int, int, int, dict]]:
    return [
        (row.seat.seat_order, row.score, row.rank, row.breakdown)
        for row in SeatResult.objects.filter(record=record).select_related("seat").order_by("seat__seat_order")
    ]


@pytest.mark.parametrize("seed", [3, 11])
def test_scores_of_a_simulated_game_equal_the_engines(seed):
    record = play(4, seed)
    tasks.score_record(record.pk)
    assert stored(record) == engine_scores(4, seed)
    assert set(stored(record)[0][3]) == {"river", "forest", "hut", "hunter"}
    assert ScoredRecord.objects.get(pk=record.pk).winning_score == max(s for _seat, s, _r, _b in stored(record))


def test_scoring_twice_leaves_the_same_rows():
    record = play(4, 5)
    tasks.score_record(record.pk)
    first = list(SeatResult.objects.order_by("pk").values("pk", "seat", "player", "score", "rank", "breakdown"))
    stats = list(PlayerStatistics.objects.order_by("player", "game_slug").values_list(
        "player", "game_slug", "games", "wins", "average_score"))
    tasks.score_record(record.pk)
    assert list(SeatResult.objects.order_by("pk").values("pk", "seat", "player", "score", "rank", "breakdown")) == first
    assert list(PlayerStatistics.objects.order_by("player", "game_slug").values_list(
        "player", "game_slug", "games", "wins", "average_score")) == stats
    assert ScoredRecord.objects.count() == 1


def test_result_only_ties_share_a_rank_and_a_tiebreak_separates_them():
    tied = result_game({"Ada": 30, "Bo": 30, "Cy": 12}, date(2026, 3, 1))
    assert [(f.score, f.rank) for f in services.final_scores(tied)] == [(30, 1), (30, 1), (12, 3)]
    assert services.shared_ranks([30, 30, 12], [4, 7, 0]) == [2, 1, 3]


def test_a_record_still_in_progress_is_not_scored():
    from tests.factories import event, seeded_record
    from records.services import append_event

    record = seeded_record(4, 2)
    append_event(record, 0, *event(0, 4, 2))
    assert tasks.score_record(record.pk) is None
    assert not SeatResult.objects.exists()
