"""Fixtures of the scoring tests: tasks run in-process, a queue of the test's own, real workers.
(The builders of finished and result-only games are in ``tests/factories.py``.)"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator

import pytest

from tests.factories import ROOT, database_url_for_other_processes


@pytest.fixture
def eager(celery_eager):
    """Run tasks in-process even when a broker is configured (for tests that start no worker)."""


@pytest.fixture
def scoring_queue(settings) -> str:
    """A queue of this test's own; scoring tasks queued by the test process go there."""
    queue = f"ludolog-scoring-{uuid.uuid4().hex[:8]}"
    settings.LUDOLOG_SCORING_QUEUE = queue
    return queue


@pytest.fixture
def start_worker(tmp_path, scoring_queue) -> Iterator[Callable[..., subprocess.Popen]]:
    """Start real Celery worker processes on the test database, listening on ``scoring_queue``."""
    workers: list[subprocess.Popen] = []

    def start(**env: str) -> subprocess.Popen:
        log = open(tmp_path / f"worker-{len(workers)}.log", "w")
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "ludolog", "worker", "--pool=solo", "-Q", scoring_queue,
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "DATABASE_URL": database_url_for_other_processes(), "LUDOLOG_SCORING_QUEUE": scoring_queue,
                 "LUDOLOG_SWEEP_GRACE_SECONDS": "0", **env},
        )
        workers.append(worker)
        return worker

    yield start
    # Killed, not terminated: the test is over and its queue is its own, so nothing is left for a
    # warm shutdown to finish, and one took about 3 s of the test's time on a busy machine.
    for worker in workers:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
