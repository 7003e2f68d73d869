"""The tournaments' pages, phone first: ``/tournaments/`` (the organisation's, a new one),
a tournament's page (entrants, check-in, drop-outs, the next draw, live standings), a round's
pairing (each table's seats in order and why it is so) and a table's result form.

Thin over ``tournaments.services``: a refusal is shown in the reader's language with its status
and changes nothing. The organisers (``RUN_LEAGUES``) act; members who record games see the
pages and enter the result of a table they sit at."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext

from accounts.current import current_organisation, may
from accounts.roles import Action
from games.models import CatalogueRecord

from scoring.models import League

from .. import placements, selectors, services
from ..errors import TournamentError
from ..exports import tie_breaker_words
from ..models import Entrant, Round, Tournament, default_placement_points


def refused(request: HttpRequest, words: str, status: int = 403) -> HttpResponse:
    return render(request, "tournaments/refused.html", {"refusal_words": words}, status=status)


def _may_see(request: HttpRequest) -> bool:
    return selectors.sees_tournaments(request.user, current_organisation(request))


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("game", "organisation"), pk=pk,
                             organisation=current_organisation(request))


def _not_a_member(request: HttpRequest) -> HttpResponse:
    return refused(request, gettext("Only the members of this club see its tournaments."))


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    organisation = current_organisation(request)
    if organisation is None or not _may_see(request):
        return _not_a_member(request)
    refusal, status = None, 200
    values = _settings_values(None)
    if request.method == "POST" and may(request, Action.RUN_LEAGUES):
        values = _posted_values(request)
        if "figure" not in request.POST:  # "Show the club's figure" only shows it again, beside the form
            try:
                made = services.create_tournament(organisation, request.user, **_settings_of(values, organisation))
            except TournamentError as error:
                refusal, status = error, error.status_code
            else:
                messages.success(request, gettext("Tournament created: register its players."))
                return redirect("tournament", pk=made.pk)
    return render(request, "tournaments/list.html", {
        "tournaments": selectors.tournaments_of(organisation), "organises": may(request, Action.RUN_LEAGUES),
        "refusal": refusal, **_form_context(request, organisation, values)}, status=status)


@login_required
def settings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament's settings, changed until round 1 is drawn (then 409 ``settings_locked``)."""
    if not may(request, Action.RUN_LEAGUES):
        return refused(request, gettext("Only the organisers of this club run its tournaments."))
    tournament = _tournament(request, pk)
    refusal, status = None, 200
    values = _settings_values(tournament)
    if request.method == "POST":
        values = _posted_values(request)
        if "figure" not in request.POST:
            try:
                services.update_settings(tournament, request.user, **_settings_of(values, tournament.organisation))
            except TournamentError as error:
                refusal, status = error, error.status_code
            else:
                messages.success(request, gettext("The tournament's settings are saved."))
                return redirect("tournament", pk=tournament.pk)
    return render(request, "tournaments/settings.html", {
        "tournament": tournament, "refusal": refusal, "locked": tournament.rounds.exists(),
        **_form_context(request, tournament.organisation, values)}, status=status)


ROTATION_CHOICES = 4
"""Game choices the settings form offers: the game, then up to three more played in turn."""

TIEBREAKER_CHOICES = len(placements.TIEBREAKERS)


def _settings_values(tournament: Tournament | None) -> dict[str, Any]:
    """The settings form's values (texts, as posted): a tournament's, or the presets for a new one."""
    points = tournament.placement_points if tournament else default_placement_points()
    games = [game.pk for game in tournament.rotation()] if tournament else []
    tiebreakers = list(tournament.tiebreakers) if tournament else list(placements.TIEBREAKERS)
    compensation = tournament.first_player_compensation if tournament else 0
    return {
        "name": tournament.name if tournament else "",
        "games": [str(pk) for pk in games] + [""] * (ROTATION_CHOICES - len(games)),
        "table_size": str(tournament.table_size if tournament else 4),
        "rounds_planned": str(tournament.rounds_planned if tournament else 3),
        "format": tournament.format if tournament else Tournament.Format.SWISS,
        "league": str(tournament.league_id or "") if tournament else "",
        "keep_apart_in_round_1": tournament.keep_apart_in_round_1 if tournament else True,
        "points": {size: "/".join(str(p) for p in points.get(str(size), ())) for size in POINTS_SIZES},
        "tiebreakers": tiebreakers + [""] * (TIEBREAKER_CHOICES - len(tiebreakers)),
        "compensate": bool(compensation),
        "compensation": str(compensation) if compensation else "",
    }


