"""The catalogue's Celery task: a UNIMARC import too long for a web request (games.jobs)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from . import services
from .jobs import queue_on_commit, queue_waiting_jobs, runs_jobs
from .models import UnimarcImport

logger = logging.getLogger(__name__)


@shared_task(name="games.import_unimarc", ignore_result=True, acks_late=True)
def import_unimarc(job_id: int) -> None:
    job = UnimarcImport.objects.filter(pk=job_id).first()
    if job is None:
        return
    try:
        services.run_unimarc_import(job, settings.LUDOLOG_IMPORT_CHUNK)
    except Exception as error:
        # Said on the job's page rather than retried: the chunks stored so far stay, and the
        # same file imported again finishes the work (records are matched by their source identifier).
        logger.exception("UNIMARC import #%s failed", job_id)
        job.fail(f"{type(error).__name__}: {error}")


def queue_unimarc_import(job: UnimarcImport) -> None:
    """Have the job imported once the transaction that made it commits (in-process and at once
    without a broker)."""
    queue_on_commit(import_unimarc, job)


runs_jobs(UnimarcImport, import_unimarc)


@shared_task(name="games.queue_waiting_jobs", ignore_result=True)
def queue_waiting_import_jobs() -> int:
    """The beat's: every app's import jobs left queued by a broker that was down, asked for again."""
    return queue_waiting_jobs()
