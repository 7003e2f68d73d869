"""Statistics projections: players, games, catalogue records and copies.

Each refresh recomputes its keys from the committed results (``SeatResult``, ``ScoredRecord``),
under a lock per key: no bookmark into the event table, so nothing committed late is skipped,
and the incremental rows equal a rebuild from scratch by construction.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Avg, Count, F, Max, Q, QuerySet

from records.models import GameRecord

from . import locks
from .models import CatalogueUsage, CopyUsage, GameStatistics, PlayerStatistics, ScoredRecord, SeatResult

SCORE_BAND = 10


def _player_rows(player_id: int, results: list[dict[str, Any]]) -> list[PlayerStatistics]:
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in results:
        by_game[row["record__game_slug"]].append(row)
    groups = {PlayerStatistics.ALL_GAMES: results, **by_game}
    rows = []
    for slug, lines in groups.items():
        games = len(lines)
        wins = sum(1 for line in lines if line["rank"] == 1)
        sources: dict[str, int] = defaultdict(int)
        for line in lines:
            for source, points in (line["breakdown"] or {}).items():
                sources[source] += points
        # Over every game, only counts: a score averaged across games of different scales
        # (Stone Age ~150, Carcassonne ~60) says nothing.
        per_game = slug != PlayerStatistics.ALL_GAMES
        rows.append(PlayerStatistics(
            player_id=player_id, game_slug=slug, games=games, wins=wins, win_rate=round(wins / games, 6),
            average_score=round(sum(line["score"] for line in lines) / games, 6) if per_game else None,
            best_score=max(line["score"] for line in lines) if per_game else None,
            average_by_source={source: round(total / games, 6) for source, total in sorted(sources.items())}
            if per_game else {},
        ))
    return rows


def _results_by_player(player_ids: Iterable[int] | None) -> dict[int, list[dict[str, Any]]]:
    results = SeatResult.objects.all()
    if player_ids is not None:
        results = results.filter(player__in=list(player_ids))
    by_player: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in results.values("player_id", "score", "rank", "breakdown", "record__game_slug").order_by("pk"):
        by_player[row["player_id"]].append(row)
    return by_player


def refresh_players(player_ids: Iterable[int]) -> None:
    player_ids = sorted(set(player_ids))
    with transaction.atomic():
        for player_id in player_ids:
            locks.hold(f"player:{player_id}")
        by_player = _results_by_player(player_ids)
        PlayerStatistics.objects.filter(player__in=player_ids).delete()
        PlayerStatistics.objects.bulk_create(
            [row for player_id in player_ids for row in _player_rows(player_id, by_player.get(player_id, []))]
        )


def game_row(slug: str, records: QuerySet[GameRecord] | None = None) -> GameStatistics:
    """A game's figures (an unsaved row) over its scored records, or over ``records`` only."""
    scored = ScoredRecord.objects.filter(game_slug=slug)
    if records is not None:
        scored = scored.filter(record__in=records)
    summaries = scored.aggregate(games=Count("pk"), winning=Avg("winning_score"), duration=Avg("duration_seconds"))
    results = SeatResult.objects.filter(record__in=scored.values("record"))
    bands = (
        results.annotate(band=F("score") / SCORE_BAND).values("band").annotate(seats=Count("pk")).order_by("band")
    )
    seats = (
        results.values("record__scored__players", "seat__seat_order")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(rank=1)))
        .order_by("record__scored__players", "seat__seat_order")
    )
    advantage: dict[str, dict[str, float]] = defaultdict(dict)
    for row in seats:
        advantage[str(row["record__scored__players"])][str(row["seat__seat_order"])] = round(
            row["wins"] / row["games"], 6
        )
    return GameStatistics(
        game_slug=slug,
        games=summaries["games"],
        average_winning_score=None if summaries["winning"] is None else round(summaries["winning"], 6),
        score_distribution={
            f"{row['band'] * SCORE_BAND}-{row['band'] * SCORE_BAND + SCORE_BAND - 1}": row["seats"] for row in bands
        },
        seat_advantage=dict(advantage),
        average_duration_seconds=None if summaries["duration"] is None else round(summaries["duration"], 3),
    )


def refresh_game(slug: str) -> None:
    """Recompute one game's figures (call inside a transaction holding ``game:<slug>``)."""
    GameStatistics.objects.filter(game_slug=slug).delete()
    if ScoredRecord.objects.filter(game_slug=slug).exists():
        game_row(slug).save()


def refresh_usage(catalogue_ids: Iterable[int], copy_ids: Iterable[int]) -> None:
    catalogue_ids, copy_ids = sorted(set(catalogue_ids)), sorted(set(copy_ids))
    with transaction.atomic():
        for pk in catalogue_ids:
            locks.hold(f"catalogue:{pk}")
        for pk in copy_ids:
            locks.hold(f"copy:{pk}")
        _write_usage(CatalogueUsage, "catalogue_record", catalogue_ids)
        _write_usage(CopyUsage, "copy", copy_ids)


def _write_usage(model, field: str, ids: list[int] | None) -> None:
    summaries = ScoredRecord.objects.filter(**{f"{field}__isnull": False})
    existing = model.objects.all()
    if ids is not None:
        summaries = summaries.filter(**{f"{field}__in": ids})
        existing = existing.filter(**{f"{field}__in": ids})
    existing.delete()
    rows = summaries.values(field).annotate(times=Count("pk"), last=Max("played_on")).order_by(field)
    model.objects.bulk_create(
        [model(**{f"{field}_id": row[field]}, times_played=row["times"], last_played=row["last"]) for row in rows]
    )


@transaction.atomic
def rebuild() -> None:
    """Drop every statistics row and compute them all again from the results."""
    locks.hold("statistics:rebuild")
    by_player = _results_by_player(None)
    PlayerStatistics.objects.all().delete()
    PlayerStatistics.objects.bulk_create(
        [row for player_id in sorted(by_player) for row in _player_rows(player_id, by_player[player_id])],
        batch_size=2000,
    )
    GameStatistics.objects.all().delete()
    for slug in ScoredRecord.objects.values_list("game_slug", flat=True).distinct().order_by("game_slug"):
        game_row(slug).save()
    _write_usage(CatalogueUsage, "catalogue_record", None)
    _write_usage(CopyUsage, "copy", None)
