"""The event store's tasks: verifying the events' hash chains (records.integrity), and importing
record files uploaded in the admin (records.file_imports).

The verification is scheduled by ``CELERY_BEAT_SCHEDULE`` (``LUDOLOG_VERIFY_EVENTS_SECONDS``,
daily by default); the result is stored in the database, where ``/health/`` reads it.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction

from games.jobs import import_queue

from . import file_imports, integrity
from .models import RecordFileImport

logger = logging.getLogger(__name__)


@shared_task(name="records.verify_events", ignore_result=True, acks_late=True)
def verify_events() -> int:
    """Verify every chain and store the result; returns how many events no longer match."""
    result = integrity.verify_and_store()
    for mismatch in result.mismatches[: integrity.KEPT_MISMATCHES]:
        logger.error("event chain broken: %s", mismatch)
    return len(result.mismatches)


@shared_task(name="records.import_record_files", ignore_result=True, acks_late=True)
def import_record_files(job_id: int) -> None:
    job = RecordFileImport.objects.filter(pk=job_id).first()
    if job is None:
        return
    try:
        file_imports.run_record_file_import(job)
    except Exception as error:
        # Said on the job's page rather than retried: the files imported so far stay, and the
        # report says which they are.
        logger.exception("record file import #%s failed", job_id)
        job.fail(f"{type(error).__name__}: {error}")


def queue_record_file_import(job: RecordFileImport) -> None:
    """Have the job imported once the transaction that made it commits (in-process and at once
    without a broker)."""
    transaction.on_commit(lambda: import_record_files.apply_async((job.pk,), queue=import_queue()))
