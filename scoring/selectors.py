"""Reads of the scoring projections, for the API and the admin."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from records.models import GameRecord

from .models import (
    Club, GameStatistics, League, PlayerStatistics, Rating, RatingChange, RecomputeRun, SeatResult, Standing,
)


def visible_records(user: AbstractBaseUser | AnonymousUser) -> QuerySet[GameRecord]:
    """Records whose results the user may read: public ones, and private ones they keep or sit at."""
    records = GameRecord.objects.all()
    if user.is_authenticated and user.is_staff:
        return records
    if user.is_authenticated:
        return records.filter(Q(is_private=False) | Q(scorekeepers=user) | Q(seats__player__user=user)).distinct()
    return records.filter(is_private=False)


def record_results(record: GameRecord) -> QuerySet[SeatResult]:
    return SeatResult.objects.filter(record=record).select_related("player", "seat").order_by("seat__seat_order")


def clubs() -> QuerySet[Club]:
    return Club.objects.all()


def leagues() -> QuerySet[League]:
    return League.objects.select_related("club")


def league_standings(league: League) -> QuerySet[Standing]:
    return Standing.objects.filter(league=league).select_related("player")


def player_statistics() -> QuerySet[PlayerStatistics]:
    return PlayerStatistics.objects.select_related("player")


def game_statistics() -> QuerySet[GameStatistics]:
    return GameStatistics.objects.all()


def ratings() -> QuerySet[Rating]:
    return Rating.objects.select_related("player", "club").order_by("game_slug", "club_id", "-ordinal", "player_id")


def rating_history() -> QuerySet[RatingChange]:
    return RatingChange.objects.select_related("player").order_by("played_on", "record_id", "player_id")


def recompute_runs() -> QuerySet[RecomputeRun]:
    return RecomputeRun.objects.all()
