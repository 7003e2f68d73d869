"""Builders for scoring tests: finished games, hand-made result-only games, real workers."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import date

import pytest

from games.registry import get_engine
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game
from tests.factories import HG, ROOT, database_url_for_other_processes, seeded_record, simulated_events


def play(players: int = 4, seed: int = 1, **fields) -> GameRecord:
    """A finished Hunters and Gatherers game: every action of the seeded simulated game appended."""
    record = seeded_record(players, seed, **fields)
    for index, (kind, payload) in enumerate(simulated_events(players, seed)):
        append_event(record, index, kind, dict(payload))
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    return record


def engine_scores(players: int, seed: int) -> list[tuple[int, int, int, dict]]:
    """(seat, score, rank, breakdown) straight from the engine, no database involved."""
    engine = get_engine(HG)
    state = engine.new_state(players, seed)
    for kind, payload in simulated_events(players, seed):
        engine.apply(state, kind, payload)
    return [(f.seat, f.score, f.rank, dict(f.breakdown)) for f in engine.final_scores(state)]


def result_game(scores: dict[str, int], played_on: date, game: str = "stone-age", **fields) -> GameRecord:
    """A result-only record: seats in the order given, each with its score."""
    record = start_game(
        game_slug=game, seats=[SeatSpec(name) for name in scores], result_only=True, played_on=played_on, **fields
    )
    payload = {"scores": [{"seat": i, "score": s} for i, s in enumerate(scores.values())]}
    append_event(record, 0, "result", payload)
    return record


def wait_for(condition: Callable[[], bool], timeout: float = 60, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


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
    for worker in workers:
        if worker.poll() is None:
            worker.terminate()
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
