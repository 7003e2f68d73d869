"""A play history confirmed on the staff page, stored by a Celery task in chunks whose progress
the import's page follows (in the request itself without a broker, as ``make run`` runs)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from games.jobs import queue_on_commit, runs_jobs

from .formats import READERS, MalformedFile
from .models import PlaysImport
from .services import plan_import, store

logger = logging.getLogger(__name__)


def run_plays_import(job: PlaysImport) -> None:
    """Plan the file again (another import may have stored some of its plays since the review),
    with the records the importer chose, then store it a chunk at a time."""
    if job.finished:
        return
    job.begin()
    with job.file.open("rb") as file:
        data = file.read()
    try:
        plan = plan_import(READERS[job.format](data), job.format, seen_by=job.started_by,
                           landings=job.landings)
    except MalformedFile as error:
        job.refuse(str(error))
        return
    job.importing(plan.created)

    def counts(created: int) -> dict[str, int]:
        return {"created": created, "matched": plan.matched, "skipped": plan.skipped}

    store(plan, user=job.started_by, organisation=job.organisation, chunk=settings.LUDOLOG_IMPORT_CHUNK,
          progress=lambda made: job.advance(made, counts(made)))
    job.finish(counts(plan.created))


@shared_task(name="plays_exchange.import_plays", ignore_result=True, acks_late=True)
def import_plays(job_id: int) -> None:
    job = PlaysImport.objects.filter(pk=job_id).first()
    if job is None:
        return
    try:
        run_plays_import(job)
    except Exception as error:
        # Said on the import's page rather than retried: the chunks stored stay, and a new upload
        # of the same file goes on from them.
        logger.exception("plays import #%s failed", job_id)
        job.fail(f"{type(error).__name__}: {error}")


def queue_plays_import(job: PlaysImport) -> None:
    """Have the job stored once the transaction that made it commits (in-process and at once
    without a broker)."""
    queue_on_commit(import_plays, job)


runs_jobs(PlaysImport, import_plays)
