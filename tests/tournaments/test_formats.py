"""Round robin, final table, a rotation of games, the settings an organiser gives, the club's
first-seat figure and the table results' triggers (issue 40)."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction

from games.models import CatalogueRecord
from records.models import Player
from scoring.models import GameStatistics
from tests.tournaments.test_services import enter_round, refused, table_of
from tournaments import selectors, services
from tournaments.models import Entrant, Round, TableResult, Tournament


def entrants(tournament: Tournament, count: int) -> list[Entrant]:
    players = Player.objects.bulk_create([Player(display_name=f"Joueuse {i:02d}", name_key=f"joueuse {i:02d}")
                                          for i in range(1, count + 1)])
    return Entrant.objects.bulk_create([Entrant(tournament=tournament, player=player, checked_in=True)
                                        for player in players])


def test_nine_at_three_play_a_round_robin_of_four_rounds_where_every_pair_meets_once(library, organiser, game):
    tournament = services.create_tournament(library, organiser, name="Tournante", table_size=3, rounds_planned=1,
                                            format=Tournament.Format.ROUND_ROBIN, game=game)
    people = entrants(tournament, 9)
    met: dict[frozenset[int], int] = {}
    for number in range(1, 5):
        drawn = services.draw_round(tournament, organiser)
        if number == 1:
            tournament.refresh_from_db()
            assert tournament.rounds_planned == 4
            refused("round_robin_closed", 409, services.register, tournament, "Retardataire", organiser)
        for table in selectors.tables_of(drawn):
            assert len(table.seats) == 3 and table.why[0] == {"code": "round_robin",
                                                              "params": {"round": number, "rounds": 4}}
            for a, b in itertools.combinations([seat.entrant_id for seat in table.seats], 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        enter_round(tournament, drawn, organiser)
    assert len(met) == 36 and set(met.values()) == {1}
    seats = list(Round.objects.filter(tournament=tournament).values_list("seats__entrant_id", "seats__position"))
    firsts = [sum(1 for seat in seats if seat == (entrant.pk, 0)) for entrant in people]
    assert sorted(firsts) == [1] * 6 + [2] * 3  # twelve first seats over nine players, none thrice
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert len(people) == 9


def test_a_round_robin_says_which_counts_work_and_a_drop_out_leaves_a_short_table(library, organiser):
    tournament = services.create_tournament(library, organiser, name="Tournante", table_size=3,
                                            format=Tournament.Format.ROUND_ROBIN)
    people = entrants(tournament, 10)
    error = refused("round_robin_not_possible", 422, services.draw_round, tournament, organiser)
    assert "9" in error.message and "10" in error.message
    assert not Round.objects.exists()
    services.check_in(people[-1], organiser, present=False)
    first = services.draw_round(tournament, organiser)
    refused("round_robin_closed", 409, services.check_in, people[-1], organiser)
    enter_round(tournament, first, organiser)
    services.drop(people[0], organiser)
    second = services.draw_round(tournament, organiser)
    tables = selectors.tables_of(second)
    assert sorted(len(table.seats) for table in tables) == [2, 3, 3]
    short = next(table for table in tables if len(table.seats) == 2)
    assert {"code": "short", "params": {"empty": 1}} in short.why


def test_a_final_table_seats_the_leaders_last_placed_first_and_ranks_them_by_the_final(library, organiser, game):
    tournament = services.create_tournament(library, organiser, name="Open", table_size=4, rounds_planned=1,
                                            format=Tournament.Format.FINAL_TABLE, game=game)
    entrants(tournament, 8)
    swiss = services.draw_round(tournament, organiser)
    enter_round(tournament, swiss, organiser)
    before = selectors.standings(tournament)
    final = services.draw_round(tournament, organiser)
    table = table_of(final, 1)
    assert [seat.entrant_id for seat in table.seats] == [line.player for line in before[:4]][::-1]
    assert table.why == [{"code": "final", "params": {"size": 4}}]
    assert [row.finalist for row in selectors.standing_rows(tournament)] == [True] * 4 + [False] * 4
    services.enter_result(tournament, 2, 1, [(seat.entrant_id, 10 * seat.position) for seat in table.seats],
                          organiser)
    rows = selectors.standing_rows(tournament)
    assert [row.entrant.pk for row in rows[:4]] == [seat.entrant_id for seat in table.seats][::-1]
    assert [(row.rank, row.final_place) for row in rows] == [(1, 1), (2, 2), (3, 3), (4, 4)] + [
        (line.rank, None) for line in before[4:]]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    refused("tournament_finished", 409, services.draw_round, tournament, organiser)


def test_a_rotation_of_games_records_round_two_as_the_second_game(library, organiser, game):
    second_game = CatalogueRecord.objects.create(title="Azul", added_with_a_result=True)
    tournament = services.create_tournament(library, organiser, name="Rotation", table_size=4, rounds_planned=3,
                                            games=[game, second_game])
    entrants(tournament, 4)
    assert tournament.game == game and [tournament.game_of_round(n) for n in (1, 2, 3)] == [
        game, second_game, game]
    for number in (1, 2):
        drawn = services.draw_round(tournament, organiser)
        enter_round(tournament, drawn, organiser)
    records = [result.game_record.catalogue_record for result in TableResult.objects.order_by("round__number")]
    assert records == [game, second_game]
    refused("settings_locked", 409, services.update_settings, tournament, organiser, name="Autre")


@pytest.mark.parametrize(("fields", "reason"), [
    ({"placement_points": {4: "6/4/x/1".split("/")}}, "points_not_whole_numbers"),
    ({"placement_points": {4: [6, 4, 2]}}, "points_wrong_count"),
    ({"placement_points": {3: [5, 1, 3]}}, "points_increasing"),
    ({"tiebreakers": ["head_to_head", "head_to_head"]}, "tiebreaker_twice"),
    ({"tiebreakers": ["coin_toss"]}, "unknown_tiebreaker"),
    ({"first_player_compensation": "12"}, "compensation_out_of_range"),
    ({"first_player_compensation": "beaucoup"}, "compensation_out_of_range"),
])
def test_settings_that_cannot_be_scored_are_refused(library, organiser, fields, reason):
    refused(reason, 422, services.create_tournament, library, organiser, name="Open", **fields)
    assert not Tournament.objects.exists()


def test_the_settings_given_are_kept_and_may_change_before_round_one(library, organiser, game):
    made = services.create_tournament(library, organiser, name="Open", placement_points={4: ["9", "5", "2", "0"]},
                                      tiebreakers=["head_to_head", ""], first_player_compensation="0.4")
    assert (made.placement_points["4"], made.placement_points["3"]) == ([9, 5, 2, 0], [5, 3, 1])
    assert made.tiebreakers == ["head_to_head"] and made.first_player_compensation == Decimal("0.40")
    changed = services.update_settings(made, organiser, name="Open d'été", format=Tournament.Format.FINAL_TABLE,
                                       games=[game])
    assert (changed.name, changed.format, changed.game, changed.first_player_compensation) == (
        "Open d'été", "final_table", game, 0)


def test_the_first_player_figure_is_the_clubs_measured_first_seat_rate(
        tournament, organiser, game, django_capture_on_commit_callbacks, celery_eager):
    library = tournament.organisation
    assert selectors.first_player_figure(organiser, library, game, 4, 6).games == 0
    drawn = services.draw_round(tournament, organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the records are scored once committed
        enter_round(tournament, drawn, organiser)  # the first seat wins each table: one of four, three of three
    row = GameStatistics.objects.get(organisation=library, game_slug="terra-mystica")
    assert row.player_counts == {"4": 1, "3": 3}
    figure = selectors.first_player_figure(organiser, library, game, 4, 6)
    assert (figure.games, figure.rate, figure.fair, figure.suggested) == (1, 1.0, 0.25, Decimal("4.50"))
    assert selectors.first_player_figure(organiser, library, game, 5, 7).games == 0
    assert selectors.first_player_figure(organiser, library, None, 4, 6) is None


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_to_change_or_delete_a_table_result(tournament, organiser):
    drawn = services.draw_round(tournament, organiser)
    enter_round(tournament, drawn, organiser)
    stored = TableResult.objects.first()
    for statement in ("UPDATE tournaments_tableresult SET places = '[1]' WHERE id = %s",
                      "DELETE FROM tournaments_tableresult WHERE id = %s"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, [stored.pk])
    assert TableResult.objects.get(pk=stored.pk).places == stored.places
