"""Game history, player and league pages, read as a club member reads them."""

from __future__ import annotations

import json
import re
from datetime import date
from functools import lru_cache

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from records.files import import_document, simulate_document
from records.models import Event, GameRecord
from records.services import SeatSpec, append_event, start_game
from scoring import tasks
from scoring.models import Club, League, LeagueMembership, RatingChange, SeatResult
from tests.factories import HG, simulated_events

pytestmark = pytest.mark.django_db


@lru_cache(maxsize=None)
def simulated_file(names: tuple[str, ...], seed: int) -> str:
    """Simulating a game is the slow part (legal moves each turn): once per test session."""
    return json.dumps(simulate_document(HG, len(names), seed, list(names)))


def finished_game(names: list[str], seed: int, played_on: str, **fields) -> GameRecord:
    document = json.loads(simulated_file(tuple(names), seed))
    document["played_on"] = played_on
    record = import_document(document)
    if fields:
        GameRecord.objects.filter(pk=record.pk).update(**fields)
    tasks.score_record(record.pk)
    return GameRecord.objects.get(pk=record.pk)


@pytest.fixture
def club_games() -> dict[str, GameRecord]:
    return {
        "spring": finished_game(["Ada", "Bo"], 11, "2026-03-10"),
        "summer": finished_game(["Ada", "Cy", "Di"], 12, "2026-07-02"),
        "autumn": finished_game(["Bo", "Cy"], 13, "2026-10-20"),
        "private": finished_game(["Di", "Ed"], 14, "2026-10-21", is_private=True),
    }


def rows(html: str) -> list[str]:
    return re.findall(r'<tr data-record="(\d+)"', html)


def test_the_list_shows_each_game_with_date_players_scores_winner_and_replay_link(client: Client, club_games):
    html = client.get("/games/").content.decode()

    public = [club_games[k] for k in ("autumn", "summer", "spring")]
    assert rows(html) == [str(r.pk) for r in public], "newest first, the private game hidden"
    summer = club_games["summer"]
    results = list(SeatResult.objects.filter(record=summer).select_related("player").order_by("seat__seat_order"))
    row = html.split(f'<tr data-record="{summer.pk}"')[1].split("</tr>")[0]
    assert "July 2, 2026" in row
    for result in results:
        assert re.search(rf">{result.player.display_name}</a> {result.score}<", row)
    winners = ", ".join(r.player.display_name for r in results if r.rank == 1)
    assert f'<td data-label="Winner">{winners}</td>' in row
    assert f'href="/games/{summer.pk}/replay/"' in row
    assert "3 games" in html


@pytest.mark.parametrize(
    "query, expected",
    [
        ("game=hunters-gatherers", ["autumn", "summer", "spring"]),
        ("player={Ada}", ["summer", "spring"]),
        ("played_from=2026-06-01&played_to=2026-09-30", ["summer"]),
        ("played_from=2026-07-03", ["autumn"]),
        ("status=finished&player={Bo}", ["autumn", "spring"]),
        ("status=in_progress", []),
    ],
)
def test_filters_narrow_the_list(client: Client, club_games, query, expected):
    from records.models import Player

    ids = {name: Player.objects.get(display_name=name).pk for name in ("Ada", "Bo")}
    html = client.get("/games/?" + query.format(**ids)).content.decode()
    assert rows(html) == [str(club_games[key].pk) for key in expected]


def test_the_league_filter_keeps_the_games_that_count_for_the_league(client: Client, club_games):
    league = League.objects.create(
        club=Club.objects.create(name="Les Meeples"), name="Autumn", game_slugs=[HG],
        starts_on=date(2026, 9, 1), ends_on=date(2026, 12, 31),
    )
    for player in club_games["autumn"].seats.values_list("player", flat=True):
        LeagueMembership.objects.create(league=league, player_id=player)
    html = client.get(f"/games/?league={league.pk}").content.decode()
    assert rows(html) == [str(club_games["autumn"].pk)]


@pytest.mark.parametrize(
    "query", ["played_from=2026-12-01&played_to=2026-01-01", "player=999999", "status=won", "played_from=yesterday"]
)
def test_bad_filters_answer_400_with_the_reason(client: Client, club_games, query):
    response = client.get("/games/?" + query)
    assert response.status_code == 400
    html = response.content.decode()
    assert rows(html) == []
    assert 'class="error" role="alert"' in html


