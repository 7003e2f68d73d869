from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.db.models import Max
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, AuthenticationFailed, ValidationError
from rest_framework.fields import DateTimeField
from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from accounts.current import current_organisation, scope_of
from accounts.roles import Action, can
from accounts.scoping import in_organisation
from games.registry import PayloadError

from . import files, integrity, replay, selectors, services, state_cache
from .errors import RecordTampered
from .models import Event, GameRecord
from .permissions import RecordAccess, token_key
from .selectors import AppendTarget
from .serializers import (
    EVENT_TYPE, MAX_EXPECTED_SEQ, MAX_IDEMPOTENCY_KEY, AppendEventSerializer, GameRecordSerializer,
    HistoryLineSerializer,
)


class EventPages(api_settings.DEFAULT_PAGINATION_CLASS):
    """A record's events, 100 a page: a long record's history is read a page at a time (the
    API's pages, whose numbers and sizes are checked as every list's are)."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000


EVENT_NUMBER = re.compile(r"-?[0-9]{1,10}")
"""An ``at`` parameter: ASCII digits only (``str.isdigit`` also takes "²")."""


class GameRecordViewSet(
    mixins.CreateModelMixin, mixins.RetrieveModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet
):
    serializer_class = GameRecordSerializer
    permission_classes = [IsAuthenticatedOrReadOnly, RecordAccess]
    lookup_value_regex = "[0-9]+"  # anything else is no record: a 404, never a failed int()
    queryset = GameRecord.objects.none()  # the model, for the filters and the schema: get_queryset has the rows
    filterset_fields = ["game_slug", "status", "played_on", "catalogue_record"]
    error_answers = {"409": "On a record's reads: `record_tampered`, the record failed its integrity check."}

    READ_WITH_TOKEN = ("append_event", "state")
    """Actions whose record is read in the query that authenticates an API token: the token's
    user, the record, its last seq and the user's access, in one query
    (``records.selectors.append_target_with_token``)."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Before DRF authenticates: an append or a state read presented with an API token reads
        the token's user with the record it is about; the request then has its user, and DRF's
        authentication has nothing left to read."""
        self.token_read, self.target = False, None
        if self.action in self.READ_WITH_TOKEN and "pk" in kwargs:
            key = token_key(request)
            if key is not None:
                found = selectors.append_target_with_token(kwargs["pk"], key, catch_up_from=self.cached_seq())
                if found is None:
                    raise AuthenticationFailed(_("Invalid token."))
                user, self.target = found
                if not user.is_active:
                    raise AuthenticationFailed(_("User inactive or deleted."))
                request.user, request.auth, self.token_read = user, key, True
        super().initial(request, *args, **kwargs)

    def cached_seq(self) -> int | None:
        """For an append, where this process's cached state of the record stands: the record's
        read then brings the events after it."""
        if getattr(self, "action", None) != "append_event":
            return None
        return state_cache.cached_seq(int(self.kwargs["pk"]))

    def append_target(self) -> AppendTarget:
        """The record an append or a state read is about, as the token's query read it, else
        read now with the session's user; :class:`Http404` when there is none or the user may not
        read it."""
        if self.token_read:
            target = self.target
        else:
            target = selectors.append_target(self.kwargs["pk"], self.request.user, catch_up_from=self.cached_seq())
        if target is None or not target.may_read:
            raise Http404
        return target

    def get_object(self) -> GameRecord:
        # One record by key: a record the user may not read is simply not found.
        record = selectors.readable_record(self.request.user, self.kwargs["pk"])
        self.check_object_permissions(self.request, record)
        integrity.refuse_tampered(record.pk)
        return record

    def handle_exception(self, exc: Exception) -> Response:
        # A record whose events or header were changed behind the application's back may fail
        # to replay in any way: verified now, it answers 409 record_tampered rather than a 500.
        if self._may_be_tampered(exc):
            problems = integrity.tampering_found_now(int(self.kwargs["pk"]))
            if problems:
                exc = RecordTampered.of(int(self.kwargs["pk"]), problems)
        return super().handle_exception(exc)

    def _may_be_tampered(self, exc: Exception) -> bool:
        """An error replaying a record the user may read: one no request should meet, or an
        engine's refusal of what a read replays. Not a refusal the request earns itself (a bad
        step or payload, an illegal action appended), nor the database's own trouble."""
        if "pk" not in getattr(self, "kwargs", {}) or isinstance(
                exc, (APIException, Http404, PermissionDenied, RecordTampered, DatabaseError)):
            return False
        if hasattr(exc, "status_code") or (getattr(exc, "reason", None) and self.request.method not in SAFE_METHODS):
            return False
        try:
            selectors.readable_record(self.request.user, self.kwargs["pk"])
        except Exception:  # not found, hidden, or the database is the trouble: the error stands
            return False
        return True

    def get_queryset(self):
        records = (GameRecord.objects.annotate(last_seq=Max("events__seq")).prefetch_related("seats__player")
                   .order_by("-played_on", "-id"))  # the aggregate's GROUP BY drops the model's ordering
        records = selectors.only_visible(records, self.request.user)
        if self.action == "list":  # the organisation's games; a game itself is found by its id
            organisation, shown = scope_of(self.request)
            return in_organisation(records, organisation) if shown else records.none()
        return records

    @extend_schema(parameters=[OpenApiParameter(
        "organisation", str, required=False,
        description="The short name of the organisation whose games to list (by default the caller's current one).")])
    def list(self, request: Request, *args, **kwargs) -> Response:
        return super().list(request, *args, **kwargs)

    def perform_create(self, serializer: GameRecordSerializer) -> None:
        data = dict(serializer.validated_data)
        seats = [
            services.SeatSpec(player_name=seat["player"]["display_name"], colour=seat.get("colour", ""))
            for seat in data.pop("seats")
        ]
        # The organisation's game when the caller records its games (a member): nobody's otherwise.
        organisation = current_organisation(self.request)
        if not can(self.request.user, Action.RECORD_GAMES, organisation):
            organisation = None
        serializer.instance = services.start_game(seats=seats, created_by=self.request.user, organisation=organisation,
                                                  **data)

    @extend_schema(responses=HistoryLineSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="events", pagination_class=EventPages, filter_backends=[])
    def events(self, request: Request, pk: str | None = None) -> Response:
        """The record's events in order, a page at a time (``?page=N``, ``?page_size=`` up to 1,000)."""
        record = self.get_object()
        page = self.paginate_queryset(selectors.events(record))
        assert page is not None
        return self.get_paginated_response(HistoryLineSerializer(replay.history_page(record, page), many=True).data)

    @extend_schema(
        parameters=[OpenApiParameter("at", OpenApiTypes.INT, description="position after event N (default: last)")],
        responses=OpenApiTypes.OBJECT,
    )
    @action(detail=True, methods=["get"], url_path="state")
    def state(self, request: Request, pk: str | None = None) -> Response:
        at = request.query_params.get("at")
        if self.token_read:
            # The token's query brought the record and its last seq: the position is one more query away.
            target = self.append_target()
            record, last = target.record, target.last_seq
            integrity.refuse_tampered(record.pk)
        else:
            record, last = self.get_object(), None
        if at is not None and not EVENT_NUMBER.fullmatch(at):
            raise ValidationError({"at": ["at must be an event number (an integer)"]})
        return Response(services.position(record, None if at is None else int(at), last=last))

    @extend_schema(
        parameters=[
            OpenApiParameter("tile", OpenApiTypes.STR,
                             description="tile games without a seed: the tile drawn at the table, to learn where "
                                         "it fits"),
            OpenApiParameter("island", OpenApiTypes.STR, enum=["violet", "light_blue", "orange"],
                             description="Carcassonne Maps: where the face-up tile of this island fits (with stack)"),
            OpenApiParameter("stack", OpenApiTypes.INT, enum=[1, 2], description="Carcassonne Maps: the island's stack"),
        ],
        responses=OpenApiTypes.OBJECT,
        description="What may be recorded next, as the rules engine allows it: for tile games the tile in "
        "hand or the pile to pick it from, each cell where it fits with its legal rotations and the figures "
        "each rotation may carry, and whether it may be discarded (and, with a pile, `fits_nowhere`: the tiles of "
        "it that would be discarded if drawn now); for Stone Age the places open with their "
        "counts, the places to resolve with the dice, tools and payments each asks for, the feeding and the "
        "reveals. 400 (`invalid_payload`, field `tile`) for a tile that cannot be in hand now.",
    )
    # Not named "options": that is the view's handler of the HTTP OPTIONS method.
    @action(detail=True, methods=["get"], url_path="options", url_name="options")
    def recording_options(self, request: Request, pk: str | None = None) -> Response:
        record = self.get_object()
        island = {}
        if request.query_params.get("island"):
            stack = request.query_params.get("stack", "")
            if request.query_params["island"] not in ("violet", "light_blue", "orange") or stack not in ("1", "2"):
                raise PayloadError("island", "island: violet, light_blue or orange, with stack 1 or 2")
            island = {"island": request.query_params["island"], "stack": int(stack)}
        return Response(services.recording_options(record, request.query_params.get("tile") or None, **island))

    @extend_schema(responses=OpenApiTypes.OBJECT, description="The record as a ludolog-record/1 file.")
    @action(detail=True, methods=["get"], url_path="export")
    def export(self, request: Request, pk: str | None = None) -> Response:
        return Response(files.export_document(self.get_object()))

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={201: GameRecordSerializer},
        description="Import a ludolog-record/1 file; every event is validated by the rules engine; "
        "on the first bad event nothing is stored and the answer names the event number.",
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_file(self, request: Request) -> Response:
        record = files.import_document(request.data, imported_by=request.user)
        record = self.get_queryset().get(pk=record.pk)
        return Response(GameRecordSerializer(record).data, status=status.HTTP_201_CREATED)

    @events.mapping.post
    @extend_schema(request=AppendEventSerializer, responses={201: HistoryLineSerializer})
    def append_event(self, request: Request, pk: str | None = None) -> Response:
        # One query: the record, its last seq (the concurrency check, and the check that this
        # process's cached state of the record is current) and whether this user may append.
        target = self.append_target()
        if not target.may_append:
            self.permission_denied(request, message=RecordAccess.message)
        data = plain_append_body(request.data)
        if data is None:  # anything unusual: the serializer decides, and names the error
            body = AppendEventSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            data = body.validated_data
        event = services.append_event(target, data["expected_seq"], data["type"], data["payload"],
                                      recorded_by=request.user, idempotency_key=data.get("idempotency_key"))
        return Response(history_line(event, services.notation(target.record, event)), status=status.HTTP_201_CREATED)


