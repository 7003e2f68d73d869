"""What the outbox announces: the apps whose objects a message is about keep their own record of
it (an invitation's ``emailed_at``) without the outbox knowing them."""

from django.dispatch import Signal

message_sent = Signal()
"""A message was delivered (``message``: the :class:`~outbox.models.Message`, ``sent_at`` set),
sent inside the transaction that marks it sent."""
