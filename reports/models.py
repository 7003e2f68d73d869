"""What the reports app stores: only that a year's report was sent to the town (its figures are
always counted afresh from the events)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .errors import ImmutableReportSentError


class ReportSent(models.Model):
    """A year's report sent to the town (or a funder), by whom, with a note. Append-only: sending
    it again after corrections is a new row; the model refuses updates and deletes, and on
    PostgreSQL a trigger refuses any client (migration 0002)."""

    organisation = models.ForeignKey("accounts.Organisation", on_delete=models.PROTECT, related_name="+",
                                     verbose_name=_("organisation"))
    year = models.PositiveSmallIntegerField(_("year"))
    sent_at = models.DateTimeField(_("sent at"), default=timezone.now)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                           related_name="+", verbose_name=_("sent by"))
    note = models.TextField(_("note"), blank=True, help_text=_("To whom, and how (by mail to the town hall…)."))

    class Meta:
        ordering = ["organisation", "year", "sent_at", "pk"]
        verbose_name = _("report sent")
        verbose_name_plural = _("reports sent")
        indexes = [models.Index(fields=["organisation", "year"], name="report_sent_org_year")]

    def __str__(self) -> str:
        return f"{self.organisation_id} {self.year} sent {self.sent_at:%Y-%m-%d}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableReportSentError("a report once marked as sent stays as it was")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableReportSentError("a report once marked as sent is never unmarked")
