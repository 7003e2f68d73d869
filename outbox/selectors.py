"""Reading the outbox: what is waiting and what failed, for the operator's page."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from .models import Message


def unsent() -> QuerySet[Message]:
    """Every message not delivered yet, oldest first: waiting (never tried, or tried and to be
    tried again) and failed (given up after ``LUDOLOG_OUTBOX_MAX_ATTEMPTS``, or with an error)."""
    return Message.objects.filter(sent_at__isnull=True).order_by("created_at", "id")


def given_up(message: Message) -> bool:
    """The sweep tries it no more: only the retry button sends it now."""
    return message.sent_at is None and message.attempts >= settings.LUDOLOG_OUTBOX_MAX_ATTEMPTS


def recently_sent(limit: int = 20) -> QuerySet[Message]:
    return Message.objects.filter(sent_at__isnull=False).order_by("-sent_at", "-id")[:limit]
