"""A real Celery worker process answers through Redis. (A web process that starts while the broker
is down: ``tests/ludolog/test_deploy.py``, with what a web process loads before its first request.)"""

from __future__ import annotations

import uuid

import pytest

from scoring.tasks import ping


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


def test_an_eager_process_has_no_broker_to_warm_up(celery_eager):
    from ludolog.celery import warm_up_producer

    assert warm_up_producer() is False
