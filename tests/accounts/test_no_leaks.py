"""Two organisations on one installation, and nothing of one in the other's lists (the leak test).

The demo's two organisations: the ludothèque with its club (A) and the Club des Dunes (B), each
with its members, league and games. For an anonymous visitor looking at A, a member of A, an
organiser of A, a librarian of A and the operator looking at A, no page or API list shows a
member, a league, a game or a figure of B; and B's organiser, looking at B, sees them (so the
markers looked for are B's, and the test can fail). Every list asks ``accounts.scoping``; this
holds them to it.
"""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, TestCase

from accounts.models import Organisation
from scoring.management.commands.load_demo import (
    SECOND_CLUB, SECOND_CLUB_LEAGUE, SECOND_CLUB_LOCATION, SECOND_CLUB_MEMBERS,
)

pytestmark = pytest.mark.django_db

A, B = "ludotheque-demo", SECOND_CLUB[0]
B_BOX = "DUNES-BOX-7"
"""The barcode of a box of B's own (the test gives it one): another library's boxes are not on A's shelves."""
B_MARKERS = [*SECOND_CLUB_MEMBERS, SECOND_CLUB_LEAGUE, SECOND_CLUB_LOCATION, B_BOX]
"""What only B has: its members' names, its league's name, where its games are played, its box.
(Its own name is in the switcher of every page: which organisations there are is no secret.)"""

PAGES = ["/", "/games/", "/players/", "/leagues/", "/statistics/", "/statistics/hunters-gatherers/"]
SIGNED_IN_PAGES = ["/scorekeeping/", "/scorekeeping/result/", "/account/"]
DESK_PAGES = ["/desk/", "/desk/usage/", "/library/households/", "/library/lending-rules/", "/library/volunteers/"]
API_LISTS = ["/api/leagues/", "/api/records/", "/api/statistics/players/", "/api/statistics/games/", "/api/ratings/",
             "/api/ratings/history/"]
VIEWERS = ["anonymous", "famille-martin", "organisateur", "bibliothecaire", "admin"]


@pytest.fixture(scope="module")
def demo(module_transaction, django_db_blocker):
    """The demo, small, loaded once for the module (its scoring run as the commits would run it)."""
    from ludolog.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_db_blocker.unblock(), TestCase.captureOnCommitCallbacks(execute=True):
            call_command("load_demo", "--games", "3", "--stone-age-games", "1", "--carcassonne-games", "1",
                         "--maps-games", "0", stdout=io.StringIO())
            call_command("load_demo_loans", stdout=io.StringIO())
            from games.models import CatalogueRecord, Copy

            Copy.objects.create(record=CatalogueRecord.objects.filter(engine_slug="stone-age").first(),
                                barcode=B_BOX, organisation=Organisation.objects.get(slug=B))
    finally:
        app.conf.task_always_eager = eager


def looking_at(slug: str, username: str) -> Client:
    client = Client()
    if username != "anonymous":
        client.force_login(get_user_model().objects.get(username=username))
    assert client.post("/organisations/switch/", {"organisation": slug}).status_code == 302
    return client


def shown(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code in (200, 302, 403), (path, answer.status_code)
    text = answer.content.decode()
    return json.dumps(answer.json(), ensure_ascii=False) if answer.get("Content-Type", "").startswith(
        "application/json") else text


def paths_for(username: str) -> list[str]:
    paths = PAGES + API_LISTS
    if username != "anonymous":
        paths += SIGNED_IN_PAGES
    if username in ("bibliothecaire", "admin"):
        paths += DESK_PAGES
    return paths


@pytest.mark.parametrize("viewer", VIEWERS)
def test_nothing_of_the_other_organisation_in_any_list(demo, viewer):
    client = looking_at(A, viewer)
    pages = {path: shown(client, path) for path in paths_for(viewer)}
    leaks = {path: [marker for marker in B_MARKERS if marker in text] for path, text in pages.items()}
    assert {path: found for path, found in leaks.items() if found} == {}


def test_the_other_organisations_own_people_see_its_things(demo):
    """B's organiser looking at B: its members, league and games are there (the markers are B's)."""
    client = looking_at(B, "dunes")
    players = shown(client, "/players/")
    assert all(name in players for name in SECOND_CLUB_MEMBERS)
    assert SECOND_CLUB_LEAGUE in shown(client, "/leagues/") and SECOND_CLUB_LEAGUE in shown(client, "/api/leagues/")
    assert SECOND_CLUB_LOCATION in shown(client, "/api/records/")
    assert B_BOX in shown(client, "/scorekeeping/")
    assert json.loads(shown(client, "/api/statistics/players/"))["count"] > 0
    assert Organisation.objects.get(slug=B).game_records.count() == 3
