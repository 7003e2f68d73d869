"""A player's name is trimmed and must show something: a name of spaces, zero-width characters or
other invisible ones names nobody, wherever it is typed (the API, a record file, the start form,
the admin), and is refused with a reason; nothing is created."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from records.errors import RecordError
from records.models import GameRecord, Player
from records.players import tidy_name
from records.services import SeatSpec, start_game
from tests.factories import HG

pytestmark = pytest.mark.django_db

INVISIBLE = [
    "   ", "\t\n", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200b \u2060\ufeff", "\u00a0", "\u3000",
    "\u2028", "\u00ad", "\u180e", "\u202e", "\u0301", "\u3164", "\u2800", "\x7f",
]
"""Spaces, zero-width and joiner characters, the byte order mark, no-break and ideographic spaces,
a line separator, a soft hyphen, direction marks, an accent on nothing, the Hangul filler, a blank
Braille cell and a control character."""


def nothing_created() -> None:
    assert GameRecord.objects.count() == 0
    assert not Player.objects.exclude(display_name__in=["Bo"]).exists()


@pytest.mark.parametrize("name", INVISIBLE)
def test_the_api_refuses_a_name_that_shows_nothing(keeper, name):
    api = APIClient()
    api.force_authenticate(keeper)
    response = api.post("/api/records/", {"game_slug": HG, "seed": 1, "seats": [{"player": name}, {"player": "Bo"}]},
                        format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["reason"] in ("invalid", "invalid_player_name") and body["detail"], body
    assert "seats" in (body.get("fields") or [body.get("field")])
    nothing_created()


@pytest.mark.parametrize("name", ["\u200b", "\u2060\ufeff", "\u3164"])
def test_a_record_file_naming_a_player_so_is_refused(keeper, name):
    document = {"format": "ludolog-record/1", "game": "chess", "ruleset_version": "-", "result_only": True,
                "players": [{"seat": 0, "name": name}, {"seat": 1, "name": "Bo"}], "setup": {"seed": None},
                "events": [{"seq": 1, "type": "result",
                            "payload": {"scores": [{"seat": 0, "score": 3}, {"seat": 1, "score": 1}]}}]}
    api = APIClient()
    api.force_authenticate(keeper)
    response = api.post("/api/records/import/", document, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["reason"] == "invalid_player_name" and response.json()["field"] == "seats"
    nothing_created()


@pytest.mark.parametrize("name", INVISIBLE)
def test_the_service_refuses_it_for_every_caller(name):
    with pytest.raises(RecordError) as refused:
        start_game(game_slug=HG, seed=1, seats=[SeatSpec("Bo"), SeatSpec(name)])
    assert refused.value.reason == "invalid_player_name" and refused.value.details == {"field": "seats", "seat": 1}
    nothing_created()


@pytest.mark.parametrize("name", ["\u200b", "\u00a0\u2060", "\u3164"])
def test_the_start_form_refuses_it_next_to_the_seat(client: Client, keeper, name):
    client.force_login(keeper)
    response = client.post("/scorekeeping/", {"game": HG, "played_on": "2026-11-28", "seat_1": "Bo", "seat_2": name,
                                              "new_1": "Bo", "new_2": name})
    assert response.status_code == 400
    errors = response.context["form"].errors.as_data()
    assert [error.code for error in errors["seat_2"]] == ["invisible_name"]
    nothing_created()


@pytest.mark.parametrize("name", ["\u200b", "   \u2060"])
def test_the_admin_refuses_it(client: Client, name):
    client.force_login(User.objects.create_user("staff", is_staff=True, is_superuser=True))
    response = client.post("/admin/records/player/add/", {"display_name": name})
    assert response.status_code == 400
    assert "A name needs at least one visible character." in response.content.decode()
    nothing_created()


@pytest.mark.parametrize("typed, kept", [
    ("  Zoé  Durand ", "Zoé Durand"), ("\u200bZoé\u2060", "Zoé"), ("\ufeff Zoé \u200d", "Zoé"),
    ("Chloe\u0301", "Chloe\u0301"), ("\U0001f468\u200d\U0001f373 Cook", "\U0001f468\u200d\U0001f373 Cook"),
])
def test_names_are_trimmed_of_what_does_not_show_at_their_ends(typed, kept):
    """An accent at the end belongs to its letter, and a joiner inside a name (an emoji's, a
    Persian word's) is part of it: only the ends are trimmed."""
    assert tidy_name(typed) == kept


def test_a_name_with_invisible_ends_finds_the_player_already_known(keeper):
    ada = Player.objects.create(display_name="Ada")
    api = APIClient()
    api.force_authenticate(keeper)
    response = api.post("/api/records/", {"game_slug": HG, "seed": 1,
                                          "seats": [{"player": "\u200bAda\ufeff"}, {"player": "Bo"}]}, format="json")
    assert response.status_code == 201
    assert GameRecord.objects.get().seats.get(seat_order=0).player == ada
    client = Client()
    client.force_login(User.objects.create_user("staff", is_staff=True, is_superuser=True))
    assert client.post("/admin/records/player/add/", {"display_name": " \u2060Cy\u200b "}).status_code == 302
    assert Player.objects.filter(display_name="Cy").exists()
