"""The scoring API: read-only projections, plus a staff-only recompute request."""

from __future__ import annotations

from collections.abc import Callable

import django_filters
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.generics import ListAPIView
from rest_framework.views import APIView
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.current import scope_of
from accounts.permissions import Operates
from accounts.scoping import in_organisation
from records.models import Player
from records.selectors import readable_record

from records.serializers import GameRecordSerializer

from . import recompute, rulings, selectors, tasks
from .models import Club, GameStatistics, League, PlayerStatistics, Rating, RatingChange, RecomputeRun
from .serializers import (
    ClubSerializer, GameStatisticsSerializer, LeagueRulingRequestSerializer, LeagueRulingSerializer,
    LeagueSerializer, PlayerStatisticsSerializer,
    RatingChangeSerializer, RatingSerializer, RecordImpactSerializer, RecomputeRequestSerializer, RecomputeRunSerializer,
    SeatResultSerializer, StandingSerializer,
)


class ReasonedNotFound:
    """Answer a missing object with DRF's ``NotFound``, whose ``reason`` is ``not_found``."""

    def get_object(self):
        try:
            return super().get_object()
        except Http404:
            raise NotFound() from None


class RecordResultsView(ListAPIView):
    """Each seat's final score, rank and points by source, as the replay computed them."""

    serializer_class = SeatResultSerializer
    pagination_class = None
    filter_backends: list = []

    def get_queryset(self):
        # A private record answers as a missing one (``readable_record``): the same 404, the same words.
        return selectors.record_results(readable_record(self.request.user, self.kwargs["record_id"]))


class RecordImpactView(APIView):
    """What each correction of the record's result, and each move of the record to other rules,
    moved, before → after: ratings and their places, league standings (players the reader may not
    see left out). A correction's entry has its ``seq``; a ruleset move's its ``ruleset_move`` id."""

    @extend_schema(responses={200: RecordImpactSerializer(many=True)})
    def get(self, request: Request, record_id: int) -> Response:
        record = readable_record(request.user, record_id)
        corrections = [{"seq": impact.seq, "computed_at": impact.computed_at, "changes": changes}
                       for impact, changes in selectors.record_impacts(record, request.user)]
        moves = [{"ruleset_move": entry.move_id, "from_version": entry.move.from_version,
                  "to_version": entry.move.to_version, "computed_at": entry.computed_at, "changes": changes}
                 for entry, changes in selectors.ruleset_move_impacts(record, request.user)]
        return Response(RecordImpactSerializer(corrections + moves, many=True).data)


class ClubViewSet(ReasonedNotFound, viewsets.ReadOnlyModelViewSet):
    serializer_class = ClubSerializer
    queryset = Club.objects.all()
    filterset_fields = ["name"]


ORGANISATION_PARAMETER = OpenApiParameter(
    "organisation", str, required=False,
    description="The short name of the organisation whose things to list (by default the caller's current one: "
                "their choice, their first organisation, or the installation's only one).")


