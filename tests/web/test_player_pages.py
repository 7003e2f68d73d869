"""Players, game by game: a Stone Age score (around 150) and a Carcassonne score (around 60) are
never averaged together, on the list or on a player's page; each game has its own table, its own
figures and its own rating chart; a game played only in private is not shown to outsiders.

Ada's games: Stone Age 150 and 170, Carcassonne 60 and 50 (public), Carcassonne 90 (private,
kept by a scorekeeper). Over every game her stored average would be 104.0 (107.5 without the
private game): a figure no page may show.
"""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from django.test import Client

from ludolog.web.history import engine_sources, sources_in_order
from records.models import Player
from scoring import projections, tasks
from scoring.models import PlayerStatistics
from tests.factories import result_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(keeper) -> Player:
    games = [
        ({"Ada": 150, "Bo": 140}, date(2026, 3, 1), "stone-age", {}),
        ({"Bo": 180, "Ada": 170}, date(2026, 3, 8), "stone-age", {}),
        ({"Ada": 60, "Bo": 55}, date(2026, 3, 2), "carcassonne", {}),
        ({"Bo": 70, "Ada": 50}, date(2026, 3, 9), "carcassonne", {}),
        ({"Ada": 90, "Bo": 20}, date(2026, 3, 15), "carcassonne", {"is_private": True, "created_by": keeper}),
        ({"Bo": 33, "Cy": 12}, date(2026, 3, 16), "hunters-gatherers", {"is_private": True, "created_by": keeper}),
    ]
    for scores, day, game, fields in games:
        tasks.score_record(result_game(scores, day, game=game, **fields).pk)
    return Player.objects.get(display_name="Ada")


