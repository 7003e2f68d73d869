"""Scoring through real Celery worker processes on PostgreSQL and Redis: the normal path, the
broker down when games finish (the sweep catches up), and a worker killed in the middle of a task
(the broker delivers the task again)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from records.models import GameRecord
from scoring import tasks
from scoring.models import PlayerStatistics, ScoredRecord, SeatResult
from tests.factories import ROOT, database_url_for_other_processes, engine_scores, play
from tests.scoring.test_results import stored
from tests.workers import wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

DEAD_BROKER = "redis://127.0.0.1:1/0"


def scored(*records) -> bool:
    return ScoredRecord.objects.filter(pk__in=[r.pk for r in records]).count() == len(records)


def test_a_finished_game_is_scored_by_a_worker_and_those_finished_while_the_broker_is_down_by_the_sweep(
        start_worker):
    """One worker for both paths (a worker's start is most of each): the normal one, scoring as
    the engine scores and a second run rewriting nothing; then games finished while the broker
    was down, which nothing queued until the sweep."""
    start_worker()
    record = play(4, 21)  # finishing commits, then queues the task to the worker
    wait_for(lambda: scored(record), what="the worker to score the record")
    assert stored(record) == engine_scores(4, 21)
    rows = list(SeatResult.objects.order_by("pk").values_list("pk", "score", "rank", "breakdown"))
    first_run = ScoredRecord.objects.get(pk=record.pk).scored_at
    tasks.score_record.apply_async((record.pk,), queue=tasks.scoring_queue())
    wait_for(lambda: ScoredRecord.objects.get(pk=record.pk).scored_at > first_run, what="the second run")
    assert list(SeatResult.objects.order_by("pk").values_list("pk", "score", "rank", "breakdown")) == rows

    script = textwrap.dedent("""
        import django
        django.setup()
        from datetime import date
        from tests.factories import play, result_game
        print(play(4, 22).pk, result_game({"Ada": 7, "Bo": 9}, date(2026, 1, 2)).pk)
    """)
    finished = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=180,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "ludolog.settings", "DATABASE_URL": database_url_for_other_processes(),
             "CELERY_BROKER_URL": DEAD_BROKER, "CELERY_RESULT_BACKEND": DEAD_BROKER},
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert "the sweep will pick it up" in finished.stderr  # the publish failed and was logged
    records = [GameRecord.objects.get(pk=int(pk)) for pk in finished.stdout.split()]
    assert all(r.status == GameRecord.Status.FINISHED for r in records)
    assert not SeatResult.objects.filter(record__in=records).exists()  # the worker was there: nothing reached it

    tasks.sweep.apply_async(queue=tasks.scoring_queue())
    wait_for(lambda: scored(*records), what="the swept records to be scored")
    assert stored(records[0]) == engine_scores(4, 22)
    assert [(s, r) for _seat, s, r, _b in stored(records[1])] == [(7, 2), (9, 1)]
    assert list(SeatResult.objects.filter(record=record).order_by("pk").values_list(
        "pk", "score", "rank", "breakdown")) == rows  # the sweep left the scored game alone


def test_a_task_killed_with_its_worker_is_delivered_again_and_completes(start_worker):
    quick_redelivery = {"CELERY_VISIBILITY_TIMEOUT": "3", "CELERY_UNACKED_RESTORE_INTERVAL": "1",
                        "CELERY_UNACKED_RESTORE_THROTTLE": "1"}
    doomed = start_worker(LUDOLOG_SCORING_TEST_PAUSE_SECONDS="120", **quick_redelivery)
    record = play(4, 23)
    # The results are written, then the task pauses before the projections: kill it there.
    wait_for(lambda: SeatResult.objects.filter(record=record).exists(), what="the task to start")
    assert not scored(record)
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=10)
    assert doomed.returncode == -signal.SIGKILL

    start_worker(**quick_redelivery)
    wait_for(lambda: scored(record), timeout=90, what="the task to be delivered again")
    assert stored(record) == engine_scores(4, 23)
    assert PlayerStatistics.objects.filter(player__seats__record=record, game_slug="").count() == 4