def test_a_private_game_is_listed_for_its_players(client: Client, club_games):
    user = get_user_model().objects.create_user("di", password="pw-di-123456")
    club_games["private"].seats.get(player__display_name="Di").player.__class__.objects.filter(
        display_name="Di").update(user=user)
    client.force_login(user)
    assert str(club_games["private"].pk) in rows(client.get("/games/").content.decode())
    assert client.get(f"/games/{club_games['private'].pk}/").status_code == 200


def test_a_private_game_is_not_found_by_others(client: Client, club_games):
    pk = club_games["private"].pk
    assert client.get(f"/games/{pk}/").status_code == 404
    assert client.get(f"/games/{pk}/replay/").status_code == 404
    assert client.get(f"/games/{pk}/replay/board/?at=1").status_code == 404


def test_the_record_page_shows_seats_results_and_events_with_retracted_ones_struck_through(client: Client):
    record = start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1, location="Le Dé Rouge")
    events = simulated_events(2, 1)
    append_event(record, 0, *events[0])
    append_event(record, 1, "undo", {})
    append_event(record, 2, *events[0])
    html = client.get(f"/games/{record.pk}/").content.decode()

    assert "Le Dé Rouge" in html and "in progress" in html
    assert ">Ada</a>" in html and ">Bo</a>" in html
    first = Event.objects.get(record=record, seq=1)
    lines = re.findall(r'<li value="(\d+)" data-seq="\d+"[^>]*>(.*?)</li>', html, re.S)
    assert [seq for seq, _ in lines] == ["1", "2", "3"]
    assert "<del" in lines[0][1] and "taken back by event 2" in lines[0][1]
    assert "<del" not in lines[2][1]
    assert first.payload["tile"] in lines[0][1]
    assert "takes back the last move" in lines[1][1]  # words; the notation is the experts'
    notation = re.search(r'<details class="technical expert" data-testid="event-notation">(.*?)</details>', html, re.S)[1]
    assert "<code>undo</code>" in notation and f"<code>{first.payload['tile']}" in notation
    assert "No results yet" in html


def test_a_finished_record_page_shows_ranks_scores_and_points_by_source(client: Client, club_games):
    record = club_games["spring"]
    html = client.get(f"/games/{record.pk}/").content.decode()
    for result in SeatResult.objects.filter(record=record):
        assert f'<td class="number">{result.score}</td>' in html
    assert ">Rivers<" in html and ">Hunters<" in html
    assert f'href="/games/{record.pk}/replay/"' in html


def test_the_players_list_and_page_show_results_statistics_and_the_chart_data(client: Client, club_games):
    from records.models import Player

    ada = Player.objects.get(display_name="Ada")
    html = client.get("/players/").content.decode()
    assert f'href="/players/{ada.pk}/">Ada</a>' in html

    html = client.get(f"/players/{ada.pk}/").content.decode()
    results = SeatResult.objects.filter(player=ada).select_related("record").order_by("record__played_on")
    assert [r.record.played_on for r in results] == [date(2026, 3, 10), date(2026, 7, 2)]
    chart = json.loads(re.search(r'<script id="player-chart-data" type="application/json">(.*?)</script>', html, re.S)[1])
    changes = RatingChange.objects.filter(player=ada, club__isnull=True).order_by("played_on")
    assert [point[:2] for point in chart["series"][0]["points"]] == [
        [number, round(change.ordinal, 2)] for number, change in enumerate(changes, start=1)
    ], "her rating after each of her games, numbered"
    assert html.index("July 2, 2026") < html.index("March 10, 2026"), "newest result first in the table"
    assert f'<td class="number">{len(results)}</td>' in html, "games played, in the statistics"


def test_unknown_player_and_league_are_404(client: Client):
    assert client.get("/players/999/").status_code == 404
    assert client.get("/leagues/999/").status_code == 404


def test_the_league_pages_show_standings_and_the_rating_chart(client: Client, club_games):
    club = Club.objects.create(name="Les Meeples")
    league = League.objects.create(
        club=club, name="Season 2026", game_slugs=[HG], starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31),
        points_table={"2": [3, 1], "3": [4, 2, 1]},
    )
    from records.models import Player

    for player in Player.objects.filter(display_name__in=["Ada", "Bo", "Cy", "Di"]):
        LeagueMembership.objects.create(league=league, player=player)
    for key in ("spring", "summer", "autumn"):
        tasks.score_record(club_games[key].pk)

    html = client.get("/leagues/").content.decode()
    assert f'href="/leagues/{league.pk}/">Season 2026</a>' in html and "Les Meeples" in html

    html = client.get(f"/leagues/{league.pk}/").content.decode()
    standings = re.findall(r'<td class="number">(\d+)</td>\s*<th scope="row"><a href="/players/\d+/">(\w+)</a>', html)
    assert len(standings) == 4 and standings[0][0] == "1"
    chart = json.loads(re.search(r'<script id="rating-chart-data" type="application/json">(.*?)</script>', html, re.S)[1])
    assert sorted(line["label"] for line in chart["series"]) == ["Ada", "Bo", "Cy", "Di"]
    ada = next(line for line in chart["series"] if line["label"] == "Ada")
    assert [point[0] for point in ada["points"]] == [(date(2026, 3, 10) - date(2026, 1, 1)).days,
                                                     (date(2026, 7, 2) - date(2026, 1, 1)).days]


