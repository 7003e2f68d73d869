"""The tournaments' writes, each in one transaction: a refusal (:class:`TournamentError`) leaves
nothing changed. The rules are the pure ``pairing`` and ``placements``; a table's result is also
stored as a result-only record through records' own services, so that it counts for the
organisation's statistics (and for the tournament's league, if it has one)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

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
from .models import (Entrant, Round, Seat, TableRecording, TableResult, Tournament, TournamentGame,
                     default_placement_points, default_tiebreakers)

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
                      keep_apart_in_round_1: bool = True, games: Sequence[CatalogueRecord] | None = None,
                      placement_points: Mapping[int | str, Sequence[object]] | None = None,
                      tiebreakers: Sequence[str] | None = None,
                      first_player_compensation: Decimal | str | int | None = None) -> Tournament:
    """A new tournament. ``games``, when given, is the rotation in order (``game`` is then its
    first); ``placement_points`` (by table size: the numbers, or their texts), ``tiebreakers`` and
    ``first_player_compensation`` replace the presets where given."""
    _organiser(organisation, by)
    fields, rotation = _checked_settings(name=name, table_size=table_size, rounds_planned=rounds_planned,
                                         format=format, game=game, games=games, placement_points=placement_points,
                                         tiebreakers=tiebreakers, first_player_compensation=first_player_compensation)
    made = Tournament.objects.create(organisation=organisation, league=league,
                                     keep_apart_in_round_1=keep_apart_in_round_1, created_by=by, **fields)
    _set_rotation(made, rotation)
    return made


@transaction.atomic
def update_settings(tournament: Tournament, by: AbstractBaseUser, *, name: str, table_size: int = 4,
                    rounds_planned: int = 3, format: str = Tournament.Format.SWISS,
                    game: CatalogueRecord | None = None, league: League | None = None,
                    keep_apart_in_round_1: bool = True, games: Sequence[CatalogueRecord] | None = None,
                    placement_points: Mapping[int | str, Sequence[object]] | None = None,
                    tiebreakers: Sequence[str] | None = None,
                    first_player_compensation: Decimal | str | int | None = None) -> Tournament:
    """The tournament's settings, as :func:`create_tournament` takes them, changed until round 1
    is drawn (then 409 ``settings_locked``: the rounds drawn were drawn by them)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _organiser(tournament, by)
    if tournament.rounds.exists():
        raise TournamentError("settings_locked")
    fields, rotation = _checked_settings(name=name, table_size=table_size, rounds_planned=rounds_planned,
                                         format=format, game=game, games=games, placement_points=placement_points,
                                         tiebreakers=tiebreakers, first_player_compensation=first_player_compensation)
    for field, value in {**fields, "league": league, "keep_apart_in_round_1": keep_apart_in_round_1}.items():
        setattr(tournament, field, value)
    tournament.save()
    _set_rotation(tournament, rotation)
    return tournament


MAX_COMPENSATION = Decimal("9.99")


