"""A real Celery worker process answers through Redis."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from scoring.tasks import ping

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.redis
def test_task_round_trip_through_a_real_worker(celery_worker_queue):
    result = ping.apply_async(args=["ludolog"], queue=celery_worker_queue)
    assert result.get(timeout=60) == "pong:ludolog"


def test_without_a_broker_tasks_run_eagerly(celery_eager):
    assert ping.delay("local").get() == "pong:local"


@pytest.mark.redis
def test_web_process_connects_to_the_broker_and_declares_the_queue_at_start_up():
    """So that the append finishing a game does not pay for the first connection (#4 benchmark)."""
    import redis

    from ludolog.celery import app, warm_up_producer

    queue = f"ludolog-warm-{uuid.uuid4().hex[:8]}"
    broker = redis.Redis.from_url(app.conf.broker_url)
    try:
        assert warm_up_producer(queue) is True
        assert broker.exists(f"_kombu.binding.{queue}")
    finally:
        broker.delete(f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


def test_a_web_process_starts_even_when_the_broker_is_down():
    env = dict(os.environ, CELERY_BROKER_URL="redis://127.0.0.1:1/0", CELERY_RESULT_BACKEND="")
    started = subprocess.run(
        [sys.executable, "-c", "import ludolog.wsgi as w; print(callable(w.application))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "True"
    assert "the broker did not answer at start-up" in started.stderr


def test_an_eager_process_has_no_broker_to_warm_up(celery_eager):
    from ludolog.celery import warm_up_producer

    assert warm_up_producer() is False
