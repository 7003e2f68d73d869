"""Scoring that survives: a worker under ``make worker``'s supervisor, on a Redis server of the
test's own, keeps scoring when that server is killed and started again while it holds a task, and
is started again when it dies."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ludolog.celery import app
from records.signals import record_finished
from scoring import receivers, tasks
from scoring.models import ScoredRecord, SeatResult
from tests.brokers import OwnRedis
from tests.factories import ROOT, database_url_for_other_processes, engine_scores, play
from tests.scoring.test_results import stored
from tests.workers import wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def own_redis(tmp_path) -> Iterator[OwnRedis]:
    redis = OwnRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


@pytest.fixture
def supervised_worker(tmp_path, scoring_queue) -> Iterator[Callable[..., tuple[subprocess.Popen, Path]]]:
    """``make worker``'s command (ludolog.supervise) on the test database and queue; a log each."""
    started: list[subprocess.Popen] = []

    def start(broker_url: str, *celery_options: str, **env: str) -> tuple[subprocess.Popen, Path]:
        log_path = tmp_path / f"supervise-{len(started)}.log"
        supervisor = subprocess.Popen(
            [sys.executable, "-m", "ludolog.supervise", "worker", "-Q", scoring_queue, "-l", "info", *celery_options],
            cwd=ROOT, stdout=open(log_path, "w"), stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "DATABASE_URL": database_url_for_other_processes(), "LUDOLOG_SCORING_QUEUE": scoring_queue,
                 "CELERY_BROKER_URL": broker_url, "CELERY_RESULT_BACKEND": broker_url, **env},
        )
        started.append(supervisor)
        return supervisor, log_path

    yield start
    # The supervisor and its worker (and the worker's pool) killed together, in the session each
    # supervisor was started in: the test is over and its queue is its own, so nothing is left for
    # a warm shutdown to finish (one took seconds of the test's time on a busy machine).
    for supervisor in started:
        if supervisor.poll() is None:  # (once reaped, its id may be another process's)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(supervisor.pid, signal.SIGKILL)
            supervisor.wait()


def finished_unqueued(players: int, seed: int):
    """A finished game whose scoring nobody queued (the test queues it on its own broker)."""
    record_finished.disconnect(dispatch_uid="scoring.queue_scoring")
    try:
        return play(players, seed)
    finally:
        receivers.connect()


def queue_scoring(broker_url: str, record_id: int) -> None:
    with app.connection_for_write(broker_url) as connection:
        tasks.score_record.apply_async((record_id,), queue=tasks.scoring_queue(), connection=connection)


def worker_pids(log_path: Path) -> list[int]:
    return [int(pid) for pid in re.findall(r"started celery worker \(pid (\d+)\)", log_path.read_text())]


def ready(log_path: Path, count: int = 1) -> bool:
    return log_path.read_text().count(" ready.") >= count


def scored(record) -> bool:
    return ScoredRecord.objects.filter(pk=record.pk).exists()


@pytest.mark.slow(seconds=20)
def test_a_worker_holding_a_task_outlives_its_broker_killed_and_restarted(own_redis, supervised_worker):
    """The default pool (prefork), as ``make worker`` runs it: Celery 5.7.0 alone exits here with
    "Unrecoverable error: AttributeError('NoneType' object has no attribute 'hostname')"."""
    first = finished_unqueued(4, 51)
    second = finished_unqueued(3, 52)
    # make worker's options: prefork, gossip, mingle and heartbeat (with --pool=solo, or without
    # gossip, the crash is rarer but the same).
    supervisor, log = supervised_worker(own_redis.url, "--concurrency=2", LUDOLOG_SCORING_TEST_PAUSE_SECONDS="8")
    wait_for(lambda: ready(log), timeout=60, what="the worker to be ready")

    queue_scoring(own_redis.url, first.pk)
    # The results are written, then the task pauses before the projections: the broker dies then.
    wait_for(lambda: SeatResult.objects.filter(record=first).exists(), what="the task to start")
    own_redis.kill()
    time.sleep(2)
    own_redis.start()

    wait_for(lambda: scored(first), timeout=90, what="the task in flight to finish")
    assert stored(first) == engine_scores(4, 51)
    queue_scoring(own_redis.url, second.pk)  # the worker consumes again from the new server
    wait_for(lambda: scored(second), timeout=90, what="a task queued after the broker came back")
    assert stored(second) == engine_scores(3, 52)

    text = log.read_text()
    assert "Unrecoverable error" not in text
    assert len(worker_pids(log)) == 1, text[-3000:]  # the same worker throughout: nothing restarted
    assert "Redis delivers" in text  # what the worker could not put back or acknowledge, it left to Redis
    assert supervisor.poll() is None


def test_make_worker_starts_a_dead_worker_again(own_redis, supervised_worker):
    record = finished_unqueued(2, 53)
    supervisor, log = supervised_worker(own_redis.url, "--pool=solo", "--without-gossip", "--without-mingle",
                                        "--without-heartbeat")
    wait_for(lambda: ready(log) and worker_pids(log), timeout=60, what="the worker to be ready")
    (doomed,) = worker_pids(log)
    os.kill(doomed, signal.SIGKILL)
    wait_for(lambda: len(worker_pids(log)) == 2 and ready(log, 2), timeout=60, what="the worker to be started again")
    assert f"(pid {doomed}) exited with -9" in log.read_text()

    queue_scoring(own_redis.url, record.pk)
    wait_for(lambda: scored(record), timeout=60, what="the new worker to score the record")
    assert stored(record) == engine_scores(2, 53)

    supervisor.terminate()  # SIGTERM: passed on to the worker, and the loop ends
    assert supervisor.wait(timeout=30) == 0
    assert len(worker_pids(log)) == 2
