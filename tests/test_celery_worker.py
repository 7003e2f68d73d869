"""A real Celery worker process answers through Redis."""

from __future__ import annotations

import pytest

from scoring.tasks import ping


@pytest.mark.redis
def test_task_round_trip_through_a_real_worker(celery_worker_queue):
    result = ping.apply_async(args=["ludolog"], queue=celery_worker_queue)
    assert result.get(timeout=60) == "pong:ludolog"


def test_without_a_broker_tasks_run_eagerly(celery_eager):
    assert ping.delay("local").get() == "pong:local"