def get(url: str, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    # The CSRF token (64 random letters and digits, new each answer) is set aside: a check that a
    # name such as "Cy" is absent would otherwise fail whenever the token happens to hold it.
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", response.content.decode())


def row(html: str, heading: str) -> list[str]:
    match = re.search(rf'<th scope="row">{heading}</th>(.*?)</tr>', html, re.S)
    assert match, f"no row headed {heading}"
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", match[1], re.S)]


def game_section(html: str, slug: str) -> str:
    match = re.search(rf'<section id="game-{slug}".*?</section>', html, re.S)
    return match.group(0) if match else ""


def test_no_score_is_averaged_over_every_game_and_none_is_shown(ada, keeper):
    overall = PlayerStatistics.objects.get(player=ada, game_slug=PlayerStatistics.ALL_GAMES)
    assert (overall.average_score, overall.best_score) == (None, None)
    for user in (None, keeper):
        for url in ("/players/", f"/players/{ada.pk}/"):
            html = get(url, user)
            assert "104.0" not in html and "107.5" not in html and "104" not in html, url


def test_the_list_has_one_table_per_game(ada, keeper):
    html = get("/players/")
    stone_age, carcassonne = game_section(html, "stone-age"), game_section(html, "carcassonne")
    link = rf'<a href="/players/{ada.pk}/">Ada</a>'
    # Games, wins, win rate, average score, best score: each game on its own scale.
    assert row(stone_age, link) == ["2", "1", "50 %", "160.0", "170"]
    assert row(carcassonne, link) == ["2", "1", "50 %", "55.0", "60"]
    assert "Stone Age" in stone_age and "2 games recorded · winning score 165 on average" in stone_age
    assert row(game_section(get("/players/", keeper), "carcassonne"), link) == ["3", "2", "67 %", "66.7", "90"]


def test_a_game_played_only_in_private_has_no_table_for_outsiders(ada, keeper):
    assert game_section(get("/players/"), "hunters-gatherers") == ""
    assert "Cy" not in get("/players/")
    kept = game_section(get("/players/", keeper), "hunters-gatherers")
    assert re.search(r'>Cy</a></th>', kept)


def test_the_player_page_gives_figures_per_game_and_counts_only_over_all_games(ada, keeper):
    html = get(f"/players/{ada.pk}/")
    statistics = html.split('<table id="player-statistics">')[1].split("</table>")[0]
    assert row(statistics, "Stone Age") == ["2", "1", "50 %", "160.0", "170"]
    assert row(statistics, "Carcassonne") == ["2", "1", "50 %", "55.0", "60"]
    assert row(statistics, "All games") == ["4", "2", "50 %", "—", "—"], "no score across games"
    assert "4 games recorded, 2 wins." in html
    kept = get(f"/players/{ada.pk}/", keeper)
    assert row(kept, "All games")[:2] == ["5", "3"]


def chart(html: str) -> dict:
    return json.loads(re.search(r'<script id="player-chart-data" type="application/json">(.*?)</script>', html, re.S)[1])


def test_a_rating_chart_per_game_numbered_by_the_players_games(ada, keeper):
    html = get(f"/players/{ada.pk}/")
    data = chart(html)
    assert data["x_axis"] == "number" and data["x_label"] == "Games played"
    # Most played first, then by name: two games each for the public.
    assert [line["label"] for line in data["series"]] == ["Carcassonne", "Stone Age"]
    assert [[point[0] for point in line["points"]] for line in data["series"]] == [[1, 2], [1, 2]]
    assert data["series"][1]["points"][0][2].startswith("03/01/2026: rank 1, rating ")
    figures = re.findall(r'<figure class="chart" id="([\w-]+)" data-chart-source="player-chart-data" '
                         r'data-chart-series="(\d)">\s*<figcaption>([^<]*)</figcaption>', html)
    assert figures == [("rating-chart-carcassonne", "0", "Carcassonne: rating after each game"),
                       ("rating-chart-stone-age", "1", "Stone Age: rating after each game")]
    assert html.count('<script id="player-chart-data"') == 1
    kept = chart(get(f"/players/{ada.pk}/", keeper))
    assert [len(line["points"]) for line in kept["series"]] == [3, 2], "her private Carcassonne game, for its keeper"


def test_the_results_table_lists_each_game_newest_first_with_its_rank_among_the_players(ada):
    html = get(f"/players/{ada.pk}/")
    results = html.split('<table id="player-results"')[1].split("</table>")[0]
    days = re.findall(r'<time datetime="([\d-]+)">', results)
    assert days == ["2026-03-09", "2026-03-08", "2026-03-02", "2026-03-01"]
    assert "2 of 2" in results and "1 of 2" in results


def test_points_by_source_follow_the_engines_order():
    assert engine_sources("stone-age")[:3] == ("buildings", "card_points", "starvation")
    # A breakdown read back from PostgreSQL's jsonb has its keys sorted by length, then bytes.
    jsonb = {"city": 10, "road": 4, "field": 6, "cloister": 9}
    assert sources_in_order("carcassonne", [jsonb]) == ["city", "road", "cloister", "field"]
    assert sources_in_order("carcassonne", [{"road": 1, "bridges": 2}, {"city": 3}]) == ["city", "road", "bridges"]
    assert sources_in_order("no-such-engine", [{"b": 1, "a": 2}]) == ["b", "a"]


def test_a_long_history_is_a_page_of_results_at_a_time_and_a_thinned_chart(keeper):
    """A player of many games: 50 results a page, newest first, with links to the others; a
    rating line of at most about 200 points, its first and last game kept."""
    from ludolog.web.charts import SERIES_POINTS
    from ludolog.web.players import PAGE_SIZE

    games = 2 * SERIES_POINTS + 5
    for n in range(games):
        day = date(2020, 1, 1).toordinal() + n
        result_game({"Ada": 10 + n % 7, "Bo": 12}, date.fromordinal(day), game="carcassonne")
    projections.rebuild_all()  # every game scored in one pass, as rebuild_projections does
    ada = Player.objects.get(display_name="Ada")
    html = get(f"/players/{ada.pk}/")
    results = html.split('<table id="player-results"')[1].split("</table>")[0]
    assert len(re.findall(r"<time datetime=", results)) == PAGE_SIZE
    assert f"Page 1 of {-(-games // PAGE_SIZE)}" in html and 'href="?page=2" rel="next"' in html
    last = get(f"/players/{ada.pk}/?page={-(-games // PAGE_SIZE)}")
    oldest = last.split('<table id="player-results"')[1].split("</table>")[0]
    assert re.findall(r'<time datetime="([\d-]+)">', oldest)[-1] == "2020-01-01"
    numbers = [point[0] for point in chart(html)["series"][0]["points"]]
    assert numbers[0] == 1 and numbers[-1] == games and len(numbers) <= SERIES_POINTS + 1
    assert numbers == sorted(numbers)


def test_thinning_keeps_the_ends_and_short_lines_whole():
    from ludolog.web.charts import thinned

    assert thinned(list(range(10)), 200) == list(range(10))
    assert thinned(list(range(1000)), 200) == list(range(0, 1000, 5)) + [999]
    assert thinned(list(range(1001)), 200) == list(range(0, 1001, 6)) + [1000]
    assert thinned([], 200) == []


def test_a_player_of_many_games_has_their_games_paged(client):
    """A club's imported history gives a player dozens of games: the page shows twenty at a time
    (their statistics, win rates and ratings), the most played first, so that a phone's page is
    not 45,000 pixels tall; the All games line counts them all on every page."""
    for number in range(45):
        for repeat in range(1 + (number == 7)):
            tasks.score_record(result_game({"Zoé": 10 + number, "Yann": 5}, date(2026, 1, 1 + repeat),
                                           game=f"game-{number:02d}").pk)
    zoe = Player.objects.get(display_name="Zoé")
    first = client.get(f"/players/{zoe.pk}/").content.decode()
    rows = re.findall(r"<th scope=\"row\">([^<]+)</th>", first.split('id="player-statistics"')[1].split("</tbody>")[0])
    assert len(rows) == 20 and "game-07" in rows[0], rows[:3]  # played twice: the most played first
    assert "?games=2" in first and "Games 1 to 20 of 45" in first
    assert re.search(r"All games</th>\s*<td class=\"number\">46</td>", first)
    last = client.get(f"/players/{zoe.pk}/?games=3").content.decode()
    rows = re.findall(r"<th scope=\"row\">([^<]+)</th>", last.split('id="player-statistics"')[1].split("</tbody>")[0])
    assert len(rows) == 5 and "Games 41 to 45 of 45" in last and "?games=2" in last
