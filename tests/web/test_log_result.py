"""Logging the result of any game (/scorekeeping/result/): a result-only record made through the
same services as any other, with its catalogue record, copy, date, duration and place; the players
found whatever their spelling; who won from the scores or as the table said; friendly games out of
the league; a refusal says why next to the form and stores nothing."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from games.models import CatalogueRecord, Copy
from records.models import Event, GameRecord, Player
from scoring import standings
from scoring.models import Club, CopyUsage, League, LeagueMembership, PlayerStatistics, Standing

pytestmark = pytest.mark.django_db(transaction=True)

PLAYED_ON = date(2026, 11, 28)


@pytest.fixture
def club(celery_eager):
    """A club whose autumn league counts every game; Azul on the shelf (one copy); David and Élif."""
    david = User.objects.create_user("david")
    league = League.objects.create(club=Club.objects.create(name="Les Meeples"), name="Autumn", game_slugs=[],
                                   starts_on=date(2026, 9, 1), ends_on=date(2026, 12, 31), points_table={"2": [3, 1]})
    for name, user in (("David", david), ("Élif", None)):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name, user=user))
    azul = CatalogueRecord.objects.create(title="Azul", min_players=2, max_players=4)
    copy = Copy.objects.create(record=azul, barcode="LUD-0042")
    client = Client()
    client.force_login(david)
    return {"client": client, "league": league, "azul": azul, "copy": copy, "david": david}


def form(**fields) -> dict:
    data = {"played_on": PLAYED_ON.isoformat(), "player_1": "david", "score_1": "61", "player_2": "ELIF",
            "score_2": "52"}
    data.update({key: str(value) for key, value in fields.items()})
    return data


def test_a_result_is_a_result_only_record_with_its_box_and_counts_in_the_league(club):
    answer = club["client"].post("/scorekeeping/result/", form(title="azul", copy=club["copy"].pk,
                                                               duration_minutes=35, location="Café Meeple"))
    record = GameRecord.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{record.pk}/"
    assert (record.result_only, record.status, record.catalogue_record, record.copy, record.game_slug) == (
        True, GameRecord.Status.FINISHED, club["azul"], club["copy"], "azul")
    assert (record.played_on, record.duration_minutes, record.location, record.is_friendly) == (
        PLAYED_ON, 35, "Café Meeple", False)
    assert [seat.player.display_name for seat in record.seats.order_by("seat_order")] == ["David", "Élif"]
    event = Event.objects.get(record=record)
    assert (event.type, event.payload, event.recorded_by) == (
        "result", {"scores": [{"seat": 0, "score": 61, "rank": 1}, {"seat": 1, "score": 52, "rank": 2}]}, club["david"])
    # Scored on commit, as in production: the league, the player's figures, the copy's plays.
    assert standings.league_records(club["league"]).filter(pk=record.pk).exists()
    david = Standing.objects.get(league=club["league"], player__display_name="David")
    assert (david.games, david.points) == (1, 3)
    assert PlayerStatistics.objects.get(player__display_name="David", game_slug="azul").wins == 1
    assert CopyUsage.objects.get(copy=club["copy"]).times_played == 1
    page = club["client"].get(answer["Location"])
    assert "Azul" in page.content.decode()


def test_a_friendly_game_counts_for_no_league(club):
    club["client"].post("/scorekeeping/result/", form(recent="", title="Azul", is_friendly="on"))
    record = GameRecord.objects.get()
    assert record.is_friendly
    assert not standings.league_records(club["league"]).exists()
    assert not Standing.objects.filter(league=club["league"], games__gt=0).exists()


def test_who_won_follows_the_scores_or_what_the_table_said(club):
    client = club["client"]
    client.post("/scorekeeping/result/", form(title="Azul", score_1=40, score_2=40))
    client.post("/scorekeeping/result/", form(title="Azul", score_1=40, score_2=45, won_1="on"))
    client.post("/scorekeeping/result/", form(title="Azul", score_1=12, score_2=20, lowest_wins="on"))
    ranks = [[line["rank"] for line in event.payload["scores"]] for event in Event.objects.order_by("record_id")]
    assert ranks == [[1, 1], [1, 2], [1, 2]]


def test_a_title_the_catalogue_lacks_is_added_once_its_box_is_ticked(club):
    client = club["client"]
    refused = client.post("/scorekeeping/result/", form(title="Cascadia"))
    assert refused.status_code == 400
    assert "“Cascadia” is not in the catalogue yet." in refused.content.decode()
    assert 'data-testid="new-title"' in refused.content.decode()
    assert not GameRecord.objects.exists() and not CatalogueRecord.objects.filter(title="Cascadia").exists()
    client.post("/scorekeeping/result/", form(title="Cascadia", new_title="Cascadia"))
    added = CatalogueRecord.objects.get(title="Cascadia")
    assert added.added_with_a_result and GameRecord.objects.get().catalogue_record == added


@pytest.mark.parametrize("fields, field, reason", [
    ({"title": "Azul", "score_2": ""}, "score_2", "Give ELIF's score, or no score at all."),
    ({"title": ""}, "title", "Choose the game, or type its title."),
    ({"title": "Azul", "player_2": "Zoé"}, "player_2", "No player called “Zoé” yet."),
    ({"title": "Azul", "player_2": "David"}, "player_2", "Each player can be listed only once."),
    ({"title": "Azul", "player_3": "", "score_3": "7"}, "player_3", "Whose score is this?"),
    ({"title": "Azul", "score_1": "10000000"}, "score_1", "Ensure this value is less than or equal to 1000000."),
])
def test_a_result_refused_says_why_and_stores_nothing(club, fields, field, reason):
    answer = club["client"].post("/scorekeeping/result/", form(**fields))
    assert answer.status_code == 400
    assert reason in answer.context["form"].errors[field]
    assert escape(reason) in answer.content.decode()
    assert not GameRecord.objects.exists() and not Event.objects.exists()


def test_a_copy_of_another_game_is_refused(club):
    other = Copy.objects.create(record=CatalogueRecord.objects.create(title="Cascadia"), barcode="LUD-0043")
    answer = club["client"].post("/scorekeeping/result/", form(title="Azul", copy=other.pk))
    assert answer.status_code == 400
    assert "This copy is a box of Cascadia, not of Azul." in answer.content.decode()
    assert not GameRecord.objects.exists()


def test_the_club_s_recent_games_are_one_tap_away(club):
    club["client"].post("/scorekeeping/result/", form(title="Azul"))
    page = club["client"].get("/scorekeeping/result/")
    assert page.context["form"].recent_games == [club["azul"]]
    club["client"].post("/scorekeeping/result/", form(recent=club["azul"].pk))
    assert GameRecord.objects.filter(catalogue_record=club["azul"]).count() == 2


def test_the_page_needs_an_account():
    assert Client().get("/scorekeeping/result/").status_code == 302


def test_a_result_corrected_on_its_page_says_whose_rating_and_standing_moved(club):
    client = club["client"]
    client.post("/scorekeeping/result/", form(title="Azul"))
    client.post("/scorekeeping/result/", form(title="Azul", score_1=40, score_2=45))
    record = GameRecord.objects.order_by("pk").first()
    page = client.get(f"/games/{record.pk}/")
    assert 'data-testid="correct-result"' in page.content.decode()
    refused = client.post(f"/games/{record.pk}/correct/", {"score_0": 52, "score_1": 61})
    assert refused.status_code == 400 and "reason" in refused.context["correction_form"].errors
    assert Event.objects.filter(record=record).count() == 1
    answer = client.post(f"/games/{record.pk}/correct/", {"score_0": 52, "score_1": 61, "reason": "scores swapped"})
    assert answer.status_code == 302
    assert list(Event.objects.filter(record=record).values_list("type", flat=True)) == ["result", "correct_result"]
    shown = client.get(f"/games/{record.pk}/").content.decode()
    assert 'data-testid="impacts"' in shown and "scores swapped" in shown
    assert 'data-testid="impact-line" data-player="David"' in shown
    assert Standing.objects.get(league=club["league"], player__display_name="David").points == 2


def test_only_those_tied_to_a_result_correct_it(club):
    club["client"].post("/scorekeeping/result/", form(title="Azul"))
    record = GameRecord.objects.get()
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    answer = stranger.post(f"/games/{record.pk}/correct/", {"score_0": 1, "score_1": 2, "reason": "mine"})
    assert answer.status_code in (403, 404)
    assert Event.objects.filter(record=record).count() == 1


def test_a_league_of_games_recorded_move_by_move_leaves_logged_results_out(club):
    league = club["league"]
    league.record_kinds = League.RecordKinds.ENGINE
    league.save()
    club["client"].post("/scorekeeping/result/", form(title="Azul"))
    record = GameRecord.objects.get()
    assert not standings.league_candidates(league).filter(pk=record.pk).exists()
    assert league not in standings.leagues_of(record)
    page = club["client"].get(f"/leagues/{league.pk}/").content.decode()
    assert "Games recorded move by move only" in page and "OpenSkill" in page


def test_the_players_page_shows_head_to_head_h_index_and_streaks(club):
    client = club["client"]
    for david, elif_ in ((61, 52), (40, 45), (70, 20), (33, 33)):
        client.post("/scorekeeping/result/", form(title="Azul", score_1=david, score_2=elif_))
    page = client.get(f"/players/{Player.objects.get(display_name='David').pk}/")
    figures = page.context
    line = figures["head_to_head"][0]
    # David against Élif: ahead in the first and third, behind in the second, tied in the fourth.
    assert (line["opponent"].display_name, line["line"].games, line["line"].ahead, line["line"].behind,
            line["line"].tied) == ("Élif", 4, 2, 1, 1)
    assert figures["h_index"] == 1  # one game (Azul), played at least once
    assert (figures["streaks"].longest, figures["streaks"].current) == (2, 2)  # won the 3rd and shared the 4th
    assert 'id="head-to-head"' in page.content.decode()


def test_a_librarian_finds_the_titles_added_with_a_result(club):
    club["client"].post("/scorekeeping/result/", form(title="Cascadia", new_title="Cascadia"))
    librarian = Client()
    librarian.force_login(User.objects.create_superuser("librarian", "lib@example.org", "pw-librarian-123"))
    listed = librarian.get("/admin/games/cataloguerecord/?added_with_a_result__exact=1")
    assert listed.status_code == 200
    assert [record.title for record in listed.context["cl"].result_list] == ["Cascadia"]


def test_a_title_two_records_share_is_never_picked_silently(club):
    from games.models import Publisher

    club["azul"].publisher, club["azul"].publication_year = Publisher.objects.create(name="Plan B"), 2017
    club["azul"].save()
    other = CatalogueRecord.objects.create(title="AZUL", publication_year=2022)
    client = club["client"]
    offered = client.get("/scorekeeping/result/").content.decode()
    assert f'label="Azul — Plan B, 2017 (n° {club["azul"].pk})"' in offered
    asked = client.post("/scorekeeping/result/", form(title="azul"))
    text = asked.content.decode()
    assert asked.status_code == 400 and not GameRecord.objects.exists()
    assert "Several games of the catalogue are called “azul”: which one?" in text
    assert f'value="{club["azul"].pk}"' in text and f"AZUL — 2022 (n° {other.pk})" in text
    client.post("/scorekeeping/result/", form(title="azul", record=other.pk))
    assert GameRecord.objects.get().catalogue_record == other
