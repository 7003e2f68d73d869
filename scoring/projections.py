"""Rebuilding every scoring projection from the events alone."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from records.models import GameRecord

from . import ratings, services, standings, statistics
from .models import (
    CatalogueUsage, CopyUsage, GameStatistics, PlayerStatistics, Rating, RatingChange, ScoredRecord, SeatResult,
    Standing,
)

BATCH = 200


@transaction.atomic
def rebuild_all(progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """Drop and rebuild in one transaction: readers see the old tables until the new ones commit."""
    for model in (RatingChange, Rating, Standing, PlayerStatistics, GameStatistics, CatalogueUsage, CopyUsage,
                  ScoredRecord, SeatResult):
        model.objects.all().delete()
    ids = list(GameRecord.objects.filter(status=GameRecord.Status.FINISHED).order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        records = list(
            GameRecord.objects.filter(pk__in=ids[start:start + BATCH])
            .select_related("copy").prefetch_related("seats").order_by("pk")
        )
        # A record that cannot be scored is set aside and marked, as a recompute does: the rest
        # of the rebuild goes on.
        finals, unscorable = services.final_scores_each(records)
        _changes, unwritable = services.write_each([r for r in records if r.pk in finals], finals)
        unscorable.update(unwritable)
        for record_id, reason in unscorable.items():
            services.mark_unscorable(record_id, reason)
        services.clear_unscorable(r.pk for r in records if r.pk not in unscorable)
        if progress is not None:
            progress(min(start + BATCH, len(ids)), len(ids))
    statistics.rebuild()
    standings.rebuild()
    ratings.rebuild()
    return {
        "results": SeatResult.objects.count(), "records": ScoredRecord.objects.count(),
        "player statistics": PlayerStatistics.objects.count(), "standings": Standing.objects.count(),
        "ratings": Rating.objects.count(), "rating changes": RatingChange.objects.count(),
    }