POINTS_SIZES = range(2, 8)
"""The table sizes a tournament's tables can take (a size of 6 can ask for a table of 7)."""


def _posted_values(request: HttpRequest) -> dict[str, Any]:
    post = request.POST
    games = post.getlist("game")[:ROTATION_CHOICES]
    tiebreakers = post.getlist("tiebreaker")[:TIEBREAKER_CHOICES]
    return {
        "name": post.get("name", ""), "games": games + [""] * (ROTATION_CHOICES - len(games)),
        "table_size": post.get("table_size", ""), "rounds_planned": post.get("rounds_planned", ""),
        "format": post.get("format", Tournament.Format.SWISS), "league": post.get("league", ""),
        "keep_apart_in_round_1": bool(post.get("keep_apart_in_round_1")),
        "points": {size: post.get(f"points_{size}", "") for size in POINTS_SIZES},
        "tiebreakers": tiebreakers + [""] * (TIEBREAKER_CHOICES - len(tiebreakers)),
        "compensate": bool(post.get("compensate")), "compensation": post.get("first_player_compensation", ""),
    }


def _chosen_games(values: dict[str, Any]) -> list[CatalogueRecord]:
    ids = [_number(pk, 0) for pk in values["games"] if pk]
    found = CatalogueRecord.objects.in_bulk([pk for pk in ids if pk])
    return [found[pk] for pk in ids if pk in found]


def _settings_of(values: dict[str, Any], organisation: Any) -> dict[str, Any]:
    """The services' keyword arguments from the form's values."""
    return {
        "name": values["name"], "table_size": _number(values["table_size"], 0),
        "rounds_planned": _number(values["rounds_planned"], 0), "format": values["format"],
        "games": _chosen_games(values),
        "league": _leagues(organisation).filter(pk=_number(values["league"], 0)).first(),
        "keep_apart_in_round_1": values["keep_apart_in_round_1"],
        "placement_points": {size: text.split("/") for size, text in values["points"].items() if text.strip()},
        "tiebreakers": values["tiebreakers"],
        "first_player_compensation": values["compensation"].strip().replace(",", ".") or 0
        if values["compensate"] else 0,
    }


def _leagues(organisation: Any) -> Any:
    return League.objects.filter(club__organisation=organisation).order_by("name")


def _form_context(request: HttpRequest, organisation: Any, values: dict[str, Any]) -> dict[str, Any]:
    """What the settings form shows: its choices, its values, and beside the compensation the
    club's measured figure for the first game chosen at the table size chosen."""
    games = _chosen_games(values)
    size = _number(values["table_size"], 4)
    first_place = _number((values["points"].get(size) or "").split("/")[0], 0) or (
        placements.PLACEMENT_POINTS.get(size, (0,))[0])
    figure = (selectors.first_player_figure(request.user, organisation, games[0], size, first_place)
              if games and size in placements.PLACEMENT_POINTS else None)
    words = tie_breaker_words()
    return {
        "values": values, "formats": Tournament.Format.choices, "sizes": range(2, 7),
        "points_sizes": [(size, values["points"].get(size, "")) for size in POINTS_SIZES],
        "tiebreaker_slots": [(number, chosen) for number, chosen in enumerate(values["tiebreakers"], start=1)],
        "tiebreaker_names": [(name, words[name]) for name in placements.TIEBREAKERS],
        "game_slots": [(number, chosen) for number, chosen in enumerate(values["games"], start=1)],
        "figure": figure, "leagues": _leagues(organisation),
        "games": CatalogueRecord.objects.filter(game_records__organisation=organisation).distinct()
        .order_by("title")[:300],
    }


def _number(text: str | None, default: int) -> int:
    try:
        return int(text or "")
    except ValueError:
        return default


