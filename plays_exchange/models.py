"""An import of a club's play history confirmed on the staff page, stored by a Celery task
(:mod:`plays_exchange.tasks`) in chunks whose progress its page follows."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import Organisation
from games.jobs import ImportJob

from .formats import BGG, BGSTATS


class PlaysImport(ImportJob):
    """A play log reviewed and confirmed: its file, its format, the club whose history it is,
    and the catalogue record the importer chose for each game of the file. Its report counts the
    records created, those already imported and the plays skipped."""

    format = models.CharField(_("format"), max_length=16, choices=[(BGG, "BoardGameGeek"), (BGSTATS, "BG Stats")])
    organisation = models.ForeignKey(Organisation, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="+", verbose_name=_("organisation"))
    landings = models.JSONField(
        _("games' records"), default=dict, blank=True,
        help_text=_("For each game of the file (its key), the catalogue record chosen on the review, or 'new'."))

    class Meta(ImportJob.Meta):
        verbose_name = _("play history import")
        verbose_name_plural = _("play history imports")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_status_display()})"
