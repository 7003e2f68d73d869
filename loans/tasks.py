"""Celery tasks: thin wrappers over the loans services. The notifications' mail goes through the
outbox (``outbox.tasks``)."""

from __future__ import annotations

from celery import shared_task

from . import memberships, services


@shared_task(ignore_result=True, acks_late=True)
def email_notification(notification_id: int) -> None:
    """Kept for the tasks an earlier version queued before the outbox: their mail goes in it."""
    services.mail_unmailed_notification(notification_id)


@shared_task(name="loans.daily", ignore_result=True)
def daily() -> None:
    """The desk's day starts: holds left on the shelf too long lapse, households with games
    overdue are reminded (each service does what is due today and nothing twice)."""
    services.expire_holds()
    services.remind_overdue()


@shared_task(name="loans.remind_membership_renewals", ignore_result=True)
def remind_membership_renewals() -> None:
    """Households whose membership ends soon are mailed once a period to renew it (the beat, daily)."""
    memberships.remind_membership_renewals()
