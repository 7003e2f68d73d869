"""What the loans desk hears from the event store: a game played with a library copy that ended
short of its tiles (``end_game`` for a ``missing_tile``) flags that copy for a check. And from
the outbox: a notification's mail sent marks the notification emailed (when, to whom)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.contrib.contenttypes.models import ContentType

from games.models import Copy
from outbox.models import Message
from outbox.signals import message_sent
from records.models import GameRecord
from records.selectors import ended_short_of_a_tile
from records.signals import record_finished, records_finished

from . import rules, selectors, services
from .models import Notification

logger = logging.getLogger(__name__)


def short_of_tiles(record_ids: Iterable[int]) -> list[tuple[int, int]]:
    """``(record id, copy id)`` of the records among ``record_ids`` that name a copy and ended
    for a missing tile, in one query whatever their number. An ``end_game`` is a record's last
    event: a record that has one for a missing tile ended so."""
    return list(GameRecord.objects.filter(pk__in=list(record_ids), copy__isnull=False).filter(ended_short_of_a_tile())
                .order_by("pk").values_list("pk", "copy_id"))


def flag_copies(record_ids: Iterable[int]) -> int:
    """Flag for a check the copy of every record among ``record_ids`` that ended short of its
    tiles; returns how many were flagged now (a record already heard of flags nothing)."""
    found = short_of_tiles(record_ids)
    copies = Copy.objects.in_bulk([copy_id for _record, copy_id in found])
    flagged = 0
    for record_id, copy_id in found:
        before = selectors.copy_state(copies[copy_id]).last_seq
        after = services.request_check(copies[copy_id], record_id, rules.CHECK_REASON_SHORT_OF_TILES)
        flagged += after.last_seq != before
    return flagged


def record_ended(sender, record_id: int, **kwargs) -> None:
    """Sent once the finishing transaction commits: the flag is a write of its own. A failure
    is logged and leaves the record as it is (the scorekeeper's game is already saved)."""
    try:
        flag_copies([record_id])
    except Exception:
        logger.exception("could not flag the copy of record %s for a check", record_id)


def records_ended(sender, record_ids: list[int], **kwargs) -> None:
    try:
        flag_copies(record_ids)
    except Exception:
        logger.exception("could not flag the copies of records %s… for a check", record_ids[:3])


def notification_mailed(sender, message: Message, **kwargs) -> None:
    if message.about_type_id == ContentType.objects.get_for_model(Notification).pk:
        Notification.objects.filter(pk=message.about_id).update(
            emailed_at=message.sent_at, emailed_to=", ".join(message.recipient_list))


def connect() -> None:
    message_sent.connect(notification_mailed, sender=Message, dispatch_uid="loans.notification_mailed")
    record_finished.connect(record_ended, dispatch_uid="loans.record_ended")
    records_finished.connect(records_ended, dispatch_uid="loans.records_ended")
