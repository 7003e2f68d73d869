"""The tournaments' writes, each in one transaction: a refusal (:class:`TournamentError`) leaves
nothing changed. The rules are the pure ``pairing`` and ``placements``; a table's result is also
stored as a result-only record through records' own services, so that it counts for the
organisation's statistics (and for the tournament's league, if it has one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from accounts.models import Organisation
from accounts.roles import Action, can
from games.models import CatalogueRecord
from games.engines.ranks import competition_ranks
from games.registry import RESULT
from games.selectors import game_slug_for
from records import players as record_players
from records import services as record_services
from records.errors import RecordError
from records.models import GameRecord, Player
from scoring.models import League
from scoring.services import final_scores

from . import pairing, placements, selectors
from .errors import TournamentError
from .models import Entrant, Round, Seat, TableRecording, TableResult, Tournament

MAX_ROUNDS = 20
PLACES = "places"
SCORES = "scores"


def _organiser(tournament_or_organisation: Tournament | Organisation, by: AbstractBaseUser) -> None:
    organisation = getattr(tournament_or_organisation, "organisation", tournament_or_organisation)
    if not can(by, Action.RUN_LEAGUES, organisation):
        raise TournamentError("not_an_organiser")


def _not_finished(tournament: Tournament) -> None:
    tournament.refresh_from_db(fields=["status"])  # the caller's copy may be older than the last draw
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError("tournament_finished")


@transaction.atomic
def create_tournament(organisation: Organisation, by: AbstractBaseUser, *, name: str, table_size: int = 4,
                      rounds_planned: int = 3, format: str = Tournament.Format.SWISS,
                      game: CatalogueRecord | None = None, league: League | None = None,
                      keep_apart_in_round_1: bool = True) -> Tournament:
    _organiser(organisation, by)
    if not name.strip():
        raise TournamentError("no_name")
    if not pairing.MIN_TABLE_SIZE <= table_size <= pairing.MAX_TABLE_SIZE:
        raise TournamentError("table_size_out_of_range")
    if not 1 <= rounds_planned <= MAX_ROUNDS:
        raise TournamentError("rounds_out_of_range")
    if format != Tournament.Format.SWISS:
        # Round robin (pairing.round_robin) and a final table are in the engine, not yet in the app.
        raise TournamentError("format_not_available_yet")
    return Tournament.objects.create(organisation=organisation, name=name.strip(), table_size=table_size,
                                     rounds_planned=rounds_planned, format=format, game=game, league=league,
                                     keep_apart_in_round_1=keep_apart_in_round_1, created_by=by)


@transaction.atomic
def register(tournament: Tournament, player_name: str, by: AbstractBaseUser, *, group: str = "") -> Entrant:
    """Register a player by name (the player ``by`` may see, or a new one). Once the tournament
    runs, a registration is a late arrival: checked in, seated from the next round drawn."""
    _organiser(tournament, by)
    _not_finished(tournament)
    player = record_players.seat_players([player_name], seen_by=by)[0]
    return register_player(tournament, player, by, group=group)


@transaction.atomic
def register_player(tournament: Tournament, player: Player, by: AbstractBaseUser, *, group: str = "") -> Entrant:
    _organiser(tournament, by)
    _not_finished(tournament)
    if tournament.entrants.filter(player=player).exists():
        raise TournamentError("already_registered", player=str(player))
    late = tournament.status == Tournament.Status.RUNNING
    return Entrant.objects.create(tournament=tournament, player=player, group=group.strip(), checked_in=late)


@transaction.atomic
def check_in(entrant: Entrant, by: AbstractBaseUser, *, present: bool = True) -> Entrant:
    _organiser(entrant.tournament, by)
    _not_finished(entrant.tournament)
    entrant.checked_in = present
    entrant.save(update_fields=["checked_in"])
    return entrant


@transaction.atomic
def drop(entrant: Entrant, by: AbstractBaseUser) -> Entrant:
    """The entrant leaves after the last round drawn (0: before the first): they are seated no more,
    their points stay in the standings."""
    _organiser(entrant.tournament, by)
    _not_finished(entrant.tournament)
    if entrant.dropped_after_round is not None:
        raise TournamentError("dropped_already", player=str(entrant.player))
    entrant.dropped_after_round = selectors.last_round_number(entrant.tournament)
    entrant.save(update_fields=["dropped_after_round"])
    return entrant


@transaction.atomic
def draw_round(tournament: Tournament, by: AbstractBaseUser) -> Round:
    """Seat the checked-in players still in for the next round (``pairing.assign``), with the
    history of the past rounds, the standings' points and, in round 1, the groups kept apart."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _organiser(tournament, by)
    _not_finished(tournament)
    last = selectors.last_round(tournament)
    if last is not None:
        missing = selectors.tables_without_result(last)
        if missing:
            raise TournamentError("round_incomplete", round=last.number, table=missing[0])
        if last.number >= tournament.rounds_planned:
            raise TournamentError("all_rounds_drawn")
    number = (last.number if last else 0) + 1
    present = list(tournament.entrants.filter(checked_in=True, dropped_after_round=None))
    points = {line.player: float(line.points) for line in selectors.standings(tournament)}
    apart: list[tuple[int, int]] = []
    if number == 1 and tournament.keep_apart_in_round_1:
        apart = [(a.pk, b.pk) for i, a in enumerate(present) for b in present[i + 1:] if a.group and a.group == b.group]
    history = pairing.history_of(selectors.past_tables(tournament), points, apart)
    try:
        assignment = pairing.assign([entrant.pk for entrant in present], history, tournament.table_size,
                                    seed=tournament.pk * 1000 + number, round_number=number)
    except pairing.PairingError as error:
        raise TournamentError(error.reason) from None
    drawn = Round.objects.create(tournament=tournament, number=number, drawn_by=by, why={
        str(table.number): [{"code": reason.code, "params": _plain(reason.params)} for reason in table.why]
        for table in assignment.tables})
    Seat.objects.bulk_create([Seat(round=drawn, table_number=table.number, position=position, entrant_id=entrant)
                              for table in assignment.tables for position, entrant in enumerate(table.players)])
    if tournament.status != Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return drawn


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, (tuple, frozenset, set)) else value for key, value in params.items()}


