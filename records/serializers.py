from __future__ import annotations

from rest_framework import serializers

from games.models import CatalogueRecord, Copy

from .models import Event, GameRecord, Seat
from .players import NAME_LENGTH


class SeatSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.display_name", max_length=NAME_LENGTH)

    class Meta:
        model = Seat
        fields = ["seat_order", "player", "colour"]
        read_only_fields = ["seat_order"]


class GameRecordSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True)
    catalogue_record = serializers.PrimaryKeyRelatedField(
        queryset=CatalogueRecord.objects.all(), required=False, allow_null=True
    )
    copy = serializers.PrimaryKeyRelatedField(queryset=Copy.objects.all(), required=False, allow_null=True)
    last_seq = serializers.SerializerMethodField()
    setup = serializers.DictField(
        required=False, default=dict,
        help_text="What the game's set-up chooses besides the seed (e.g. Carcassonne's expansions, a map, its "
                  "chips); the rules engine checks it and fills in what the seed draws. Pinned once created.",
    )

    class Meta:
        model = GameRecord
        fields = [
            "id", "game_slug", "ruleset_version", "catalogue_record", "copy", "played_on", "location",
            "status", "is_private", "is_friendly", "is_cooperative", "play_started_at", "play_ended_at", "seed",
            "setup", "result_only", "seats", "last_seq", "created_at",
        ]
        read_only_fields = ["id", "status", "ruleset_version", "last_seq", "created_at"]

    def get_last_seq(self, record: GameRecord) -> int:
        return getattr(record, "last_seq", None) or record.events.count()

    def validate_seats(self, seats: list[dict]) -> list[dict]:
        if not seats:
            raise serializers.ValidationError("a game needs at least one seat")
        names = [seat["player"]["display_name"] for seat in seats]
        if len(set(names)) != len(names):
            raise serializers.ValidationError("a player can take only one seat")
        return seats

    def validate(self, attrs: dict) -> dict:
        copy = attrs.get("copy")
        record = attrs.get("catalogue_record")
        if copy is not None and record is not None and copy.record_id != record.pk:
            raise serializers.ValidationError({"copy": "this copy belongs to another catalogue record"})
        if attrs.get("is_cooperative") and not attrs.get("result_only"):
            raise serializers.ValidationError({"is_cooperative": "only a result-only record is a cooperative game"})
        started, ended = attrs.get("play_started_at"), attrs.get("play_ended_at")
        if started is not None and ended is not None and ended < started:
            raise serializers.ValidationError({"play_ended_at": "play cannot end before it started"})
        return attrs


class EventSerializer(serializers.ModelSerializer):
    recorded_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Event
        fields = ["seq", "type", "payload", "recorded_by", "recorded_at", "idempotency_key"]
        read_only_fields = fields


class HistoryLineSerializer(serializers.Serializer):
    """An event as the history shows it: its notation, and who retracted it if it was undone."""

    seq = serializers.IntegerField(source="event.seq")
    type = serializers.CharField(source="event.type")
    payload = serializers.JSONField(source="event.payload")
    notation = serializers.CharField()
    recorded_by = serializers.CharField(source="event.recorded_by.username", default=None)
    recorded_at = serializers.DateTimeField(source="event.recorded_at")
    idempotency_key = serializers.CharField(source="event.idempotency_key", allow_null=True)
    retracted_by = serializers.IntegerField(allow_null=True)


MAX_EXPECTED_SEQ = 2_147_483_646  # seq is a 32-bit column: the event after this one must fit
EVENT_TYPE = r"[a-z][a-z0-9_]{0,63}"
MAX_IDEMPOTENCY_KEY = 100
"""The append body's bounds, here once for the serializer and the append's plain-body reading
(``records.views.plain_append_body``)."""


class AppendEventSerializer(serializers.Serializer):
    expected_seq = serializers.IntegerField(min_value=0, max_value=MAX_EXPECTED_SEQ)
    type = serializers.RegexField(rf"^{EVENT_TYPE}$", max_length=64)
    payload = serializers.DictField(required=False, default=dict)
    idempotency_key = serializers.CharField(max_length=MAX_IDEMPOTENCY_KEY, required=False, allow_null=True,
                                            allow_blank=False)
