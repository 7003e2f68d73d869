"""Celery tasks: thin wrappers over the scoring services."""

from __future__ import annotations

from celery import shared_task

from records.models import GameRecord

from . import services


@shared_task(name="scoring.ping")
def ping(value: str) -> str:
    """Round trip used by the broker test: proves a worker answers."""
    return f"pong:{value}"


@shared_task(
    name="scoring.score_record",
    acks_late=True,
    autoretry_for=(Exception,),
    dont_autoretry_for=(GameRecord.DoesNotExist,),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=8,
)
def score_record(record_id: int) -> list[int]:
    """Replay a finished record and store its results (idempotent)."""
    record = GameRecord.objects.get(pk=record_id)
    return [row.score for row in services.store_results(record)]
