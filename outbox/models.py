from __future__ import annotations

from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Message(models.Model):
    """One mail to send, rendered in its recipient's language when it was written, and written in
    the same transaction as the change that causes it: a change committed has its message, a
    change rolled back has none. ``sent_at`` empty: still to deliver (``outbox.services``)."""

    class Kind(models.TextChoices):
        HOLD_READY = "hold_ready", _("a reserved game is waiting")
        OVERDUE = "overdue", _("games overdue")
        INVITATION = "invitation", _("an invitation")
        JOIN_DECISION = "join_decision", _("an answer to a request to join")
        VERIFY_EMAIL = "verify_email", _("an address to verify")

    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    recipients = models.TextField(_("recipients"), help_text=_("Addresses, one a line."))
    subject = models.CharField(_("subject"), max_length=255)
    body = models.TextField(_("body"), blank=True)
    language = models.CharField(_("language"), max_length=12, blank=True)
    blank_once_sent = models.BooleanField(
        _("body blanked once sent"), default=False,
        help_text=_("The body carries a link that is a key (an invitation's token): it is not kept once mailed."))
    about_type = models.ForeignKey(ContentType, on_delete=models.SET_NULL, null=True, blank=True,
                                   verbose_name=_("about (type)"))
    about_id = models.PositiveBigIntegerField(_("about (id)"), null=True, blank=True)
    about = GenericForeignKey("about_type", "about_id")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        indexes = [models.Index(fields=["about_type", "about_id"], name="outbox_message_about"),
                   models.Index(fields=["created_at"], condition=models.Q(sent_at__isnull=True),
                                name="outbox_message_unsent")]

    def __str__(self) -> str:
        return self.subject

    @property
    def recipient_list(self) -> list[str]:
        return [line.strip() for line in self.recipients.splitlines() if line.strip()]

    @property
    def failed(self) -> bool:
        return self.sent_at is None and bool(self.last_error)
