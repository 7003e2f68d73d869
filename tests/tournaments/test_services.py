"""The tournaments' services: drawing rounds, entering results, refusals that change nothing."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.registry import RESULT
from records import services as record_services
from records.models import GameRecord
from tests.factories import give_role
from tests.tournaments.conftest import thirteen
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import Round, TableResult, Tournament


def refused(reason: str, status: int, call, /, *args, **kwargs) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        call(*args, **kwargs)
    assert (caught.value.reason, caught.value.status_code) == (reason, status)
    assert caught.value.message
    return caught.value


def table_of(drawn: Round, number: int):
    return next(table for table in selectors.tables_of(drawn) if table.number == number)


def enter_round(tournament: Tournament, drawn: Round, by) -> None:
    """Every table of ``drawn`` entered, the first seat winning by the most (scores 40, 30, …)."""
    for table in selectors.tables_of(drawn):
        services.enter_result(tournament, drawn.number, table.number,
                              [(seat.entrant_id, 40 - 10 * seat.position) for seat in table.seats], by)


@pytest.mark.parametrize(("fields", "reason", "status"), [
    ({"table_size": 7}, "table_size_out_of_range", 422),
    ({"table_size": 1}, "table_size_out_of_range", 422),
    ({"format": "knockout"}, "unknown_format", 422),
    ({"rounds_planned": 0}, "rounds_out_of_range", 422),
    ({"name": "  "}, "no_name", 422),
])
def test_a_tournament_that_cannot_be_run_is_refused_and_not_made(library, organiser, fields, reason, status):
    refused(reason, status, services.create_tournament, library, organiser, **{"name": "Open", **fields})
    assert not Tournament.objects.exists()


def test_only_an_organiser_makes_a_tournament(library, member):
    refused("not_an_organiser", 403, services.create_tournament, library, member, name="Open")
    assert not Tournament.objects.exists()


def test_round_one_seats_thirteen_checked_in_players_at_a_four_and_three_threes(tournament, organiser):
    drawn = services.draw_round(tournament, organiser)
    tables = selectors.tables_of(drawn)
    assert [len(table.seats) for table in tables] == [4, 3, 3, 3]
    seated = [seat.entrant_id for table in tables for seat in table.seats]
    assert sorted(seated) == sorted(tournament.entrants.values_list("pk", flat=True))
    assert all(table.why for table in tables)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_the_next_round_waits_for_every_table(tournament, organiser):
    drawn = services.draw_round(tournament, organiser)
    first = table_of(drawn, 1)
    services.enter_result(tournament, 1, 1, [(seat.entrant_id, 10 + seat.position) for seat in first.seats], organiser)
    error = refused("round_incomplete", 409, services.draw_round, tournament, organiser)
    assert error.details == {"round": 1, "table": 2}
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_a_round_needs_two_players(library, organiser):
    lonely = services.create_tournament(library, organiser, name="Seul")
    services.check_in(services.register(lonely, "Ada", organiser), organiser)
    refused("too_few_players", 409, services.draw_round, lonely, organiser)
    assert not Round.objects.exists()


def test_bad_results_are_refused_and_nothing_is_stored(tournament, organiser):
    drawn = services.draw_round(tournament, organiser)
    seats = [seat.entrant_id for seat in table_of(drawn, 2).seats]
    elsewhere = table_of(drawn, 1).seats[0].entrant_id
    refused("table_not_in_round", 422, services.enter_result, tournament, 1, 9, [], organiser)
    refused("table_not_in_round", 422, services.enter_result, tournament, 2, 1, [], organiser)
    refused("player_twice", 422, services.enter_result, tournament, 1, 2,
            [(seats[0], 3), (seats[0], 2), (seats[1], 1)], organiser)
    refused("wrong_count", 422, services.enter_result, tournament, 1, 2, [(seats[0], 3), (seats[1], 2)], organiser)
    refused("player_not_at_table", 422, services.enter_result, tournament, 1, 2,
            [(seats[0], 3), (seats[1], 2), (elsewhere, 1)], organiser)
    refused("wrong_count", 422, services.enter_result, tournament, 1, 2,
            [(seats[0], 1), (seats[1], 2), (seats[2], 4)], organiser, told=services.PLACES)
    assert not TableResult.objects.exists()
    assert not GameRecord.objects.exists()


def test_a_result_is_a_result_only_record_of_the_organisation_and_is_corrected_by_an_organiser(
        tournament, organiser):
    drawn = services.draw_round(tournament, organiser)
    seats = [seat.entrant_id for seat in table_of(drawn, 2).seats]
    stored = services.enter_result(tournament, 1, 2, [(seats[0], 12), (seats[1], 30), (seats[2], 30)], organiser)
    assert stored.places == [3, 1, 1]
    record = stored.game_record
    assert (record.result_only, record.organisation, record.catalogue_record) == (True, tournament.organisation,
                                                                                  tournament.game)
    assert list(record.seats.order_by("seat_order").values_list("player__display_name", flat=True)) == [
        seat.entrant.player.display_name for seat in table_of(drawn, 2).seats]
    assert record.events.get().type == RESULT
    refused("result_already_entered", 409, services.enter_result, tournament, 1, 2,
            [(seats[0], 40), (seats[1], 30), (seats[2], 20)], organiser)
    corrected = services.enter_result(tournament, 1, 2, [(seats[0], 40), (seats[1], 30), (seats[2], 20)],
                                      organiser, reason="scores swapped")
    assert corrected.corrects == stored and corrected.game_record == record
    assert record.events.order_by("-seq").first().type == record_services.CORRECTION
    points = {line.player: line.points for line in selectors.standings(tournament)}
    assert [points[s] for s in seats] == [5, 3, 1]


def test_a_player_of_the_table_enters_its_result_and_no_one_else(tournament, organiser, member, django_user_model):
    drawn = services.draw_round(tournament, organiser)
    table = table_of(drawn, 1)
    player = table.seats[0].entrant.player
    player.user = member
    player.save()
    other = give_role(django_user_model.objects.create_user("voisin"))
    told = [(seat.entrant_id, seat.position + 1) for seat in table.seats]
    refused("not_at_this_table", 403, services.enter_result, tournament, 1, 1, told, other,
            told=services.PLACES)
    stored = services.enter_result(tournament, 1, 1, told, member, told=services.PLACES)
    assert stored.places == [1, 2, 3, 4] and stored.scores is None
    refused("result_already_entered", 409, services.enter_result, tournament, 1, 1, told, member,
            told=services.PLACES, reason="I'm a player, not an organiser")


def test_three_rounds_with_a_drop_out_and_a_late_arrival(tournament, organiser):
    first = services.draw_round(tournament, organiser)
    enter_round(tournament, first, organiser)
    leaving = tournament.entrants.order_by("pk").first()
    services.drop(leaving, organiser)
    assert leaving.dropped_after_round == 1
    refused("dropped_already", 409, services.drop, leaving, organiser)
    late = services.register(tournament, "Zoé Retard", organiser)
    assert late.checked_in
    second = services.draw_round(tournament, organiser)
    seated = set(second.seats.values_list("entrant_id", flat=True))
    assert leaving.pk not in seated and late.pk in seated and len(seated) == 13
    enter_round(tournament, second, organiser)
    third = services.draw_round(tournament, organiser)
    enter_round(tournament, third, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    refused("tournament_finished", 409, services.draw_round, tournament, organiser)
    lines = selectors.standings(tournament)
    assert len(lines) == 14
    assert {line.player: line.played for line in lines}[leaving.pk] == 1
    assert lines[0].points >= lines[-1].points


def test_a_family_is_kept_apart_in_round_one(library, organiser, game):
    made = services.create_tournament(library, organiser, name="En famille", game=game)
    entrants = thirteen(made)
    for entrant in entrants[:3]:
        entrant.group = "Martin"
        entrant.save()
    drawn = services.draw_round(made, organiser)
    family = {entrant.pk for entrant in entrants[:3]}
    for table in selectors.tables_of(drawn):
        assert len(family & {seat.entrant_id for seat in table.seats}) <= 1


def test_registering_a_player_twice_is_refused(tournament, organiser):
    entrant = tournament.entrants.select_related("player").first()
    refused("already_registered", 409, services.register, tournament, entrant.player.display_name, organiser)
    assert tournament.entrants.count() == 13


def test_the_first_player_compensation_is_taken_from_the_first_seat(tournament, organiser):
    tournament.first_player_compensation = "0.5"
    tournament.save()
    drawn = services.draw_round(tournament, organiser)
    seats = [seat.entrant_id for seat in table_of(drawn, 2).seats]
    services.enter_result(tournament, 1, 2, [(seats[0], 30), (seats[1], 20), (seats[2], 10)], organiser)
    points = {line.player: line.points for line in selectors.standings(tournament)}
    assert [points[s] for s in seats] == [Fraction(9, 2), 3, 1]


def test_a_table_where_the_lowest_score_wins_stays_so_in_the_standings(tournament, organiser):
    drawn = services.draw_round(tournament, organiser)
    seats = [seat.entrant_id for seat in table_of(drawn, 2).seats]
    services.enter_result(tournament, 1, 2, [(seats[0], 30), (seats[1], 20), (seats[2], 10)], organiser,
                          lowest_wins=True)
    assert TableResult.objects.get().lowest_wins is True
    points = {line.player: line.points for line in selectors.standings(tournament)}
    assert [points[s] for s in seats] == [1, 3, 5]  # 10 wins: the third seat's 5 points at three
