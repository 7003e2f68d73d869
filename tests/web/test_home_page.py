"""The home page, as each reader sees it: recent games with winners and scores, the leaders of
the leagues running today, the catalogue's newest boxes, the way to record a game, and a member's
own latest results; a private game only for those who may see it, in a few queries.

The world: a Stone Age league running today (Ada, Bo, Cy and Ed; 4-2-1 points for three players,
3-1 for two) with two public games, a public Carcassonne game outside the league, and a private
league game that Cy won against Ed, kept by a scorekeeper the league trusts. Ed's login is linked to his player.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import CatalogueRecord
from records.models import GameRecord, Player
from scoring import tasks
from scoring.models import Club, League, LeagueMembership
from tests.factories import result_game

pytestmark = pytest.mark.django_db


@dataclass
class Club_:
    public: list[GameRecord]
    private: GameRecord
    league: League
    users: dict
    boxes: list[CatalogueRecord]


def days_ago(days: int) -> date:
    return timezone.localdate() - timedelta(days=days)


def scored(scores: dict[str, int], played_on: date, game: str = "stone-age", **fields) -> GameRecord:
    record = result_game(scores, played_on, game=game, **fields)
    tasks.score_record(record.pk)
    return GameRecord.objects.get(pk=record.pk)


@pytest.fixture(scope="module")
def club(module_transaction, django_db_blocker) -> Club_:
    """Built once for the module's tests (each test's own changes are rolled back)."""
    with django_db_blocker.unblock():
        return build_club()


def build_club() -> Club_:
    users = get_user_model().objects
    people = {
        "anonymous": None,
        "keeper": users.create_user("keeper"),
        "member": users.create_user("ed"),
        "staff": users.create_user("staff", is_staff=True),
    }
    league = League.objects.create(
        club=Club.objects.create(name="Les Meeples"), name="Season", game_slugs=["stone-age"],
        starts_on=days_ago(60), ends_on=days_ago(-60), points_table={"3": [4, 2, 1], "2": [3, 1]},
    )
    for name in ("Ada", "Bo", "Cy", "Ed"):
        LeagueMembership.objects.create(league=league, player=Player.objects.get_or_create(display_name=name)[0])
    Player.objects.filter(display_name="Ed").update(user=people["member"])
    league.trusted_scorekeepers.add(people["keeper"])
    public = [
        scored({"Ada": 140, "Bo": 135, "Cy": 130}, days_ago(20)),
        scored({"Bo": 150, "Cy": 145, "Ada": 110}, days_ago(10)),
        scored({"Ada": 52, "Bo": 61}, days_ago(5), game="carcassonne"),
    ]
    private = scored({"Cy": 199, "Ed": 103}, days_ago(3), is_private=True, created_by=people["keeper"])
    boxes = [CatalogueRecord.objects.create(title=f"Box {number}") for number in range(1, 8)]
    return Club_(public, private, league, people, boxes)


def home(club: Club_, viewer: str) -> str:
    client = Client()
    if club.users[viewer] is not None:
        client.force_login(club.users[viewer])
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def section(html: str, name: str) -> str:
    match = re.search(rf'<section class="panel" id="{name}".*?</section>', html, re.S)
    return match.group(0) if match else ""


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def shown_games(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<li data-record="(\d+)"', section(html, "recent-games"))]


def leaders(html: str) -> list[str]:
    return re.findall(r'<li value="\d+"><a href="/players/\d+/">(\w+)</a>', section(html, "league-leaders"))


@pytest.mark.parametrize("viewer", ["anonymous", "member", "staff"])
def test_recent_games_newest_first_with_winner_and_scores(club, viewer):
    html = home(club, viewer)
    public = [record.pk for record in reversed(club.public)]
    sees_private = viewer != "anonymous"
    assert shown_games(html) == ([club.private.pk] if sees_private else []) + public
    games = section(html, "recent-games")
    carcassonne = games.split(f'data-record="{club.public[2].pk}"')[1].split("</li>\n    </ul>")[0]
    assert "Winner: Bo 61 Ada 52" in text(carcassonne), "the winner, their score, then the others by rank"
    assert f'href="/games/{club.public[2].pk}/"' in carcassonne
    # The private game's winning score as the list says it (an id of 199 shows in links too).
    assert ("Cy 199" in text(games)) == sees_private, "a private game's scores only for those who may see it"


def test_the_record_a_game_button_is_there_for_everyone(club):
    for viewer in ("anonymous", "member"):
        assert re.search(r'<a class="record-button" href="/scorekeeping/">Record a game</a>', home(club, viewer))


@pytest.mark.parametrize("viewer, expected", [
    ("anonymous", ["Bo", "Ada", "Cy"]),  # Bo 2+4, Ada 4+1, Cy 1+2: as if the private game had never been played
    ("member", ["Cy", "Bo", "Ada"]),     # Cy's private win counts: 1+2+3 = 6, level with Bo, more points scored
    ("staff", ["Cy", "Bo", "Ada"]),
])
def test_league_leaders_as_the_reader_may_see_the_table(club, viewer, expected):
    html = home(club, viewer)
    assert leaders(html) == expected
    assert "Bo 6 points · 2 games" in text(section(html, "league-leaders"))
    assert f'href="/leagues/{club.league.pk}/">Season</a>' in section(html, "league-leaders")


def test_a_league_that_is_over_or_not_started_has_no_leaders_on_the_home_page(club):
    League.objects.filter(pk=club.league.pk).update(starts_on=days_ago(400), ends_on=days_ago(300))
    html = home(club, "anonymous")
    assert leaders(html) == []
    assert "No league is running today." in html


def test_the_catalogues_newest_boxes_newest_first(club):
    html = section(home(club, "anonymous"), "new-in-catalogue")
    newest = list(reversed(club.boxes))[:6]
    assert re.findall(r'<a href="/catalogue/(\d+)/">', html) == [str(box.pk) for box in newest]
    assert "Box 1<" not in html


def test_a_member_sees_their_own_latest_games_and_results(club):
    html = home(club, "member")
    mine = section(html, "my-games")
    ed = Player.objects.get(display_name="Ed")
    assert f'href="/games/{club.private.pk}/"' in mine, "his private game: he sat at it"
    assert "Rank 2 of 2 · 103 points" in text(mine)
    assert f'href="/players/{ed.pk}/"' in mine
    assert f'href="/games/{club.public[0].pk}/"' not in mine, "only games he played"


@pytest.mark.parametrize("viewer", ["anonymous", "keeper", "staff"])
def test_no_member_panel_without_a_player_linked_to_the_login(club, viewer):
    assert section(home(club, viewer), "my-games") == ""


def test_a_won_game_reads_won(club):
    Player.objects.filter(display_name="Ed").update(user=None)
    Player.objects.filter(display_name="Cy").update(user=club.users["member"])
    mine = text(section(home(club, "member"), "my-games"))
    assert mine.count("Won") == 1 and "199 points" in mine


def test_private_games_are_left_out_of_everything_an_outsider_reads(club):
    html = home(club, "anonymous")
    assert f"/games/{club.private.pk}/" not in html
    assert "Ed" not in text(section(html, "recent-games"))


VIEWERS = ("anonymous", "member", "staff")


def test_a_handful_of_queries_whatever_the_clubs_size(club):
    """For every kind of reader, the same few queries for a club of 4 games as of 24 (the club
    grown once, every reader counted before and after). Grown past every list the page shows (8
    recent games, a member's 5, 6 boxes), so that each list is full: a query a row would show."""
    def count(viewer: str) -> int:
        client = Client()
        if club.users[viewer] is not None:
            client.force_login(club.users[viewer])
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/").status_code == 200
        return len(queries)

    small = {viewer: count(viewer) for viewer in VIEWERS}
    for day in range(10):
        scored({"Ada": 100 + day, "Bo": 120, "Cy": 90, "Ed": 80 + day}, days_ago(day + 1))
        scored({f"Guest {day}": 10, "Bo": 20}, days_ago(day + 1), game="carcassonne", is_private=day % 2 == 0,
               created_by=club.users["keeper"])
    for number in range(20):
        CatalogueRecord.objects.create(title=f"More {number}")
    large = {viewer: count(viewer) for viewer in VIEWERS}
    assert large == small, f"{small} queries for 4 games, {large} for 24"
    # Among them: the reader's organisations, which one the page is about and what they may do
    # there; who the league trusts; whether there is any organisation to scope the lists to.
    assert max(large.values()) <= 22
