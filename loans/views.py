"""The loans desk's API: thin views over ``loans.services`` and ``loans.selectors``. Refusals are
``LoanError``s, answered by the API's one error handler with their status and reason."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import Action, can
from games.models import CatalogueRecord, Copy

from accounts.current import scope_of

from . import integrity, memberships, rules, selectors, services
from .errors import CopyTampered, InvalidFields, MayNotEditTariffs, UnknownRecord
from .models import Household, LoanRules, Tariff
from .serializers import (
    CopyStateSerializer, HoldSerializer, HouseholdEventSerializer, LendSerializer, MembershipSerializer,
    PaymentSerializer, PlaceHoldSerializer, RenewSerializer, ReturnAnswerSerializer, ReturnSerializer,
    TariffSerializer,
)


def check_desk(user: Any, *things: Copy | Household) -> None:
    """Refuse (403) unless ``user`` is at the desk of the game library that owns each of
    ``things``: a desk volunteer of one ludothèque lends none of another's copies."""
    for thing in things:
        if not can(user, Action.USE_DESK, thing.organisation):
            raise PermissionDenied("only the desk of the game library that owns it lends, takes back and renews it")


def copy_answer(copy: Copy, state: rules.CopyState, *, show_household: bool) -> dict[str, Any]:
    household = None
    if show_household and state.household is not None:
        household = Household.objects.values_list("card_number", flat=True).get(pk=state.household)
    return {
        "copy": copy.barcode, "title": copy.record.title, "status": state.status.value,
        "lent_on": state.lent_on, "due_on": state.due_on, "renewals": state.renewals,
        "missing": [{"kind": p.kind, "count": p.count} for p in state.missing], "last_seq": state.last_seq,
        "household": household,
    }


class LendView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=LendSerializer, responses={201: CopyStateSerializer}, summary="Lend a copy to a household")
    def post(self, request: Request) -> Response:
        data = LendSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        copy = selectors.copy_by_barcode(data.validated_data["copy"])
        household = selectors.household_by_card(data.validated_data["household"])
        check_desk(request.user, copy, household)
        state = services.lend(copy, household, request.user,
                              override_reason=data.validated_data.get("override_reason"))
        return Response(CopyStateSerializer(copy_answer(copy, state, show_household=True)).data,
                        status=status.HTTP_201_CREATED)


class ReturnView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReturnSerializer, responses={200: ReturnAnswerSerializer},
                   summary="Take a copy back, with the pieces counted where they differ from its checklist")
    def post(self, request: Request) -> Response:
        data = ReturnSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        copy = selectors.copy_by_barcode(data.validated_data["copy"])
        check_desk(request.user, copy)
        result = services.return_copy(copy, request.user, data.validated_data.get("counted"))
        answer = copy_answer(copy, result.state, show_household=True) | {
            "days_late": result.days_late, "late_fee": result.late_fee,
            "newly_missing": [{"kind": p.kind, "count": p.count} for p in result.newly_missing],
            "set_aside_for": result.set_aside_for.card_number if result.set_aside_for else None,
        }
        return Response(ReturnAnswerSerializer(answer).data)


class RenewView(APIView):
    """Desk staff renew any loan; a signed-in member their own household's (anyone else: 404)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RenewSerializer, responses={200: CopyStateSerializer}, summary="Renew a loan")
    def post(self, request: Request) -> Response:
        data = RenewSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        copy = selectors.copy_by_barcode(data.validated_data["copy"])
        if not can(request.user, Action.USE_DESK, copy.organisation):
            own = selectors.household_of(request.user)
            if own is None or selectors.copy_state(copy).household != own.pk:
                # Another household's loan is no loan they may name.
                raise Http404
        state = services.renew(copy, request.user)
        return Response(CopyStateSerializer(copy_answer(copy, state, show_household=True)).data)


class HoldsView(APIView):
    """Desk staff place a hold for any household; a signed-in member for their own."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PlaceHoldSerializer, responses={201: HoldSerializer}, summary="Reserve a game")
    def post(self, request: Request) -> Response:
        data = PlaceHoldSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        household = selectors.household_by_card(data.validated_data["household"])
        if not selectors.may_see_household(request.user, household):
            # A household that is not theirs is no household they may name.
            raise Http404
        record = CatalogueRecord.objects.filter(pk=data.validated_data["record"]).first()
        if record is None:
            raise UnknownRecord(f"no catalogue record {data.validated_data['record']}",
                                record=data.validated_data["record"])
        hold = services.place_hold(record, household, request.user)
        return Response(HoldSerializer(hold).data, status=status.HTTP_201_CREATED)


class CopyView(APIView):
    """A copy's state for anyone (the OPAC's availability); who has it, for desk staff only."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: CopyStateSerializer}, summary="A copy's loan state, by barcode")
    def get(self, request: Request, barcode: str) -> Response:
        copy = selectors.copy_by_barcode(barcode)
        desk = can(request.user, Action.USE_DESK, copy.organisation)
        problems = integrity.known_tampering(copy.pk)
        if problems is not None:
            # What was found is the desk's to read; anyone else learns only that it cannot be trusted.
            raise CopyTampered.of(copy, problems if desk else [])
        state = selectors.copy_state(copy)
        return Response(CopyStateSerializer(copy_answer(copy, state, show_household=desk)).data)


class HouseholdLoansView(APIView):
    """A household's current loans: desk staff, or the household's own members (anyone else: 404)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: CopyStateSerializer(many=True)}, summary="A household's current loans")
    def get(self, request: Request, card_number: str) -> Response:
        household = Household.objects.filter(card_number=card_number).first()
        if household is None or not selectors.may_see_household(request.user, household):
            raise Http404
        answers = [copy_answer(row.copy, row.as_rule_state(), show_household=True)
                   for row in selectors.current_loans(household)]
        return Response(CopyStateSerializer(answers, many=True).data)


