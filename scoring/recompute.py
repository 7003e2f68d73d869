"""Recomputing final scores from the events, fanned out to the workers in chunks.

A run lists the finished records to recompute and splits them into chunks; each chunk task
replays its records, writes the results and notes every seat whose score or rank changed. The
chunk that completes the run (whichever worker commits it last) claims the final step: rebuild
the statistics, the standings and the ratings from the new results.

A record that cannot be scored (the engine raises on its events, a score does not fit the
projections) does not stop its chunk: it is set aside with its reason, marked unscorable
(``UnscorableRecord``), listed on its chunk, and the run finishes and names it. A task that gives
up after its retries for any other reason (the database away) marks the run failed with the
reason (:func:`fail`); the other chunks still finish, but the projections are not rebuilt until
:func:`resume` queues the chunks not done again (``recompute --resume RUN``, the admin action,
the API).

Each chunk started or done, and the final step begun, is a heartbeat (``last_progress_at``). A
run whose workers were all killed would otherwise wait "running" for its messages' visibility
timeout (an hour): one without a heartbeat for ``LUDOLOG_RECOMPUTE_STALL_SECONDS`` is marked
stalled (:func:`mark_stalled`, by the sweep and whenever the run is read) and may be resumed like
a failed one.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from records.models import GameRecord

from . import ratings, services, standings, statistics
from .models import League, RecomputeChange, RecomputeChunk, RecomputeRun


class RecomputeError(Exception):
    reason = "invalid_recompute"
    status_code = 400

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotResumable(RecomputeError):
    reason = "not_resumable"
    status_code = 409


def records_to_recompute(
    *, game: str | None = None, league: League | None = None, since: date | None = None,
    record_ids: list[int] | None = None,
):
    records = GameRecord.objects.filter(status=GameRecord.Status.FINISHED)
    if game:
        records = records.filter(game_slug=game)
    if league is not None:
        records = records.filter(pk__in=standings.league_records(league).values("pk"))
    if since is not None:
        records = records.filter(played_on__gte=since)
    if record_ids is not None:
        records = records.filter(pk__in=record_ids)
    return records.order_by("pk").values_list("pk", flat=True)


@transaction.atomic
def start(
    *, game: str | None = None, league_id: int | None = None, since: date | None = None,
    record_ids: list[int] | None = None, requested_by: str = "", chunk_size: int | None = None,
) -> RecomputeRun:
    """Create a run and its chunks (nothing is queued yet: see ``tasks.dispatch_recompute``)."""
    league = None
    if league_id is not None:
        league = League.objects.filter(pk=league_id).first()
        if league is None:
            raise RecomputeError(f"there is no league {league_id}", field="league")
    ids = list(records_to_recompute(game=game, league=league, since=since, record_ids=record_ids))
    size = max(1, chunk_size or settings.LUDOLOG_RECOMPUTE_CHUNK_SIZE)
    filters = {
        key: value for key, value in
        {"game": game, "league": league_id, "since": since.isoformat() if since else None,
         "records": len(record_ids) if record_ids is not None else None}.items()
        if value is not None
    }
    run = RecomputeRun.objects.create(requested_by=requested_by, filters=filters, total=len(ids))
    RecomputeChunk.objects.bulk_create(
        [RecomputeChunk(run=run, index=n, record_ids=ids[start:start + size])
         for n, start in enumerate(range(0, len(ids), size))]
    )
    return run


def heartbeat(run_id: int, going: str = RecomputeRun.Status.RUNNING) -> None:
    """The run made progress. One marked stalled that moves after all was not lost: ``going`` again."""
    RecomputeRun.objects.filter(pk=run_id).update(last_progress_at=timezone.now())
    RecomputeRun.objects.filter(pk=run_id, status=RecomputeRun.Status.STALLED).update(status=going, error="")


def chunk_started(chunk_id: int) -> None:
    run_id = RecomputeChunk.objects.filter(pk=chunk_id, done_at__isnull=True).values_list("run_id", flat=True).first()
    if run_id is not None:
        heartbeat(run_id)


def run_chunk(chunk_id: int) -> bool:
    """Recompute one chunk (again: a redelivered chunk is done once); True when it completed the run."""
    chunk = RecomputeChunk.objects.select_related("run").get(pk=chunk_id)
    if chunk.done_at is None:
        records = list(
            GameRecord.objects.filter(pk__in=chunk.record_ids, status=GameRecord.Status.FINISHED)
            .select_related("copy").prefetch_related("seats").order_by("pk")
        )
        finals, unscorable = services.final_scores_each(records)
        with transaction.atomic():
            changes, unwritable = services.write_each([r for r in records if r.pk in finals], finals)
            unscorable.update(unwritable)
            RecomputeChange.objects.bulk_create(
                [RecomputeChange(
                    run_id=chunk.run_id, record_id=c.record_id, seat_order=c.seat_order, player_id=c.player_id,
                    score_before=c.score_before, rank_before=c.rank_before, score_after=c.score_after,
                    rank_after=c.rank_after,
                ) for c in changes if c.score_before is not None],
                ignore_conflicts=True,
            )
            now = timezone.now()
            done = RecomputeChunk.objects.filter(pk=chunk.pk, done_at__isnull=True).update(
                done_at=now, unscorable={str(pk): reason for pk, reason in sorted(unscorable.items())},
            )
            if done:
                RecomputeRun.objects.filter(pk=chunk.run_id).update(
                    done=F("done") + len(chunk.record_ids), last_progress_at=now,
                )
                for record_id, reason in unscorable.items():
                    services.mark_unscorable(record_id, reason)
                services.clear_unscorable(r.pk for r in records if r.pk not in unscorable)
        heartbeat(chunk.run_id)
    # Checked after our own commit: the last chunk to commit sees every other one done.
    if RecomputeChunk.objects.filter(run_id=chunk.run_id, done_at__isnull=True).exists():
        return False
    return claim_finish(chunk.run_id)


def fail(run_id: int, error: str, chunk_id: int | None = None) -> None:
    """A task gave up: note why on its chunk and stop the run (its first reason is kept)."""
    with transaction.atomic():
        if chunk_id is not None:
            RecomputeChunk.objects.filter(pk=chunk_id).update(error=error)
        run = (
            RecomputeRun.objects.select_for_update().filter(pk=run_id)
            .exclude(status=RecomputeRun.Status.FINISHED).first()
        )
        if run is not None:
            RecomputeRun.objects.filter(pk=run_id).update(status=RecomputeRun.Status.FAILED, error=run.error or error)


def mark_stalled() -> list[int]:
    """Mark stalled the runs without a heartbeat for ``LUDOLOG_RECOMPUTE_STALL_SECONDS``; their ids."""
    seconds = settings.LUDOLOG_RECOMPUTE_STALL_SECONDS
    cutoff = timezone.now() - timedelta(seconds=seconds)
    going = [RecomputeRun.Status.RUNNING, RecomputeRun.Status.FINALIZING]
    ids = list(
        RecomputeRun.objects.filter(status__in=going, last_progress_at__lt=cutoff).values_list("pk", flat=True)
    )
    if ids:
        # The same conditions again: a heartbeat that came in between keeps its run going.
        RecomputeRun.objects.filter(pk__in=ids, status__in=going, last_progress_at__lt=cutoff).update(
            status=RecomputeRun.Status.STALLED,
            error=f"no chunk started or finished for {seconds:.0f} s: its workers were probably lost",
        )
    return ids


RESUMABLE = (RecomputeRun.Status.FAILED, RecomputeRun.Status.STALLED)


def resume(run_id: int) -> RecomputeRun:
    """Set a failed or stalled run going again (its chunks not done, then its finish, are queued by
    the caller)."""
    mark_stalled()
    with transaction.atomic():
        run = RecomputeRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None:
            raise RecomputeError(f"there is no recomputation {run_id}", field="run")
        if run.status not in RESUMABLE:
            raise NotResumable(
                f"recomputation #{run_id} is {run.status}: only a failed or stalled one can be resumed",
                status=run.status,
            )
        run.chunks.update(error="")
        RecomputeRun.objects.filter(pk=run_id).update(
            status=RecomputeRun.Status.RUNNING, error="", last_progress_at=timezone.now(),
        )
    run.refresh_from_db()
    return run


def claim_finish(run_id: int) -> bool:
    return bool(
        RecomputeRun.objects.filter(pk=run_id, status=RecomputeRun.Status.RUNNING)
        .update(status=RecomputeRun.Status.FINALIZING, last_progress_at=timezone.now())
    )


def finish(run_id: int) -> RecomputeRun:
    """Rebuild what depends on the recomputed results, then close the run."""
    run = RecomputeRun.objects.get(pk=run_id)
    if run.status == RecomputeRun.Status.FINISHED:
        return run
    heartbeat(run_id, going=RecomputeRun.Status.FINALIZING)
    record_ids = [pk for chunk in run.chunks.all() for pk in chunk.record_ids]
    if record_ids:
        statistics.rebuild()
        standings.rebuild()
        for (slug, club_id), first in sorted(ratings.affected_scopes(record_ids).items(), key=str):
            ratings.recompute(slug, club_id, since=first)
    RecomputeRun.objects.filter(pk=run_id).update(status=RecomputeRun.Status.FINISHED, finished_at=timezone.now())
    run.refresh_from_db()
    return run