def test_the_list_pages_keep_the_filters_from_page_to_page(client: Client, monkeypatch):
    from ludolog.web import history

    monkeypatch.setattr(history, "PAGE_SIZE", 2)
    logged = [
        start_game(game_slug="stone-age", seats=[SeatSpec("Ada"), SeatSpec("Bo")], result_only=True,
                   played_on=date(2026, 5, day))
        for day in range(1, 6)
    ]
    for record in logged:
        append_event(record, 0, "result", {"scores": [{"seat": 0, "score": 3}, {"seat": 1, "score": 1}]})
    start_game(game_slug="stone-age", seats=[SeatSpec("Cy"), SeatSpec("Di")], result_only=True,
               played_on=date(2026, 5, 9))  # in progress: filtered out
    first = client.get("/games/?status=finished").content.decode()
    assert rows(first) == [str(r.pk) for r in logged[:2:-1]][:2]
    assert 'href="?status=finished&amp;page=2" rel="next"' in first and "Page 1 of 3" in first
    second = client.get("/games/?status=finished&page=2").content.decode()
    assert rows(second) == [str(logged[2].pk), str(logged[1].pk)]
    assert 'href="?status=finished&amp;page=1" rel="prev"' in second
    assert 'href="?status=finished&amp;page=3" rel="next"' in second


def test_the_players_list_pages(client: Client, monkeypatch):
    from ludolog.web import players

    monkeypatch.setattr(players, "PAGE_SIZE", 2)
    for name in ("Ada", "Bo", "Cy"):
        start_game(game_slug="stone-age", seats=[SeatSpec(name), SeatSpec("Zed")], result_only=True)
    first = client.get("/players/").content.decode()
    assert 'href="?page=2" rel="next"' in first and "Page 1 of 2" in first
    second = client.get("/players/?page=2").content.decode()
    assert "Zed" in second and "Ada" not in second and 'href="?page=1" rel="prev"' in second


def test_the_record_page_ranks_the_players_and_lists_sources_in_the_engines_order(client: Client, club_games):
    record = club_games["summer"]
    html = client.get(f"/games/{record.pk}/").content.decode()
    table = html.split('<table id="game-results"')[1].split("</table>")[0]
    results = sorted(SeatResult.objects.filter(record=record).select_related("player", "seat"),
                     key=lambda result: (result.rank, result.seat.seat_order))
    assert re.findall(r'<a href="/players/\d+/">(\w+)</a>', table) == [r.player.display_name for r in results]
    assert re.findall(r'<td class="number">(\d+)</td>\s*<th scope="row">', table) == [str(r.rank) for r in results]
    # The replay page's order (the engine's: rivers, forests, huts, hunters), not the alphabet's.
    headings = re.findall(r'<th scope="col" class="number">([^<]+)</th>', table)
    assert headings == ["Rank", "Score", "Rivers", "Forests", "Huts", "Hunters", "Order of play"]
    first = results[0]
    cells = table.split(f">{first.player.display_name}</a></th>")[1].split("</tr>")[0]
    assert re.findall(r'<td class="number">(-?\d+)</td>', cells) == [
        str(first.score), *(str(first.breakdown[source]) for source in ("river", "forest", "hut", "hunter")),
        str(first.seat.seat_order + 1),
    ]


def test_the_ruleset_and_the_seed_are_folded_under_technical_details(client: Client, club_games):
    record = club_games["spring"]
    assert record.ruleset_version and record.seed is not None
    html = client.get(f"/games/{record.pk}/").content.decode()
    fold = re.search(r'<details class="technical">(.*?)</details>', html, re.S)
    assert fold and "<summary>Technical details</summary>" in fold[1]
    assert f"<code>{record.ruleset_version}</code>" in fold[1] and f"<code>{record.seed}</code>" in fold[1]
    outside = html.replace(fold[0], "")
    assert ">Ruleset<" not in outside and ">Seed<" not in outside
    assert html.index("</details>") < html.index('<ol class="event-list"'), "the events follow the fold"