def _household_for_desk(user: Any, card_number: str) -> Household:
    """The household of ``card_number`` for its library's desk (anyone else: 404, as for its loans)."""
    household = Household.objects.select_related("organisation").filter(card_number=card_number).first()
    if household is None or not can(user, Action.USE_DESK, household.organisation):
        raise Http404
    return household


def membership_answer(household: Household) -> dict[str, Any]:
    today = timezone.localdate()
    standing = rules.standing_refusals(selectors.household_standing(household, today), today,
                                       LoanRules.current(household.organisation_id))
    return {"household": household.card_number, "membership_starts": household.membership_starts,
            "membership_ends": household.membership_ends, "fee_paid": household.fee_paid,
            "deposit_held": household.deposit_held, "late_fees_owed": selectors.late_fees_owed(household),
            "refusals": [refusal.reason for refusal in standing], "events": selectors.household_events(household)}


class HouseholdMembershipView(APIView):
    """A household's membership, deposit, late fees owed and history, for its library's desk; and
    the desk's payments to it (each a household event: ``loans.memberships``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MembershipSerializer}, summary="A household's membership, money and history")
    def get(self, request: Request, card_number: str) -> Response:
        household = _household_for_desk(request.user, card_number)
        return Response(MembershipSerializer(membership_answer(household)).data)

    @extend_schema(request=PaymentSerializer, responses={201: HouseholdEventSerializer},
                   summary="Take a payment: a membership, a deposit, a late fee; give a deposit back, waive a fee")
    def post(self, request: Request, card_number: str) -> Response:
        household = _household_for_desk(request.user, card_number)
        data = PaymentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        kind, by, day = given["type"], request.user, given.get("happened_on")
        needs = {"membership_paid": ["tariff", "method"], "deposit_taken": ["amount", "method"],
                 "deposit_returned": ["amount"], "late_fee_paid": ["amount", "method"],
                 "late_fee_waived": ["amount", "reason"], "membership_cancelled": ["reason"]}[kind]
        missing = [name for name in needs if name not in given]
        if missing:
            raise InvalidFields("invalid_payment", f"{kind} needs {', '.join(missing)}",
                                {name: ["This field is required."] for name in missing})
        if kind == "membership_paid":
            tariff = Tariff.objects.filter(pk=given["tariff"], organisation=household.organisation_id).first()
            if tariff is None:
                raise InvalidFields("invalid_payment", "no such tariff at the household's library",
                                    {"tariff": ["No such tariff at the household's library."]})
            event = memberships.take_membership(by, household, tariff, method=given["method"],
                                                amount=given.get("amount"), starts=given.get("starts"),
                                                ends=given.get("ends"), persons=given.get("persons"), happened_on=day)
        elif kind == "membership_cancelled":
            event = memberships.cancel_membership(by, household, reason=given["reason"], happened_on=day)
        elif kind == "deposit_taken":
            event = memberships.take_deposit(by, household, amount=given["amount"], method=given["method"],
                                             happened_on=day)
        elif kind == "deposit_returned":
            event = memberships.return_deposit(by, household, amount=given["amount"], happened_on=day)
        elif kind == "late_fee_paid":
            event = memberships.pay_late_fee(by, household, amount=given["amount"], method=given["method"],
                                             happened_on=day)
        else:
            event = memberships.waive_late_fee(by, household, amount=given["amount"], reason=given["reason"],
                                               happened_on=day)
        return Response(HouseholdEventSerializer(event).data, status=status.HTTP_201_CREATED)


class TariffsView(APIView):
    """The tariffs of the library (the current one, or ``?organisation=<slug>``), for its librarians."""

    permission_classes = [permissions.IsAuthenticated]

    def _library(self, request: Request) -> Any:
        organisation, _shown = scope_of(request._request)
        if organisation is None or not can(request.user, Action.EDIT_TARIFFS, organisation):
            raise MayNotEditTariffs("only librarians keep the tariffs")
        return organisation

    @extend_schema(responses={200: TariffSerializer(many=True)}, summary="The library's tariffs")
    def get(self, request: Request) -> Response:
        tariffs = Tariff.objects.filter(organisation=self._library(request)).order_by("-active", "name", "pk")
        return Response(TariffSerializer(tariffs, many=True).data)

    @extend_schema(request=TariffSerializer, responses={201: TariffSerializer}, summary="Add a tariff")
    def post(self, request: Request) -> Response:
        library = self._library(request)
        data = TariffSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tariff = memberships.add_tariff(request.user, library, **data.validated_data)
        return Response(TariffSerializer(tariff).data, status=status.HTTP_201_CREATED)


class TariffView(APIView):
    """One tariff: changed (``active: false`` retires it), or deleted while no membership was paid
    under it (else 409 ``tariff_in_use``)."""

    permission_classes = [permissions.IsAuthenticated]

    def _tariff(self, request: Request, pk: int) -> Tariff:
        tariff = Tariff.objects.select_related("organisation").filter(pk=pk).first()
        if tariff is None or not can(request.user, Action.EDIT_TARIFFS, tariff.organisation):
            raise Http404
        return tariff

    @extend_schema(request=TariffSerializer, responses={200: TariffSerializer}, summary="Change or retire a tariff")
    def patch(self, request: Request, pk: int) -> Response:
        tariff = self._tariff(request, pk)
        data = TariffSerializer(tariff, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        return Response(TariffSerializer(memberships.edit_tariff(request.user, tariff, **data.validated_data)).data)

    @extend_schema(responses={204: None}, summary="Delete a tariff no membership was paid under")
    def delete(self, request: Request, pk: int) -> Response:
        memberships.delete_tariff(request.user, self._tariff(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)
