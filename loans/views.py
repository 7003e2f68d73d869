"""The loans desk's API: thin views over ``loans.services`` and ``loans.selectors``. Refusals are
``LoanError``s, answered by the API's one error handler with their status and reason."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import Action, can
from games.models import CatalogueRecord, Copy

from . import integrity, rules, selectors, services
from .errors import CopyTampered, UnknownRecord
from .models import Household
from .serializers import (
    CopyStateSerializer, HoldSerializer, LendSerializer, PlaceHoldSerializer, RenewSerializer,
    ReturnAnswerSerializer, ReturnSerializer,
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