@login_required
def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    if not _may_see(request):
        return _not_a_member(request)
    tournament = _tournament(request, pk)
    refusal, status = None, 200
    if request.method == "POST":
        if not may(request, Action.RUN_LEAGUES):
            return refused(request, gettext("Only the organisers of this club run its tournaments."))
        try:
            done = _act(request, tournament)
        except TournamentError as error:
            refusal, status = error, error.status_code
        else:
            messages.success(request, done)
            if isinstance(done, DrawnMessage):
                return redirect("tournament-round", pk=tournament.pk, number=done.number)
            return redirect("tournament", pk=tournament.pk)
    tournament.refresh_from_db()
    last = selectors.last_round(tournament)
    entrants = list(tournament.entrants.select_related("player"))
    return render(request, "tournaments/tournament.html", {
        "tournament": tournament, "entrants": entrants, "organises": may(request, Action.RUN_LEAGUES),
        "rounds": list(tournament.rounds.all()), "last": last, "refusal": refusal,
        "missing": selectors.tables_without_result(last) if last else [],
        "next_number": (last.number if last else 0) + 1,
        "next_is_final": tournament.is_final((last.number if last else 0) + 1),
        "rotation": [game.title for game in tournament.rotation()],
        "checked_in": sum(1 for entrant in entrants if entrant.plays),
        "standings": selectors.standing_rows(tournament)}, status=status)


class DrawnMessage(str):
    number: int


def _act(request: HttpRequest, tournament: Tournament) -> str:
    action = request.POST.get("action", "")
    if action == "register":
        entrant = services.register(tournament, request.POST.get("player", "").strip(), request.user,
                                    group=request.POST.get("group", ""))
        return gettext("%(player)s is registered.") % {"player": entrant.player}
    if action == "draw":
        drawn = services.draw_round(tournament, request.user)
        words = DrawnMessage(gettext("Round %(number)s is drawn.") % {"number": drawn.number})
        words.number = drawn.number
        return words
    entrant = tournament.entrants.select_related("player").filter(pk=_number(request.POST.get("entrant"), 0)).first()
    if entrant is None:
        raise TournamentError("unknown_entrant")
    if action in ("check_in", "not_here"):
        services.check_in(entrant, request.user, present=action == "check_in")
        return (gettext("%(player)s is checked in.") if entrant.checked_in
                else gettext("%(player)s is no longer checked in.")) % {"player": entrant.player}
    if action != "drop":
        raise TournamentError("unknown_action")
    services.drop(entrant, request.user)
    return gettext("%(player)s has dropped out: no longer seated, their points stay.") % {"player": entrant.player}


@login_required
def round_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    if not _may_see(request):
        return _not_a_member(request)
    tournament = _tournament(request, pk)
    drawn = get_object_or_404(Round, tournament=tournament, number=number)
    tables = selectors.tables_of(drawn)
    names = {seat.entrant_id: seat.entrant.player.display_name for table in tables for seat in table.seats}
    for table in tables:
        table.words = [why_words(reason, names) for reason in table.why]  # type: ignore[attr-defined]
        table.mine = any(seat.entrant.player.user_id == request.user.pk  # type: ignore[attr-defined]
                         for seat in table.seats)
    return render(request, "tournaments/round.html", {
        "tournament": tournament, "round": drawn, "tables": tables, "organises": may(request, Action.RUN_LEAGUES),
        "game": tournament.game_of_round(drawn.number), "is_final": tournament.is_final(drawn.number)})


def seat_words(position: int) -> str:
    return gettext("seat %(number)s") % {"number": position + 1}


