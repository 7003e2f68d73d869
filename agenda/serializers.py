from __future__ import annotations

from rest_framework import serializers

from .models import Registration, Session
from .rules import Public

KEY = {"max_length": 64, "min_length": 1}


class SessionsQuerySerializer(serializers.Serializer):
    # ``from`` is a Python keyword: the field is named in ``get_fields``.
    to = serializers.DateField(required=False, help_text="the last day (default: eight weeks after the first)")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.DateField(required=False, help_text="the first day (default: today)")
        return fields


class SessionSerializer(serializers.ModelSerializer):
    name = serializers.CharField(help_text="its title, else its kind's name in the reader's language")
    places_left = serializers.IntegerField(allow_null=True, help_text="for an event with registration and capacity")

    class Meta:
        model = Session
        fields = ["id", "kind", "name", "title", "starts_at", "ends_at", "capacity", "registration", "public",
                  "cancelled_at", "cancel_reason", "places_left"]


class StaffSessionSerializer(SessionSerializer):
    """What the staff see beside: a group's structure and numbers, and the figures so far."""

    persons = serializers.IntegerField(help_text="people counted at the door (every public but families)")
    families = serializers.IntegerField()
    registered_places = serializers.IntegerField()
    waiting_places = serializers.IntegerField()

    class Meta(SessionSerializer.Meta):
        fields = [*SessionSerializer.Meta.fields, "structure_kind", "structure_name", "children_expected",
                  "adults_expected", "persons", "families", "registered_places", "waiting_places"]


class CountSerializer(serializers.Serializer):
    public = serializers.ChoiceField(choices=[public.value for public in Public])
    delta = serializers.IntegerField(min_value=-10_000, max_value=10_000,
                                     help_text="+1 a tap, −1 an oops; a booked group's count may be more")
    key = serializers.CharField(help_text="the tap's idempotency key, made when tapped: sent twice, stored once", **KEY)
    counted_at = serializers.DateTimeField(required=False, help_text="the phone's clock when tapped (default: now)")

    def validate_delta(self, value: int) -> int:
        if value == 0:
            raise serializers.ValidationError("a count changes by at least one")
        return value


class CountAnswerSerializer(serializers.Serializer):
    created = serializers.BooleanField(help_text="false: the key was already stored, nothing was added")
    totals = serializers.DictField(child=serializers.IntegerField(), help_text="the session's count by public")
    persons = serializers.IntegerField(help_text="every public but families")


class PlaySerializer(serializers.Serializer):
    record = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="the catalogue record's id")
    delta = serializers.ChoiceField(choices=[1, -1])
    key = serializers.CharField(**KEY)
    counted_at = serializers.DateTimeField(required=False)


class PlayAnswerSerializer(serializers.Serializer):
    created = serializers.BooleanField()
    record = serializers.IntegerField()
    plays = serializers.IntegerField(help_text="the record's plays at the session now")


class RegisterSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=150)
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    places = serializers.IntegerField(min_value=1, max_value=50, default=1)


class RegistrationSerializer(serializers.ModelSerializer):
    position = serializers.IntegerField(allow_null=True, help_text="on the waiting list: 1 is the next")

    class Meta:
        model = Registration
        fields = ["id", "session", "name", "places", "status", "registered_at", "checked_in_at", "position"]


class CheckInSerializer(serializers.Serializer):
    undo = serializers.BooleanField(default=False, help_text="take back a check-in tapped by mistake")


class GameLinkSerializer(serializers.Serializer):
    record = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="the game record's id")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=300,
                                   help_text="why, when the game leaves a session over for more than a day")


class GameLinkAnswerSerializer(serializers.Serializer):
    created = serializers.BooleanField(help_text="false: the game was linked to this session already")
    session = serializers.IntegerField()
    record = serializers.IntegerField()
    moved_from = serializers.IntegerField(allow_null=True, help_text="the session the game was linked to before")
