"""Writing to the outbox and delivering it.

:func:`enqueue` writes a message in the present transaction and, once it commits, asks the
broker to deliver it (``outbox.deliver``). A broker that does not answer fails nothing: the
message stays in the table, logged, and the beat's sweep (``outbox.sweep``, every
``LUDOLOG_OUTBOX_SWEEP_SECONDS``) delivers what no worker did. In ``make run`` (eager Celery) the
task runs in-process, so mail goes at once.

:func:`deliver` sends a message once: it locks the row (``skip_locked``: a worker already on it is
left to it), sends through Django's mail framework and marks ``sent_at`` in the same transaction.
A worker that dies between the mail server's answer and the commit leaves the message unsent, so
it may go twice; nothing makes it go never.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from .broker import queue_once
from .models import Message
from .signals import message_sent

logger = logging.getLogger(__name__)


def enqueue(kind: Message.Kind | str, recipients: Iterable[str], subject: str, body: str, *, language: str = "",
            about: Model | None = None, blank_once_sent: bool = False) -> Message | None:
    """Write a mail to ``recipients`` (already rendered, in ``language``) in the present
    transaction, delivered once it commits; ``about``: the object it is about (a notification, an
    invitation). ``blank_once_sent``: the body is a key (a link's token) not to keep once mailed.
    No address: nothing is written, and None is returned."""
    addresses = sorted({address.strip() for address in recipients if address and address.strip()})
    if not addresses:
        return None
    message = Message.objects.create(
        kind=kind, recipients="\n".join(addresses), subject=" ".join(subject.split())[:255], body=body,
        language=language, blank_once_sent=blank_once_sent,
        about_type=ContentType.objects.get_for_model(about) if about is not None else None,
        about_id=about.pk if about is not None else None)
    transaction.on_commit(lambda: ask_broker(message.pk))
    return message


def ask_broker(message_id: int) -> bool:
    """Queue the delivery of a committed message; whether the broker took it. A broker that is
    down (kombu's OperationalError, Redis's ConnectionError) or anything else going wrong here is
    logged and the message left for the sweep: the request that caused it has already been
    committed and must not fail now."""
    from .tasks import deliver_message  # the tasks wrap the services: imported when first needed

    try:
        queue_once(deliver_message, (message_id,))
    except Exception as error:  # noqa: BLE001 (whatever the broker or an eager run raises, the change stands)
        logger.warning("message %s not queued (%s: %s): the outbox sweep will deliver it",
                       message_id, type(error).__name__, error)
        return False
    return True


def deliver(message_id: int) -> bool:
    """Send message ``message_id`` if nobody has yet and no other worker is sending it; whether it
    went now. A mail server that refuses or does not answer counts an attempt and keeps the error:
    the sweep tries again, up to ``LUDOLOG_OUTBOX_MAX_ATTEMPTS`` attempts."""
    with transaction.atomic():
        message = (Message.objects.select_for_update(skip_locked=True)
                   .filter(pk=message_id, sent_at__isnull=True).first())
        if message is None:
            return False
        message.attempts += 1
        try:
            send_mail(message.subject, message.body, None, message.recipient_list)
        except (smtplib.SMTPException, OSError) as error:
            message.last_error = f"{type(error).__name__}: {error}"[:2000]
            message.save(update_fields=["attempts", "last_error"])
            logger.warning("message %s not sent (attempt %d): %s", message.pk, message.attempts, message.last_error)
            return False
        message.sent_at, message.last_error = timezone.now(), ""
        if message.blank_once_sent:
            message.body = ""
        message.save(update_fields=["attempts", "last_error", "sent_at", "body"])
        message_sent.send(sender=Message, message=message)
    return True


def sweep(now: dt.datetime | None = None) -> int:
    """Deliver what is still unsent a while after it was written (``LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS``:
    its own task may still be on its way) and has been tried fewer than
    ``LUDOLOG_OUTBOX_MAX_ATTEMPTS`` times, oldest first; how many went."""
    now = now or timezone.now()
    due = (Message.objects.filter(sent_at__isnull=True, attempts__lt=settings.LUDOLOG_OUTBOX_MAX_ATTEMPTS,
                                  created_at__lte=now - dt.timedelta(seconds=settings.LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS))
           .order_by("created_at", "id").values_list("pk", flat=True))
    return sum(deliver(pk) for pk in list(due[:settings.LUDOLOG_OUTBOX_SWEEP_BATCH]))


def retry(message: Message) -> bool:
    """Try an unsent message again from scratch (the outbox page's button): its attempts start
    over and a worker is asked once the transaction commits. Whether it was unsent."""
    updated = Message.objects.filter(pk=message.pk, sent_at__isnull=True).update(attempts=0, last_error="")
    if updated:
        transaction.on_commit(lambda: ask_broker(message.pk))
    return bool(updated)


def messages_about(obj: Any) -> Any:
    """The messages written about ``obj``, newest first."""
    return Message.objects.filter(about_type=ContentType.objects.get_for_model(obj), about_id=obj.pk)
