"""A player known only from games someone may not see stays unknown to them, whatever they type.

Typed names find their player among the players the typist may already see (records.selectors'
``visible_players``: seated at a game they may read, at no game yet, their own, or any as staff).
For anyone else a name known only from hidden games is a name nobody has yet:

- the start form asks to add it as a new player, word for word as for a name never used;
- once confirmed (or sent to the API) the seat takes a new player named as typed, e.g.
  "zqx authz secret", beside the hidden "Zqx AUTHZ Secret": the hidden spelling is never echoed,
  the hidden player stays out of every list, and staff may merge the two if they are one person;
- only a spelling that *is* the hidden player's name, character for character, seats that player
  (display names are unique): the answer then shows what was typed and nothing more, and the
  player's page shows the games the reader may see and no other;
- the start page suggests only visible players, and the API's ``player`` filters take only a
  visible player (a hidden one is refused as a missing one is).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from records.models import GameRecord, Player
from records.services import SeatSpec, start_game
from tests.factories import HG

pytestmark = pytest.mark.django_db

HIDDEN = "Zqx AUTHZ Secret"
TYPED = "zqx authz secret"
NEVER_USED = "qqq never used"


@pytest.fixture
def hidden_record() -> GameRecord:
    keeper = User.objects.create_user("keeper")
    start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1, created_by=keeper)
    return start_game(game_slug=HG, seats=[SeatSpec(HIDDEN), SeatSpec("Ada")], seed=2, created_by=keeper,
                      is_private=True)


@pytest.fixture
def stranger() -> User:
    return User.objects.create_user("stranger")


def web(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def reveals(text: str | bytes) -> bool:
    text = text.decode() if isinstance(text, bytes) else text
    return "AUTHZ" in text  # the hidden spelling's own part: "zqx authz secret" is what was typed


def anonymous_pages_know_nothing_of(hidden: Player, record: GameRecord) -> None:
    anonymous = web()
    for url in ("/players/", f"/games/{record.pk}/", "/games/", "/api/statistics/players/",
                f"/api/records/{record.pk}/", "/api/records/"):
        response = anonymous.get(url)
        assert response.status_code == 200, url
        assert not reveals(response.content), url
    listed = set(map(int, re.findall(r'href="/players/(\d+)/"', anonymous.get("/players/").content.decode())))
    assert hidden.pk not in listed
    assert anonymous.get(f"/players/{hidden.pk}/").status_code == 404


def test_the_api_seats_a_new_player_named_as_typed(hidden_record, stranger):
    hidden = hidden_record.seats.get(seat_order=0).player
    api = APIClient()
    api.force_authenticate(stranger)
    response = api.post("/api/records/", {"game_slug": HG, "seed": 3, "seats": [{"player": TYPED}, {"player": "Bo"}]},
                        format="json")
    assert response.status_code == 201, response.content
    assert not reveals(response.content)
    assert [seat["player"] for seat in response.json()["seats"]] == [TYPED, "Bo"]
    record = GameRecord.objects.get(pk=response.json()["id"])
    new = record.seats.get(seat_order=0).player
    assert new != hidden and new.display_name == TYPED
    assert hidden_record.seats.get(seat_order=0).player == hidden, "the hidden game is untouched"
    anonymous_pages_know_nothing_of(hidden, record)


def start_form(client: Client, first: str, **fields: str):
    return client.post("/scorekeeping/", {"game": HG, "played_on": "2026-11-28", "seat_1": first, "seat_2": "Bo",
                                          **fields})


def page_text(response, typed: str) -> str:
    """The page with the name typed, the CSRF tokens (masked anew for every answer) and the seed
    the page offers to draw with (picked anew for every answer), set aside."""
    page = re.sub(r"[A-Za-z0-9]{64}", "CSRF", response.content.decode().replace(typed, "NAME"))
    return re.sub(r'data-picked="\d+"', 'data-picked="SEED"', page)


def test_the_start_form_takes_a_hidden_name_for_a_new_one(hidden_record, stranger):
    hidden = hidden_record.seats.get(seat_order=0).player
    client = web(stranger)
    page = client.get("/scorekeeping/")
    assert page.status_code == 200 and not reveals(page.content)
    asked, never = start_form(client, TYPED), start_form(client, NEVER_USED)
    assert asked.status_code == never.status_code == 400
    assert page_text(asked, TYPED) == page_text(never, NEVER_USED), (
        "the form asks to add a hidden player's name as it asks for a name never used")
    assert "No player called “zqx authz secret” yet." in asked.content.decode()
    started = start_form(client, TYPED, new_1=TYPED)
    assert started.status_code == 302
    record = GameRecord.objects.get(pk=int(re.search(r"/scorekeeping/(\d+)/", started["Location"])[1]))
    shown = client.get(started["Location"], follow=True)
    assert shown.status_code == 200 and not reveals(shown.content)
    assert record.seats.get(seat_order=0).player.display_name == TYPED
    assert record.seats.get(seat_order=0).player != hidden
    anonymous_pages_know_nothing_of(hidden, record)


def test_the_hidden_players_own_spelling_seats_them_and_shows_only_what_was_typed(hidden_record, stranger):
    hidden = hidden_record.seats.get(seat_order=0).player
    api = APIClient()
    api.force_authenticate(stranger)
    response = api.post("/api/records/", {"game_slug": HG, "seed": 3, "seats": [{"player": HIDDEN}, {"player": "Bo"}]},
                        format="json")
    assert response.status_code == 201
    assert [seat["player"] for seat in response.json()["seats"]] == [HIDDEN, "Bo"]
    assert GameRecord.objects.get(pk=response.json()["id"]).seats.get(seat_order=0).player == hidden
    page = web().get(f"/players/{hidden.pk}/")
    assert page.status_code == 200 and f"/games/{hidden_record.pk}/" not in page.content.decode()
    assert web().get(f"/games/{hidden_record.pk}/").status_code == 404


def test_the_start_page_suggests_only_players_the_keeper_may_see(hidden_record, stranger):
    assert HIDDEN not in web(stranger).get("/scorekeeping/").content.decode()
    keeper = hidden_record.scorekeepers.get()
    assert HIDDEN in web(keeper).get("/scorekeeping/").content.decode(), "their keeper knows them"


@pytest.mark.parametrize("url", ["/api/statistics/players/", "/api/ratings/", "/api/ratings/history/"])
def test_a_hidden_player_is_answered_by_the_player_filters_as_a_missing_one(hidden_record, url):
    hidden = hidden_record.seats.get(seat_order=0).player
    missing = Player.objects.order_by("-pk").first().pk + 1000
    api = APIClient()
    answers = [api.get(url, {"player": pk}) for pk in (hidden.pk, missing)]
    assert answers[0].status_code == answers[1].status_code == 200 and answers[0].json()["results"] == []
    assert answers[0].content.replace(str(hidden.pk).encode(), b"ID") == answers[1].content.replace(
        str(missing).encode(), b"ID")