def why_words(reason: dict[str, Any], names: dict[int, str]) -> str:
    """A table's reason (``pairing.Reason`` as stored: code and params) in the reader's language."""
    code, params = reason.get("code"), reason.get("params", {})
    pair = [names.get(player, "?") for player in params.get("players", [])]
    if code == "drawn":
        return gettext("Round 1: the tables are drawn at random.")
    if code == "standings":
        if params["from"] == params["to"]:
            return gettext("Players level in the standings (rank %(rank)s).") % {"rank": params["from"]}
        return gettext("Players ranked %(from)s to %(to)s in the standings.") % params
    if code == "no_repeat":
        return gettext("No two players here have met before.")
    if code == "repeat":
        words = ngettext("%(a)s and %(b)s meet again (met %(times)s time before).",
                         "%(a)s and %(b)s meet again (met %(times)s times before).", params["times"]) % {
            "a": pair[0], "b": pair[1], "times": params["times"]}
        if params.get("unavoidable"):
            words += " " + gettext("No draw of this round could avoid it.")
        return words
    if code == "kept_apart":
        return gettext("No friends or family at this table.")
    if code == "together_despite_request":
        return gettext("%(a)s and %(b)s sit together although asked to be apart: no draw could avoid it.") % {
            "a": pair[0], "b": pair[1]}
    if code == "round_robin":
        return gettext("The round robin's schedule, round %(round)s of %(rounds)s: "
                       "every two players meet once.") % params
    if code == "short":
        return ngettext("%(empty)s seat is empty: a player dropped out, the table plays short.",
                        "%(empty)s seats are empty: players dropped out, the table plays short.",
                        params["empty"]) % params
    if code == "final":
        return gettext("The final table: the top %(size)s of the standings. The lowest-placed of them plays "
                       "first, the leader last: the first move goes to whoever has most to make up.") % params
    if code == "seat":
        times = params.get("times_before", 0)
        where = {"player": names.get(params.get("player"), "?"), "seat": params.get("seat", 0) + 1, "times": times}
        if not times:
            return gettext("%(player)s takes seat %(seat)s, never had before.") % where
        return ngettext("%(player)s takes seat %(seat)s, had %(times)s time before.",
                        "%(player)s takes seat %(seat)s, had %(times)s times before.", times) % where
    return str(code)


@login_required
def table_page(request: HttpRequest, pk: int, number: int, table: int) -> HttpResponse:
    if not _may_see(request):
        return _not_a_member(request)
    tournament = _tournament(request, pk)
    drawn = get_object_or_404(Round, tournament=tournament, number=number)
    found = next((view for view in selectors.tables_of(drawn) if view.number == table), None)
    if found is None:
        return refused(request, TournamentError("table_not_in_round", round=number, table=table).message, 404)
    refusal, status = None, 200
    # A correction starts from what the table told: its kind and its values, seat by seat.
    told_before = services.PLACES if found.result is not None and found.result.scores is None else services.SCORES
    told = request.POST.get("told", told_before)
    current = {seat.entrant_id: (score if told_before == services.SCORES else place)
               for seat, place, score in found.seats_with_results} if found.result is not None else {}
    if request.method == "POST" and request.POST.get("action") == "record":
        try:
            recording = services.start_recording(tournament, number, table, request.user)
        except TournamentError as error:
            refusal, status = error, error.status_code
            found.recording = selectors.recording_of(drawn, table)
        else:
            messages.success(request, gettext("Table %(table)s's game is being recorded: %(player)s plays first.") % {
                "table": table, "player": found.seats[0].entrant.player})
            return redirect("scorekeeping-record", pk=recording.game_record_id)
    elif request.method == "POST":
        values = [(seat.entrant_id, request.POST.get(f"seat-{seat.entrant_id}", "").strip()) for seat in found.seats]
        if any(not value.lstrip("-").isdigit() for _entrant, value in values):
            refusal, status = TournamentError("wrong_count"), 422
        else:
            try:
                services.enter_result(tournament, number, table, [(e, int(v)) for e, v in values], request.user,
                                      told=services.PLACES if told == services.PLACES else services.SCORES,
                                      reason=request.POST.get("reason", ""))
            except TournamentError as error:
                refusal, status = error, error.status_code
            else:
                messages.success(request, gettext("Table %(table)s's result is in.") % {"table": table})
                return redirect("tournament-round", pk=tournament.pk, number=number)
    organises = may(request, Action.RUN_LEAGUES)
    acts = organises or (may(request, Action.RECORD_GAMES)
                         and any(seat.entrant.player.user_id == request.user.pk for seat in found.seats))
    return render(request, "tournaments/table.html", {
        "tournament": tournament, "round": drawn, "table": found, "refusal": refusal, "told": told,
        "game": tournament.game_of_round(drawn.number),
        "posted": request.POST, "organises": organises, "acts": acts,
        "recordable": selectors.engine_of_round(drawn) is not None and tournament.status != Tournament.Status.FINISHED,
        "recording_state": selectors.recording_state(found.recording) if found.recording else "",
        "lines": [(seat, seat_words(seat.position),
                   request.POST.get(f"seat-{seat.entrant_id}", current.get(seat.entrant_id, "")))
                  for seat in found.seats]}, status=status)


__all__ = ["Entrant", "round_page", "settings_page", "table_page", "tournament_list", "tournament_page"]