@transaction.atomic
def enter_result(tournament: Tournament, round_number: int, table_number: int,
                 places_or_scores: Sequence[tuple[int, int]], by: AbstractBaseUser, *, told: str = SCORES,
                 reason: str = "", lowest_wins: bool = False) -> TableResult:
    """A table's result: ``places_or_scores`` is (entrant id, score or place) for each player of
    the table, ``told`` says which. Entered by an organiser, or by a member who may record games
    and sits at the table. Once in, only an organiser corrects it, with a ``reason``."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    drawn, seats = _table(tournament, round_number, table_number)
    organiser = _at_the_table(tournament, seats, by)
    told_by = [entrant for entrant, _value in places_or_scores]
    if len(set(told_by)) != len(told_by):
        raise TournamentError("player_twice")
    if len(told_by) != len(seats):
        raise TournamentError("wrong_count")
    values = dict(places_or_scores)
    if any(seat.entrant_id not in values for seat in seats):
        raise TournamentError("player_not_at_table")
    in_seat_order = [int(values[seat.entrant_id]) for seat in seats]
    if told == PLACES and not all(1 <= place <= len(seats) for place in in_seat_order):
        raise TournamentError("wrong_count")
    result = placements.TableResult(players=tuple(seat.entrant_id for seat in seats),
                                    scores=tuple(in_seat_order) if told == SCORES else None,
                                    places=tuple(in_seat_order) if told == PLACES else None, lowest_wins=lowest_wins)
    try:
        ranks = result.ranks()
    except placements.ResultError as error:
        raise TournamentError(error.reason) from None
    previous = selectors.result_of(drawn, table_number)
    if previous is not None and not (organiser and reason.strip()):
        raise TournamentError("result_already_entered")
    payload: dict[str, Any] = {"scores": [
        {"seat": seat, "rank": rank, **({"score": value} if told == SCORES else {})}
        for seat, (value, rank) in enumerate(zip(in_seat_order, ranks))]}
    record = previous.game_record if previous else None
    if record is not None and record.result_only:
        record_services.append_event(record, record_services.last_seq(record), record_services.CORRECTION,
                                     {**payload, "reason": reason.strip()[:500]}, recorded_by=by)
    elif previous is None:
        # A table recorded with the recorder has its record: the result links it rather than
        # making a second one (an abandoned record counts for nothing: a result-only one is made).
        recording = TableRecording.objects.filter(round=drawn, table_number=table_number).select_related(
            "game_record").first()
        if recording is not None and recording.game_record.status != GameRecord.Status.ABANDONED:
            record = recording.game_record
        else:
            record = _result_record(tournament, [seat.entrant.player for seat in seats], payload, by)
    stored = TableResult.objects.create(
        round=drawn, table_number=table_number, places=list(ranks),
        scores=in_seat_order if told == SCORES else None, game_record=record, corrects=previous,
        reason=reason.strip() if previous else "", entered_by=by)
    if (drawn.number >= tournament.rounds_planned and not selectors.tables_without_result(drawn)):
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
    return stored


def _table(tournament: Tournament, round_number: int, table_number: int) -> tuple[Round, list[Seat]]:
    """The round and the table's seats in seat order; 422 ``table_not_in_round`` when there is no such table."""
    drawn = tournament.rounds.filter(number=round_number).first()
    seats = list(drawn.seats.filter(table_number=table_number).select_related("entrant__player")) if drawn else []
    if drawn is None or not seats:
        raise TournamentError("table_not_in_round", round=round_number, table=table_number)
    return drawn, seats


