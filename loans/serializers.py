from __future__ import annotations

from decimal import Decimal

from rest_framework import serializers

from . import rules
from .models import Hold, HouseholdEvent, PaymentMethod, Tariff

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


class PaymentSerializer(serializers.Serializer):
    """One of the desk's payments (or a deposit given back, a late fee waived, a membership
    cancelled): what each type needs is said beside it; the rest is left out."""

    type = serializers.ChoiceField(choices=["membership_paid", "membership_cancelled", "deposit_taken",
                                            "deposit_returned", "late_fee_paid", "late_fee_waived"])
    tariff = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1,
                                      help_text="membership_paid: the tariff's id")
    amount = serializers.DecimalField(required=False, max_digits=8, decimal_places=2, min_value=Decimal("0"),
                                      help_text="membership_paid (default: the tariff's), deposits and late fees")
    method = serializers.ChoiceField(required=False, choices=PaymentMethod.values,
                                     help_text="how it was paid: membership_paid, deposit_taken, late_fee_paid")
    starts = serializers.DateField(required=False, help_text="membership_paid (default: today or the day after "
                                                            "the paid membership running ends)")
    ends = serializers.DateField(required=False, help_text="membership_paid (default: for the tariff's months)")
    persons = serializers.IntegerField(required=False, min_value=1, max_value=100,
                                       help_text="membership_paid per person (default: the household's members)")
    happened_on = serializers.DateField(required=False, help_text="the day it happened (default: today)")
    reason = serializers.CharField(required=False, max_length=500, help_text="late_fee_waived, membership_cancelled")


class HouseholdEventSerializer(serializers.ModelSerializer):
    recorded_by = serializers.CharField(source="recorded_by.username", allow_null=True, default=None)

    class Meta:
        model = HouseholdEvent
        fields = ["seq", "type", "payload", "amount", "tariff", "happened_on", "recorded_by", "recorded_at"]


class MembershipSerializer(serializers.Serializer):
    household = serializers.CharField(help_text="card number")
    membership_starts = serializers.DateField(allow_null=True)
    membership_ends = serializers.DateField(allow_null=True)
    fee_paid = serializers.BooleanField()
    deposit_held = serializers.DecimalField(max_digits=8, decimal_places=2)
    late_fees_owed = serializers.DecimalField(max_digits=8, decimal_places=2)
    refusals = serializers.ListField(child=serializers.CharField(), help_text="why it may not borrow today")
    events = HouseholdEventSerializer(many=True, help_text="its membership and money history, newest first")


class TariffSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tariff
        fields = ["id", "name", "kind", "per", "amount", "months", "deposit", "active"]
