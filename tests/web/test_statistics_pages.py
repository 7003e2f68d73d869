"""The club's statistics page and a game's, on a small club whose every figure is worked out by hand
below; a private game changes nothing those who may not see it are shown, and a reader's figures
(stored less the hidden games) equal those worked out from the visible games alone.

The club (seats in the order of play, scores; the highest wins, a tie shares the win):

    G1 1 Mar  Azul        Ada 50, Bo 40            copy A1   Ada wins (1st player)
    G2 8 Mar  Azul        Bo 61, Ada 55, Cy 30     copy A1   Bo wins (1st player)
    G3 2 Apr  Azul        Cy 70, Ada 70                      Cy and Ada share the win
    G4 9 Apr  Azul        Ada 44, Bo 47            copy A2   Bo wins (2nd player)
    G5 1 May  Stone Age   Ada 150, Bo 120                    Ada wins

By hand: 5 games of 2 different games by 3 players; H-index 1 (Azul 4 times, Stone Age once).
Azul: average winning score (50 + 61 + 70 + 47) / 4 = 57.0; two players: 3 games, the 1st player
won G1 and G3 (2 of 3: 67 %), the 2nd G3 and G4 (67 %); three players: 1 game, the 1st won it.
Azul scores by band of ten: 30–39: 1 (30), 40–49: 3 (40, 44, 47), 50–59: 2, 60–69: 1, 70–79: 2.
Players: Ada 5 games, 3 wins (60 %); Bo 4 games, 2 wins (50 %); Cy 2 games, 1 win (50 %).
Copies: A1 twice, A2 once.
"""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games.models import CatalogueRecord, Copy
from records.models import GameRecord
from scoring import selectors, statistics, tasks
from scoring.models import GameStatistics
from tests.factories import result_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    azul = CatalogueRecord.objects.create(title="Azul", min_players=2, max_players=4)
    a1 = Copy.objects.create(record=azul, barcode="A1", shelf_location="J-AZU-1")
    a2 = Copy.objects.create(record=azul, barcode="A2", shelf_location="J-AZU-2")
    games = [
        ({"Ada": 50, "Bo": 40}, date(2026, 3, 1), "azul", a1),
        ({"Bo": 61, "Ada": 55, "Cy": 30}, date(2026, 3, 8), "azul", a1),
        ({"Cy": 70, "Ada": 70}, date(2026, 4, 2), "azul", None),
        ({"Ada": 44, "Bo": 47}, date(2026, 4, 9), "azul", a2),
        ({"Ada": 150, "Bo": 120}, date(2026, 5, 1), "stone-age", None),
    ]
    for scores, day, game, copy in games:
        score(result_game(scores, day, game=game, copy=copy,
                          catalogue_record=azul if game == "azul" else None))
    return {"azul": azul}


def score(record: GameRecord) -> GameRecord:
    tasks.score_record(record.pk)
    return record


def chart(page: str, chart_id: str) -> dict[str, str]:
    """A chart's bars as {label: figure written beside it}."""
    found = re.search(rf'<figure class="bar-chart" id="{chart_id}">(.*?)</figure>', page, re.S)
    assert found, f"no chart {chart_id}"
    return {html.unescape(label): html.unescape(figure.strip()) for label, figure in re.findall(
        r'data-label="([^"]*)".*?data-testid="bar-figure">([^<]*)<', found.group(1), re.S)}


def shown(page: str, name: str) -> str:
    found = re.search(rf'data-testid="{name}">([^<]*)<', page)
    assert found, name
    return found.group(1).strip()


def test_the_club_page_shows_the_figures_worked_out_by_hand(club):
    page = Client().get("/statistics/").content.decode()
    assert (shown(page, "club-plays"), shown(page, "club-titles"), shown(page, "club-players"),
            shown(page, "club-h-index")) == ("5", "2", "3", "1")
    assert chart(page, "games-chart") == {"Azul": "4", "Stone Age": "1"}
    assert chart(page, "players-chart") == {"Ada": "60 %", "Bo": "50 %", "Cy": "50 %"}
    assert chart(page, "copies-chart") == {"Azul · A1": "2", "Azul · A2": "1"}
    months = chart(page, "months-chart")
    assert (months["March 2026"], months["April 2026"], months["May 2026"], months["June 2026"]) == ("2", "2", "1", "0")
    # Azul is played at two players most (3 games): the 1st player won 2 of them.
    assert re.search(r'data-game="azul">.*?67 %', page, re.S)
    assert re.search(r'data-game="azul">.*?57\.0', page, re.S)


def test_the_game_page_shows_scores_and_seat_order_worked_out_by_hand(club):
    page = Client().get("/statistics/azul/").content.decode()
    assert "Azul: statistics" in page
    assert (shown(page, "game-plays"), shown(page, "average-winning-score")) == ("4", "57.0")
    assert chart(page, "scores-chart") == {"30–39": "1", "40–49": "3", "50–59": "2", "60–69": "1", "70–79": "2"}
    assert chart(page, "seat-chart-2") == {"1st player": "67 %", "2nd player": "67 %"}
    assert chart(page, "seat-chart-3") == {"1st player": "100 %", "2nd player": "0 %", "3rd player": "0 %"}
    # Ada: G1 won, G2 lost, G3 shared, G4 lost: 2 of 4. Bo: G2 and G4 of G1, G2, G4. Cy: G3 of 2.
    assert chart(page, "game-players-chart") == {"Ada": "50 %", "Bo": "67 %", "Cy": "50 %"}
    assert chart(page, "game-copies-chart") == {"Azul · A1": "2", "Azul · A2": "1"}
    assert f'href="/catalogue/{club["azul"].pk}/"' in page
    assert 'id="game-ratings"' in page and "±" in page