class LeagueViewSet(ReasonedNotFound, viewsets.ReadOnlyModelViewSet):
    serializer_class = LeagueSerializer
    queryset = League.objects.none()  # the model, for the filters and the schema: get_queryset has the rows
    filterset_fields = ["club"]

    def get_queryset(self):
        leagues = selectors.leagues().prefetch_related("members")
        if self.action == "list":  # the organisation's leagues; a league itself is found by its id
            organisation, shown = scope_of(self.request)
            return in_organisation(leagues, organisation) if shown else leagues.none()
        return leagues

    @extend_schema(parameters=[ORGANISATION_PARAMETER])
    def list(self, request: Request, *args, **kwargs) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(responses=StandingSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The table of the league's games the reader may see (see ``scoring.selectors``)."""
        league = self.get_object()
        page = self.paginate_queryset(selectors.league_standings(request.user, league))
        return self.get_paginated_response(StandingSerializer(page, many=True).data)

    @extend_schema(responses=LeagueRulingSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], url_path="rulings")
    def rulings(self, request: Request, pk: str | None = None) -> Response:
        """The organisers' rulings on the league's games, oldest first (the latest on a game
        stands), on the games the reader may see, each with what it moved (``impact``)."""
        league = self.get_object()
        page = self.paginate_queryset(selectors.league_rulings(request.user, league))
        return self.get_paginated_response(LeagueRulingSerializer(page, many=True, context={"request": request}).data)

    @rulings.mapping.post
    @extend_schema(
        request=LeagueRulingRequestSerializer, responses={201: LeagueRulingSerializer},
        description="An organiser (or staff) approves a friendly game for the league (`counts`: true) or "
        "rules a game out (false), with a reason; the standings and ratings follow. 403 `not_an_organiser`; "
        "404 for a record the organiser may not see; 422 `not_a_league_game` for a game that does not fit "
        "the league (its games, dates, members).",
    )
    def rule(self, request: Request, pk: str | None = None) -> Response:
        league = self.get_object()
        body = LeagueRulingRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        # A private record answers as a missing one (``readable_record``): the same 404, the same words.
        record = readable_record(request.user, body.validated_data["record"])
        ruling = rulings.rule(league, record, counts=body.validated_data["counts"],
                              reason=body.validated_data["reason"], by=request.user)
        return Response(LeagueRulingSerializer(ruling, context={"request": request}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(responses=GameRecordSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], url_path="awaiting-approval")
    def awaiting_approval(self, request: Request, pk: str | None = None) -> Response:
        """The friendly games that fit the league, recorded by someone it does not trust, that no
        organiser has ruled on yet (the ones the reader may see), newest first."""
        league = self.get_object()
        page = self.paginate_queryset(selectors.awaiting_approval(request.user, league).prefetch_related("seats__player"))
        return self.get_paginated_response(GameRecordSerializer(page, many=True).data)


def players_seen(request: Request | None):
    """The players a filter may name: those the reader may see. A hidden player is answered as a
    missing one is (an empty list, ``ludolog.api_queries``)."""
    return Player.objects.none() if request is None else selectors.visible_players(request.user)


class PlayerStatisticsFilter(django_filters.FilterSet):
    player = django_filters.ModelChoiceFilter(queryset=players_seen)
    game_slug = django_filters.CharFilter()

    class Meta:
        model = PlayerStatistics
        fields = ["player", "game_slug"]


class SeenByReader:
    """A projection's rows for the reader (``rows(user)``), filtered and paged in the database;
    then each page's figures as the reader may see them (``seen_by(user, page)``)."""

    rows: Callable
    seen_by: Callable

    def get_queryset(self):
        return self.rows(self.request.user)

    def list(self, request: Request, *args, **kwargs) -> Response:
        page = self.seen_by(request.user, self.paginate_queryset(self.filter_queryset(self.get_queryset())))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


class OfAnOrganisation(SeenByReader):
    """Figures over the games of the organisation the request names or is about (the whole
    installation's where it has none), read as :class:`SeenByReader` reads them."""

    def get_queryset(self):
        organisation, shown = scope_of(self.request)
        rows = self.rows(self.request.user, organisation)
        return rows if shown else rows.none()

    @extend_schema(parameters=[ORGANISATION_PARAMETER])
    def list(self, request: Request, *args, **kwargs) -> Response:
        organisation, _shown = scope_of(request)
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        page = self.seen_by(request.user, page, organisation)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


class PlayerStatisticsView(OfAnOrganisation, ListAPIView):
    """Per player and game (``game_slug`` empty: over every game), over the games the reader may see."""

    queryset = PlayerStatistics.objects.none()  # the model, for the filters and the schema
    serializer_class = PlayerStatisticsSerializer
    filterset_class = PlayerStatisticsFilter
    rows = staticmethod(selectors.player_statistics)
    seen_by = staticmethod(selectors.player_statistics_seen_by)


class GameStatisticsView(OfAnOrganisation, ListAPIView):
    """Per game, over the games the reader may see."""

    queryset = GameStatistics.objects.none()  # the model, for the filters and the schema
    serializer_class = GameStatisticsSerializer
    filterset_fields = ["game_slug"]
    rows = staticmethod(selectors.game_statistics)
    seen_by = staticmethod(selectors.game_statistics_seen_by)


class RatingScopeFilter(django_filters.FilterSet):
    player = django_filters.ModelChoiceFilter(queryset=players_seen)
    club = django_filters.ModelChoiceFilter(queryset=Club.objects.all())
    overall = django_filters.ChoiceFilter(
        choices=[("true", "true"), ("false", "false")], method="filter_overall",
        label="true: the overall ratings only; false: the clubs' only",
    )
    game_slug = django_filters.CharFilter()

    def filter_overall(self, queryset, name, value):
        return queryset.filter(club__isnull=value == "true")


class RatingFilter(RatingScopeFilter):
    class Meta:
        model = Rating
        fields = ["player", "club", "overall", "game_slug"]


class RatingChangeFilter(RatingScopeFilter):
    since = django_filters.DateFilter(field_name="played_on", lookup_expr="gte")

    class Meta:
        model = RatingChange
        fields = ["player", "club", "overall", "game_slug", "record", "since"]


class RatingListView(ListAPIView):
    """Current ratings, best first within each game and scope, from the games the reader may see."""

    queryset = Rating.objects.none()  # the model, for the filters and the schema
    serializer_class = RatingSerializer
    filterset_class = RatingFilter

    def get_queryset(self):
        return _in_its_club(self.request, selectors.ratings(self.request.user))

    @extend_schema(parameters=[ORGANISATION_PARAMETER])
    def list(self, request: Request, *args, **kwargs) -> Response:
        # Ordered by the figures: the whole list as the reader sees them first, then the page.
        rows = selectors.ratings_seen_by(request.user, self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(self.get_serializer(self.paginate_queryset(rows), many=True).data)


class RatingHistoryView(SeenByReader, ListAPIView):
    """How each game the reader may see moved each player's rating, in playing order."""

    queryset = RatingChange.objects.none()  # the model, for the filters and the schema
    serializer_class = RatingChangeSerializer
    filterset_class = RatingChangeFilter
    rows = staticmethod(selectors.rating_history)
    seen_by = staticmethod(selectors.rating_history_seen_by)

    def get_queryset(self):
        return _in_its_club(self.request, super().get_queryset())

    @extend_schema(parameters=[ORGANISATION_PARAMETER])
    def list(self, request: Request, *args, **kwargs) -> Response:
        return super().list(request, *args, **kwargs)


def _in_its_club(request: Request, rows: QuerySet) -> QuerySet:
    """Ratings of the organisation the request is about: its club's (the overall ones mix every
    club's games); every rating where the installation has no organisation; none otherwise."""
    organisation, shown = scope_of(request)
    if not shown:
        return rows.none()
    if organisation is None:
        return rows
    club = Club.objects.filter(organisation=organisation).first()
    return rows.filter(club=club) if club is not None else rows.none()


class RecomputeViewSet(ReasonedNotFound, mixins.CreateModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The operator only: recompute final scores (and everything built on them) on the workers."""

    serializer_class = RecomputeRunSerializer
    permission_classes = [Operates]
    queryset = selectors.recompute_runs()
    filter_backends: list = []

    def get_object(self) -> RecomputeRun:
        # A run whose workers died says so when read (stalled), rather than "running" forever.
        recompute.mark_stalled()
        return super().get_object()

    @extend_schema(request=RecomputeRequestSerializer, responses={202: RecomputeRunSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        body = RecomputeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        league = body.validated_data.get("league")
        run = recompute.start(
            game=body.validated_data.get("game"), league_id=league.pk if league else None,
            since=body.validated_data.get("since"), requested_by=request.user.get_username(),
        )
        tasks.dispatch_recompute(run)
        run.refresh_from_db()
        return Response(RecomputeRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={202: RecomputeRunSerializer})
    @action(detail=True, methods=["post"])
    def resume(self, request: Request, pk: str | None = None) -> Response:
        """Queue again what a failed or stalled run had not done (409 ``not_resumable`` otherwise)."""
        run = tasks.resume_recompute(self.get_object().pk)
        run.refresh_from_db()
        return Response(RecomputeRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)
