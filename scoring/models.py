"""Read models computed from the events. Every row here can be dropped and rebuilt."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from records.models import GameRecord, Player, Seat


class SeatResult(models.Model):
    """One seat's final score, rank and points by source, as the replay computed them."""

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="results")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="result")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    score = models.IntegerField(_("score"))
    rank = models.PositiveSmallIntegerField(_("rank"))
    breakdown = models.JSONField(_("points by source"), default=dict)
    ruleset_version = models.CharField(max_length=64, blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["record", "seat__seat_order"]
        verbose_name = _("result")
        constraints = [models.UniqueConstraint(fields=["record", "seat"], name="result_per_seat")]

    def __str__(self) -> str:
        return f"{self.record_id}: {self.player} {self.score} (#{self.rank})"
