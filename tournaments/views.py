"""The tournaments' API: thin views over ``tournaments.services`` and ``tournaments.selectors``.

Seen by those who see the organisation's tournaments on the pages
(:func:`selectors.sees_tournaments`): 401 anonymous; an organisation's list to others 403
``tournaments_hidden``; a tournament of an organisation one does not see is not found (404), as
on the pages. The services' refusals (``TournamentError``) are answered by the API's one error
handler: their status, ``reason`` and message in the request's language."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import authentication, generics, permissions, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Organisation

from . import selectors, services
from .models import Round, TableRecording, TableResult, Tournament
from .serializers import (
    ResultRequestSerializer, RoundSerializer, StandingsSerializer, TableSerializer, TournamentDetailSerializer,
    TournamentSerializer,
)


class TournamentsHidden(PermissionDenied):
    default_code = "tournaments_hidden"


class TournamentsApi(APIView):
    # The token's scheme first: an anonymous caller is answered 401 with ``WWW-Authenticate: Token``.
    authentication_classes = [authentication.TokenAuthentication, authentication.SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    def tournament(self, request: Request, pk: int) -> Tournament:
        tournament = get_object_or_404(Tournament.objects.select_related("organisation", "game"), pk=pk)
        if not selectors.sees_tournaments(request.user, tournament.organisation):
            raise Http404
        return tournament

    def round(self, request: Request, pk: int, number: int) -> Round:
        return get_object_or_404(Round.objects.select_related("tournament__game"),
                                 tournament=self.tournament(request, pk), number=number)


def _game(game: Any) -> dict[str, Any] | None:
    return None if game is None else {"id": game.pk, "title": game.title}


def tournament_answer(tournament: Tournament) -> dict[str, Any]:
    return {"id": tournament.pk, "organisation": tournament.organisation_id, "name": tournament.name,
            "game": _game(tournament.game), "table_size": tournament.table_size,
            "rounds_planned": tournament.rounds_planned, "rounds_drawn": selectors.last_round_number(tournament),
            "format": tournament.format, "status": tournament.status, "created_at": tournament.created_at}


def _result(result: TableResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"places": result.places, "scores": result.scores, "game_record": result.game_record_id,
            "corrects": result.corrects_id is not None, "reason": result.reason, "entered_at": result.entered_at}


def _recording(recording: TableRecording | None) -> dict[str, Any] | None:
    if recording is None:
        return None
    return {"game_record": recording.game_record_id, "state": selectors.recording_state(recording)}


def table_answer(table: selectors.TableView) -> dict[str, Any]:
    return {"number": table.number,
            "players": [{"seat": seat.position, "entrant": seat.entrant_id, "player": seat.entrant.player_id,
                         "name": seat.entrant.player.display_name} for seat in table.seats],
            "why": [{"code": reason.get("code"), "params": reason.get("params", {})} for reason in table.why],
            "result": _result(table.result), "recording": _recording(table.recording)}


def round_answer(drawn: Round) -> dict[str, Any]:
    return {"tournament": drawn.tournament_id, "number": drawn.number, "drawn_at": drawn.drawn_at,
            "game": _game(selectors.game_of_round(drawn)),
            "tables": [table_answer(table) for table in selectors.tables_of(drawn)]}


class OrganisationTournaments(generics.ListAPIView):
    """An organisation's tournaments, the newest first."""

    authentication_classes = TournamentsApi.authentication_classes
    permission_classes = TournamentsApi.permission_classes
    serializer_class = TournamentSerializer
    error_answers = {"403": "tournaments_hidden: only the organisation's organisers and members who record games "
                            "see its tournaments."}

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema being made: no organisation asked
            return Tournament.objects.none()
        organisation = get_object_or_404(Organisation, pk=self.kwargs["pk"])
        if not selectors.sees_tournaments(self.request.user, organisation):
            raise TournamentsHidden(gettext("Only the members of this club see its tournaments."))
        return Tournament.objects.filter(organisation=organisation).select_related("game")

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(TournamentSerializer([tournament_answer(t) for t in page], many=True).data)


