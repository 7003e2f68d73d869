"""The agenda's API: thin views over ``agenda.services`` and ``agenda.selectors``. Refusals are
``AgendaError``s, answered by the API's one error handler with their status and reason."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Organisation
from accounts.roles import Action, can
from games.models import CatalogueRecord
from records.models import GameRecord
from records.selectors import can_append, visible_records

from . import rules, selectors, services
from .errors import UnknownRecord
from .models import Registration, Session
from .serializers import (
    CheckInSerializer, CountAnswerSerializer, CountSerializer, GameLinkAnswerSerializer, GameLinkSerializer,
    PlayAnswerSerializer, PlaySerializer, RegisterSerializer, RegistrationSerializer, SessionSerializer,
    SessionsQuerySerializer, StaffSessionSerializer,
)

LONGEST_RANGE = dt.timedelta(days=400)


class InvalidQuery(ValidationError):
    reason = "invalid_query"


def sees_whole_calendar(user: Any, organisation: Organisation) -> bool:
    """The staff who plan or count see every session (group visits, sessions off the public calendar)."""
    return can(user, Action.PLAN_SESSIONS, organisation) or can(user, Action.COUNT_AT_THE_DOOR, organisation)


def places_left(session: Session) -> int | None:
    if not session.registration or session.capacity is None:
        return None
    return max(0, session.capacity - int(getattr(session, "registered_places", 0) or 0))


def session_answer(session: Session) -> dict[str, Any]:
    answer = {field: getattr(session, field) for field in StaffSessionSerializer.Meta.fields
              if field not in ("name", "places_left")}
    return answer | {"name": session.name, "places_left": places_left(session)}


def check_counter(user: Any, session: Session) -> None:
    if not can(user, Action.COUNT_AT_THE_DOOR, session.organisation):
        raise PermissionDenied("only the organisation's staff count at its door")


class OrganisationSessionsView(APIView):
    """Anyone: the public sessions; the staff who plan or count: every one, with its figures."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("from", dt.date), OpenApiParameter("to", dt.date)],
                   responses={200: StaffSessionSerializer(many=True)},
                   summary="An organisation's sessions between two days (public ones to anyone)")
    def get(self, request: Request, pk: int) -> Response:
        organisation = get_object_or_404(Organisation, pk=pk)
        query = SessionsQuerySerializer(data=request.query_params)
        if not query.is_valid():
            raise InvalidQuery(query.errors)
        first = query.validated_data.get("from") or timezone.localdate()
        last = query.validated_data.get("to") or first + dt.timedelta(weeks=8)
        if last < first or last - first > LONGEST_RANGE:
            raise InvalidQuery({"to": [f"from 0 to {LONGEST_RANGE.days} days after from"]})
        staff = sees_whole_calendar(request.user, organisation)
        found: QuerySet[Session] = selectors.with_figures(selectors.sessions_between(
            organisation, services.local_datetime(first, dt.time.min),
            services.local_datetime(last + dt.timedelta(days=1), dt.time.min), public_only=not staff))
        answers = [session_answer(session) for session in found]
        serializer = StaffSessionSerializer if staff else SessionSerializer
        return Response(serializer(answers, many=True).data)


class SessionCountsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CountSerializer, responses={201: CountAnswerSerializer, 200: CountAnswerSerializer},
                   summary="Count at the door: one tap (201), or a tap already stored (200, nothing added)")
    def post(self, request: Request, pk: int) -> Response:
        data = CountSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = get_object_or_404(Session.objects.select_related("organisation"), pk=pk)
        check_counter(request.user, session)
        counted = services.count_at_the_door(session, request.user, **data.validated_data)
        answer = {"created": counted.created, "totals": counted.totals,
                  "persons": sum(counted.totals[public.value] for public in rules.PERSONS)}
        return Response(CountAnswerSerializer(answer).data,
                        status=status.HTTP_201_CREATED if counted.created else status.HTTP_200_OK)


class SessionPlaysView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PlaySerializer, responses={201: PlayAnswerSerializer, 200: PlayAnswerSerializer},
                   summary="Tally a game played on site (201), or a tap already stored (200)")
    def post(self, request: Request, pk: int) -> Response:
        data = PlaySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = get_object_or_404(Session.objects.select_related("organisation"), pk=pk)
        check_counter(request.user, session)
        record = data.validated_data.pop("record")
        if not CatalogueRecord.objects.filter(pk=record).exists():
            raise UnknownRecord(f"no catalogue record {record}", record=record)
        tallied = services.tally_play(session, request.user, record=record, **data.validated_data)
        return Response(PlayAnswerSerializer({"created": tallied.created, "record": record, "plays": tallied.plays}).data,
                        status=status.HTTP_201_CREATED if tallied.created else status.HTTP_200_OK)


