"""Scorekeeping pages: start a record, enter actions; a refusal shows the engine's reason and stores nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.registry import get_engine
from records.models import Event, GameRecord, Player
from records.services import SeatSpec, start_game
from tests.factories import HG, simulated_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    return get_user_model().objects.create_user("keeper", password="keeper-pw-123456")


@pytest.fixture
def keeper_client(client: Client, keeper) -> Client:
    client.force_login(keeper)
    return client


@pytest.fixture
def record(keeper) -> GameRecord:
    return start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1, created_by=keeper)


def notation(index: int) -> str:
    kind, payload = simulated_events(2, 1)[index]
    return get_engine(HG).notation(kind, payload)


def refusal(html: str) -> str:
    return re.search(r'<div class="error refusal" id="action-error" role="alert">(.*?)</div>', html, re.S)[1]


def test_scorekeeping_needs_a_login(client: Client, record):
    assert client.get("/scorekeeping/")["Location"].startswith("/login/?next=/scorekeeping/")
    response = client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0})
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert not Event.objects.filter(record=record).exists()


def test_the_start_form_creates_a_seeded_record_kept_by_its_author(keeper_client: Client, keeper):
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert '<label for="id_seat_1">Player in seat 1' in html and '<label for="id_seed">Seed (optional)' in html

    response = keeper_client.post("/scorekeeping/", {
        "game": HG, "seat_1": "Ada", "seat_2": "Bo", "seat_3": "Cy", "seed": "42", "played_on": "2026-11-28",
        "location": "Ludothèque",
        # Nobody is called Ada, Bo or Cy yet: new players are added explicitly.
        "new_1": "Ada", "new_2": "Bo", "new_3": "Cy",
    })
    record = GameRecord.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/scorekeeping/{record.pk}/"
    assert [s.player.display_name for s in record.seats.order_by("seat_order")] == ["Ada", "Bo", "Cy"]
    assert record.seed == 42 and record.status == GameRecord.Status.IN_PROGRESS
    assert list(record.scorekeepers.all()) == [keeper]


@pytest.mark.parametrize(
    "form, message",
    [
        ({"game": HG, "seat_1": "Ada", "played_on": "2026-11-28"}, "This field is required."),
        ({"game": HG, "seat_1": "Ada", "seat_2": "Ada", "played_on": "2026-11-28"}, "Each player can take only one seat."),
        ({"game": "chess", "seat_1": "Ada", "seat_2": "Bo", "played_on": "2026-11-28"}, "Select a valid choice."),
        ({"game": HG, "seat_1": "Ada", "seat_2": "Bo", "seed": "-3", "played_on": "2026-11-28"}, "greater than or equal to 0"),
    ],
)
def test_a_bad_start_form_is_a_400_and_creates_nothing(keeper_client: Client, form, message):
    response = keeper_client.post("/scorekeeping/", form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not GameRecord.objects.exists() and not Player.objects.exists()


def test_the_record_page_shows_the_board_the_tile_drawn_and_whose_turn(keeper_client: Client, record):
    html = keeper_client.get(f"/scorekeeping/{record.pk}/").content.decode()
    kind, payload = simulated_events(2, 1)[0]
    assert f'<dd id="next-tile"><code>{payload["tile"]}</code></dd>' in html
    assert '<dd id="to-play">Ada</dd>' in html
    assert '<label for="id_action">Next action</label>' in html
    assert 'class="free-cell"' in html, "free places carry the coordinates to type"


def test_the_record_page_lists_where_the_drawn_tile_fits(keeper_client: Client, record):
    html = keeper_client.get(f"/scorekeeping/{record.pk}/").content.decode()
    state = get_engine(HG).new_state(2, 1)
    fits = [a.to_text() for a in state.legal_actions() if a.figure is None]
    assert re.findall(r'<li><code>(L\d+@[^<]+)</code></li>', html) == fits[:24] and fits


def test_a_legal_action_is_stored_and_the_page_moves_on(keeper_client: Client, record, keeper):
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0})
    assert response.status_code == 302
    event = Event.objects.get(record=record)
    kind, payload = simulated_events(2, 1)[0]
    assert (event.seq, event.type, event.payload["tile"], event.recorded_by) == (1, kind, payload["tile"], keeper)
    html = keeper_client.get(response["Location"]).content.decode()
    assert f"Recorded: {notation(0)}" in html
    assert '<dd id="to-play">Bo</dd>' in html
    assert 'name="expected_seq" value="1"' in html


def test_an_illegal_action_shows_the_engines_reason_as_a_422_and_stores_nothing(keeper_client: Client, record):
    drawn = simulated_events(2, 1)[0][1]["tile"]
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": f"{drawn}@0,0r0", "expected_seq": 0})

    assert response.status_code == 422
    html = response.content.decode()
    error = refusal(html)
    assert "a tile already lies at (0,0)" in error and '<code class="reason">occupied</code>' in error
    assert "Nothing was recorded." in error
    assert f'value="{drawn}@0,0r0"' in html and 'aria-invalid="true"' in html, "the action stays in the box"
    assert not Event.objects.filter(record=record).exists()


def test_the_wrong_tile_for_a_seeded_bag_is_refused(keeper_client: Client, record):
    drawn = simulated_events(2, 1)[0][1]["tile"]
    other = "L01" if drawn != "L01" else "L02"
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": f"{other}@0,1r0", "expected_seq": 0})
    assert response.status_code == 422
    assert f"the tile drawn is {drawn}, not {other}" in refusal(response.content.decode())
    assert not Event.objects.filter(record=record).exists()


@pytest.mark.parametrize(
    "form, status, reason",
    [
        ({"action": "L17 somewhere", "expected_seq": 0}, 400, "invalid_notation"),
        ({"action": "", "expected_seq": 0}, 400, None),
        ({"action": "undo", "expected_seq": 0}, 422, "nothing_to_undo"),
    ],
)
def test_malformed_input_is_refused_with_the_reason(keeper_client: Client, record, form, status, reason):
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", form)
    assert response.status_code == status
    html = response.content.decode()
    if reason:
        assert f'<code class="reason">{reason}</code>' in refusal(html)
    else:
        assert "This field is required." in refusal(html)
    assert not Event.objects.filter(record=record).exists()


def test_a_stale_form_is_a_409_and_keeps_the_other_writers_event(keeper_client: Client, record):
    assert keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0}).status_code == 302
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(1), "expected_seq": 0})
    assert response.status_code == 409
    assert '<code class="reason">seq_conflict</code>' in refusal(response.content.decode())
    assert list(Event.objects.filter(record=record).values_list("seq", flat=True)) == [1]


def test_undo_is_recorded_as_an_event_and_the_action_shown_struck_through(keeper_client: Client, record):
    keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0})
    assert keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": "undo", "expected_seq": 1}).status_code == 302
    assert list(Event.objects.filter(record=record).values_list("type", flat=True)) == [simulated_events(2, 1)[0][0], "undo"]
    html = keeper_client.get(f"/scorekeeping/{record.pk}/").content.decode()
    assert re.search(r"<del[^>]*><code>" + re.escape(notation(0)) + "</code></del>", html)


def test_someone_who_neither_keeps_nor_plays_gets_a_403_and_stores_nothing(client: Client, record):
    stranger = get_user_model().objects.create_user("stranger", password="stranger-pw-123456")
    client.force_login(stranger)
    response = client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0})
    assert response.status_code == 403
    assert "Only this record's scorekeepers and seated players" in response.content.decode()
    assert not Event.objects.filter(record=record).exists()


def test_a_seated_player_may_record(client: Client, record):
    player_user = get_user_model().objects.create_user("bo", password="bo-pw-123456")
    Player.objects.filter(display_name="Bo").update(user=player_user)
    client.force_login(player_user)
    assert client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0}).status_code == 302
    assert Event.objects.filter(record=record).count() == 1
