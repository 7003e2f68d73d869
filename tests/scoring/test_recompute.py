"""Recomputing everything from the events, in chunks: progress, and a report of what changed."""

from __future__ import annotations

from datetime import date
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError

from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game
from scoring import services, tasks
from scoring.models import RecomputeChange, RecomputeRun, ScoredRecord, SeatResult, Standing, UnscorableRecord
from tests.factories import engine_scores, play, result_game
from tests.scoring.test_leagues import EXPECTED_TABLE, LEAGUE_GAMES, make_league, play_and_score, table
from tests.scoring.test_results import stored
from tests.workers import wait_for


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


def broken_finished_record():
    """A finished result-only record without its result event: it cannot be scored."""
    record = result_game({"Ada": 3, "Bo": 5}, date(2026, 3, 2))
    broken = start_game(game_slug="stone-age", seats=[SeatSpec("Ada"), SeatSpec("Bo")], result_only=True,
                        played_on=date(2026, 3, 3))
    GameRecord.objects.filter(pk=broken.pk).update(status=GameRecord.Status.FINISHED)
    return record, broken


def repair(broken) -> None:
    """The fix an operator would make: the missing result is recorded."""
    GameRecord.objects.filter(pk=broken.pk).update(status=GameRecord.Status.IN_PROGRESS)
    broken.refresh_from_db()
    append_event(broken, 0, "result", {"scores": [{"seat": 0, "score": 7}, {"seat": 1, "score": 9}]})


def database_away_for(monkeypatch, record) -> None:
    """Writing this record's figures fails as if the database went away: no record's fault, so the
    chunk fails (and is retried on a worker) instead of setting the record aside."""
    write = services.write_summaries

    def write_summaries(records):
        if any(r.pk == record.pk for r in records):
            raise OperationalError("the database went away")
        return write(records)

    monkeypatch.setattr(services, "write_summaries", write_summaries)


@pytest.mark.django_db
def test_a_chunk_that_gives_up_fails_the_run_with_its_reason_and_resume_finishes_it(eager, monkeypatch):
    """In-process (make run): no retries; the failing chunk stops the run at once."""
    good = result_game({"Ada": 3, "Bo": 5}, date(2026, 3, 2))
    unlucky = result_game({"Ada": 7, "Bo": 9}, date(2026, 3, 3))
    database_away_for(monkeypatch, unlucky)
    with pytest.raises(CommandError, match=r"failed: chunk 1: OperationalError: the database went away.*--resume"):
        call_command("recompute", "--chunk-size", "1", stdout=StringIO())
    run = RecomputeRun.objects.get()
    assert (run.status, run.done, run.total) == ("failed", 1, 2)
    assert "the database went away" in run.chunks.get(index=1).error and run.chunks.get(index=0).error == ""
    assert not UnscorableRecord.objects.exists()  # not the record's fault
    with pytest.raises(CommandError, match=f"there is no recomputation {run.pk + 1}"):
        call_command("recompute", "--resume", str(run.pk + 1), stdout=StringIO())

    monkeypatch.undo()  # the database is back
    out = StringIO()
    call_command("recompute", "--resume", str(run.pk), stdout=out)
    assert "1 records left" in out.getvalue()
    run.refresh_from_db()
    assert (run.status, run.done, run.error) == ("finished", 2, "")
    assert ScoredRecord.objects.filter(pk__in=[good.pk, unlucky.pk]).count() == 2
    with pytest.raises(CommandError, match="is finished: only a failed or stalled one can be resumed"):
        call_command("recompute", "--resume", str(run.pk), stdout=StringIO())


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_on_real_workers_a_record_that_cannot_be_scored_is_named_and_the_run_finishes(start_worker, client):
    good, broken = broken_finished_record()
    start_worker(LUDOLOG_TASK_MAX_RETRIES="1", LUDOLOG_TASK_RETRY_BACKOFF_MAX="1")
    wait_for(lambda: ScoredRecord.objects.filter(record=good).exists(), what="the good game to be scored")
    out = StringIO()
    call_command("recompute", "--chunk-size", "1", "--timeout", "120", stdout=out)
    run = RecomputeRun.objects.get()
    assert (run.status, run.done) == ("finished", 2)
    assert f"record {broken.pk}: ValueError: result-only record {broken.pk} has no result event" in out.getvalue()
    assert UnscorableRecord.objects.get(pk=broken.pk).reason.endswith("has no result event")

    staff = User.objects.create_superuser("boss", password="pw")
    client.force_login(staff)
    status = client.get(f"/api/recompute/{run.pk}/status/").json()
    assert status["unscorable"] == [
        {"record": broken.pk, "reason": f"ValueError: result-only record {broken.pk} has no result event"}]
    again = client.post(f"/api/recompute/{run.pk}/resume/")
    assert again.status_code == 409 and again.json()["reason"] == "not_resumable"

    repair(broken)
    answer = client.post("/api/recompute/", {}, content_type="application/json")
    assert answer.status_code == 202
    wait_for(lambda: RecomputeRun.objects.order_by("-pk").first().status == "finished", what="the second run")
    assert SeatResult.objects.filter(record=broken).count() == 2
    assert not UnscorableRecord.objects.filter(pk=broken.pk).exists()
