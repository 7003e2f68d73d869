"""Merging a duplicate player: seats, results, leagues, statistics and ratings follow; events stay."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from records.errors import PlayersCannotMerge
from records.models import Event, Player, Seat
from records.players import merge_players
from scoring import ratings, standings, statistics
from scoring.models import PlayerStatistics, Rating, RatingChange, SeatResult, Standing
from tests.factories import result_game
from tests.scoring.test_leagues import EXPECTED_TABLE, LEAGUE_GAMES, make_league, play_and_score, table

pytestmark = pytest.mark.django_db(transaction=True)


def projections() -> dict[str, list]:
    return {
        "standings": sorted(Standing.objects.values_list("league_id", "player__display_name", "position", "games",
                                                          "points"), key=repr),
        "ratings": sorted(((r.player.display_name, r.game_slug, r.club_id, round(r.mu, 9), round(r.sigma, 9), r.games)
                           for r in Rating.objects.select_related("player")), key=repr),
        "history": RatingChange.objects.count(),
        "statistics": sorted(PlayerStatistics.objects.values_list("player__display_name", "game_slug", "games",
                                                                  "wins"), key=repr),
    }


def test_a_typo_player_merged_back_brings_his_games_into_the_league_and_ratings(celery_eager):
    """Ada's games G1 and G3 were entered under "Adda": the league did not count them (Adda is
    no member) until the merge; then the table is the hand-made league's again."""
    league = make_league()
    typo = [(day, {("Adda" if name == "Ada" else name): score for name, score in scores.items()})
            for day, scores in LEAGUE_GAMES[:3]]
    play_and_score(typo + LEAGUE_GAMES[3:])
    assert table(league) != EXPECTED_TABLE
    adda, ada = Player.objects.get(display_name="Adda"), Player.objects.get(display_name="Ada")
    events_before = list(Event.objects.order_by("pk").values_list("pk", "record_id", "seq", "type", "payload"))

    moved = merge_players(ada, adda)

    assert len(moved) == 2 and not Player.objects.filter(display_name="Adda").exists()
    assert Seat.objects.filter(player=ada).count() == 4 and SeatResult.objects.filter(player=ada).count() == 4
    assert list(Event.objects.order_by("pk").values_list("pk", "record_id", "seq", "type", "payload")) == events_before
    assert table(league) == EXPECTED_TABLE
    merged = projections()
    statistics.rebuild()
    standings.rebuild()
    ratings.rebuild()
    assert projections() == merged, "the merge leaves what a rebuild from the events gives"


def test_players_who_sat_at_one_table_or_each_have_a_login_are_not_merged(celery_eager):
    record = result_game({"Ada": 10, "Bo": 8}, date(2026, 3, 2))
    ada, bo = Player.objects.get(display_name="Ada"), Player.objects.get(display_name="Bo")
    with pytest.raises(PlayersCannotMerge, match=f"both sat at game\\(s\\) {record.pk}"):
        merge_players(ada, bo)
    Player.objects.create(display_name="Cy", user=User.objects.create_user("cy"))
    Player.objects.create(display_name="Cyril", user=User.objects.create_user("cyril"))
    with pytest.raises(PlayersCannotMerge, match="each have their own login"):
        merge_players(Player.objects.get(display_name="Cy"), Player.objects.get(display_name="Cyril"))
    assert Player.objects.count() == 4 and SeatResult.objects.filter(player=bo).count() == 1


def test_the_command_and_the_admin_action(client, celery_eager):
    result_game({"Ada": 10, "Bo": 8}, date(2026, 3, 2))
    result_game({"Adda": 3, "Bo": 8}, date(2026, 3, 9))
    out = io.StringIO()
    call_command("merge_players", "Ada", "Adda", stdout=out)
    assert out.getvalue().strip() == "Adda merged into Ada: 1 game(s) moved"
    with pytest.raises(CommandError, match="no player 'Zed'"):
        call_command("merge_players", "Ada", "Zed")

    result_game({"Bob": 4, "Ada": 1}, date(2026, 3, 16))
    bob = Player.objects.get(display_name="Bob")
    bob.user = User.objects.create_user("bob")
    bob.save()
    staff = User.objects.create_superuser("boss", password="pw")
    client.force_login(staff)
    ids = list(Player.objects.filter(display_name__in=["Bo", "Bob"]).values_list("pk", flat=True))
    client.post("/admin/records/player/", {"action": "merge", "_selected_action": ids}, follow=True)
    # Bob has the login, so Bob is kept although Bo has more games.
    assert list(Player.objects.filter(display_name__in=["Bo", "Bob"]).values_list("display_name", flat=True)) == ["Bob"]
    assert Seat.objects.filter(player__display_name="Bob").count() == 3
