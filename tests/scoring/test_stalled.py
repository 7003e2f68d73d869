"""A recomputation's heartbeat: each chunk started or done is progress; a run without any for
LUDOLOG_RECOMPUTE_STALL_SECONDS is marked stalled (by the sweep, or when read) and resuming it
queues only the chunks not done."""

from __future__ import annotations

import os
import signal
from datetime import date, timedelta

import pytest
import redis
from django.contrib.auth.models import User
from django.utils import timezone

from scoring import recompute, tasks
from scoring.models import RecomputeChunk, RecomputeRun, ScoredRecord, SeatResult
from tests.factories import result_game
from tests.workers import wait_for


def games(count: int) -> list:
    return [result_game({"Ada": n, "Bo": 10 - n}, date(2026, 5, n + 1)) for n in range(count)]


def staff_client(client):
    client.force_login(User.objects.create_superuser("boss", password="pw"))
    return client


def silent_for(run: RecomputeRun, seconds: float) -> None:
    """No chunk of the run started or finished for that long (its worker was killed then)."""
    RecomputeRun.objects.filter(pk=run.pk).update(last_progress_at=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.django_db
def test_a_silent_run_is_marked_stalled_and_resuming_it_queues_only_the_chunks_not_done(
    eager, settings, client, monkeypatch,
):
    settings.LUDOLOG_RECOMPUTE_STALL_SECONDS = 60
    records = games(3)
    for record in records:
        tasks.score_record(record.pk)
    run = recompute.start(chunk_size=1)
    first = run.chunks.get(index=0)
    assert tasks.recompute_chunk(first.pk) is False  # one chunk done, then the worker is lost
    done_at = RecomputeChunk.objects.get(pk=first.pk).done_at

    silent_for(run, 59)
    tasks.sweep()
    run.refresh_from_db()
    assert run.status == "running"  # not silent long enough
    silent_for(run, 61)
    tasks.sweep()
    run.refresh_from_db()
    assert run.status == "stalled" and "no chunk started or finished for 60 s" in run.error

    staff = staff_client(client)
    status = staff.get(f"/api/recompute/{run.pk}/status/").json()
    assert (status["status"], status["resumable"], status["done"], status["stall_seconds"]) == ("stalled", True, 1, 60)
    assert staff.get(f"/api/recompute/{run.pk}/").json()["status"] == "stalled"
    assert "stalled: resume it" in staff.get("/admin/scoring/recomputerun/").content.decode()

    queued: list[int] = []
    queue = tasks.recompute_chunk.apply_async

    def noting(args, **options):
        queued.append(args[0])
        return queue(args, **options)

    monkeypatch.setattr(tasks.recompute_chunk, "apply_async", noting)
    answer = staff.post(f"/api/recompute/{run.pk}/resume/")
    assert answer.status_code == 202
    assert queued == list(run.chunks.filter(index__gt=0).order_by("index").values_list("pk", flat=True))
    run.refresh_from_db()
    assert (run.status, run.done, run.error) == ("finished", 3, "")
    assert RecomputeChunk.objects.get(pk=first.pk).done_at == done_at


@pytest.mark.django_db
def test_a_run_read_after_its_silence_is_stalled_and_one_that_moves_again_is_running(eager, settings, client):
    settings.LUDOLOG_RECOMPUTE_STALL_SECONDS = 5
    games(2)
    run = recompute.start(chunk_size=1)
    silent_for(run, 6)
    assert staff_client(client).get(f"/api/recompute/{run.pk}/status/").json()["status"] == "stalled"
    # Its chunk was only slow after all: the heartbeat sets it going again.
    tasks.recompute_chunk(run.chunks.get(index=0).pk)
    run.refresh_from_db()
    assert (run.status, run.error, run.done) == ("running", "", 1)
    assert timezone.now() - run.last_progress_at < timedelta(seconds=5)


@pytest.mark.django_db
def test_the_run_s_own_api_marks_it_stalled_when_read_and_shows_its_heartbeat(eager, settings, client):
    settings.LUDOLOG_RECOMPUTE_STALL_SECONDS = 60
    for record in games(2):
        tasks.score_record(record.pk)
    run = recompute.start(chunk_size=1)
    silent_for(run, 61)
    body = staff_client(client).get(f"/api/recompute/{run.pk}/").json()
    assert body["status"] == "stalled" and body["last_progress_at"] and body["unscorable"] == {}


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_run_whose_worker_is_killed_stalls_and_resuming_it_finishes_it(start_worker, scoring_queue, settings, client):
    settings.LUDOLOG_RECOMPUTE_STALL_SECONDS = 2
    records = games(6)
    doomed = start_worker(LUDOLOG_RECOMPUTE_TEST_PAUSE_SECONDS="3")
    wait_for(lambda: ScoredRecord.objects.count() == 6, what="the finished games to be scored")
    run = recompute.start(chunk_size=2)
    tasks.dispatch_recompute(run)
    first = run.chunks.get(index=0)
    wait_for(lambda: RecomputeChunk.objects.get(pk=first.pk).done_at is not None, what="the first chunk")
    os.kill(doomed.pid, signal.SIGKILL)  # while the next chunk waits in its pause
    doomed.wait(timeout=10)
    done_at = RecomputeChunk.objects.get(pk=first.pk).done_at

    staff = staff_client(client)
    assert staff.get(f"/api/recompute/{run.pk}/status/").json()["status"] == "running"
    wait_for(lambda: staff.get(f"/api/recompute/{run.pk}/status/").json()["status"] == "stalled", timeout=30,
             what="the run to be marked stalled")
    run.refresh_from_db()
    assert run.done == 2

    # The killed chunk's message waits for the visibility timeout (an hour) in Redis's unacked set;
    # resuming queues the two chunks not done, and only those.
    broker = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    waiting = broker.llen(scoring_queue)
    answer = staff.post(f"/api/recompute/{run.pk}/resume/")
    assert answer.status_code == 202 and answer.json()["status"] == "running"
    assert broker.llen(scoring_queue) - waiting == 2

    start_worker()
    wait_for(lambda: RecomputeRun.objects.get(pk=run.pk).status == "finished", timeout=90, what="the resumed run")
    run.refresh_from_db()
    assert (run.done, run.total, run.error) == (6, 6, "")
    assert RecomputeChunk.objects.get(pk=first.pk).done_at == done_at
    assert SeatResult.objects.filter(record__in=records).count() == 12
