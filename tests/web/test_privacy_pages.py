"""Private games stay private on the pages: players, games, leagues and the catalogue.

The world of ``tests/scoring/test_privacy.py``: the spring league's six public Stone Age games,
P1 (15 April 2026, Cy 99 and Ed 3, a league game) and P2 (20 June 2026, Pia 88 and Ada 7), both
private and kept by one scorekeeper; Ed's login is linked to his player. Whoever may not see a
private game reads each page as if it had never been played.
"""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from django.test import Client

from games.models import CatalogueRecord
from scoring import tasks
from tests.factories import result_game
from tests.scoring.test_privacy import SEES_P1, SEES_P2, VIEWERS, World, build_world

pytestmark = pytest.mark.django_db

P1_DAY = "April 15, 2026"
P2_DAY = "June 20, 2026"


@pytest.fixture(scope="module")
def world(module_transaction, django_db_blocker) -> World:
    """Built once for the module's tests (each test's own changes are rolled back)."""
    with django_db_blocker.unblock():
        return build_world()


def page(world: World, viewer: str, url: str, status: int = 200) -> str:
    client = Client()
    if world.users[viewer] is not None:
        client.force_login(world.users[viewer])
    response = client.get(url)
    assert response.status_code == status, url
    # The CSRF token (64 random letters and digits, new each answer) is set aside: "Pia" absent
    # from a page would otherwise fail whenever the token happens to spell it.
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", response.content.decode())


def cells(html: str, name: str) -> list[str]:
    """The cells of the table row headed by a link to the player ``name``, tags removed."""
    return row_cells(html, rf'<a href="/players/\d+/">{name}</a>')


def row_cells(html: str, heading: str) -> list[str]:
    """The text of the ``<td>`` cells of the row whose ``<th>`` matches ``heading``."""
    match = re.search(rf'<th scope="row">{heading}</th>(.*?)</tr>', html, re.S)
    assert match, f"no row headed {heading}"
    found = re.findall(r"<td[^>]*>(.*?)</td>", match.group(1), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in found]


def chart(html: str, data_id: str) -> dict:
    return json.loads(re.search(rf'<script id="{data_id}" type="application/json">(.*?)</script>', html, re.S).group(1))


@pytest.mark.parametrize("viewer", VIEWERS)
def test_player_list(world, viewer):
    html = page(world, viewer, "/players/")
    # Games, wins, win rate, average score, best score, over every game.
    if viewer in SEES_P1:
        assert cells(html, "Cy") == ["5", "3", "60 %", "47.8", "99"]
    else:
        assert cells(html, "Cy") == ["4", "2", "50 %", "35.0", "60"]
    assert ("Pia" in html) == (viewer in SEES_P2)
    assert cells(html, "Bo")[0] == "6"  # the public games are everybody's


@pytest.mark.parametrize("viewer", VIEWERS)
def test_player_page(world, viewer):
    cy = world.player("Cy")
    html = page(world, viewer, f"/players/{cy.pk}/")
    sees = viewer in SEES_P1
    assert (P1_DAY in html) == sees
    assert (f"/games/{world.p1.pk}/" in html) == sees
    assert (">99<" in html) == sees
    assert row_cells(html, "All games")[:2] == (["5", "3"] if sees else ["4", "2"])
    assert len(chart(html, "player-chart-data")["series"][0]["points"]) == (5 if sees else 4)
    # Cy's overall rating: the games counted are those the reader may see.
    ratings = re.search(r"<h2>Ratings</h2>(.*?)</table>", html, re.S).group(1)
    assert row_cells(ratings, "Stone Age")[3] == ("5" if sees else "4")  # rating, μ, σ, games
    assert "March 5, 2026" in html  # G1, public


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_page_of_a_player_known_only_from_a_private_game(world, viewer):
    pia = world.player("Pia")
    if viewer in SEES_P2:
        html = page(world, viewer, f"/players/{pia.pk}/")
        assert P2_DAY in html and ">88<" in html
    else:
        page(world, viewer, f"/players/{pia.pk}/", status=404)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_game_list_and_game_pages(world, viewer):
    html = page(world, viewer, "/games/")
    shown = re.findall(r'<tr data-record="(\d+)"', html)
    assert (str(world.p1.pk) in shown) == (viewer in SEES_P1)
    assert (str(world.p2.pk) in shown) == (viewer in SEES_P2)
    assert all(str(record.pk) in shown for record in world.public)
    assert (P1_DAY in html) == (viewer in SEES_P1)
    # Nor does the player filter name someone known only from a game the reader may not see.
    assert ("Pia" in html) == (viewer in SEES_P2)
    page(world, viewer, f"/games/{world.p1.pk}/", status=200 if viewer in SEES_P1 else 404)
    page(world, viewer, f"/games/{world.public[0].pk}/")