def _checked_settings(*, name: str, table_size: int, rounds_planned: int, format: str,
                      game: CatalogueRecord | None, games: Sequence[CatalogueRecord] | None,
                      placement_points: Mapping[int | str, Sequence[object]] | None, tiebreakers: Sequence[str] | None,
                      first_player_compensation: Decimal | str | int | None,
                      ) -> tuple[dict[str, Any], list[CatalogueRecord]]:
    """The settings' fields as the model keeps them, and the rotation (empty: one game or none);
    the first refusal found raised."""
    if not name.strip():
        raise TournamentError("no_name")
    if not pairing.MIN_TABLE_SIZE <= table_size <= pairing.MAX_TABLE_SIZE:
        raise TournamentError("table_size_out_of_range")
    if not 1 <= rounds_planned <= MAX_ROUNDS:
        raise TournamentError("rounds_out_of_range")
    if format not in Tournament.Format.values:
        raise TournamentError("unknown_format")
    points = default_placement_points()
    for size, values in (placement_points or {}).items():
        try:
            points[str(int(size))] = list(placements.checked_points(int(size), values))
        except placements.ResultError as error:
            raise TournamentError(error.reason, size=size) from None
    try:
        chosen = list(placements.checked_tiebreakers(tiebreakers)) if tiebreakers is not None else default_tiebreakers()
    except placements.ResultError as error:
        raise TournamentError(error.reason) from None
    try:
        compensation = Decimal(str(first_player_compensation or 0)).quantize(Decimal("0.01"))
    except InvalidOperation:
        raise TournamentError("compensation_out_of_range") from None
    if not 0 <= compensation <= MAX_COMPENSATION:
        raise TournamentError("compensation_out_of_range")
    rotation = list(games) if games else []
    first = rotation[0] if rotation else game
    return ({"name": name.strip(), "table_size": table_size, "rounds_planned": rounds_planned, "format": format,
             "game": first, "placement_points": points, "tiebreakers": chosen,
             "first_player_compensation": compensation}, rotation if len(rotation) > 1 else [])


def _set_rotation(tournament: Tournament, rotation: list[CatalogueRecord]) -> None:
    tournament.games_in_rotation.all().delete()
    TournamentGame.objects.bulk_create([TournamentGame(tournament=tournament, position=position, game=game)
                                        for position, game in enumerate(rotation)])


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
    if late and tournament.format == Tournament.Format.ROUND_ROBIN:
        raise TournamentError("round_robin_closed")
    return Entrant.objects.create(tournament=tournament, player=player, group=group.strip(), checked_in=late)


@transaction.atomic
def check_in(entrant: Entrant, by: AbstractBaseUser, *, present: bool = True) -> Entrant:
    _organiser(entrant.tournament, by)
    _not_finished(entrant.tournament)
    if (present and entrant.tournament.format == Tournament.Format.ROUND_ROBIN
            and entrant.tournament.status == Tournament.Status.RUNNING
            and not entrant.seats.filter(round__number=1).exists()):
        raise TournamentError("round_robin_closed")
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
    history of the past rounds, the standings' points and, in round 1, the groups kept apart. A
    round robin plays its schedule's next round (:func:`_round_robin_round`); a final table's last
    round seats the leaders (:func:`_final_round`)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _organiser(tournament, by)
    _not_finished(tournament)
    last = selectors.last_round(tournament)
    if last is not None:
        missing = selectors.tables_without_result(last)
        if missing:
            raise TournamentError("round_incomplete", round=last.number, table=missing[0])
        if last.number >= tournament.rounds_in_all:
            raise TournamentError("all_rounds_drawn")
    number = (last.number if last else 0) + 1
    present = list(tournament.entrants.filter(checked_in=True, dropped_after_round=None))
    points = {line.player: float(line.points) for line in selectors.standings(tournament)}
    apart: list[tuple[int, int]] = []
    if number == 1 and tournament.keep_apart_in_round_1:
        apart = [(a.pk, b.pk) for i, a in enumerate(present) for b in present[i + 1:] if a.group and a.group == b.group]
    history = pairing.history_of(selectors.past_tables(tournament), points, apart)
    seed = tournament.pk * 1000 + number
    try:
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            assignment = _round_robin_round(tournament, number, present, history, seed)
        elif tournament.is_final(number):
            assignment = _final_round(tournament, number, present)
        else:
            assignment = pairing.assign([entrant.pk for entrant in present], history, tournament.table_size,
                                        seed=seed, round_number=number)
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


