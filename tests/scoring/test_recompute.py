"""Recomputing everything from the events, in chunks: progress, and a report of what changed."""

from __future__ import annotations

from datetime import date
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from scoring import tasks
from scoring.models import RecomputeChange, RecomputeRun, ScoredRecord, SeatResult, Standing
from tests.scoring.conftest import engine_scores, play, result_game, wait_for
from tests.scoring.test_leagues import EXPECTED_TABLE, LEAGUE_GAMES, make_league, play_and_score, table
from tests.scoring.test_results import stored


def tamper(record, seat_order: int, score: int, rank: int) -> None:
    """Stand-in for results computed by an older ruleset: the stored row no longer matches the events."""
    SeatResult.objects.filter(record=record, seat__seat_order=seat_order).update(score=score, rank=rank)


@pytest.mark.django_db
def test_recompute_command_shows_progress_and_reports_changed_scores_before_and_after(eager):
    league = make_league()
    records = play_and_score(LEAGUE_GAMES)
    simulated = play(4, 31)
    tasks.score_record(simulated.pk)
    right = stored(simulated)
    tamper(simulated, 0, 999, 1)
    tamper(records[0], 3, 77, 1)
    Standing.objects.all().delete()
    out = StringIO()
    call_command("recompute", "--chunk-size", "3", stdout=out)
    text = out.getvalue()
    assert "7/7" in text and "100.0%" in text
    assert f"record {simulated.pk} seat 0 Ada: score 999 -> {right[0][1]}, rank 1 -> {right[0][2]}" in text
    assert f"record {records[0].pk} seat 3 Di: score 77 -> 20, rank 1 -> 4" in text
    assert stored(simulated) == engine_scores(4, 31)
    assert table(league) == EXPECTED_TABLE
    run = RecomputeRun.objects.get()
    assert (run.status, run.total, run.done, run.chunks.count()) == ("finished", 7, 7, 3)


@pytest.mark.django_db
def test_recompute_filters_by_game_league_and_date(eager):
    league = make_league()
    play_and_score(LEAGUE_GAMES)
    result_game({"Ada": 1, "Bo": 2}, date(2026, 4, 1), game="carcassonne")
    call_command("recompute", "--game", "carcassonne", stdout=StringIO())
    call_command("recompute", "--league", str(league.pk), "--since", "2026-04-01", stdout=StringIO())
    assert list(RecomputeRun.objects.order_by("pk").values_list("total", flat=True)) == [1, 3]


@pytest.mark.django_db
def test_the_admin_action_starts_a_recompute_whose_progress_the_admin_shows(eager, client):
    league = make_league()
    play_and_score(LEAGUE_GAMES)
    staff = User.objects.create_superuser("boss", password="pw")
    client.force_login(staff)
    response = client.post("/admin/scoring/league/", {"action": "recompute_leagues", "_selected_action": [league.pk]},
                           follow=True)
    assert response.status_code == 200
    run = RecomputeRun.objects.get()
    assert "queued" in response.content.decode()
    page = client.get("/admin/scoring/recomputerun/").content.decode()
    assert f"{run.done}/{run.total}" in page and "<progress" in page


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_recompute_fans_chunks_out_to_real_workers(start_worker):
    records = [play(4, seed) for seed in (41, 42, 43)]
    records += [result_game({"Ada": n, "Bo": 10 - n}, date(2026, 3, n + 1)) for n in range(5)]
    start_worker()
    start_worker()
    wait_for(lambda: ScoredRecord.objects.count() == len(records), what="the finished games to be scored")
    tamper(records[1], 2, -5, 4)
    out = StringIO()
    call_command("recompute", "--chunk-size", "2", "--timeout", "120", stdout=out)
    run = RecomputeRun.objects.get()
    assert (run.status, run.done, run.chunks.count()) == ("finished", 8, 4)
    assert RecomputeChange.objects.filter(run=run).count() == 1
    assert stored(records[1]) == engine_scores(4, 42)