class TournamentDetail(TournamentsApi):
    @extend_schema(responses={200: TournamentDetailSerializer}, summary="A tournament: settings, status, entrants")
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        answer = {**tournament_answer(tournament), "placement_points": tournament.placement_points,
                  "tiebreakers": tournament.tiebreakers,
                  "first_player_compensation": tournament.first_player_compensation,
                  "keep_apart_in_round_1": tournament.keep_apart_in_round_1, "league": tournament.league_id,
                  "entrants": [{"id": entrant.pk, "player": entrant.player_id, "name": entrant.player.display_name,
                                "checked_in": entrant.checked_in, "dropped_after_round": entrant.dropped_after_round,
                                "group": entrant.group} for entrant in tournament.entrants.select_related("player")]}
        return Response(TournamentDetailSerializer(answer).data)


class TournamentStandings(TournamentsApi):
    @extend_schema(responses={200: StandingsSerializer},
                   summary="A tournament's live standings: points as an exact fraction and a number, tie-breaks")
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        lines = [{"rank": row.line.rank, "entrant": row.entrant.pk, "player": row.entrant.player_id,
                  "name": row.entrant.player.display_name, "points": str(row.line.points),
                  "points_number": float(row.line.points),
                  "tiebreaks": {name: float(value) for name, value in row.line.tiebreaks.items()},
                  "played": row.line.played, "dropped_after_round": row.entrant.dropped_after_round}
                 for row in selectors.standing_rows(tournament)]
        answer = {"tournament": tournament.pk, "rounds_drawn": selectors.last_round_number(tournament),
                  "csv_url": request.build_absolute_uri(reverse("tournament-standings-csv", args=[tournament.pk])),
                  "lines": lines}
        return Response(StandingsSerializer(answer).data)


class TournamentRounds(TournamentsApi):
    error_answers = {"409": "round_incomplete, all_rounds_drawn, too_few_players, tournament_finished."}

    @extend_schema(request=None, responses={201: RoundSerializer},
                   summary="Draw the next round (an organiser): every table of the last one needs its result")
    def post(self, request: Request, pk: int) -> Response:
        drawn = services.draw_round(self.tournament(request, pk), request.user)
        return Response(RoundSerializer(round_answer(drawn)).data, status=status.HTTP_201_CREATED)


class TournamentRound(TournamentsApi):
    @extend_schema(responses={200: RoundSerializer},
                   summary="A round's tables: players in seat order, why each table is so, results as they come in")
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(RoundSerializer(round_answer(self.round(request, pk, number))).data)


class TableResultView(TournamentsApi):
    error_answers = {"409": "result_already_entered (an organiser corrects it with a reason), tournament_finished.",
                     "422": "table_not_in_round, player_twice, wrong_count, player_not_at_table."}

    @extend_schema(request=ResultRequestSerializer, responses={201: TableSerializer},
                   summary="Enter a table's result (an organiser, or a player of the table), or correct it "
                           "(an organiser, with a reason)")
    def post(self, request: Request, pk: int, number: int, table: int) -> Response:
        tournament = self.tournament(request, pk)
        asked = ResultRequestSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        data = asked.validated_data
        if "scores" in data:
            told, values = services.SCORES, [(line["entrant"], line["score"]) for line in data["scores"]]
        else:
            told, values = services.PLACES, [(line["entrant"], line["place"]) for line in data["places"]]
        stored = services.enter_result(tournament, number, table, values, request.user, told=told,
                                       reason=data["reason"], lowest_wins=data["lowest_wins"])
        found = next(view for view in selectors.tables_of(stored.round) if view.number == table)
        return Response(TableSerializer(table_answer(found)).data, status=status.HTTP_201_CREATED)