def test_the_pages_in_french():
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    score(result_game({"Ada": 50, "Bo": 40}, date(2026, 3, 1), game="azul"))
    page = client.get("/statistics/").content.decode()
    assert "Statistiques du club" in page and "Parties jouées" in page
    page = client.get("/statistics/azul/").content.decode()
    assert "Taux de victoire selon l’ordre de jeu" in page and "1er joueur" in page


def test_a_game_nobody_may_see_is_not_found():
    keeper = get_user_model().objects.create_user("keeper")
    score(result_game({"Ada": 50, "Bo": 40}, date(2026, 3, 1), game="secret-game", is_private=True, created_by=keeper))
    assert Client().get("/statistics/secret-game/").status_code == 404
    assert Client().get("/statistics/no-such-game/").status_code == 404
    seen = Client()
    seen.force_login(keeper)
    assert seen.get("/statistics/secret-game/").status_code == 200


def test_a_private_game_changes_nothing_others_see_and_counts_for_those_who_may(club):
    anonymous, staff = Client(), Client()
    staff.force_login(get_user_model().objects.create_user("librarian", is_staff=True))
    before = {url: anonymous.get(url).content.decode() for url in ("/statistics/", "/statistics/azul/")}
    keeper = get_user_model().objects.create_user("keeper")
    score(result_game({"Cy": 90, "Bo": 10, "Dee": 5}, date(2026, 4, 20), game="azul", is_private=True,
                      created_by=keeper, copy=Copy.objects.get(barcode="A2")))
    for url, page in before.items():
        assert strip_csrf(anonymous.get(url).content.decode()) == strip_csrf(page), url
    page = staff.get("/statistics/").content.decode()
    assert (shown(page, "club-plays"), shown(page, "club-players")) == ("6", "4")
    assert chart(page, "copies-chart") == {"Azul · A1": "2", "Azul · A2": "2"}
    page = staff.get("/statistics/azul/").content.decode()
    assert chart(page, "seat-chart-3")["1st player"] == "100 %" and shown(page, "game-plays") == "5"


def strip_csrf(page: str) -> str:
    return re.sub(r"[A-Za-z0-9]{64}", "CSRF", page)


def test_a_readers_figures_less_the_hidden_games_equal_those_of_the_visible_games_alone(club):
    """The subtraction the pages rely on, against the figures worked out from the visible records."""
    keeper = get_user_model().objects.create_user("keeper")
    for scores, game in (({"Cy": 90, "Bo": 10, "Dee": 5}, "azul"), ({"Bo": 81, "Ada": 12}, "azul"),
                         ({"Dee": 130, "Cy": 70}, "stone-age"), ({"Dee": 40, "Eve": 7}, "hanabi")):
        score(result_game(scores, date(2026, 4, 20), game=game, is_private=True, created_by=keeper))
    seen = {row.game_slug: row for row in selectors.games_played(AnonymousUser())}
    visible = GameRecord.objects.filter(is_private=False)
    assert set(seen) == {"azul", "stone-age"}  # hanabi was only played in private
    fields = ["games", "average_winning_score", "score_distribution", "seat_advantage", "player_counts",
              "winning_scores", "winning_total", "timed_games", "duration_total", "average_duration_seconds", "title"]
    for slug, row in seen.items():
        direct = statistics.game_row(slug, visible)
        assert {name: getattr(row, name) for name in fields} == {name: getattr(direct, name) for name in fields}
    stored = GameStatistics.objects.get(game_slug="azul")
    assert stored.games == 6 and seen["azul"].games == 4


def test_what_a_reader_was_shown_from_the_cache_follows_new_games_and_games_made_public(club):
    """Readers who may not see every game get figures kept in the cache: a new game, or a private
    one made public, shows at their next reading."""
    keeper = get_user_model().objects.create_user("keeper")
    private = score(result_game({"Cy": 90, "Bo": 10}, date(2026, 4, 20), game="azul", is_private=True,
                                created_by=keeper))
    anonymous = Client()
    page = anonymous.get("/statistics/azul/").content.decode()
    assert shown(page, "game-plays") == "4" and chart(page, "game-players-chart")["Cy"] == "50 %"
    assert shown(anonymous.get("/statistics/").content.decode(), "club-plays") == "5"

    score(result_game({"Cy": 80, "Ada": 20}, date(2026, 4, 21), game="azul"))
    page = anonymous.get("/statistics/azul/").content.decode()
    assert shown(page, "game-plays") == "5" and chart(page, "game-players-chart")["Cy"] == "67 %"
    assert shown(anonymous.get("/statistics/").content.decode(), "club-plays") == "6"

    GameRecord.objects.filter(pk=private.pk).update(is_private=False)
    page = anonymous.get("/statistics/azul/").content.decode()
    assert shown(page, "game-plays") == "6" and chart(page, "game-players-chart")["Cy"] == "75 %"
    assert shown(anonymous.get("/statistics/").content.decode(), "club-plays") == "7"


def test_the_players_page_charts_their_win_rate_in_each_game(club):
    from records.models import Player

    ada = Player.objects.get(display_name="Ada")
    page = Client().get(f"/players/{ada.pk}/").content.decode()
    # Azul: won G1, shared G3, lost G2 and G4 (2 of 4); Stone Age: won G5.
    assert chart(page, "player-win-rates") == {"Azul": "50 %", "Stone Age": "100 %"}
    assert 'href="/statistics/azul/"' in page
