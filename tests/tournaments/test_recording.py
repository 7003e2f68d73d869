"""A table's game recorded with the recorder (Pebbles, the tests' toy engine): started from the
table page, seated in the table's order; its end enters the table's result and the next round
can be drawn; a second start is refused; an abandoned game leaves the table to a hand result; a
hand result links the recording's record instead of making a second one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.models import CatalogueRecord
from games.registry import ABANDON, get_engine
from records import services as record_services
from records.models import GameRecord, Player
from tests.toy_game import SLUG, registered
from tournaments import selectors, services
from tournaments.models import Entrant, Round, TableRecording, TableResult, Tournament

from .test_services import refused, table_of

SIX = ["Ada", "Bruno", "Chloé", "Dimitri", "Élise", "Fanny"]


@pytest.fixture
def pebbles() -> Iterator[CatalogueRecord]:
    with registered():
        yield CatalogueRecord.objects.create(title="Cailloux", engine_slug=SLUG)


@pytest.fixture
def drawn(library, organiser, pebbles) -> Round:
    """Round 1 of two of six players at tables of three, playing Pebbles."""
    tournament = services.create_tournament(library, organiser, name="Coupe des cailloux", table_size=3,
                                            rounds_planned=2, game=pebbles)
    players = Player.objects.bulk_create([Player(display_name=name, name_key=name.lower()) for name in SIX])
    Entrant.objects.bulk_create([Entrant(tournament=tournament, player=player, checked_in=True) for player in players])
    return services.draw_round(tournament, organiser)


def play_to_the_end(record: GameRecord, by, callbacks) -> None:
    """Pebbles' seeded game for three (the seats score 3, 2 and 5: the third wins), each action
    committed as the recorder appends it, the on-commit work run."""
    actions = get_engine(SLUG).random_game(3, 1)
    with callbacks(execute=True):
        for seq, (kind, payload) in enumerate(actions):
            record_services.append_event(record, seq, kind, dict(payload), recorded_by=by)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED


@pytest.mark.parametrize("celery", ["eager", pytest.param("broker", marks=pytest.mark.redis)])
def test_a_table_recorded_from_its_page_enters_its_result_when_the_game_ends(
        celery, request, client, drawn, organiser, pebbles, django_capture_on_commit_callbacks):
    if celery == "eager":
        request.getfixturevalue("celery_eager")
    tournament, table = drawn.tournament, table_of(drawn, 1)
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/rounds/1/tables/1/"
    assert 'data-testid="record-game"' in client.get(url).content.decode()
    started = client.post(url, {"action": "record"})
    record = GameRecord.objects.get(game_slug=SLUG)
    assert started.status_code == 302 and started["Location"] == f"/scorekeeping/{record.pk}/"
    assert [seat.player_id for seat in record.seats.order_by("seat_order")] == [s.entrant.player_id for s in table.seats]
    assert (record.result_only, record.catalogue_record, record.organisation, record.is_friendly, record.location) == (
        False, pebbles, tournament.organisation, True, "Coupe des cailloux")
    assert TableRecording.objects.get().started_by == organiser

    again = client.post(url, {"action": "record"})
    assert again.status_code == 409 and b'data-reason="table_already_recording"' in again.content
    assert f'href="/scorekeeping/{record.pk}/" data-testid="continue-recording"'.encode() in again.content
    assert GameRecord.objects.count() == 1

    play_to_the_end(record, organiser, django_capture_on_commit_callbacks)
    result = TableResult.objects.get()
    assert (result.table_number, result.scores, result.places, result.game_record, result.entered_by) == (
        1, [3, 2, 5], [2, 3, 1], record, organiser)
    assert GameRecord.objects.count() == 1  # no result-only record beside the recorded one
    points = {line.player: line.points for line in selectors.standings(tournament)}
    assert [points[seat.entrant_id] for seat in table.seats] == [3, 1, 5]
    services.enter_result(tournament, 1, 2, [(s.entrant_id, s.position + 1) for s in table_of(drawn, 2).seats],
                          organiser, told=services.PLACES)
    assert services.draw_round(tournament, organiser).number == 2


def test_what_a_recording_refuses(drawn, organiser, member, library, game):
    tournament = drawn.tournament
    refused("not_at_this_table", 403, services.start_recording, tournament, 1, 1, member)
    refused("table_not_in_round", 422, services.start_recording, tournament, 1, 3, organiser)
    seats = table_of(drawn, 2).seats
    services.enter_result(tournament, 1, 2, [(s.entrant_id, s.position + 1) for s in seats], organiser,
                          told=services.PLACES)
    refused("result_already_entered", 409, services.start_recording, tournament, 1, 2, organiser)
    tournament.game = game  # Terra Mystica: no rules engine here
    tournament.save()
    refused("no_rules_engine", 422, services.start_recording, tournament, 1, 1, organiser)
    assert not TableRecording.objects.exists()


def test_a_player_at_the_table_records_it_and_a_hand_result_links_the_recording(
        drawn, organiser, member, django_capture_on_commit_callbacks):
    tournament, table = drawn.tournament, table_of(drawn, 1)
    player = table.seats[1].entrant.player
    player.user = member
    player.save()
    recording = services.start_recording(tournament, 1, 1, member)
    refused("table_already_recording", 409, services.start_recording, tournament, 1, 1, organiser)
    stored = services.enter_result(tournament, 1, 1, [(s.entrant_id, 10 * s.position) for s in table.seats], organiser)
    assert stored.game_record == recording.game_record and GameRecord.objects.count() == 1
    play_to_the_end(recording.game_record, member, django_capture_on_commit_callbacks)
    assert list(TableResult.objects.values_list("scores", flat=True)) == [[0, 10, 20]]  # the hand result stands
    corrected = services.enter_result(tournament, 1, 1, [(s.entrant_id, 5 - s.position) for s in table.seats],
                                      organiser, reason="lu à l'envers")
    assert corrected.game_record == recording.game_record  # the recorded game's events stay as they were
    assert recording.game_record.events.filter(type=record_services.CORRECTION).count() == 0


def test_an_abandoned_recording_leaves_the_table_to_a_hand_result(
        client, drawn, organiser, django_capture_on_commit_callbacks):
    tournament = drawn.tournament
    recording = services.start_recording(tournament, 1, 1, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        record_services.append_event(recording.game_record, 0, ABANDON, {"reason": "la table est partie dîner"},
                                     recorded_by=organiser)
    assert not TableResult.objects.exists()
    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/tables/1/").content.decode()
    assert 'data-state="abandoned"' in page and 'data-testid="result-form"' in page
    assert 'data-testid="record-game"' not in page and 'data-testid="continue-recording"' not in page
    tables = client.get(f"/api/tournaments/{tournament.pk}/rounds/1/").json()["tables"]
    assert tables[0]["recording"] == {"game_record": recording.game_record_id, "state": "abandoned"}
    seats = table_of(drawn, 1).seats
    stored = services.enter_result(tournament, 1, 1, [(s.entrant_id, s.position + 1) for s in seats], organiser,
                                   told=services.PLACES)
    assert stored.game_record.result_only and stored.game_record != recording.game_record
    assert tournament.status != Tournament.Status.FINISHED