def test_a_record_without_results_keeps_its_players_in_seat_order(client: Client):
    record = start_game(game_slug=HG, seats=[SeatSpec("Zed"), SeatSpec("Ada"), SeatSpec("Mo")], seed=3)
    html = client.get(f"/games/{record.pk}/").content.decode()
    table = html.split('<table id="game-results"')[1].split("</table>")[0]
    assert re.findall(r'<a href="/players/\d+/">(\w+)</a>', table) == ["Zed", "Ada", "Mo"]
    assert "No results yet" in html


@pytest.mark.parametrize("chosen", [None, "Bo & <Co>"])
def test_the_long_player_select_writes_what_djangos_select_writes(chosen: str | None) -> None:
    """The games list's player select is written in one pass (a club of 2,000 players); its
    HTML is Django's own Select's, escaping and the chosen player included."""
    from django import forms
    from django.test.html import parse_html

    from ludolog.web.history import HistoryFilter
    from records.models import Player
    from scoring.models import League

    for name in ("Ada", "Bo & <Co>", "Zoë"):
        Player.objects.create(display_name=name)
    players = Player.objects.order_by("display_name")
    data = {"player": str(players.get(display_name=chosen).pk)} if chosen else None
    leagues = League.objects.none()
    ours = HistoryFilter(data, slugs=[], players=players, leagues=leagues)["player"]
    theirs = HistoryFilter(data, slugs=[], players=players, leagues=leagues)
    theirs.fields["player"].widget = forms.Select(choices=theirs.fields["player"].choices)
    assert parse_html(str(ours)) == parse_html(str(theirs["player"]))
    assert str(ours).count("<option") == 4 and "Bo &amp; &lt;Co&gt;" in str(ours)
    selected = re.findall(r'<option value="([^"]*)" selected>', str(ours))
    assert selected == [data["player"] if data else ""]


def test_the_games_filter_offers_the_games_of_the_records_each_reader_may_see():
    """``visible_game_slugs`` (one index step per game) lists what a DISTINCT over the reader's
    visible records lists: a game played only in a private record is offered to its keeper and
    to staff, not to others."""
    from records.models import Player
    from scoring import selectors

    User = get_user_model()
    keeper, other = User.objects.create_user("keeper"), User.objects.create_user("other")
    staff = User.objects.create_user("staff", is_staff=True)
    for slug, private in (("hunters-gatherers", False), ("stone-age", False), ("hunters-gatherers", True),
                          ("carcassonne", True), ("zz-result-only", False)):
        record = GameRecord.objects.create(game_slug=slug, played_on=date(2026, 1, 1), is_private=private,
                                           created_by=keeper)
        if private:
            record.scorekeepers.add(keeper)
    Player.objects.create(display_name="Nobody")
    for reader in (AnonymousUser(), keeper, other, staff):
        expected = sorted(set(selectors.visible_records(reader).values_list("game_slug", flat=True)))
        assert selectors.visible_game_slugs(reader) == expected
    assert "carcassonne" in selectors.visible_game_slugs(keeper) and "carcassonne" not in selectors.visible_game_slugs(other)
    assert selectors.visible_game_slugs(staff) == ["carcassonne", "hunters-gatherers", "stone-age", "zz-result-only"]


def test_only_visible_narrows_as_visible_records_does():
    from records.models import Player, Seat
    from scoring import selectors

    User = get_user_model()
    keeper, sitter, other = (User.objects.create_user(name) for name in ("keeper", "sitter", "other"))
    staff = User.objects.create_user("staff", is_staff=True)
    seated = Player.objects.create(display_name="Sitter", user=sitter)
    for index, private in enumerate((False, True, True, False)):
        record = GameRecord.objects.create(game_slug=HG, played_on=date(2026, 1, 1 + index), is_private=private)
        if index == 1:
            record.scorekeepers.add(keeper)
        if index == 2:
            Seat.objects.create(record=record, player=seated, seat_order=0)
    some = GameRecord.objects.filter(played_on__gte=date(2026, 1, 2))
    for reader in (AnonymousUser(), keeper, sitter, other, staff):
        expected = set(some.filter(pk__in=selectors.visible_records(reader).values("pk")).values_list("pk", flat=True))
        assert set(selectors.only_visible(some, reader).values_list("pk", flat=True)) == expected
        assert selectors.only_visible(some, reader).count() == len(expected)  # no row twice
    assert selectors.only_visible(some, other).count() == 1 and selectors.only_visible(some, staff).count() == 3
