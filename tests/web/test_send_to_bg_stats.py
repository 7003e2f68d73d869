"""A finished game's page links to BG Stats' import of the play (its documented createPlay link):
the game with its BGG id, the date, the length, each player with their score, place, whether they
won and who started; a game still being played has no such link."""

from __future__ import annotations

import html
import json
import re
from datetime import date
from urllib.parse import unquote

import pytest
from django.test import Client

from games.models import CatalogueRecord
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game
from scoring import tasks
from tests.factories import result_game, seeded_record

pytestmark = pytest.mark.django_db


def link_on(page: str) -> str | None:
    found = re.search(r'<a href="([^"]+)" data-testid="send-to-bg-stats"', page)
    return html.unescape(found.group(1)) if found else None


def test_a_finished_result_is_sent_to_bg_stats_with_its_players_scores_and_places():
    azul = CatalogueRecord.objects.create(title="Azul", bgg_id=230802)
    record = result_game({"Élif": 52, "David": 61}, date(2026, 11, 28), game="azul", catalogue_record=azul,
                         duration_minutes=35, location="Café Meeple")
    tasks.score_record(record.pk)
    link = link_on(Client().get(f"/games/{record.pk}/").content.decode())
    assert link and link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(unquote(link.split("data=", 1)[1]))
    assert (data["game"]["bggId"], data["game"]["name"], data["playDate"], data["durationMin"], data["location"]) == (
        230802, "Azul", "2026-11-28 00:00:00", 35, "Café Meeple")
    assert [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"]) for p in data["players"]] == [
        ("Élif", 52, 2, False, True), ("David", 61, 1, True, False)]


def test_a_result_by_places_is_sent_without_points():
    record = start_game(game_slug="codenames", seats=[SeatSpec("Ada"), SeatSpec("Bo")], result_only=True)
    append_event(record, 0, "result", {"scores": [{"seat": 0, "rank": 2}, {"seat": 1, "rank": 1}]})
    tasks.score_record(record.pk)
    data = json.loads(unquote(link_on(Client().get(f"/games/{record.pk}/").content.decode()).split("data=", 1)[1]))
    assert data["game"]["noPoints"] is True
    assert [(p["name"], "score" in p, p["rank"], p["winner"]) for p in data["players"]] == [
        ("Ada", False, 2, False), ("Bo", False, 1, True)]


def test_a_game_still_being_played_has_no_link():
    record = seeded_record(2, 1)
    assert record.status == GameRecord.Status.IN_PROGRESS
    assert link_on(Client().get(f"/games/{record.pk}/").content.decode()) is None
