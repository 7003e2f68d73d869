"""The event store's periodic task: verifying the events' hash chains (records.integrity).

Scheduled by ``CELERY_BEAT_SCHEDULE`` (``LUDOLOG_VERIFY_EVENTS_SECONDS``, daily by default); the
result is stored in the database, where ``/health/`` reads it.
"""

from __future__ import annotations

import logging

from celery import shared_task

from . import integrity

logger = logging.getLogger(__name__)


@shared_task(name="records.verify_events", ignore_result=True, acks_late=True)
def verify_events() -> int:
    """Verify every chain and store the result; returns how many events no longer match."""
    result = integrity.verify_and_store()
    for mismatch in result.mismatches[: integrity.KEPT_MISMATCHES]:
        logger.error("event chain broken: %s", mismatch)
    return len(result.mismatches)