APPEND_TYPE = re.compile(EVENT_TYPE)
_RECORDED_AT = DateTimeField()


def plain_append_body(data: Any) -> dict[str, Any] | None:
    """The append's body as :class:`AppendEventSerializer` would validate it, when it is plainly
    valid (the usual case: no serializer built per request); ``None`` for anything else, which
    the serializer then judges (and names the error of) as before."""
    if type(data) is not dict or not data.keys() <= {"expected_seq", "type", "payload", "idempotency_key"}:
        return None
    seq, kind, payload = data.get("expected_seq"), data.get("type"), data.get("payload", {})
    key = data.get("idempotency_key")
    if type(seq) is not int or not 0 <= seq <= MAX_EXPECTED_SEQ:
        return None
    if type(kind) is not str or not APPEND_TYPE.fullmatch(kind) or type(payload) is not dict:
        return None
    # A key the serializer would trim, refuse or find a NUL or surrogate in is left to it.
    if key is not None and (type(key) is not str or not 0 < len(key) <= MAX_IDEMPOTENCY_KEY or key != key.strip()
                            or not (key.isascii() and key.isprintable())):
        return None
    body = {"expected_seq": seq, "type": kind, "payload": payload}
    if "idempotency_key" in data:
        body["idempotency_key"] = key
    return body


def history_line(event: Event, notation: str) -> dict[str, Any]:
    """:class:`HistoryLineSerializer`'s answer for a new event (nothing retracts it yet)."""
    return {
        "seq": event.seq,
        "type": event.type,
        "payload": event.payload,
        "notation": notation,
        "recorded_by": None if event.recorded_by is None else event.recorded_by.username,
        "recorded_at": _RECORDED_AT.to_representation(event.recorded_at),
        "idempotency_key": event.idempotency_key,
        "retracted_by": None,
    }
