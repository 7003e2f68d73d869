"""Asking the broker for a task once, without waiting on it: what the outbox does for a message
and the imports for a job, once the change that needs the task has committed.

One try, no retries: kombu would otherwise sleep some 6 s on a broker that refuses, and a request
waits for no broker (each caller's sweep is the retry). In-process (``make run``, eager Celery)
the task simply runs.
"""

from __future__ import annotations

from typing import Any


def queue_once(task: Any, args: tuple[Any, ...], *, queue: str | None = None) -> None:
    """Queue ``task`` with ``args`` (on ``queue``, or Celery's default); raises whatever the broker
    (or an eager run) raises, for the caller to log and leave to its sweep."""
    options: dict[str, Any] = {"queue": queue} if queue else {}
    if task.app.conf.task_always_eager:
        task.apply_async(args, **options)
        return
    with task.app.producer_or_acquire() as producer:
        producer.connection.ensure_connection(max_retries=0)
        task.apply_async(args, retry=False, producer=producer, **options)
