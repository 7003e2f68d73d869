"""A name longer than a seat keeps (a player's ``display_name``, 100 characters) is refused on
every way in, never cut: the record service behind them all, the API, the start form, the result
form and the play files, each reading the one length from ``records.players.NAME_LENGTH``."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from plays_exchange import services as plays_services
from records import players
from records.models import GameRecord, Player
from records.players import NAME_LENGTH, NameTooLong
from records.serializers import SeatSerializer
from records.services import SeatSpec, start_game
from tests.factories import keeper_api

pytestmark = pytest.mark.django_db

LONGEST = "A" * NAME_LENGTH
TOO_LONG = "B" * (NAME_LENGTH + 1)


def test_the_length_is_the_player_model_s_and_every_way_in_reads_it():
    assert NAME_LENGTH == Player._meta.get_field("display_name").max_length == 100
    assert SeatSerializer().fields["player"].max_length == NAME_LENGTH
    assert plays_services.NAME_LENGTH is players.NAME_LENGTH


def test_the_service_refuses_a_name_too_long_and_keeps_the_longest_whole():
    with pytest.raises(NameTooLong) as refused:
        start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Ada"), SeatSpec(TOO_LONG)], seed=1)
    assert refused.value.reason == "player_name_too_long" and refused.value.details["seat"] == 1
    assert not GameRecord.objects.exists() and not Player.objects.exists()
    record = start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Ada"), SeatSpec(LONGEST)], seed=1)
    assert record.seats.get(seat_order=1).player.display_name == LONGEST


def test_the_api_refuses_a_name_too_long():
    answer = keeper_api().post("/api/records/", {
        "game_slug": "hunters-gatherers", "seed": 1,
        "seats": [{"player": "Ada"}, {"player": TOO_LONG}]}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["reason"] == "invalid" and answer.json()["fields"] == ["seats"]
    assert not GameRecord.objects.exists() and not Player.objects.exists()


def test_the_start_form_refuses_a_name_too_long(client: Client, keeper):
    client.force_login(keeper)
    answer = client.post("/scorekeeping/", {"game": "hunters-gatherers", "seat_1": "Ada", "seat_2": TOO_LONG,
                                            "played_on": "2026-11-28"})
    assert answer.status_code == 400
    assert "Ensure this value has at most 100 characters" in answer.content.decode()
    assert not GameRecord.objects.exists() and not Player.objects.exists()


def test_the_result_form_refuses_a_name_too_long(client: Client, keeper):
    client.force_login(keeper)
    answer = client.post("/scorekeeping/result/", {
        "played_on": dt.date(2026, 11, 28).isoformat(), "title": "Azul", "new_title": "Azul",
        "player_1": "Ada", "score_1": "61", "player_2": TOO_LONG, "score_2": "52"})
    assert answer.status_code == 400
    assert (f"Ensure this value has at most {NAME_LENGTH} characters (it has {NAME_LENGTH + 1})."
            in answer.context["form"].errors["player_2"])
    assert not GameRecord.objects.exists()
