"""A game someone may not see changes nothing they are shown, down to the byte.

Ada and Bo play two public games of Hunters and Gatherers (points from several sources, whose
names differ in length), then a private one. Whoever may not see the private game reads every
figure as before it was played: the API's statistics and ratings and the pages built on them are
the same bytes, figures, names, order of rows and order of keys alike. (The stored rows then
count the private game, and are worked out again for such readers from the games they may see.)
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from records.models import Player
from scoring import tasks
from tests.factories import play

pytestmark = pytest.mark.django_db

API = ["/api/statistics/players/", "/api/statistics/players/?game_slug=hunters-gatherers",
       "/api/statistics/games/", "/api/ratings/", "/api/ratings/history/"]
PAGES = ["/players/", "/players/{Ada}/", "/players/{Bo}/", "/games/", "/games/?player={Ada}", "/statistics/",
         "/statistics/hunters-gatherers/"]


def scored(**fields):
    record = play(2, **fields)
    tasks.score_record(record.pk)
    return record


def everything_shown(client: Client) -> dict[str, bytes]:
    ids = {name: Player.objects.get(display_name=name).pk for name in ("Ada", "Bo")}
    shown = {}
    for url in API + [page.format(**ids) for page in PAGES]:
        response = client.get(url)
        assert response.status_code == 200, url
        # A page's CSRF token is masked anew for every answer: the only bytes allowed to change.
        shown[url] = re.sub(rb"[A-Za-z0-9]{64}", b"CSRF", response.content)
    return shown


def test_a_private_game_between_two_visible_players_changes_no_byte_of_what_others_see():
    """Read by an anonymous visitor and by an unrelated user, before and after (one world for
    both readers: its games were most of each reader's test)."""
    scored(seed=1)
    scored(seed=2)
    readers = {"anonymous": Client(), "unrelated": Client()}
    readers["unrelated"].force_login(get_user_model().objects.create_user("stranger"))
    before = {viewer: everything_shown(client) for viewer, client in readers.items()}
    for viewer in readers:
        assert b'"average_by_source":{"' in before[viewer][API[1]], ("the rows carry points by source", viewer)
    keeper = get_user_model().objects.create_user("keeper")
    scored(seed=3, is_private=True, created_by=keeper)
    for viewer, client in readers.items():
        after = everything_shown(client)
        assert [url for url in before[viewer] if after[url] != before[viewer][url]] == [], viewer
    keeper_client = Client()
    keeper_client.force_login(keeper)
    assert everything_shown(keeper_client)[API[0]] != before["anonymous"][API[0]], "the keeper's figures count the game"