def _at_the_table(tournament: Tournament, seats: list[Seat], by: AbstractBaseUser) -> bool:
    """Who acts for a table (enters its result, records its game): an organiser (True), or a
    member who may record games and whose player sits at it (False); 403 otherwise."""
    organiser = can(by, Action.RUN_LEAGUES, tournament.organisation)
    if not organiser and not (can(by, Action.RECORD_GAMES, tournament.organisation)
                              and any(seat.entrant.player.user_id == by.pk for seat in seats)):
        raise TournamentError("not_at_this_table")
    return organiser


@transaction.atomic
def start_recording(tournament: Tournament, round_number: int, table_number: int,
                    by: AbstractBaseUser) -> TableRecording:
    """Start the table's game in the recorder: an engine record of the round's game, seated in
    the table's seat order (seat 0 plays first), the organisation's, friendly unless the
    tournament has a league. When it finishes its final ranks and scores are the table's result
    (:func:`enter_recorded_result`). Who may: as for the table's result."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError("tournament_finished")
    drawn, seats = _table(tournament, round_number, table_number)
    _at_the_table(tournament, seats, by)
    existing = TableRecording.objects.filter(round=drawn, table_number=table_number).first()
    if existing is not None:
        raise TournamentError("table_already_recording", record=existing.game_record_id)
    if selectors.result_of(drawn, table_number) is not None:
        raise TournamentError("result_already_entered")
    game, engine = selectors.game_of_round(drawn), selectors.engine_of_round(drawn)
    if game is None or engine is None:
        raise TournamentError("no_rules_engine")
    if not engine.min_players <= len(seats) <= engine.max_players:
        raise TournamentError("table_size_not_for_game", game=game.title, least=engine.min_players,
                              most=engine.max_players)
    try:
        record = record_services.start_game(
            game_slug=engine.slug, seats=[record_services.SeatSpec(seat.entrant.player.display_name) for seat in seats],
            created_by=by, catalogue_record=game, organisation=tournament.organisation,
            played_on=timezone.localdate(), is_friendly=tournament.league_id is None, location=tournament.name[:200])
    except RecordError as error:
        raise TournamentError("recording_refused", problem=error.message) from None
    return TableRecording.objects.create(round=drawn, table_number=table_number, game_record=record, started_by=by)


def recorded_result(recording: TableRecording) -> tuple[str, list[int]] | None:
    """What a recording's finished record tells of its table, seat by seat: ``(SCORES, scores)``
    when its ranks are the scores' order, else ``(PLACES, ranks)`` (a tie-break of the game's own
    separated equal scores: the places stand). Read as scoring reads a record's final scores
    (replayed from its events). None when the record is no result: in progress, abandoned, or
    ended short of a tile (the table's result is then entered by hand)."""
    if selectors.recording_state(recording) != selectors.FINISHED:
        return None
    finals = sorted(final_scores(recording.game_record), key=lambda final: final.seat)
    scores = [final.score for final in finals]
    ranks = [final.rank for final in finals]
    if all(score is not None for score in scores) and competition_ranks(scores) == ranks:
        return SCORES, [int(score) for score in scores]  # type: ignore[arg-type]
    return PLACES, ranks


def enter_recorded_result(record_id: int) -> TableResult | None:
    """A recording's record ended: the table's result entered from its final ranks and scores
    (:func:`enter_result`, as the recording's starter), unless it is no result
    (:func:`recorded_result`) or the table's result is already in. None when nothing was entered."""
    recording = (TableRecording.objects.select_related("round__tournament", "game_record", "started_by")
                 .filter(game_record_id=record_id).first())
    if recording is None or recording.started_by is None:
        return None
    told = recorded_result(recording)
    if told is None or selectors.result_of(recording.round, recording.table_number) is not None:
        return None
    kind, values = told
    seats = list(recording.round.seats.filter(table_number=recording.table_number).order_by("position"))
    return enter_result(recording.round.tournament, recording.round.number, recording.table_number,
                        [(seat.entrant_id, value) for seat, value in zip(seats, values)], recording.started_by,
                        told=kind)


def _result_record(tournament: Tournament, seated: list[Player], payload: dict[str, Any],
                   by: AbstractBaseUser) -> GameRecord | None:
    """The result-only record of a table, made as the site's result form makes one
    (``ludolog.web.results.store_result``: ``start_game`` then its ``result`` event). No game
    chosen for the tournament: no record (there is nothing to count it for)."""
    if tournament.game is None:
        return None
    record = record_services.start_game(
        game_slug=game_slug_for(tournament.game), seats=[record_services.SeatSpec(p.display_name) for p in seated],
        created_by=by, result_only=True, catalogue_record=tournament.game, played_on=timezone.localdate(),
        location=tournament.name[:200], is_friendly=tournament.league_id is None, organisation=tournament.organisation)
    record_services.append_event(record, 0, RESULT, payload, recorded_by=by)
    return record
