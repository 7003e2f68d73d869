"""Real Celery worker processes on the test database, for the tests of long imports."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tests.factories import ROOT, database_url_for_other_processes


@contextmanager
def worker_process(queue: str, *, env: dict[str, str], output: Any) -> Iterator[subprocess.Popen]:
    """A real Celery worker process listening on ``queue`` alone, with ``env``, its output to
    ``output``; stopped (terminated, killed if it lingers) when the block ends."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "ludolog", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"],
        cwd=ROOT, stdout=output, stderr=subprocess.STDOUT, env=env,
    )
    try:
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


@contextmanager
def celery_worker(queue: str, log: Path, **env: str) -> Iterator[subprocess.Popen]:
    """A worker process listening on ``queue`` alone, on the test database, until the block ends."""
    with open(log, "w") as output, worker_process(
            queue, env={**os.environ, "DATABASE_URL": database_url_for_other_processes(), **env}, output=output) as worker:
        yield worker


def wait_for(condition: Callable[[], bool], timeout: float = 120, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)
