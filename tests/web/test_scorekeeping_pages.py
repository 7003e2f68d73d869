"""The scorekeeping start page: a record started from the form (the recording page itself: test_recorder_pages)."""

from __future__ import annotations


import pytest
from django.test import Client

from games.registry import get_engine
from records.models import Event, GameRecord, Player
from tests.factories import HG, simulated_events

pytestmark = pytest.mark.django_db


def notation(index: int) -> str:
    kind, payload = simulated_events(2, 1)[index]
    return get_engine(HG).notation(kind, payload)


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
