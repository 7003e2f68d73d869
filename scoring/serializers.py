from __future__ import annotations

import re
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from records.models import GameRecord

from .models import (
    Club, GameStatistics, League, LeagueRuling, PlayerStatistics, Rating, RatingChange, RecomputeRun, RulingImpact,
    SeatResult, Standing,
)


LEADING_NUMBER = re.compile(r"-?[0-9]+")


def _key_order(key: str) -> tuple[int, int, str]:
    """Keys that start with a number (a score band "10-19", a player count, a seat) by that
    number, the others (a source of points) by name."""
    number = LEADING_NUMBER.match(key)
    return (0, int(number.group()), key) if number else (1, 0, key)


def in_key_order(value: Any) -> Any:
    """``value`` with every object's keys in :func:`_key_order`."""
    if isinstance(value, dict):
        return {key: in_key_order(value[key]) for key in sorted(value, key=lambda key: _key_order(str(key)))}
    return value


class FiguresField(serializers.JSONField):
    """An object of figures written in one order of keys, however the row came: PostgreSQL keeps a
    stored object's keys by length, a row worked out for a reader keeps them as built. The bytes a
    reader is shown must not tell which (it would tell that a game they may not see exists)."""

    def to_representation(self, value: Any) -> Any:
        return in_key_order(value)


class SeatResultSerializer(serializers.ModelSerializer):
    seat = serializers.IntegerField(source="seat.seat_order")
    player = serializers.CharField(source="player.display_name")

    class Meta:
        model = SeatResult
        fields = ["seat", "player", "score", "rank", "breakdown", "ruleset_version", "computed_at"]


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name"]


class LeagueSerializer(serializers.ModelSerializer):
    members = serializers.SlugRelatedField(slug_field="display_name", many=True, read_only=True)

    class Meta:
        model = League
        fields = [
            "id", "club", "name", "game_slugs", "record_kinds", "starts_on", "ends_on", "scoring_system", "points_table",
            "min_games", "tie_breakers", "members",
        ]


class LeagueRulingSerializer(serializers.ModelSerializer):
    ruled_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    impact = serializers.SerializerMethodField(
        help_text="What the ruling moved once the league was refreshed after it (null until then): each "
                  "standing line and club rating that changed, before → after.")

    class Meta:
        model = LeagueRuling
        fields = ["id", "record", "counts", "reason", "ruled_by", "ruled_at", "impact"]
        read_only_fields = ["id", "ruled_by", "ruled_at"]

    @extend_schema_field({"type": "array", "nullable": True, "items": {"type": "object"}})
    def get_impact(self, ruling: LeagueRuling) -> list[dict] | None:
        from . import selectors

        found = RulingImpact.objects.filter(ruling=ruling).values_list("changes", flat=True).first()
        request = self.context.get("request")
        if found is None or request is None:
            return None
        return selectors.impact_lines_seen(request.user, found)


class RecordImpactSerializer(serializers.Serializer):
    """One thing that moved a record's figures: a correction of its result (``seq``, the
    correction's event) or a move to other rules (``ruleset_move`` and its versions)."""

    seq = serializers.IntegerField(required=False, help_text="A correction's entry: its event.")
    ruleset_move = serializers.IntegerField(required=False, help_text="A move to other rules: its id.")
    from_version = serializers.CharField(required=False)
    to_version = serializers.CharField(required=False)
    computed_at = serializers.DateTimeField()
    changes = serializers.ListField(
        child=serializers.DictField(), help_text="Each rating or standing line that moved, before → after "
                                                 "(players the reader may not see left out).")


class LeagueRulingRequestSerializer(serializers.Serializer):
    record = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    counts = serializers.BooleanField(help_text="true: the game counts for the league; false: it is ruled out")
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class StandingSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.display_name")
    player_id = serializers.IntegerField()
    ranked = serializers.SerializerMethodField()
    tie_breaks = serializers.SerializerMethodField()

    class Meta:
        model = Standing
        fields = [
            "position", "ranked", "player", "player_id", "games", "wins", "points", "average_rank",
            "average_score", "tie_breaks",
        ]

    def get_ranked(self, standing: Standing) -> bool:
        return standing.position is not None

    def get_tie_breaks(self, standing: Standing) -> dict[str, float | None]:
        """The values the league's tie-breakers compare, in the league's order."""
        league = standing.league
        values = {"wins": standing.wins, "average_score": standing.average_score}
        from .standings import DEFAULT_TIE_BREAKERS

        return {str(name): values[str(name)] for name in (league.tie_breakers or DEFAULT_TIE_BREAKERS)}


class PlayerStatisticsSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.display_name")
    player_id = serializers.IntegerField()
    average_by_source = FiguresField(help_text="Average points per game by source.")

    class Meta:
        model = PlayerStatistics
        fields = [
            "player", "player_id", "game_slug", "games", "wins", "win_rate", "average_score", "best_score",
            "average_by_source",
        ]


class GameStatisticsSerializer(serializers.ModelSerializer):
    score_distribution = FiguresField(help_text="Seats per score band of ten points.")
    seat_advantage = FiguresField(help_text="Per player count, the win rate of each seat order (0 = first player).")

    class Meta:
        model = GameStatistics
        fields = [
            "game_slug", "games", "average_winning_score", "score_distribution", "seat_advantage",
            "average_duration_seconds",
        ]


class RatingSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.display_name")
    player_id = serializers.IntegerField()

    class Meta:
        model = Rating
        fields = ["player", "player_id", "game_slug", "club", "mu", "sigma", "ordinal", "games", "last_played"]


class RatingChangeSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.display_name")
    player_id = serializers.IntegerField()

    class Meta:
        model = RatingChange
        fields = [
            "player", "player_id", "game_slug", "club", "record", "played_on", "rank", "mu_before",
            "sigma_before", "mu", "sigma", "ordinal",
        ]


class RecomputeRequestSerializer(serializers.Serializer):
    game = serializers.SlugField(required=False)
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all(), required=False)
    since = serializers.DateField(required=False)

    def validate_game(self, slug: str) -> str:
        if not GameRecord.objects.filter(game_slug=slug).exists():
            raise serializers.ValidationError(f"no record of a game {slug!r}")
        return slug


class RecomputeRunSerializer(serializers.ModelSerializer):
    progress = serializers.SerializerMethodField()
    changes = serializers.SerializerMethodField()
    unscorable = serializers.SerializerMethodField(help_text="record id → why it could not be scored")

    class Meta:
        model = RecomputeRun
        fields = [
            "id", "status", "error", "filters", "total", "done", "progress", "started_at", "finished_at",
            "last_progress_at", "changes", "unscorable",
        ]

    def get_unscorable(self, run: RecomputeRun) -> dict[str, str]:
        return {str(record_id): reason for record_id, reason in run.unscorable().items()}

    def get_progress(self, run: RecomputeRun) -> float:
        return round(run.done / run.total, 4) if run.total else 1.0

    def get_changes(self, run: RecomputeRun) -> list[dict]:
        return [
            {"record": c.record_id, "seat": c.seat_order, "player_id": c.player_id,
             "before": {"score": c.score_before, "rank": c.rank_before},
             "after": {"score": c.score_after, "rank": c.rank_after}}
            for c in run.changes.all()[:500]
        ]
