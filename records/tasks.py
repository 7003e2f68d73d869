"""The event store's tasks: verifying the events' hash chains (records.integrity), and importing
record files uploaded in the admin (records.file_imports).

The verification is scheduled by ``CELERY_BEAT_SCHEDULE`` (``LUDOLOG_VERIFY_EVENTS_SECONDS``,
daily by default); the result is stored in the database, where ``/health/`` reads it. It checks
the store against the checkpoint file it wrote last (``LUDOLOG_CHECKPOINT_EXPORT``), then, when
everything is intact, writes that file anew: a chain rewritten together with its stored
checkpoint is found without anyone setting up a cron line. A run that finds a problem leaves
the file as it was, the evidence of what the store held.
"""

from __future__ import annotations

import logging
from pathlib import Path

from celery import shared_task
from django.conf import settings

from games.jobs import queue_on_commit, runs_jobs

from . import checkpoint_file, file_imports, integrity
from .models import RecordFileImport

logger = logging.getLogger(__name__)


@shared_task(name="records.verify_events", ignore_result=True, acks_late=True)
def verify_events() -> int:
    """Verify every chain (the records' and every registered stream's) against the checkpoint
    file, store the result and write the file anew when all is intact; returns how many
    problems were found."""
    path = checkpoint_export_path()
    kept, others = None, None
    if path is not None and path.exists():
        try:
            kept, others = checkpoint_file.read_all(path)
        except checkpoint_file.CheckpointFileError as error:
            # Kept, not overwritten: whoever looks at it decides (a rotated key, an edited file).
            logger.error("checkpoint file not used and not rewritten: %s", error)
            path = None
    result = integrity.verify_and_store(against=kept, others_against=others)
    problems = result.sentences()
    for problem in problems[: integrity.KEPT_MISMATCHES]:
        logger.error("event chain broken: %s", problem)
    if path is not None and result.ok:
        checkpoint_file.write(path)
    elif path is not None:
        logger.error("checkpoint file %s kept as it was: the store no longer holds what it saw", path)
    return len(problems)


def checkpoint_export_path() -> Path | None:
    """Where the beat keeps the checkpoint file (``LUDOLOG_CHECKPOINT_EXPORT``; empty: nowhere)."""
    configured = getattr(settings, "LUDOLOG_CHECKPOINT_EXPORT", "")
    return Path(configured) if configured else None


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
    queue_on_commit(import_record_files, job)


runs_jobs(RecordFileImport, import_record_files)
