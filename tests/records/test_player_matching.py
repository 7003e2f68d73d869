"""A name typed at the table finds its player whatever its case and accents: "alice" is Alice.

Migration 0005, which gives the players stored before it their keys, is tested with the event
chain's 0006 (``tests/records/test_event_integrity.py``, on SQLite and on PostgreSQL)."""

from __future__ import annotations

import doctest

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from records import players
from records.models import GameRecord, Player
from records.players import SamePlayerTwice, name_key, seat_players
from records.services import SeatSpec, start_game
from tests.factories import HG


def test_the_module_examples_hold():
    assert doctest.testmod(players).failed == 0


@pytest.mark.parametrize(
    "typed, key",
    [
        ("Alice", "alice"), ("ALICE ", "alice"), ("Alíce", "alice"), ("  alice", "alice"),
        ("Chloé", "chloe"), ("CHLOÉ", "chloe"), ("Chloe\u0301", "chloe"),  # é as e plus an accent
        ("Jean  Paul", "jean paul"), ("Jean\tPaul\n", "jean paul"),
        ("Straße", "strasse"), ("Ｆａｔｏｕ", "fatou"), ("İlkay", "ilkay"), ("Ana-María", "ana-maria"),
    ],
)
def test_a_name_key_folds_case_drops_accents_and_collapses_spaces(typed, key):
    assert name_key(typed) == key


def test_different_names_keep_different_keys():
    assert len({name_key(name) for name in ["Ana", "Anna", "Jean Paul", "Jean-Paul", "Bo", "Bea"]}) == 6


@pytest.mark.django_db
def test_a_player_keeps_the_key_of_its_display_name():
    chloe = Player.objects.create(display_name="Chloé")
    assert chloe.name_key == "chloe"
    chloe.display_name = "Chloé Martin"
    chloe.save(update_fields=["display_name"])
    chloe.refresh_from_db()
    assert chloe.name_key == "chloe martin"


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["alice", "ALICE ", "Alíce", "Alice"])
def test_any_spelling_of_alice_seats_the_alice_already_known(typed):
    alice = Player.objects.create(display_name="Alice")
    record = start_game(game_slug=HG, seats=[SeatSpec(typed), SeatSpec("Bastien")])
    assert record.seats.get(seat_order=0).player == alice
    assert Player.objects.filter(name_key="alice").count() == 1


@pytest.mark.django_db
def test_chloe_without_her_accent_is_chloe():
    chloe = Player.objects.create(display_name="Chloé")
    record = start_game(game_slug=HG, seats=[SeatSpec("Bastien"), SeatSpec("Chloe")])
    assert record.seats.get(seat_order=1).player == chloe


@pytest.mark.django_db
def test_a_new_name_creates_exactly_one_player_named_as_typed_without_stray_spaces():
    Player.objects.create(display_name="Alice")
    start_game(game_slug=HG, seats=[SeatSpec("Alice"), SeatSpec("  Zoé   Durand ")])
    assert list(Player.objects.values_list("display_name", flat=True)) == ["Alice", "Zoé Durand"]
    start_game(game_slug=HG, seats=[SeatSpec("zoe durand"), SeatSpec("ALICE")])
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_near_duplicates_already_stored_resolve_to_the_oldest():
    first = Player.objects.create(display_name="Alice")
    Player.objects.create(display_name="alice")  # recorded before names were matched
    assert seat_players(["ALICE", "Bo"])[0] == first
    assert seat_players(["alice", "Bo"])[0] == first


@pytest.mark.django_db
def test_two_spellings_of_one_player_cannot_take_two_seats_and_nothing_is_created():
    Player.objects.create(display_name="Chloé")
    with pytest.raises(SamePlayerTwice) as refusal:
        start_game(game_slug=HG, seats=[SeatSpec("Chloé"), SeatSpec("chloe")])
    assert refusal.value.reason == "duplicate_player" and refusal.value.details["seat"] == 1
    with pytest.raises(SamePlayerTwice):
        start_game(game_slug=HG, seats=[SeatSpec("Zoé"), SeatSpec("ZOE")])
    assert not GameRecord.objects.exists()
    assert list(Player.objects.values_list("display_name", flat=True)) == ["Chloé"]


@pytest.mark.django_db
def test_the_api_seats_the_known_player_for_any_spelling_and_refuses_one_player_twice():
    alice = Player.objects.create(display_name="Alice")
    api = APIClient()
    api.force_authenticate(User.objects.create_user("keeper", password="pw"))

    created = api.post("/api/records/", {
        "game_slug": HG, "seed": 1, "seats": [{"player": "alíce "}, {"player": "Zoé"}],
    }, format="json")
    assert created.status_code == 201, created.data
    assert [seat["player"] for seat in created.data["seats"]] == ["Alice", "Zoé"]
    assert GameRecord.objects.get().seats.get(seat_order=0).player == alice
    assert sorted(Player.objects.values_list("display_name", flat=True)) == ["Alice", "Zoé"]

    refused = api.post("/api/records/", {"game_slug": HG, "seats": [{"player": "Alice"}, {"player": "ALICE"}]},
                       format="json")
    assert refused.status_code == 400
    assert refused.data["reason"] == "duplicate_player" and refused.data["seat"] == 1
    assert GameRecord.objects.count() == 1
