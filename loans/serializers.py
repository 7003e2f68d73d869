from __future__ import annotations

from rest_framework import serializers

from . import rules
from .models import Hold

CODE = {"max_length": 32, "min_length": 1}


class LendSerializer(serializers.Serializer):
    copy = serializers.CharField(help_text="the copy's barcode", **CODE)
    household = serializers.CharField(help_text="the member card's number", **CODE)
    override_reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500, trim_whitespace=True,
        help_text="lend although the lending rules refuse the household (games overdue, late fees, its membership, "
                  "its loan limit), saying why: for those who may override them (else 403 override_not_allowed); "
                  "noted in the household's history. A copy that is not available stays refused.")


class ReturnSerializer(serializers.Serializer):
    copy = serializers.CharField(help_text="the copy's barcode", **CODE)
    counted = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=100_000), required=False, allow_empty=True,
        help_text="pieces counted, by the checklist's kind, where they differ from it: a kind left out was all there")


class RenewSerializer(serializers.Serializer):
    copy = serializers.CharField(help_text="the copy's barcode", **CODE)


class PlaceHoldSerializer(serializers.Serializer):
    record = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="the catalogue record's id")
    household = serializers.CharField(help_text="the member card's number", **CODE)


class PieceSerializer(serializers.Serializer):
    kind = serializers.CharField()
    count = serializers.IntegerField()


class CopyStateSerializer(serializers.Serializer):
    """A copy as the desk sees it; ``household`` (the borrower, or whom the copy is set aside
    for) only for desk staff and the household itself."""

    copy = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=[s.value for s in rules.Status])
    lent_on = serializers.DateField(allow_null=True)
    due_on = serializers.DateField(allow_null=True)
    renewals = serializers.IntegerField()
    missing = PieceSerializer(many=True)
    last_seq = serializers.IntegerField()
    household = serializers.CharField(allow_null=True, required=False, help_text="card number; desk staff only")


class ReturnAnswerSerializer(CopyStateSerializer):
    days_late = serializers.IntegerField()
    late_fee = serializers.DecimalField(max_digits=8, decimal_places=2)
    newly_missing = PieceSerializer(many=True)
    set_aside_for = serializers.CharField(allow_null=True, help_text="card number of the household told")


class HoldSerializer(serializers.ModelSerializer):
    household = serializers.CharField(source="household.card_number")
    copy = serializers.CharField(source="copy.barcode", allow_null=True, default=None)

    class Meta:
        model = Hold
        fields = ["id", "record", "household", "status", "placed_at", "copy", "ready_on"]
