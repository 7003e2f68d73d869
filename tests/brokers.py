"""The in-process Celery app pointed at another broker for one test: a closed port (a broker that
is down) or a redis-server of the test's own (``tests.scoring.test_broker_loss.OwnRedis``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from ludolog.celery import app

CLOSED = "redis://127.0.0.1:1/0"
"""Nothing listens on port 1: a broker that is down, refusing at once."""


def _forget_connections() -> None:
    # The app keeps its connection pool (and the producers over it) for the broker it first used.
    app._pool = None  # noqa: SLF001
    if "amqp" in app.__dict__:
        app.__dict__["amqp"]._producer_pool = None  # noqa: SLF001


@contextmanager
def broker_at(url: str) -> Iterator[None]:
    """Tasks go through the broker at ``url`` (not in-process) until the block ends."""
    before = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    environment = os.environ.get("CELERY_BROKER_URL")
    os.environ["CELERY_BROKER_URL"] = url  # Celery reads it before its settings
    app.conf.update(broker_url=url, task_always_eager=False)
    _forget_connections()
    try:
        yield
    finally:
        if environment is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = environment
        app.conf.update(**before)
        _forget_connections()
