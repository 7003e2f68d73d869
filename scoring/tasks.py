"""Celery tasks: thin wrappers over the scoring services.

Every task is idempotent and acknowledged late: a worker killed half-way leaves its message
unacknowledged, the broker delivers it again, and the redelivered run leaves the same rows.
A record that cannot be scored is marked unscorable instead of being retried with backoff (its
failure would only repeat); the sweep tries it again until ``LUDOLOG_SCORING_MAX_ATTEMPTS``.
"""

from __future__ import annotations

import logging
import time

from celery import Task, shared_task
from django.conf import settings

from records.models import GameRecord

from . import recompute, services
from .models import RecomputeChunk, RecomputeRun

logger = logging.getLogger(__name__)

# Nobody waits on these tasks' return values: storing none also keeps a publish from waiting on
# the result store when Redis is down (the finishing request must not hang; the sweep catches up).
RETRYING = {
    "ignore_result": True,
    "acks_late": True,
    "autoretry_for": (Exception,),
    "retry_backoff": True,
    "retry_backoff_max": settings.LUDOLOG_TASK_RETRY_BACKOFF_MAX,
    "max_retries": settings.LUDOLOG_TASK_MAX_RETRIES,
}


def scoring_queue() -> str | None:
    """The queue scoring work goes to (None: Celery's default queue, the one ``make worker`` reads)."""
    return getattr(settings, "LUDOLOG_SCORING_QUEUE", "") or None


@shared_task(name="scoring.ping")
def ping(value: str) -> str:
    """Round trip used by the broker test: proves a worker answers."""
    return f"pong:{value}"


def _pause_for_tests(setting: str) -> None:
    """Test-only (0 in production): lets a test SIGKILL the worker in the middle of a task."""
    pause = float(getattr(settings, setting, 0) or 0)
    if pause:
        time.sleep(pause)


@shared_task(name="scoring.score_record", dont_autoretry_for=(GameRecord.DoesNotExist,), **RETRYING)
def score_record(record_id: int) -> list[int] | None:
    """Replay a finished record, store its results, then update every projection (idempotent)."""
    record = services.finished_record(record_id)
    if record is None:
        return None
    try:
        # A corrected result, a record moved to new rules: what the projections said before, to
        # keep what the change moved.
        correction, before = services.before_correction(record)
        move, before_move = services.before_ruleset_move(record)
        rows = services.store_results(record)
        _pause_for_tests("LUDOLOG_SCORING_TEST_PAUSE_SECONDS")
        services.update_projections(record)
        if correction is not None:
            services.keep_impact(record, correction, before)
        if move is not None:
            services.keep_ruleset_move_impact(record, move, before_move)
    except Exception as error:
        if services.note_scoring_failure(record.pk, error):
            return None
        raise  # the database or the broker is away: retried with backoff
    services.clear_unscorable([record.pk])
    return [row.score for row in rows]


@shared_task(name="scoring.score_records", **RETRYING)
def score_records(record_ids: list[int]) -> int:
    """:func:`score_record` for each of many records that finished together (idempotent: a retry
    scores again those already scored, to the same rows). Returns how many were scored."""
    return sum(score_record.run(record_id) is not None for record_id in record_ids)


@shared_task(name="scoring.sweep", **RETRYING)
def sweep() -> list[int]:
    """Queue scoring for finished records that were never scored (broker down, worker lost), except
    those that failed too often; mark stalled the recomputations that stopped moving."""
    stalled = recompute.mark_stalled()
    if stalled:
        logger.warning("recomputations %s stalled: no progress; resume them", stalled)
    ids = services.unscored_record_ids(limit=settings.LUDOLOG_SWEEP_BATCH)
    for record_id in ids:
        score_record.apply_async((record_id,), queue=scoring_queue())
    return ids


@shared_task(name="scoring.refresh_after_merge", **RETRYING)
def refresh_after_merge(player_id: int, record_ids: list[int]) -> None:
    services.refresh_after_merge(player_id, record_ids)


@shared_task(name="scoring.refresh_league", **RETRYING)
def refresh_league(league_id: int, club_id: int) -> None:
    services.refresh_league(league_id, club_id)


class RecomputeTask(Task):
    """A recomputation step that, once its retries are spent, marks the run failed with why.

    A worker calls ``on_failure`` after the last retry. Run in-process (eager, ``make run``), a
    task has no retries and Celery raises the error to the caller without calling it, so the
    step records the failure itself before raising (:meth:`give_up_if_eager`).
    """

    def give_up(self, exc: BaseException, argument: int) -> None:
        raise NotImplementedError

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        self.give_up(exc, args[0])

    def give_up_if_eager(self, exc: BaseException, argument: int) -> None:
        if self.request.is_eager:
            self.give_up(exc, argument)


class RecomputeChunkTask(RecomputeTask):
    def give_up(self, exc: BaseException, argument: int) -> None:
        chunk = RecomputeChunk.objects.filter(pk=argument).values_list("run_id", "index").first()
        if chunk is not None:
            run_id, index = chunk
            recompute.fail(run_id, f"chunk {index}: {type(exc).__name__}: {exc}", chunk_id=argument)


class FinishRecomputeTask(RecomputeTask):
    def give_up(self, exc: BaseException, argument: int) -> None:
        recompute.fail(argument, f"rebuilding the projections: {type(exc).__name__}: {exc}")


@shared_task(bind=True, name="scoring.recompute_chunk", base=RecomputeChunkTask, **RETRYING)
def recompute_chunk(self: RecomputeChunkTask, chunk_id: int) -> bool:
    recompute.chunk_started(chunk_id)
    _pause_for_tests("LUDOLOG_RECOMPUTE_TEST_PAUSE_SECONDS")
    try:
        completed_run = recompute.run_chunk(chunk_id)
    except Exception as exc:
        self.give_up_if_eager(exc, chunk_id)
        raise
    if completed_run:
        run_id = RecomputeChunk.objects.get(pk=chunk_id).run_id
        finish_recompute.apply_async((run_id,), queue=scoring_queue())
    return completed_run


@shared_task(bind=True, name="scoring.finish_recompute", base=FinishRecomputeTask, **RETRYING)
def finish_recompute(self: FinishRecomputeTask, run_id: int) -> int:
    try:
        return recompute.finish(run_id).total
    except Exception as exc:
        self.give_up_if_eager(exc, run_id)
        raise


def resume_recompute(run_id: int, on_queued=None) -> RecomputeRun:
    """Queue again what a failed or stalled run had not done (``NotResumable`` if it is neither)."""
    run = recompute.resume(run_id)
    dispatch_recompute(run, on_queued)
    return run


def dispatch_recompute(run: RecomputeRun, on_queued=None) -> None:
    """Queue every chunk of a run not done yet.

    In eager mode each chunk runs as it is queued; one that fails has marked the run failed, and
    the chunks after it are not run (``resume`` runs them with the failed one).
    """
    chunk_ids = list(run.chunks.filter(done_at__isnull=True).order_by("index").values_list("pk", flat=True))
    eager = recompute_chunk.app.conf.task_always_eager
    try:
        if not chunk_ids:
            if recompute.claim_finish(run.pk):
                finish_recompute.apply_async((run.pk,), queue=scoring_queue())
            return
        for chunk_id in chunk_ids:
            recompute_chunk.apply_async((chunk_id,), queue=scoring_queue())
            if on_queued is not None:
                on_queued()
    except Exception:
        if not eager:
            raise  # the broker refused the message: the caller hears of it
        logger.exception("recomputation #%s failed", run.pk)
