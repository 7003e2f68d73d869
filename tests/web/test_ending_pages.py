"""The recorder's ending, as the pages show it: the last move waits for "end the game and score
it?", a game ended early or abandoned from the recorder, and the end screen that names the
winner (or the winners of a shared first place), shows the final scoring and says it once."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games.registry import get_engine
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game
from tests.factories import HG, simulated_document, simulated_events

pytestmark = pytest.mark.django_db


def post(client: Client, record: GameRecord, seq: int, kind: str, payload: dict) -> dict:
    response = client.post(f"/scorekeeping/{record.pk}/table/", json.dumps(
        {"expected_seq": seq, "type": kind, "payload": payload}), content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()["table"]


def test_the_last_move_at_the_table_asks_to_end_the_game_and_can_be_taken_back(keeper_client: Client, keeper):
    record = start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=3, created_by=keeper)
    events = simulated_events(2, 3)
    for index, (kind, payload) in enumerate(events[:-1]):
        append_event(record, index, kind, dict(payload), recorded_by=keeper)
    kind, payload = events[-1]
    table = post(keeper_client, record, len(events) - 1, kind, dict(payload))
    assert table["status"] == "in_progress" and table["over"] and table["awaiting_end"]
    html = keeper_client.get(f"/scorekeeping/{record.pk}/").content.decode()
    assert "The last move ends the game." in html and 'data-testid="undo"' in html
    table = post(keeper_client, record, len(events), "undo", {})
    assert not table["over"] and not table["awaiting_end"] and table["options"]["spots"]
    table = post(keeper_client, record, len(events) + 1, kind, dict(payload))
    table = post(keeper_client, record, len(events) + 2, "end_game", {"reason": "complete"})
    assert table["status"] == "finished" and table["ending"]["winners"]
    assert table["lines"][-1]["text"] == "The game is ended and scored"


def end_screen(client: Client, record: GameRecord) -> str:
    response = client.get(f"/scorekeeping/{record.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_end_screen_names_the_winner_shows_the_final_scoring_and_says_it_once(keeper_client: Client, keeper):
    record = start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=3, created_by=keeper)
    for index, (kind, payload) in enumerate(simulated_events(2, 3)):
        append_event(record, index, kind, dict(payload), recorded_by=keeper)
    engine = get_engine(HG)
    state = engine.new_state(2, 3)
    for kind, payload in simulated_events(2, 3):
        engine.apply(state, kind, payload)
    finals = engine.final_scores(state)
    names = ["Ada", "Bo"]
    winners = [names[final.seat] for final in finals if final.rank == 1]
    html = end_screen(keeper_client, record)
    assert 'data-testid="end-screen"' in html
    headline = re.search(r'data-testid="winners">(.*?)</span>', html)[1]
    expected = f"{winners[0]} wins." if len(winners) == 1 else f"{' and '.join(winners)} share the win."
    assert headline == expected
    assert html.count("The game is over.") == 1
    assert "The final scoring, feature by feature" in html and 'id="end-ranking"' in html
    for final in finals:
        assert re.search(rf'<tr data-seat="{final.seat}"[^>]*><td class="number">{final.rank}</td>.*?'
                         rf'<td class="number">{final.score}</td></tr>', html, re.S)
    french = keeper_client.get(f"/scorekeeping/{record.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert french.count("La partie est terminée.") == 1 and "Le décompte final" in french


def test_a_shared_first_place_names_every_winner(keeper_client: Client, keeper):
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=None,
                        created_by=keeper)
    post(keeper_client, record, 0, "end_game", {"reason": "missing_tile"})  # nobody scored: a tie at 0
    html = end_screen(keeper_client, record)
    assert "Ada and Bo share the win." in html
    assert "Ended early: a tile was missing from the box." in html


def test_an_unseeded_tile_game_may_end_for_a_missing_tile_a_seeded_one_may_not(keeper_client: Client, keeper):
    unseeded = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=None,
                          created_by=keeper)
    played = simulated_document("carcassonne", 2, 6)["events"][:6]
    for index, event in enumerate(played):
        table = post(keeper_client, unseeded, index, event["type"], event["payload"])
    assert table["can_end_early"] is True
    html = end_screen(keeper_client, unseeded)
    assert 'data-testid="end-missing-tile"' in html and 'data-testid="end-abandon"' in html
    seeded = start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=3, created_by=keeper)
    state = keeper_client.get(f"/scorekeeping/{seeded.pk}/table/").json()
    assert state["can_end_early"] is False
    refused = keeper_client.post(f"/scorekeeping/{seeded.pk}/table/", json.dumps(
        {"expected_seq": 0, "type": "end_game", "payload": {"reason": "missing_tile"}}), content_type="application/json")
    assert refused.status_code == 422 and refused.json()["reason"] == "cannot_end"


def test_an_abandoned_game_is_shown_as_abandoned_with_its_reason_and_no_winner(keeper_client: Client, keeper):
    record = start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=3, created_by=keeper)
    kind, payload = simulated_events(2, 3)[0]
    post(keeper_client, record, 0, kind, dict(payload))
    table = post(keeper_client, record, 1, "abandon", {"reason": "the café closed"})
    assert table["status"] == "abandoned" and table["ending"] == {"abandoned": True, "reason": "the café closed"}
    html = end_screen(keeper_client, record)
    assert "Game abandoned" in html and "Reason: the café closed" in html
    assert 'data-testid="winners"' not in html and "The game is over." not in html
    assert "counts for nothing" in html
    french = keeper_client.get(f"/scorekeeping/{record.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Partie abandonnée" in french