def _round_robin_round(tournament: Tournament, number: int, present: list[Entrant], history: pairing.History,
                       seed: int) -> pairing.Assignment:
    """The schedule's round ``number``. The schedule is fixed by round 1's entrants, in an order
    drawn with the tournament's own seed, so that every later round finds it again from round 1's
    seats; ``rounds_planned`` becomes its count of rounds. A drop-out's seat stays empty (the table
    plays short); a table left with one player is not played."""
    if number == 1:
        entrants = sorted(entrant.pk for entrant in present)
    else:
        entrants = sorted(Seat.objects.filter(round__tournament=tournament, round__number=1)
                          .values_list("entrant_id", flat=True))
    random.Random(f"tournament-round-robin:{tournament.pk}").shuffle(entrants)
    schedule = pairing.round_robin(entrants, tournament.table_size)
    if schedule is None:
        raise TournamentError("round_robin_not_possible", count=len(entrants), size=tournament.table_size,
                              works=_round_robin_counts(tournament.table_size))
    if number == 1:
        tournament.rounds_planned = len(schedule)
        tournament.save(update_fields=["rounds_planned"])
    playing = {entrant.pk for entrant in present}
    tables = [[player for player in table if player in playing] for table in schedule[number - 1]]
    played = [table for table in tables if len(table) >= 2]
    if not played:
        raise TournamentError("too_few_players")
    fixed = pairing.seat_fixed_tables(played, history, seed=seed, round_number=number, reason=pairing.Reason(
        "round_robin", {"round": number, "rounds": len(schedule)}))
    short = [tournament.table_size - len(table.players) for table in fixed.tables]
    return dataclasses.replace(fixed, tables=tuple(
        dataclasses.replace(table, why=(*table.why, pairing.Reason("short", {"empty": empty}))) if empty else table
        for table, empty in zip(fixed.tables, short)))


def _round_robin_counts(table_size: int) -> str:
    """The counts of players a round robin is built for at ``table_size``, in the reader's words."""
    if table_size == 2:
        return gettext("an even number of players")
    if table_size in (3, 4, 5):
        return gettext("exactly %(needed)s players") % {"needed": table_size * table_size}
    return gettext("tables of 2 to 5 players (none is built for 6)")


def _final_round(tournament: Tournament, number: int, present: list[Entrant]) -> pairing.Assignment:
    """The final table: the top ``table_size`` of the standings among the players still in, seated
    from the last-placed of them (seat 1, the first player) to the leader (the last seat): the
    first move goes to whoever has the most ground to make up."""
    playing = {entrant.pk for entrant in present}
    finalists = [line.player for line in selectors.standings(tournament) if line.player in playing]
    finalists = finalists[:tournament.table_size]
    if len(finalists) < 2:
        raise TournamentError("too_few_players")
    seated = tuple(reversed(finalists))
    table = pairing.Table(1, seated, (pairing.Reason("final", {"size": len(seated)}),))
    return pairing.Assignment(number, (table,), 0, True, 0)


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
            record = _result_record(tournament, [seat.entrant.player for seat in seats], payload, by,
                                    round_number=round_number)
    stored = TableResult.objects.create(
        round=drawn, table_number=table_number, places=list(ranks),
        scores=in_seat_order if told == SCORES else None, lowest_wins=told == SCORES and lowest_wins,
        game_record=record, corrects=previous, reason=reason.strip() if previous else "", entered_by=by)
    if drawn.number >= tournament.rounds_in_all and not selectors.tables_without_result(drawn):
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
                   by: AbstractBaseUser, *, round_number: int | None = None) -> GameRecord | None:
    """The result-only record of a table, made as the site's result form makes one
    (``ludolog.web.results.store_result``: ``start_game`` then its ``result`` event), of the game
    the round plays (a rotation's turn). No game chosen for the tournament: no record (there is
    nothing to count it for)."""
    game = tournament.game_of_round(round_number) if round_number is not None else tournament.game
    if game is None:
        return None
    record = record_services.start_game(
        game_slug=game_slug_for(game), seats=[record_services.SeatSpec(p.display_name) for p in seated],
        created_by=by, result_only=True, catalogue_record=game, played_on=timezone.localdate(),
        location=tournament.name[:200], is_friendly=tournament.league_id is None, organisation=tournament.organisation)
    record_services.append_event(record, 0, RESULT, payload, recorded_by=by)
    return record
