"""Celery tasks: thin wrappers over the outbox services. Acknowledged late and idempotent: a
message delivered twice to workers is sent once (``outbox.services.deliver``)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="outbox.deliver", ignore_result=True, acks_late=True)
def deliver_message(message_id: int) -> None:
    services.deliver(message_id)


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep() -> None:
    """The beat's catch-up: what a broker that was down, or a worker that died, left unsent."""
    services.sweep()
