"""Celery tasks: thin wrappers over the scoring services.

Every task is idempotent and acknowledged late: a worker killed half-way leaves its message
unacknowledged, the broker delivers it again, and the redelivered run leaves the same rows.
"""

from __future__ import annotations

import time

from celery import shared_task
from django.conf import settings

from records.models import GameRecord

from . import recompute, services
from .models import RecomputeChunk, RecomputeRun

# Nobody waits on these tasks' return values: storing none also keeps a publish from waiting on
# the result store when Redis is down (the finishing request must not hang; the sweep catches up).
RETRYING = {
    "ignore_result": True,
    "acks_late": True,
    "autoretry_for": (Exception,),
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "max_retries": 8,
}


def scoring_queue() -> str | None:
    """The queue scoring work goes to (None: Celery's default queue, the one ``make worker`` reads)."""
    return getattr(settings, "LUDOLOG_SCORING_QUEUE", "") or None


@shared_task(name="scoring.ping")
def ping(value: str) -> str:
    """Round trip used by the broker test: proves a worker answers."""
    return f"pong:{value}"


@shared_task(name="scoring.score_record", dont_autoretry_for=(GameRecord.DoesNotExist,), **RETRYING)
def score_record(record_id: int) -> list[int] | None:
    """Replay a finished record, store its results, then update every projection (idempotent)."""
    record = services.finished_record(record_id)
    if record is None:
        return None
    rows = services.store_results(record)
    # Test-only (0 in production): lets a test SIGKILL the worker between the two steps.
    pause = float(getattr(settings, "LUDOLOG_SCORING_TEST_PAUSE_SECONDS", 0) or 0)
    if pause:
        time.sleep(pause)
    services.update_projections(record)
    return [row.score for row in rows]


@shared_task(name="scoring.sweep", **RETRYING)
def sweep() -> list[int]:
    """Queue scoring for finished records that were never scored (broker down, worker lost)."""
    ids = services.unscored_record_ids(limit=settings.LUDOLOG_SWEEP_BATCH)
    for record_id in ids:
        score_record.apply_async((record_id,), queue=scoring_queue())
    return ids


@shared_task(name="scoring.refresh_league", **RETRYING)
def refresh_league(league_id: int, club_id: int) -> None:
    services.refresh_league(league_id, club_id)


@shared_task(name="scoring.recompute_chunk", **RETRYING)
def recompute_chunk(chunk_id: int) -> bool:
    completed_run = recompute.run_chunk(chunk_id)
    if completed_run:
        run_id = RecomputeChunk.objects.get(pk=chunk_id).run_id
        finish_recompute.apply_async((run_id,), queue=scoring_queue())
    return completed_run


@shared_task(name="scoring.finish_recompute", **RETRYING)
def finish_recompute(run_id: int) -> int:
    return recompute.finish(run_id).total


def dispatch_recompute(run: RecomputeRun, on_queued=None) -> None:
    """Queue every chunk of a run (in eager mode each runs as it is queued)."""
    chunk_ids = list(run.chunks.order_by("index").values_list("pk", flat=True))
    if not chunk_ids:
        if recompute.claim_finish(run.pk):
            finish_recompute.apply_async((run.pk,), queue=scoring_queue())
        return
    for chunk_id in chunk_ids:
        recompute_chunk.apply_async((chunk_id,), queue=scoring_queue())
        if on_queued is not None:
            on_queued()
