"""Celery tasks: thin wrappers over the loans services. Idempotent and acknowledged late, as the
scoring tasks are: a notification is emailed once, whatever is delivered again."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from . import services


@shared_task(ignore_result=True, acks_late=True, autoretry_for=(OSError,), retry_backoff=True,
             retry_backoff_max=settings.LUDOLOG_TASK_RETRY_BACKOFF_MAX, max_retries=settings.LUDOLOG_TASK_MAX_RETRIES)
def email_notification(notification_id: int) -> None:
    """A mail server that does not answer (``OSError``: refused, timed out) is tried again later."""
    services.email_notification(notification_id)


@shared_task(name="loans.daily", ignore_result=True)
def daily() -> None:
    """The desk's day starts: holds left on the shelf too long lapse, households with games
    overdue are reminded (each service does what is due today and nothing twice)."""
    services.expire_holds()
    services.remind_overdue()