class SessionRegistrationsView(APIView):
    """Anyone registers for a public event that takes registrations; the staff read the list."""

    permission_classes = [permissions.AllowAny]

    def _session(self, request: Request, pk: int) -> Session:
        session = get_object_or_404(Session.objects.select_related("organisation"), pk=pk)
        if not session.public and not sees_whole_calendar(request.user, session.organisation):
            raise Http404  # a session off the public calendar is none of theirs
        return session

    @extend_schema(request=RegisterSerializer, responses={201: RegistrationSerializer},
                   summary="Register for an event: places, or a place on the waiting list")
    def post(self, request: Request, pk: int) -> Response:
        session = self._session(request, pk)
        data = RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        registered = services.register(session, language=translation.get_language() or "", **data.validated_data)
        answer = {**RegistrationSerializer(registered.registration).data, "position": registered.position}
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: RegistrationSerializer(many=True)}, summary="An event's registrations (staff)")
    def get(self, request: Request, pk: int) -> Response:
        session = self._session(request, pk)
        if not can(request.user, Action.COUNT_AT_THE_DOOR, session.organisation):
            raise PermissionDenied("only the organisation's staff read who registered")
        figures = selectors.session_figures(session)
        answers = [{**RegistrationSerializer(entry).data, "position": None} for entry in figures.registrations]
        answers += [{**RegistrationSerializer(entry).data, "position": n}
                    for n, entry in enumerate(figures.waiting, start=1)]
        return Response(answers)


class CheckInView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CheckInSerializer, responses={200: RegistrationSerializer},
                   summary="Check a registration in (or undo it during the session)")
    def post(self, request: Request, pk: int) -> Response:
        registration = get_object_or_404(Registration.objects.select_related("session__organisation"), pk=pk)
        check_counter(request.user, registration.session)
        data = CheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        act = services.undo_check_in if data.validated_data["undo"] else services.check_in
        registration = act(registration, request.user)
        return Response({**RegistrationSerializer(registration).data, "position": None})


def may_link_game(user: Any, session: Session, record: GameRecord) -> bool:
    """Who says a game was played at a session: the staff who count at its door, or one of the
    game's keepers who records games for the organisation."""
    return can(user, Action.COUNT_AT_THE_DOOR, session.organisation) or (
        can(user, Action.RECORD_GAMES, session.organisation) and can_append(user, record))


class SessionGamesView(APIView):
    """A game record played at a session (POST), or not (DELETE)."""

    permission_classes = [permissions.IsAuthenticated]

    def _asked(self, request: Request, pk: int, data: Any) -> tuple[Session, GameRecord, str]:
        asked = GameLinkSerializer(data=data)
        asked.is_valid(raise_exception=True)
        session = get_object_or_404(Session.objects.select_related("organisation"), pk=pk)
        record = visible_records(request.user).filter(pk=asked.validated_data["record"]).first()
        if record is None:
            raise UnknownRecord(gettext("There is no such game record, or it is not yours to see."),
                                record=asked.validated_data["record"])
        if not may_link_game(request.user, session, record):
            raise PermissionDenied("only the organisation's staff or the game's keepers say where it was played")
        return session, record, asked.validated_data["reason"]

    @extend_schema(request=GameLinkSerializer, responses={201: GameLinkAnswerSerializer, 200: GameLinkAnswerSerializer},
                   summary="A game record played at this session (201; 200 when it was already); "
                           "one linked to another session moves")
    def post(self, request: Request, pk: int) -> Response:
        session, record, reason = self._asked(request, pk, request.data)
        linked = services.link_game(session, record, request.user, reason=reason)
        answer = {"created": linked.created, "session": session.pk, "record": record.pk,
                  "moved_from": linked.moved_from.pk if linked.moved_from is not None else None}
        return Response(GameLinkAnswerSerializer(answer).data,
                        status=status.HTTP_201_CREATED if linked.created else status.HTTP_200_OK)

    @extend_schema(request=GameLinkSerializer, responses={204: None},
                   summary="A game record not played at this session after all (the record from the body or ?record=)")
    def delete(self, request: Request, pk: int) -> Response:
        data = request.data if "record" in request.data else request.query_params
        session, record, reason = self._asked(request, pk, data)
        services.unlink_game(record, request.user, session=session, reason=reason)
        return Response(status=status.HTTP_204_NO_CONTENT)