@pytest.mark.parametrize("viewer", VIEWERS)
def test_league_page(world, viewer):
    html = page(world, viewer, f"/leagues/{world.league.pk}/")
    sees = viewer in SEES_P1
    standings = html.split('<table id="standings">')[1].split("</table>")[0]
    # Games, wins, points, average rank, average score.
    assert cells(standings, "Cy")[:2] == (["5", "3"] if sees else ["4", "2"])
    ed_position = re.search(r'<td class="number">([^<]*)</td>\s*<th scope="row"><a href="/players/\d+/">Ed<', standings)
    assert ed_position.group(1) == ("5" if sees else "—")  # P1 is the second game Ed needed to be ranked
    series = {line["label"]: line["points"] for line in chart(html, "rating-chart-data")["series"]}
    p1_day = (date(2026, 4, 15) - world.league.starts_on).days
    assert (p1_day in [day for day, _rating in series["Cy"]]) == sees
    assert len(series["Ed"]) == (2 if sees else 1)
    assert (f"/games/{world.p1.pk}/" in html) == sees
    assert (P1_DAY in html) == sees


@pytest.mark.parametrize("viewer", VIEWERS)
def test_catalogue_record_counts_the_games_the_reader_may_see(world, viewer):
    box = CatalogueRecord.objects.create(title="Stone Age", min_players=2, max_players=4)
    for record in (world.public[0], world.p1):
        type(record).objects.filter(pk=record.pk).update(catalogue_record=box)
        tasks.score_record(record.pk)
    html = page(world, viewer, f"/catalogue/{box.pk}/")
    played = re.search(r"<dt>Times played</dt>\s*<dd>(.*?)</dd>", html, re.S).group(1)
    if viewer in SEES_P1:
        assert " ".join(played.split()) == f"2 times, last on {P1_DAY}"
    else:
        assert " ".join(played.split()) == "once, on March 5, 2026"
        assert P1_DAY not in html


def test_public_games_need_no_login():
    """A club whose games are all public reads the same everywhere, logged in or not."""
    record = result_game({"Ada": 10, "Bo": 20}, date(2026, 3, 5))
    tasks.score_record(record.pk)
    html = Client().get("/games/").content.decode()
    assert f'data-record="{record.pk}"' in html and "March 5, 2026" in html


@pytest.mark.parametrize("viewer", VIEWERS)
def test_catalogue_search_counts_the_games_the_reader_may_see(world, viewer):
    box = CatalogueRecord.objects.create(title="Stone Age", min_players=2, max_players=4)
    other = CatalogueRecord.objects.create(title="Another game", min_players=2, max_players=4)
    type(world.p1).objects.filter(pk=world.p1.pk).update(catalogue_record=box)
    type(world.p1).objects.filter(pk=world.public[0].pk).update(catalogue_record=other)
    for record in (world.p1, world.public[0]):
        tasks.score_record(record.pk)
    html = page(world, viewer, "/catalogue/?sort=played")
    rows = re.findall(r'<a href="/catalogue/\d+/">([^<]+)</a>', html)
    assert (f"played once, on {P1_DAY}" in html) == (viewer in SEES_P1)
    if viewer not in SEES_P1:
        assert rows.index("Another game") < rows.index("Stone Age"), "sorted by the games the reader may see"
