"""What accounts hears from the outbox: an invitation's mail sent marks the invitation mailed
(the members' page shows it)."""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType

from outbox.models import Message
from outbox.signals import message_sent

from .models import Invitation


def invitation_mailed(sender: object, message: Message, **kwargs: object) -> None:
    if message.about_type_id == ContentType.objects.get_for_model(Invitation).pk:
        Invitation.objects.filter(pk=message.about_id).update(emailed_at=message.sent_at)


def connect() -> None:
    message_sent.connect(invitation_mailed, sender=Message, dispatch_uid="accounts.invitation_mailed")
